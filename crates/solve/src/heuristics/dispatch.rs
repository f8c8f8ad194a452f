//! Chronological dispatching for problems whose feasibility depends on an agent's sequence
//! (setup times) or on resources held from one activity to another: at each step, among
//! the activities whose predecessors have started, start one at its earliest feasible
//! time, never earlier than the previous start. Going forward in time makes both easy to
//! follow: the agent's last station is known, and a hold whose closing activity has not
//! started yet is simply held from its start onwards.

use super::profile::Profile;
use crate::problem::Problem;

/// Far enough in the future to stand for "not released yet".
const OPEN: i64 = i64::MAX / 4;

/// Start times of every network node (the sink's is the makespan), or `None` when this
/// order leads to a dead end (a maximum lag missed, a resource held for ever).
///
/// Among the startable activities the one with the lowest `priority` value goes first if
/// it can start within `slack` of the earliest of them.
pub fn dispatch(problem: &Problem, priority: &[f64], slack: i64) -> Option<Vec<i64>> {
    let n = problem.len();
    let network = &problem.network;
    let arcs = network.arcs();
    let (origin, sink) = (network.origin(), network.sink());
    let mut incoming = vec![Vec::new(); network.nodes()];
    let mut waiting = vec![0usize; network.nodes()];
    for (k, a) in arcs.iter().enumerate() {
        incoming[a.to].push(k);
        if a.forward && a.from != origin {
            waiting[a.to] += 1;
        }
    }
    let mut start: Vec<Option<i64>> = vec![None; network.nodes()];
    start[origin] = Some(0);
    let mut profiles = vec![Profile::default(); problem.capacities.len()];
    for h in problem.holds.iter().filter(|h| h.from.is_none()) {
        profiles[h.resource].add(0, OPEN, h.amount);
    }
    let mut state = Agent::default();
    let mut now = 0;
    for _ in 0..n {
        let candidates: Vec<(usize, i64)> = (0..n)
            .filter(|&j| start[j].is_none() && waiting[j] == 0)
            .filter_map(|j| {
                earliest(problem, &incoming, &start, &profiles, &state, j, now).map(|t| (j, t))
            })
            .collect();
        let first = candidates.iter().map(|&(_, t)| t).min()?;
        let deadlines = pending_deadlines(problem, &start);
        let chosen = candidates
            .iter()
            .filter(|&&(_, t)| t <= first + slack)
            .filter(|&&(j, t)| keeps_deadlines(problem, &deadlines, j, t))
            .min_by(|a, b| priority[a.0].total_cmp(&priority[b.0]).then(a.cmp(b)))
            .copied();
        let (j, t) = chosen?;
        if deadlines.iter().any(|&(d, limit)| d == j && t > limit) {
            return None;
        }
        place(problem, &mut profiles, &mut state, &start, j, t);
        start[j] = Some(t);
        now = t;
        for a in arcs.iter().filter(|a| a.from == j && a.forward) {
            if a.to < n {
                waiting[a.to] -= 1;
            }
        }
    }
    let mut out: Vec<i64> = start.iter().map(|s| s.unwrap_or(0)).collect();
    out[sink] = incoming[sink]
        .iter()
        .map(|&k| out[arcs[k].from] + arcs[k].weight)
        .max()
        .unwrap_or(0);
    // Maximum lags and deadlines are checked once more on the finished schedule.
    arcs.iter()
        .all(|a| out[a.to] >= out[a.from] + a.weight)
        .then_some(out)
}

/// Where the one agent of a problem with setups stands.
#[derive(Default)]
struct Agent {
    /// The activity of its last busy interval, and when that interval ends.
    last: Option<(usize, i64)>,
}

/// The busy span `[from, to)` of `j` on the agent pool, relative to its start.
fn busy(problem: &Problem, j: usize) -> Option<(i64, i64)> {
    let pool = problem.agent_resource?;
    problem.demands[j]
        .iter()
        .find(|d| d.resource == pool)
        .map(|d| (d.from, d.to))
}

