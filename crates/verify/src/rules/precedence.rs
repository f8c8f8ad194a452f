//! Precedences with minimum and maximum lags, measured from the predecessor's end
//! (finish-to-start) or start (start-to-start) to the successor's start.

use makespan_model::instance::{Precedence, Relation};
use makespan_model::schedule::Piece;

use crate::placed::{Placed, Placements};
use crate::{Rule, Violation};

/// The instant of `before` that the lags are measured from, and how to say it.
fn anchor(p: &Precedence, before: &Placed) -> (i64, &'static str) {
    match p.relation {
        Relation::FinishToStart => (before.end(), "ends"),
        Relation::StartToStart => (before.start(), "starts"),
    }
}

/// `start(after) ≥ anchor(before) + min_lag`; `start(after)` is the start of its first
/// piece and `end(before)` the end of its last piece.
pub fn min_lags(placements: &Placements, out: &mut Vec<Violation>) {
    for p in &placements.instance.precedences {
        let (Some(before), Some(after)) = (placements.get(&p.before), placements.get(&p.after))
        else {
            continue;
        };
        let (at, event) = anchor(p, before);
        let earliest = at.saturating_add(p.min_lag);
        let start = after.start();
        if start < earliest {
            let lag = if p.min_lag == 0 {
                String::new()
            } else {
                format!(" + min lag {}", p.min_lag)
            };
            out.push(Violation::new(
                Rule::PrecedenceViolated,
                vec![p.after.clone(), p.before.clone()],
                Some(start),
                format!(
                    "`{}` starts at {start}, but `{}` {event} at {at}{lag}: `{}` may start at {earliest} at the earliest",
                    p.after, p.before, p.after
                ),
                format!("start `{}` at {earliest} or later (or move `{}` earlier)", p.after, p.before),
            ));
        }
    }
}

/// `start ≤ anchor(before) + max_lag` for every piece of `after`: a window applies to
/// each action of an interrupted step, not only the first. A `start` activity beginning strictly
/// inside a piece of `after` on the same agent forces a split there (the cook pauses to
/// start it), so that instant is checked as a piece start too.
pub fn max_lags(placements: &Placements, out: &mut Vec<Violation>) {
    for p in &placements.instance.precedences {
        let Some(max_lag) = p.max_lag else { continue };
        let (Some(before), Some(after)) = (placements.get(&p.before), placements.get(&p.after))
        else {
            continue;
        };
        let (at, event) = anchor(p, before);
        let latest = at.saturating_add(max_lag);
        for (start, forced_by) in piece_starts(placements, after) {
            if start <= latest {
                continue;
            }
            let mut activities = vec![p.after.clone(), p.before.clone()];
            let what = match forced_by {
                None => format!("a piece of `{}` starts at {start}", p.after),
                Some(by) => {
                    activities.push(by.to_string());
                    format!("`{}` resumes at {start} after pausing for `{by}`", p.after)
                }
            };
            out.push(Violation::new(
                Rule::MaxLagViolated,
                activities,
                Some(start),
                format!(
                    "{what}, but `{}` {event} at {at} and the max lag is {max_lag}: every piece must start by {latest}",
                    p.before
                ),
                format!(
                    "start every piece of `{}` by {latest} (or move `{}` later)",
                    p.after, p.before
                ),
            ));
        }
    }
}

