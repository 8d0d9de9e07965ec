//! How the tenants of a fair queue show: a tenant as a table row (backlog, in flight, its share,
//! oldest age, noisy or quiet) or a line of text, and the queue-wide figures as a totals table.

use crate::diagnose::finding::human_seconds;
use crate::diagnose::tenants::{NOISY_MIN_IN_FLIGHT, TenantLayout, TenantRow};
use crate::output::document::rows_table;
use crate::output::{Column, Row, Table, pairs_table};

fn noisy_cell(noisy: Option<bool>) -> &'static str {
    match noisy {
        Some(true) => "noisy",
        Some(false) => "quiet",
        None => "-",
    }
}

impl Row for TenantRow {
    const KIND: &'static str = "tenant";

    fn columns() -> Vec<Column> {
        vec![
            Column::id("tenant"),
            Column::whole("visible"),
            Column::whole("in flight"),
            Column::whole("share").droppable(2),
            Column::whole("oldest").droppable(1),
            Column::whole("noisy"),
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.tenant.clone(),
            self.visible.to_string(),
            self.in_flight.map_or("-".into(), |n| n.to_string()),
            self.in_flight_share_percent
                .map_or("-".into(), |p| format!("{p}%")),
            self.oldest_age_seconds.map_or("-".into(), human_seconds),
            noisy_cell(self.noisy).to_string(),
        ]
    }

    /// Tenant, visible, in flight, share of in flight (percent) and noisy/quiet (`-` unknown).
    fn fields(&self) -> Vec<String> {
        vec![
            self.tenant.clone(),
            self.visible.to_string(),
            self.in_flight.map_or("-".into(), |n| n.to_string()),
            self.in_flight_share_percent
                .map_or("-".into(), |p| p.to_string()),
            noisy_cell(self.noisy).to_string(),
        ]
    }
}

/// The tenants (at most `limit`), and a row for those left out.
pub fn tenants_table(layout: &TenantLayout, limit: usize) -> Table {
    let shown = &layout.tenants[..limit.min(layout.tenants.len())];
    let mut table = rows_table(shown);
    let hidden = layout.tenants.len().saturating_sub(limit);
    if hidden > 0 {
        table.row(vec![format!("({hidden} more tenants: --limit or -o json)")]);
    }
    table
}

pub fn tenant_totals_table(layout: &TenantLayout) -> Table {
    let totals = &layout.totals;
    let mut rows: Vec<(String, String)> = vec![
        (
            "tenants".into(),
            format!(
                "{}{}",
                totals.tenants,
                if totals.truncated { "+" } else { "" }
            ),
        ),
        ("visible".into(), totals.visible.to_string()),
        ("in flight".into(), totals.in_flight.to_string()),
    ];
    if totals.ungrouped > 0 {
        rows.push((
            "without a group id".into(),
            format!("{} (each a tenant of its own)", totals.ungrouped),
        ));
    }
    rows.push((
        "noisy now".into(),
        match (totals.exact, totals.noisy.is_empty()) {
            (false, _) => "unknown (in flight per tenant is not visible)".into(),
            (true, true) => {
                format!("none (noisy: over 10% of in flight and {NOISY_MIN_IN_FLIGHT}+)")
            }
            (true, false) => totals.noisy.join(", "),
        },
    ));
    pairs_table("totals", "", rows)
}
