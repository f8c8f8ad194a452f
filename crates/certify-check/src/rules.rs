//! The instance's rules as the checker reads them, straight from the instance model.

use makespan_model::instance::{Activity, Instance, Relation};

/// The activity with this id.
pub fn activity<'a>(instance: &'a Instance, id: &str) -> Result<&'a Activity, String> {
    instance
        .activities
        .iter()
        .find(|a| a.id == id)
        .ok_or_else(|| format!("no activity \"{id}\" in the instance"))
}

/// The largest `w` such that the instance forces `start(after) ≥ start(before) + w`
/// through one precedence (its minimum lag, or read backwards its maximum lag).
///
/// A minimum lag after the end of a split activity still holds from its start plus its
/// duration (its end is at least that). A maximum lag after that end bounds the end only,
/// which may lie anywhere after the start plus the duration, so it is not read backwards.
pub fn lag(instance: &Instance, before: &str, after: &str) -> Option<i64> {
    instance
        .precedences
        .iter()
        .filter_map(|p| {
            let from = activity(instance, &p.before).ok()?;
            if p.before == before && p.after == after {
                Some(p.anchor(from.duration) + p.min_lag)
            } else if p.before == after
                && p.after == before
                && (p.relation == Relation::StartToStart || !splittable(from))
            {
                // start(p.after) ≤ start(p.before) + anchor + max.
                Some(-(p.anchor(from.duration) + p.max_lag?))
            } else {
                None
            }
        })
        .max()
}

/// Whether a schedule may split the activity into pieces: preemptible and at least two
/// time units long (pieces are whole units). Its end is then only known to be at least its
/// start plus its duration.
pub fn splittable(activity: &Activity) -> bool {
    activity.preemptible && activity.duration >= 2
}

/// The earliest start the instance gives an activity on its own: its release, or 0.
pub fn release(activity: &Activity) -> i64 {
    activity.release.unwrap_or(0).max(0)
}

/// The time an activity keeps one agent busy (`None` for the agents: unlimited or not
/// needed).
pub fn agent_time(activity: &Activity) -> i64 {
    activity
        .agent
        .busy_span(activity.duration)
        .map_or(0, |(from, to)| to - from)
}

/// The units of `resource` an activity holds for its whole duration.
pub fn units(activity: &Activity, resource: &str) -> i64 {
    activity
        .uses
        .iter()
        .filter(|u| u.resource == resource)
        .map(|u| i64::from(u.amount))
        .sum()
}

/// Event 0 is time 0; activity `i` starts at event `start(i)` and ends at `end(i)`.
pub fn start(i: usize) -> usize {
    1 + 2 * i
}

pub fn end(i: usize) -> usize {
    2 + 2 * i
}

/// Every timing rule of the instance as `t(to) ≥ t(from) + w`, with every end by `horizon`.
pub fn timing_rules(instance: &Instance, horizon: i64) -> Vec<(usize, usize, i64)> {
    let mut arcs = Vec::new();
    for (i, a) in instance.activities.iter().enumerate() {
        arcs.push((0, start(i), release(a)));
        arcs.push((start(i), end(i), a.duration));
        if !splittable(a) {
            arcs.push((end(i), start(i), -a.duration));
        }
        if let Some(deadline) = a.deadline {
            arcs.push((end(i), 0, -deadline));
        }
        arcs.push((end(i), 0, -horizon));
    }
    let index = |id: &str| instance.activities.iter().position(|a| a.id == id);
    for p in &instance.precedences {
        let (Some(i), Some(j)) = (index(&p.before), index(&p.after)) else {
            continue;
        };
        let event = match p.relation {
            Relation::FinishToStart => end(i),
            Relation::StartToStart => start(i),
        };
        arcs.push((event, start(j), p.min_lag));
        if let Some(max) = p.max_lag {
            arcs.push((start(j), event, -max));
        }
    }
    arcs
}

/// The most the timing rules force the end of activity `until` after the start of activity
/// `from` in schedules that end by `horizon`: the longest walk between the two events;
/// `None` when no walk joins them, or on a positive cycle (no such schedule).
pub fn longest_walk(instance: &Instance, horizon: i64, from: usize, until: usize) -> Option<i128> {
    let nodes = 1 + 2 * instance.activities.len();
    longest(
        nodes,
        timing_rules(instance, horizon).into_iter(),
        start(from),
    )?[end(until)]
}

/// Longest paths from event `source` over arcs `(from, to, weight)` (Bellman–Ford, in `i128`
/// so that no sum overflows), `None` at an event no path reaches; `None` on a positive cycle.
pub fn longest(
    nodes: usize,
    arcs: impl Iterator<Item = (usize, usize, i64)> + Clone,
    source: usize,
) -> Option<Vec<Option<i128>>> {
    let mut best: Vec<Option<i128>> = vec![None; nodes];
    best[source] = Some(0);
    for _ in 0..=nodes {
        let mut changed = false;
        for (u, v, w) in arcs.clone() {
            if let Some(t) = best[u].map(|t| t + i128::from(w)) {
                if best[v].is_none_or(|old| t > old) {
                    best[v] = Some(t);
                    changed = true;
                }
            }
        }
        if !changed {
            return Some(best);
        }
    }
    None
}