/// Earliest start of `j` at or after `now` that respects the started predecessors, the
/// agent's setup and every resource (its own demands and the holds it opens).
fn earliest(
    problem: &Problem,
    incoming: &[Vec<usize>],
    start: &[Option<i64>],
    profiles: &[Profile],
    state: &Agent,
    j: usize,
    now: i64,
) -> Option<i64> {
    let arcs = problem.network.arcs();
    let mut lo = incoming[j]
        .iter()
        .filter_map(|&k| start[arcs[k].from].map(|s| s + arcs[k].weight))
        .max()
        .unwrap_or(0)
        .max(problem.earliest[j])
        .max(now);
    if let (Some(setups), Some((from, _)), Some((i, end))) =
        (&problem.setups, busy(problem, j), state.last)
    {
        lo = lo.max(end + setups.between(i, j) - from);
    }
    let mut needs: Vec<(usize, i64, i64, i64)> = problem.demands[j]
        .iter()
        .map(|d| (d.resource, d.amount, d.from, d.to))
        .collect();
    for h in problem.holds.iter().filter(|h| h.from == Some(j)) {
        let end = match h
            .until
            .and_then(|u| start[u].map(|s| s + problem.durations[u]))
        {
            Some(e) => e,
            None => OPEN,
        };
        needs.push((h.resource, h.amount, 0, OPEN.min(end.max(0))));
    }
    let fits = |t: i64| {
        needs.iter().all(|&(r, amount, from, to)| {
            let (a, b) = (t + from, if to >= OPEN { OPEN } else { t + to });
            profiles[r].peak(a, b) + amount <= problem.capacities[r]
        })
    };
    if fits(lo) {
        return Some(lo);
    }
    let mut times: Vec<i64> = needs
        .iter()
        .flat_map(|&(r, _, from, _)| profiles[r].releases().map(move |t| t - from))
        .filter(|&t| t > lo && t < OPEN)
        .collect();
    times.sort_unstable();
    times.dedup();
    times.into_iter().find(|&t| fits(t))
}

/// Unstarted activities that a started one has bounded from above (maximum lags, which
/// tie a `put` to the `pick` before it), with their latest start.
fn pending_deadlines(problem: &Problem, start: &[Option<i64>]) -> Vec<(usize, i64)> {
    let n = problem.len();
    // S_to ≥ S_from + w with `to` started bounds `from` by S_to − w.
    problem
        .network
        .arcs()
        .iter()
        .filter(|a| !a.forward && a.from < n && start[a.from].is_none())
        .filter_map(|a| start[a.to].map(|s| (a.from, s - a.weight)))
        .collect()
}

/// Whether starting `j` at `t` leaves every pending deadline reachable: with one agent and
/// setups, the next activity can start only after `j`'s busy time and the move.
fn keeps_deadlines(problem: &Problem, deadlines: &[(usize, i64)], j: usize, t: i64) -> bool {
    deadlines.iter().all(|&(d, limit)| {
        if d == j {
            return t <= limit;
        }
        let after = match (&problem.setups, busy(problem, j), busy(problem, d)) {
            (Some(setups), Some((_, to)), Some((from, _))) => t + to + setups.between(j, d) - from,
            _ => t,
        };
        after <= limit
    })
}

/// Books `j` at `t`: its demands, the holds it opens or closes, the agent's position.
fn place(
    problem: &Problem,
    profiles: &mut [Profile],
    state: &mut Agent,
    start: &[Option<i64>],
    j: usize,
    t: i64,
) {
    for d in &problem.demands[j] {
        profiles[d.resource].add(t + d.from, t + d.to, d.amount);
    }
    let end = t + problem.durations[j];
    for h in &problem.holds {
        if h.from == Some(j) {
            let until = h
                .until
                .and_then(|u| start[u].map(|s| s + problem.durations[u]));
            profiles[h.resource].add(t, until.unwrap_or(OPEN), h.amount);
        }
        if h.until == Some(j) {
            let opened = match h.from {
                None => Some(0),
                Some(f) => start[f],
            };
            if opened.is_some() && end < OPEN {
                profiles[h.resource].add(end, OPEN, -h.amount);
            }
        }
    }
    if let Some((_, to)) = busy(problem, j) {
        if problem.setups.is_some() {
            state.last = Some((j, t + to));
        }
    }
}
