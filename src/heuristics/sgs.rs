//! Serial schedule generation: take eligible activities one at a time in priority order and
//! start each at the earliest time that respects the temporal network and every resource.

use super::profile::Profile;
use crate::problem::Problem;

/// Start times of every network node (origin and sink included; the sink's start is the
/// makespan), or `None` when a maximum lag or deadline cannot be met in this order.
pub fn serial(problem: &Problem, priority: &[f64]) -> Option<Vec<i64>> {
    let nodes = problem.network.nodes();
    let arcs = problem.network.arcs();
    let mut incoming = vec![Vec::new(); nodes];
    let mut outgoing = vec![Vec::new(); nodes];
    let mut waiting = vec![0usize; nodes];
    for (k, a) in arcs.iter().enumerate() {
        incoming[a.to].push(k);
        outgoing[a.from].push(k);
        if a.forward {
            waiting[a.to] += 1;
        }
    }
    let mut start: Vec<Option<i64>> = vec![None; nodes];
    let mut profiles = vec![Profile::default(); problem.capacities.len()];
    let origin = problem.network.origin();
    let mut eligible = vec![origin];

    while let Some(pos) = pick(&eligible, priority, origin) {
        let j = eligible.swap_remove(pos);
        let lo = incoming[j]
            .iter()
            .filter_map(|&k| start[arcs[k].from].map(|s| s + arcs[k].weight))
            .max()
            .unwrap_or(0)
            .max(if j == origin { 0 } else { problem.earliest[j] });
        let hi = outgoing[j]
            .iter()
            .filter_map(|&k| start[arcs[k].to].map(|s| s - arcs[k].weight))
            .min()
            .unwrap_or(i64::MAX);
        let t = earliest_fit(problem, &profiles, j, lo)?;
        if t > hi {
            return None;
        }
        for d in &problem.demands[j] {
            profiles[d.resource].add(t + d.from, t + d.to, d.amount);
        }
        start[j] = Some(t);
        for &k in &outgoing[j] {
            let a = arcs[k];
            if a.forward {
                waiting[a.to] -= 1;
                if waiting[a.to] == 0 {
                    eligible.push(a.to);
                }
            }
        }
    }
    start.into_iter().collect()
}

/// The eligible node with the lowest priority value (the origin always goes first).
fn pick(eligible: &[usize], priority: &[f64], origin: usize) -> Option<usize> {
    let value = |j: usize| {
        if j == origin {
            f64::NEG_INFINITY
        } else {
            priority[j]
        }
    };
    (0..eligible.len()).min_by(|&a, &b| {
        value(eligible[a])
            .total_cmp(&value(eligible[b]))
            .then(eligible[a].cmp(&eligible[b]))
    })
}

/// Earliest `t ≥ lo` at which every demand of `j` fits under its capacity.
fn earliest_fit(problem: &Problem, profiles: &[Profile], j: usize, lo: i64) -> Option<i64> {
    let demands = &problem.demands[j];
    let fits = |t: i64| {
        demands.iter().all(|d| {
            profiles[d.resource].peak(t + d.from, t + d.to) + d.amount
                <= problem.capacities[d.resource]
        })
    };
    if fits(lo) {
        return Some(lo);
    }
    let mut candidates: Vec<i64> = demands
        .iter()
        .flat_map(|d| profiles[d.resource].releases().map(move |r| r - d.from))
        .filter(|&t| t > lo)
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    candidates.into_iter().find(|&t| fits(t))
}
