//! Second deliveries: a standard queue delivers at least once, so SQS may hand the run a message
//! it is already moving (a second receipt handle while the first is held) or has moved (a copy the
//! delete missed). [`Deliveries`] remembers what the run took on, so that such a *twin* is never
//! sent again: it waits for the first delivery's outcome and is deleted with its own handle once
//! the first is deleted, or forgotten when the first stays in the DLQ (whose release makes the
//! message visible again; a copy SQS still holds comes back by itself when its timeout ends).

use std::collections::HashMap;

use crate::redrive::ids::IdLog;

/// What the run took on, by message id: in the work now, or deleted from the DLQ by this run.
#[derive(Debug, Default)]
pub(super) struct Deliveries {
    /// Taken on and not settled yet, with the receipt handles of the twins that came meanwhile.
    working: HashMap<String, Vec<String>>,
    /// Deleted from the DLQ by this run (moved, or completed from the journal).
    deleted: IdLog,
}

/// What to do with a second delivery.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Twin {
    /// The first is still in the work: its handle waits with it (see [`Deliveries::deleted`]).
    Waiting,
    /// The first was deleted already: delete this copy too.
    Deleted,
}

impl Deliveries {
    /// A delivery of `id` with receipt handle `handle`: `Some` when it is a twin of a message the
    /// run took on (a waiting one keeps its handle), `None` otherwise. With `take`, a first
    /// delivery is taken on in the same step, so that two workers receiving one message at once
    /// cannot both take it.
    pub(super) fn delivered(&mut self, id: &str, handle: &str, take: bool) -> Option<Twin> {
        if let Some(twins) = self.working.get_mut(id) {
            twins.push(handle.to_string());
            return Some(Twin::Waiting);
        }
        if self.deleted.contains(id) {
            return Some(Twin::Deleted);
        }
        if take {
            self.working.insert(id.to_string(), Vec::new());
        }
        None
    }

    /// The first delivery of `id` was deleted from the DLQ: returns the handles of its twins,
    /// which delete what is left of it.
    pub(super) fn deleted(&mut self, id: &str) -> Vec<String> {
        self.deleted.insert(id);
        self.working.remove(id).unwrap_or_default()
    }

    /// The first delivery of `id` stays in the DLQ (not sent, not deleted, or given back): its
    /// twins are forgotten, and a later delivery is looked at afresh.
    pub(super) fn given_back(&mut self, id: &str) {
        self.working.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_waits_for_the_first_delivery_and_is_deleted_after_it() {
        let mut deliveries = Deliveries::default();
        assert_eq!(deliveries.delivered("a", "h1", true), None);
        assert_eq!(deliveries.delivered("a", "h2", true), Some(Twin::Waiting));
        assert_eq!(deliveries.deleted("a"), vec!["h2".to_string()]);
        assert_eq!(deliveries.delivered("a", "h3", true), Some(Twin::Deleted));
    }

    #[test]
    fn a_message_given_back_is_looked_at_afresh() {
        let mut deliveries = Deliveries::default();
        assert_eq!(deliveries.delivered("a", "h1", true), None);
        assert_eq!(deliveries.delivered("a", "h2", false), Some(Twin::Waiting));
        deliveries.given_back("a");
        assert_eq!(deliveries.delivered("a", "h3", false), None);
        assert_eq!(deliveries.delivered("a", "h3", true), None);
        assert_eq!(deliveries.delivered("a", "h4", true), Some(Twin::Waiting));
    }
}
