//! The instance's timing rules as a graph over its events (time 0, each activity's start and
//! end), in the instance's own units, unscaled and unsplit: the critical path a certificate
//! writes and the windows an energetic certificate records are longest paths in it. An
//! activity split into pieces ends at least its duration after its start, but its end is not
//! tied to its start, so the graph keeps its start and end as two events (the solver's chunks
//! are its own model, which a certificate must not rely on). The checker builds the same
//! graph with code of its own.

use makespan_model::certificate::Step;
use makespan_model::instance::{Activity, Instance, Relation};

/// Why `t(to) ≥ t(from) + weight` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Time 0 or the release before a start.
    Release,
    /// An end at least the duration after its start.
    Duration,
    /// The start of an activity that runs in one block, exactly its duration before its end.
    Block,
    /// A precedence's minimum lag.
    MinLag,
    /// A precedence's maximum lag, read backwards.
    MaxLag,
    /// A deadline, or the horizon, on an end.
    Deadline,
}

#[derive(Debug, Clone, Copy)]
struct Rule {
    from: usize,
    to: usize,
    weight: i64,
    kind: Kind,
}

/// The timing rules of one instance.
pub struct Timing<'a> {
    instance: &'a Instance,
    rules: Vec<Rule>,
}

/// Event 0 is time 0; activity `i` starts at event `1 + 2i` and ends at `2 + 2i`.
const ORIGIN: usize = 0;

fn start(i: usize) -> usize {
    1 + 2 * i
}

fn end(i: usize) -> usize {
    2 + 2 * i
}

fn activity_of(event: usize) -> usize {
    (event - 1) / 2
}

/// Whether a schedule may split the activity: preemptible and at least two units long.
pub fn splittable(a: &Activity) -> bool {
    a.preemptible && a.duration >= 2
}

impl<'a> Timing<'a> {
    /// The releases, durations, precedences and deadlines of `instance`.
    pub fn new(instance: &'a Instance) -> Self {
        let mut rules = Vec::new();
        let mut rule = |from, to, weight, kind| {
            rules.push(Rule {
                from,
                to,
                weight,
                kind,
            })
        };
        for (i, a) in instance.activities.iter().enumerate() {
            rule(
                ORIGIN,
                start(i),
                a.release.unwrap_or(0).max(0),
                Kind::Release,
            );
            rule(start(i), end(i), a.duration, Kind::Duration);
            if !splittable(a) {
                rule(end(i), start(i), -a.duration, Kind::Block);
            }
            if let Some(deadline) = a.deadline {
                rule(end(i), ORIGIN, -deadline, Kind::Deadline);
            }
        }
        let index = instance.activity_index();
        for p in &instance.precedences {
            let (i, j) = (index[p.before.as_str()], index[p.after.as_str()]);
            let event = match p.relation {
                Relation::FinishToStart => end(i),
                Relation::StartToStart => start(i),
            };
            rule(event, start(j), p.min_lag, Kind::MinLag);
            if let Some(max) = p.max_lag {
                rule(start(j), event, -max, Kind::MaxLag);
            }
        }
        Timing { instance, rules }
    }

    fn events(&self) -> usize {
        1 + 2 * self.instance.activities.len()
    }

    /// Each activity's `(earliest start, latest end)` over the schedules that end by
    /// `horizon`; `None` when no schedule does by the timing rules alone.
    pub fn windows(&self, horizon: i64) -> Option<Vec<(i64, i64)>> {
        let n = self.instance.activities.len();
        let due = (0..n).map(|i| Rule {
            from: end(i),
            to: ORIGIN,
            weight: -horizon,
            kind: Kind::Deadline,
        });
        let rules: Vec<Rule> = self.rules.iter().copied().chain(due).collect();
        let (heads, _) = longest(self.events(), &rules, ORIGIN)?;
        let reversed: Vec<Rule> = rules
            .iter()
            .map(|r| Rule {
                from: r.to,
                to: r.from,
                ..*r
            })
            .collect();
        let (back, _) = longest(self.events(), &reversed, ORIGIN)?;
        Some((0..n).map(|i| (heads[start(i)], -back[end(i)])).collect())
    }

    /// The most the timing rules force the end of activity `until` after the start of
    /// activity `from` (`end(until) ≥ start(from) + gap`); `None` when they force nothing,
    /// or when they have a positive cycle.
    pub fn gap(&self, from: usize, until: usize) -> Option<i64> {
        let (heads, _) = longest(self.events(), &self.rules, start(from))?;
        Some(heads[end(until)]).filter(|&t| t > i64::MIN)
    }

