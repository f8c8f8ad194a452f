//! Every activity of the instance exactly once, and nothing else.

use std::collections::{HashMap, HashSet};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;

use crate::{Rule, Violation};

/// Entries naming an activity the instance does not have.
pub fn unknown_activities(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    out: &mut Vec<Violation>,
) {
    let known: HashSet<&str> = instance.activities.iter().map(|a| a.id.as_str()).collect();
    for entry in schedule
        .iter()
        .filter(|e| !known.contains(e.activity.as_str()))
    {
        let id = &entry.activity;
        let hint = match closest(id, known.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? Otherwise remove `{id}` from the plan"),
            None => format!("remove `{id}` from the plan; it is not part of this instance"),
        };
        out.push(Violation::new(
            Rule::UnknownActivity,
            vec![id.clone()],
            entry.start(),
            format!(
                "the plan schedules `{id}`, which is not an activity of instance `{}`",
                instance.name
            ),
            hint,
        ));
    }
}

/// Activities of the instance that the plan never schedules.
pub fn missing_activities(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    out: &mut Vec<Violation>,
) {
    let planned: HashSet<&str> = schedule.iter().map(|e| e.activity.as_str()).collect();
    for a in instance
        .activities
        .iter()
        .filter(|a| !planned.contains(a.id.as_str()))
    {
        let before: Vec<String> = instance
            .precedences
            .iter()
            .filter(|p| p.after == a.id)
            .map(|p| format!("`{}`", p.before))
            .collect();
        let after_whom = if before.is_empty() {
            String::new()
        } else {
            format!(" after {}", before.join(", "))
        };
        out.push(Violation::new(
            Rule::MissingActivity,
            vec![a.id.clone()],
            None,
            format!("`{}` (duration {}) is never scheduled", a.id, a.duration),
            format!("schedule `{}`{after_whom}", a.id),
        ));
    }
}

/// Activities scheduled more than once; only their first entry is checked by the timing
/// rules, so one violation per activity names where the extra entries start.
pub fn duplicate_activities(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    out: &mut Vec<Violation>,
) {
    let known: HashSet<&str> = instance.activities.iter().map(|a| a.id.as_str()).collect();
    let mut entries: HashMap<&str, Vec<&ScheduledActivity>> = HashMap::new();
    let mut order = Vec::new();
    for e in schedule
        .iter()
        .filter(|e| known.contains(e.activity.as_str()))
    {
        let list = entries.entry(e.activity.as_str()).or_default();
        if list.len() == 1 {
            order.push(e.activity.as_str());
        }
        list.push(e);
    }
    for id in order {
        let list = &entries[id];
        let starts: Vec<String> = list
            .iter()
            .map(|e| {
                e.start()
                    .map_or("nowhere".to_string(), |s| format!("at {s}"))
            })
            .collect();
        out.push(Violation::new(
            Rule::DuplicateActivity,
            vec![id.to_string()],
            list[1].start(),
            format!(
                "`{id}` is scheduled {} times ({}); it must run exactly once",
                list.len(),
                starts.join(", ")
            ),
            format!("keep one entry of `{id}` and remove the others (only the first is checked)"),
        ));
    }
}

/// The known id nearest to `id` by edit distance, if it is close enough to be a typo.
fn closest<'a>(id: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (id.chars().count() / 3).clamp(1, 3);
    known
        .map(|k| (edit_distance(id, k), k))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use crate::testkit::{at, instance, rules};
    use crate::{verify, Rule};

    #[test]
    fn unknown_activity_is_reported_with_a_suggestion() {
        let inst = instance(Some(1), &[("subtask1", 2)], &[]);
        let report = verify(
            &inst,
            &[at("subtask1", Some(0), 0, 2), at("subtsk1", Some(0), 2, 2)],
        );
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!(v.rule, Rule::UnknownActivity);
        assert!(v.hint.contains("did you mean `subtask1`"), "{}", v.hint);
    }

    #[test]
    fn missing_activity_is_reported_naming_its_predecessors() {
        let inst = instance(Some(1), &[("a", 2), ("b", 1)], &[("a", "b", 0)]);
        let report = verify(&inst, &[at("a", Some(0), 0, 2)]);
        assert_eq!(report.violations.len(), 1);
        assert_eq!(report.violations[0].rule, Rule::MissingActivity);
        assert_eq!(report.violations[0].hint, "schedule `b` after `a`");
    }

    #[test]
    fn duplicate_activity_is_reported_once_per_activity() {
        let inst = instance(Some(2), &[("a", 2)], &[]);
        let plan = [
            at("a", Some(0), 0, 2),
            at("a", Some(1), 0, 2),
            at("a", Some(1), 5, 2),
        ];
        let report = verify(&inst, &plan);
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        assert_eq!(report.violations[0].rule, Rule::DuplicateActivity);
        assert!(report.violations[0].message.contains("3 times"));
    }

    #[test]
    fn every_activity_once_is_clean() {
        let inst = instance(None, &[("a", 2), ("b", 1)], &[]);
        assert!(rules(&inst, &[at("a", None, 0, 2), at("b", None, 0, 1)]).is_empty());
    }
}
