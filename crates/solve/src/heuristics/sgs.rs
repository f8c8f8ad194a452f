//! Serial schedule generation: take eligible activities one at a time in priority order and
//! start each at the earliest time that respects the temporal network and every resource.

use super::profile::Profile;
use super::start_rules::StartRules;
use crate::problem::Problem;

/// How often a failed pass may delay a predecessor and start again.
const RESTARTS: usize = 200;

/// Start times of every network node (origin and sink included; the sink's start is the
/// makespan), or `None` when a maximum lag or deadline cannot be met in this order.
///
/// When a maximum lag cannot be met (the successor finds no room in its window), the pass
/// starts again with the predecessor delayed so that the window opens later:
/// "start the window's predecessor late, so its successor can follow at once".
pub fn serial(problem: &Problem, priority: &[f64]) -> Option<Vec<i64>> {
    let mut delays = vec![0; problem.network.nodes()];
    let adjacency = Adjacency::new(problem);
    for _ in 0..RESTARTS {
        match attempt(problem, &adjacency, priority, &delays) {
            Ok(starts) => return Some(starts),
            Err(Some((node, at_least))) if at_least > delays[node] => delays[node] = at_least,
            Err(_) => return None,
        }
    }
    None
}

/// One pass; on failure, the node to delay and the start it needs, when that can help.
/// The arcs into and out of every node, and the forward arcs into each: built once per
/// [`serial`] call rather than once per restart.
struct Adjacency {
    incoming: Vec<Vec<usize>>,
    outgoing: Vec<Vec<usize>>,
    forward_in: Vec<usize>,
}

impl Adjacency {
    fn new(problem: &Problem) -> Adjacency {
        let nodes = problem.network.nodes();
        let mut incoming = vec![Vec::new(); nodes];
        let mut outgoing = vec![Vec::new(); nodes];
        let mut forward_in = vec![0usize; nodes];
        for (k, a) in problem.network.arcs().iter().enumerate() {
            incoming[a.to].push(k);
            outgoing[a.from].push(k);
            if a.forward {
                forward_in[a.to] += 1;
            }
        }
        Adjacency {
            incoming,
            outgoing,
            forward_in,
        }
    }
}

fn attempt(
    problem: &Problem,
    adjacency: &Adjacency,
    priority: &[f64],
    delays: &[i64],
) -> Result<Vec<i64>, Option<(usize, i64)>> {
    let nodes = problem.network.nodes();
    let arcs = problem.network.arcs();
    let Adjacency {
        incoming, outgoing, ..
    } = adjacency;
    let mut waiting = adjacency.forward_in.clone();
    let mut start: Vec<Option<i64>> = vec![None; nodes];
    let mut profiles = vec![Profile::default(); problem.capacities.len()];
    let mut side = StartRules::new(problem);
    let origin = problem.network.origin();
    let mut eligible = vec![origin];

    while let Some(pos) = pick(&eligible, priority, origin) {
        let j = eligible.swap_remove(pos);
        let lo = incoming[j]
            .iter()
            .filter_map(|&k| start[arcs[k].from].map(|s| s + arcs[k].weight))
            .max()
            .unwrap_or(0)
            .max(if j == origin { 0 } else { problem.earliest[j] })
            .max(delays[j]);
        let binding = outgoing[j]
            .iter()
            .filter_map(|&k| start[arcs[k].to].map(|s| (s - arcs[k].weight, arcs[k].to)))
            .min();
        let hi = binding.map_or(i64::MAX, |b| b.0);
        let Some(t) = earliest_fit(problem, &profiles, &side, j, lo) else {
            return Err(side.lag_to_delay(j));
        };
        if t > hi {
            // Delay the node whose window closed, by as much as was missing.
            return Err(binding.map(|(h, i)| (i, start[i].unwrap_or(0) + (t - h))));
        }
        for d in &problem.demands[j] {
            profiles[d.resource].add(t + d.from, t + d.to, d.amount);
        }
        side.place(j, t);
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
    start.into_iter().collect::<Option<Vec<i64>>>().ok_or(None)
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

/// Earliest `t ≥ lo` at which every demand of `j` fits under its capacity and the side
/// rules (instants, states) allow it.
fn earliest_fit(
    problem: &Problem,
    profiles: &[Profile],
    side: &StartRules,
    j: usize,
    lo: i64,
) -> Option<i64> {
    let demands = &problem.demands[j];
    let fits = |t: i64| {
        demands.iter().all(|d| {
            profiles[d.resource].peak(t + d.from, t + d.to) + d.amount
                <= problem.capacities[d.resource]
        }) && side.fits(j, t)
    };
    if fits(lo) {
        return Some(lo);
    }
    let mut candidates: Vec<i64> = demands
        .iter()
        .flat_map(|d| profiles[d.resource].releases().map(move |r| r - d.from))
        .filter(|&t| t > lo)
        .collect();
    if !side.is_empty() {
        candidates.extend(side.candidates(j, lo));
        // Every release of every resource: a side rule may wait for any of them.
        candidates.extend(
            profiles
                .iter()
                .flat_map(Profile::releases)
                .filter(|&t| t > lo),
        );
    }
    candidates.sort_unstable();
    candidates.dedup();
    candidates.into_iter().find(|&t| fits(t))
}