    /// The longest chain of rules from time 0 to an activity's end, as certificate steps,
    /// when it reaches `bound`. Only chains the steps can state are followed: a maximum lag
    /// read backwards into the end of a split activity bounds its end, not its start, so
    /// it is left out.
    pub fn critical_path(&self, bound: i64) -> Option<Vec<Step>> {
        let stated: Vec<Rule> = self
            .rules
            .iter()
            .copied()
            .filter(|r| {
                r.kind != Kind::Deadline
                    && !(r.kind == Kind::MaxLag
                        && r.to % 2 == 0
                        && splittable(&self.instance.activities[activity_of(r.to)]))
            })
            .collect();
        let (heads, via) = longest(self.events(), &stated, ORIGIN)?;
        let last = (0..self.instance.activities.len()).max_by_key(|&i| heads[end(i)])?;
        if heads[end(last)] < bound {
            return None;
        }
        let mut path = Vec::new();
        let mut event = end(last);
        while event != ORIGIN {
            let rule = stated[via[event]?];
            path.push(rule);
            event = rule.from;
            if path.len() > stated.len() {
                return None;
            }
        }
        path.reverse();
        self.steps(&path)
    }

    /// A chain of rules from time 0 to an end as steps between starts: lags leaving an end
    /// count from the start (plus the duration), and a maximum lag into the end of an
    /// activity in one block becomes one into its start.
    fn steps(&self, path: &[Rule]) -> Option<Vec<Step>> {
        let name = |i: usize| self.instance.activities[i].id.clone();
        let duration = |i: usize| self.instance.activities[i].duration;
        let mut steps = Vec::new();
        // The activity the chain is at, and the time since its start.
        let mut at: Option<(usize, i64)> = None;
        for rule in path {
            match (rule.kind, at) {
                (Kind::Release, None) => {
                    let i = activity_of(rule.to);
                    steps.push(Step::Release {
                        activity: name(i),
                        at: rule.weight,
                    });
                    at = Some((i, 0));
                }
                (Kind::Duration | Kind::Block, Some((i, since))) => {
                    at = Some((i, since + rule.weight));
                }
                (Kind::MinLag | Kind::MaxLag, Some((i, since))) => {
                    let j = activity_of(rule.to);
                    // Into an end only from a maximum lag, of an activity in one block.
                    let into_end = if rule.to == end(j) { duration(j) } else { 0 };
                    steps.push(Step::Lag {
                        before: name(i),
                        after: name(j),
                        weight: since + rule.weight - into_end,
                    });
                    at = Some((j, into_end));
                }
                _ => return None,
            }
        }
        let (i, since) = at?;
        steps.push(Step::End {
            activity: name(i),
            duration: since,
        });
        Some(steps)
    }
}

/// Longest paths from the event `source` and the rule each event's path arrives by
/// (Bellman–Ford); `None` on a positive cycle.
fn longest(events: usize, rules: &[Rule], source: usize) -> Option<(Vec<i64>, Vec<Option<usize>>)> {
    let mut best: Vec<Option<i64>> = vec![None; events];
    let mut via = vec![None; events];
    best[source] = Some(0);
    for _ in 0..=events {
        let mut changed = false;
        for (k, r) in rules.iter().enumerate() {
            if let Some(t) = best[r.from].map(|t| t + r.weight) {
                if best[r.to].is_none_or(|old| t > old) {
                    best[r.to] = Some(t);
                    via[r.to] = Some(k);
                    changed = true;
                }
            }
        }
        if !changed {
            let best = best.into_iter().map(|t| t.unwrap_or(i64::MIN)).collect();
            return Some((best, via));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::Precedence;

    fn instance() -> Instance {
        // a (2) → b (4, split) with lag 1 → c (3); b's end at most 2 before c starts.
        let mut b = Activity::new("b", 4);
        b.preemptible = true;
        Instance {
            activities: vec![Activity::new("a", 2), b, Activity::new("c", 3)],
            precedences: vec![
                Precedence::finish_to_start("a", "b", 1),
                Precedence {
                    max_lag: Some(2),
                    ..Precedence::finish_to_start("b", "c", 0)
                },
            ],
            ..Instance::new("t", Some(1))
        }
    }

    #[test]
    fn a_critical_path_through_a_split_activity_counts_from_its_start() {
        let steps = Timing::new(&instance()).critical_path(10).unwrap();
        assert_eq!(
            steps,
            [
                Step::Release {
                    activity: "a".into(),
                    at: 0
                },
                Step::Lag {
                    before: "a".into(),
                    after: "b".into(),
                    weight: 3
                },
                Step::Lag {
                    before: "b".into(),
                    after: "c".into(),
                    weight: 4
                },
                Step::End {
                    activity: "c".into(),
                    duration: 3
                },
            ]
        );
        assert!(Timing::new(&instance()).critical_path(11).is_none());
    }

    #[test]
    fn windows_keep_a_split_activity_free_to_end_late() {
        // Ending by 12, c starts by 9, so b ends by 9; b starts at 3 at the earliest, and
        // c at 7, after b's four units.
        let windows = Timing::new(&instance()).windows(12).unwrap();
        assert_eq!(windows[2], (7, 12));
        assert_eq!(windows[1], (3, 9));
        assert!(Timing::new(&instance()).windows(9).is_none());
    }
}