/// Where `after`'s pieces start, with the activity that forced a split, if any.
fn piece_starts<'a>(placements: &'a Placements, after: &Placed) -> Vec<(i64, Option<&'a str>)> {
    let mut starts: Vec<(i64, Option<&str>)> = after
        .pieces
        .iter()
        .map(|piece| (piece.start(), None))
        .collect();
    if after.activity.preemptible && after.agent.is_some() {
        let inside = |t: i64| {
            after
                .pieces
                .iter()
                .any(|piece: &Piece| piece.start() < t && t < piece.end())
        };
        for other in &placements.all {
            if let Some(t) = other
                .instant()
                .filter(|&t| other.agent == after.agent && inside(t))
            {
                starts.push((t, Some(other.id())));
            }
        }
    }
    starts.sort();
    starts
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, pieces, rules};
    use crate::{verify, Rule};
    use makespan_model::instance::{AgentUse, Precedence, Relation};

    #[test]
    fn successor_before_predecessor_end_plus_lag_is_reported() {
        let inst = instance(Some(2), &[("a", 5), ("b", 3)], &[("a", "b", 2)]);
        assert_valid(&inst, &[at("a", Some(0), 0, 5), at("b", Some(1), 7, 3)]);
        let report = verify(&inst, &[at("a", Some(0), 0, 5), at("b", Some(1), 6, 3)]);
        assert_eq!(report.violations.len(), 1);
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::PrecedenceViolated, Some(6)));
        assert_eq!(v.activities, ["b", "a"]);
        assert!(v.hint.starts_with("start `b` at 7 or later"), "{}", v.hint);
    }

    #[test]
    fn start_to_start_is_measured_from_the_predecessor_start() {
        let mut inst = instance(Some(2), &[("a", 5), ("b", 3)], &[]);
        inst.precedences.push(Precedence {
            relation: Relation::StartToStart,
            ..Precedence::finish_to_start("a", "b", 1)
        });
        assert_valid(&inst, &[at("a", Some(0), 0, 5), at("b", Some(1), 1, 3)]);
        assert_eq!(
            rules(&inst, &[at("a", Some(0), 1, 5), at("b", Some(1), 1, 3)]),
            [Rule::PrecedenceViolated]
        );
    }

    #[test]
    fn max_lag_is_inclusive() {
        let mut inst = instance(Some(1), &[("a", 2), ("b", 2)], &[]);
        inst.precedences.push(Precedence {
            max_lag: Some(3),
            ..Precedence::finish_to_start("a", "b", 0)
        });
        assert_valid(&inst, &[at("a", None, 0, 2), at("b", None, 5, 2)]);
        assert_eq!(
            rules(&inst, &[at("a", None, 0, 2), at("b", None, 6, 2)]),
            [Rule::MaxLagViolated]
        );
    }

    #[test]
    fn max_lag_applies_to_every_piece_of_a_preemptible_successor() {
        let mut inst = instance(Some(1), &[("a", 2), ("b", 4), ("c", 3)], &[]);
        inst.activities[1].preemptible = true;
        inst.precedences.push(Precedence {
            max_lag: Some(3),
            ..Precedence::finish_to_start("a", "b", 0)
        });
        // b's first piece starts at 2 (within the window), its second at 8 (too late).
        let plan = [
            at("a", None, 0, 2),
            pieces("b", None, &[(2, 4), (8, 10)]),
            at("c", None, 4, 3),
        ];
        let report = verify(&inst, &plan);
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        assert_eq!(
            (report.violations[0].rule, report.violations[0].time),
            (Rule::MaxLagViolated, Some(8))
        );
        // Resuming at 5 keeps both pieces inside the window.
        let plan = [
            at("a", None, 0, 2),
            pieces("b", None, &[(2, 4), (5, 7)]),
            at("c", None, 7, 3),
        ];
        assert_valid(&inst, &plan);
    }

    #[test]
    fn an_instant_start_inside_a_preemptible_piece_is_a_split_checked_against_the_max_lag() {
        let mut inst = instance(Some(1), &[("a", 1), ("b", 8), ("go", 5)], &[]);
        inst.activities[1].preemptible = true;
        inst.activities[2].agent = AgentUse::StartInstant;
        inst.precedences.push(Precedence {
            max_lag: Some(2),
            ..Precedence::finish_to_start("a", "b", 0)
        });
        // The cook pauses b at 6 to start `go`; b then resumes at 6, too late for the window.
        let plan = [
            at("a", None, 0, 1),
            pieces("b", None, &[(1, 9)]),
            at("go", None, 6, 5),
        ];
        let report = verify(&inst, &plan);
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::MaxLagViolated, Some(6)));
        assert_eq!(v.activities, ["b", "a", "go"]);
    }
}
