//! "Did you mean": the queue names close to one that does not exist.

/// Most queue names a suggestion lists.
pub const MAX_SUGGESTIONS: usize = 3;

/// Names close to `wanted`: the same name with or without `.fifo`, a small edit distance relative
/// to the names' length, or one containing the other when it is most of it. Closest first. A
/// one-letter queue is not "similar" to every name that contains its letter.
pub fn similar_names(wanted: &str, names: &[String]) -> Vec<String> {
    let wanted_stem = stem(wanted);
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .filter_map(|name| {
            let name_stem = stem(name);
            let distance = edit_distance(&wanted_stem, &name_stem);
            let longest = wanted_stem.chars().count().max(name_stem.chars().count());
            let shortest = wanted_stem.chars().count().min(name_stem.chars().count());
            // At most a third of the longer name changed, and never more than 4 edits.
            let close = distance * 3 <= longest && distance <= 4;
            let contained = (name_stem.contains(&wanted_stem) || wanted_stem.contains(&name_stem))
                && shortest >= 3
                && shortest * 2 >= longest;
            (close || contained).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, name)| name.clone())
        .collect()
}

/// The name as compared: lower case, without the `.fifo` a user often forgets.
fn stem(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    lower.strip_suffix(".fifo").unwrap_or(&lower).to_string()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_catch_typos_and_missing_fifo_suffix() {
        let names: Vec<String> = ["orders", "orders-dlq", "jobs.fifo", "payments"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(similar_names("ordres", &names)[0], "orders");
        assert_eq!(similar_names("jobs", &names), vec!["jobs.fifo".to_string()]);
        assert!(similar_names("zzzzzz", &names).is_empty());
        assert_eq!(similar_names("orders-dl", &names)[0], "orders-dlq");
    }

    #[test]
    fn similar_names_leave_out_short_names_that_merely_share_letters() {
        let names: Vec<String> = ["q", "a", "orders", "orders-dlq", "dlq"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            similar_names("ordres-dlq", &names),
            vec!["orders-dlq".to_string()]
        );
        assert!(similar_names("x", &names).is_empty());
    }
}
