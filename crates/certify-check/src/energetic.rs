//! Energetic certificates: were every activity done by `H = bound − 1`, the work that one
//! resource (or the agents) would have to do inside an interval `[from, to)` exceeds what
//! its capacity gives there, so no schedule ends before `bound`.
//!
//! Why it is sound. Take any schedule that ends by `H`. Its events (time 0, each activity's
//! start and end) keep every timing rule of the instance, each of the form
//! `t(to) ≥ t(from) + w`: a release (`start ≥ release`, and `start ≥ 0`); a duration
//! (`end ≥ start + d`, and `end = start + d` for an activity that is not split into
//! pieces); a precedence (`start(after) ≥ start or end of before + min_lag`, and read
//! backwards `start or end of before ≥ start(after) − max_lag`); a deadline and the horizon
//! (`end ≤ deadline`, `end ≤ H`). So each start lies at or after its longest path from time
//! 0, and each end at or before `−`(its longest path back to time 0): the window that
//! [`windows`] computes with a plain Bellman–Ford of its own (a positive cycle means that
//! no schedule ends by `H` at all). Inside a window `[es, le]`, a demand held over the
//! activity's processing units `[a, b)` lies within `[es + a, le − d + b)`; when the
//! activity runs in one block it must spend `min(to − from, b − a, es + b − from,
//! to − (le − d + a))` units of that inside `[from, to)` (at least 0), and when it is split
//! at least `(b − a) − (from − es − a)⁺ − (le − d + b − to)⁺` (the work that fits before
//! `from` and after `to` taken away). An entry may claim a wider window than the computed
//! one and less work than its window forces; both only weaken it. Summed over distinct
//! activities, more work than `capacity × (to − from)` cannot fit. Holds, setups, states
//! and start-instant needs are left out: each only removes schedules.

use std::collections::HashSet;

use makespan_model::certificate::{IntervalWork, Proof};
use makespan_model::instance::{Activity, Instance};

use crate::rules::{self, end, start, timing_rules};

/// Whether the energetic `proof` shows that no schedule of `instance` ends before `bound`.
pub fn check(instance: &Instance, proof: &Proof, bound: i64) -> Result<(), String> {
    let Proof::Energetic {
        resource,
        capacity,
        from,
        to,
        work,
    } = proof
    else {
        return Err("not an energetic proof".into());
    };
    let (from, to, capacity) = (*from, *to, *capacity);
    let true_capacity = match resource {
        None => instance.agents.map(i64::from),
        Some(id) => instance
            .resources
            .iter()
            .find(|r| &r.id == id)
            .map(|r| i64::from(r.capacity)),
    };
    let name = resource
        .as_deref()
        .map_or("the agents".to_string(), |r| format!("\"{r}\""));
    if true_capacity != Some(capacity) || capacity <= 0 {
        return Err(format!(
            "{name} do not have a capacity of {capacity} in the instance"
        ));
    }
    if to <= from {
        return Err(format!("the interval [{from}, {to}) is empty"));
    }
    let Some(windows) = windows(instance, bound.saturating_sub(1)) else {
        // The timing rules alone leave no schedule ending by bound − 1.
        return Ok(());
    };
    let mut seen = HashSet::new();
    let mut total = 0i128;
    for w in work {
        let (index, a) = instance
            .activities
            .iter()
            .enumerate()
            .find(|(_, a)| a.id == w.activity)
            .ok_or_else(|| format!("no activity \"{}\" in the instance", w.activity))?;
        if !seen.insert(index) {
            return Err(format!("\"{}\" is counted twice", w.activity));
        }
        let (es, le) = windows[index];
        if i128::from(w.earliest_start) > es || i128::from(w.latest_end) < le {
            return Err(format!(
                "\"{}\" may run within [{es}, {le}] when the schedule ends by {}, not only within [{}, {}]",
                w.activity,
                bound - 1,
                w.earliest_start,
                w.latest_end
            ));
        }
        let most = forced_work(a, resource.as_deref(), w, from, to);
        if i128::from(w.work) > most {
            return Err(format!(
                "\"{}\" must do {most} units of work on {name} inside [{from}, {to}), not {}",
                w.activity, w.work
            ));
        }
        total += i128::from(w.work);
    }
    let room = i128::from(capacity) * (i128::from(to) - i128::from(from));
    if total > room {
        Ok(())
    } else {
        Err(format!(
            "the work {total} inside [{from}, {to}) fits in the capacity {capacity} × {}",
            to - from
        ))
    }
}

