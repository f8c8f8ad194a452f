//! Time windows of single activities: release times and deadlines.

use crate::placed::Placements;
use crate::{Rule, Violation};

/// The first piece may not start before the release time.
pub fn release(placements: &Placements, out: &mut Vec<Violation>) {
    for p in &placements.all {
        let Some(release) = p.activity.release.filter(|&r| p.start() < r) else {
            continue;
        };
        out.push(Violation::new(
            Rule::ReleaseViolated,
            vec![p.id().to_string()],
            Some(p.start()),
            format!(
                "`{}` starts at {}, before its release time {release}",
                p.id(),
                p.start()
            ),
            format!("start `{}` at {release} or later", p.id()),
        ));
    }
}

/// The last piece must end by the deadline.
pub fn deadline(placements: &Placements, out: &mut Vec<Violation>) {
    for p in &placements.all {
        let Some(deadline) = p.activity.deadline.filter(|&d| p.end() > d) else {
            continue;
        };
        let latest_start = deadline.saturating_sub(p.activity.duration);
        out.push(Violation::new(
            Rule::DeadlineViolated,
            vec![p.id().to_string()],
            Some(p.end()),
            format!(
                "`{}` ends at {}, after its deadline {deadline}",
                p.id(),
                p.end()
            ),
            format!(
                "finish `{}` by {deadline} (start it by {latest_start} if it runs in one piece)",
                p.id()
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, rules};
    use crate::Rule;

    #[test]
    fn start_before_release_is_reported() {
        let mut inst = instance(None, &[("a", 2)], &[]);
        inst.activities[0].release = Some(3);
        assert_valid(&inst, &[at("a", None, 3, 2)]);
        assert_eq!(
            rules(&inst, &[at("a", None, 2, 2)]),
            [Rule::ReleaseViolated]
        );
    }

    #[test]
    fn end_after_deadline_is_reported() {
        let mut inst = instance(None, &[("a", 2)], &[]);
        inst.activities[0].deadline = Some(5);
        assert_valid(&inst, &[at("a", None, 3, 2)]);
        assert_eq!(
            rules(&inst, &[at("a", None, 4, 2)]),
            [Rule::DeadlineViolated]
        );
    }
}