/// The least work `a` must do on the resource (`None`: the agents) inside `[from, to)`
/// when it runs within the entry's window.
fn forced_work(a: &Activity, resource: Option<&str>, w: &IntervalWork, from: i64, to: i64) -> i128 {
    // The demand: `amount` units over the processing units `[first, last)`.
    let (amount, first, last) = match resource {
        None => match a.agent.busy_span(a.duration) {
            Some((first, last)) => (1, first, last),
            None => return 0,
        },
        Some(id) => (rules::units(a, id), 0, a.duration),
    };
    let [from, to, es, le, d, first, last] = [
        from,
        to,
        w.earliest_start,
        w.latest_end,
        a.duration,
        first,
        last,
    ]
    .map(i128::from);
    let (release, due, len) = (es + first, le - d + last, last - first);
    let inside = if rules::splittable(a) {
        (len - (from - release).max(0) - (due - to).max(0)).min(to - from)
    } else {
        (to - from)
            .min(len)
            .min(release + len - from)
            .min(to - (due - len))
    };
    inside.max(0) * i128::from(amount)
}

/// Each activity's `(earliest start, latest end)` over the schedules that end by
/// `horizon`, from the longest paths between its events; `None` when the timing rules
/// admit no such schedule (a positive cycle).
fn windows(instance: &Instance, horizon: i64) -> Option<Vec<(i128, i128)>> {
    let arcs = timing_rules(instance, horizon);
    let nodes = 1 + 2 * instance.activities.len();
    let heads = longest_from_origin(nodes, arcs.iter().copied())?;
    let back = longest_from_origin(nodes, arcs.iter().map(|&(u, v, w)| (v, u, w)))?;
    Some(
        (0..instance.activities.len())
            .map(|i| (heads[start(i)], -back[end(i)]))
            .collect(),
    )
}

/// Longest paths from event 0; `None` on a positive cycle.
fn longest_from_origin(
    nodes: usize,
    arcs: impl Iterator<Item = (usize, usize, i64)> + Clone,
) -> Option<Vec<i128>> {
    // Every event is reachable from time 0 through its release arc.
    rules::longest(nodes, arcs, 0)?.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::Precedence;

    /// a (2) → b (4, split) → c (3), b's end at most 2 before c starts.
    fn chain() -> Instance {
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
    fn windows_follow_the_rules_and_keep_a_split_end_free() {
        let windows = super::windows(&chain(), 12).unwrap();
        // a ends by b's latest start: b (split) need only end by 9, so b may start as late
        // as 9 − 4 = 5 and a end by 4; c starts after b's 4 units, at 7 or later.
        assert_eq!(windows, [(0, 4), (3, 9), (7, 12)]);
        // The chain needs 2 + 1 + 4 + 3 = 10: by 9 the rules leave no schedule.
        assert!(super::windows(&chain(), 9).is_none());
    }

    #[test]
    fn a_split_activity_is_credited_only_what_cannot_leave_the_interval() {
        let chain = chain();
        let entry = |activity: &str, earliest_start, latest_end| IntervalWork {
            activity: activity.into(),
            earliest_start,
            latest_end,
            work: 0,
        };
        // b (4 units) within [3, 9): in [4, 8) it must do 4 − 1 − 1 = 2 units split, and
        // min(4, 4, 3 + 4 − 4, 8 − (9 − 4)) = 3 in one block.
        let b = &chain.activities[1];
        assert_eq!(forced_work(b, None, &entry("b", 3, 9), 4, 8), 2);
        let block = Activity {
            preemptible: false,
            ..b.clone()
        };
        assert_eq!(forced_work(&block, None, &entry("b", 3, 9), 4, 8), 3);
    }
}
