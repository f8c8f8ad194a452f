//! Tabu search on the critical chain: the moves that can shorten a schedule.
//!
//! Walking back from the activity that ends last, each activity is held up by a tight
//! predecessor: a precedence whose lag is exactly met, or an activity whose use of a shared
//! resource ends exactly when its own use begins. Only swapping such a resource-adjacent
//! pair can shorten the schedule without changing anything else first (the job-shop
//! neighbourhoods of van Laarhoven et al. and Nowicki & Smutnicki, read off any schedule of
//! the unified model: agents, cumulative resources and lags included). A move puts the later
//! activity of a pair just before the earlier one in the start order, which the serial
//! generator and forward–backward improvement decode; the best move that is not tabu is
//! taken, even when it is longer, so the search leaves local optima that random moves
//! ([`super::local`]) rarely escape.

use std::collections::VecDeque;

use rand::rngs::SmallRng;
use rand::Rng;

use super::local::start_order;
use super::{improve, sgs, Effort, Heuristic, Stop};
use crate::problem::Problem;

/// Moves evaluated per step at most (a random subset of the critical pairs when longer).
const NEIGHBOURS: usize = 12;
/// Steps a reversed move stays forbidden, plus a random 0..TENURE_SPREAD.
const TENURE: usize = 6;
const TENURE_SPREAD: usize = 6;
/// Steps without a new best schedule before the search restarts from the best one, kicked.
const PATIENCE: usize = 150;

/// Improves `best` with at most `evaluations` decoded moves, stopping once it reaches
/// `lower_bound` or `stop` says so (the deadline, or the caller cancelled).
pub fn search(
    problem: &Problem,
    mirror: &Problem,
    mut best: Heuristic,
    lower_bound: i64,
    evaluations: usize,
    stop: &Stop,
    rng: &mut SmallRng,
) -> Heuristic {
    if problem.len() < 2 {
        return best;
    }
    let mut current = best.clone();
    // One copy whose network takes each move's arc in turn (cloning the whole problem per
    // move would cost more than decoding it).
    let mut forced = problem.clone();
    let mut tabu: VecDeque<((usize, usize), usize)> = VecDeque::new();
    let (mut spent, mut step, mut stale) = (0, 0, 0);
    while spent < evaluations && best.makespan(problem) > lower_bound && !stop.now() {
        step += 1;
        tabu.retain(|&(_, until)| until > step);
        let mut pairs = critical_pairs(problem, &current.starts, rng);
        if pairs.len() > NEIGHBOURS {
            for k in 0..NEIGHBOURS {
                let pick = rng.random_range(k..pairs.len());
                pairs.swap(k, pick);
            }
            pairs.truncate(NEIGHBOURS);
        }
        let order = start_order(problem, &current.starts);
        let mut chosen: Option<(Heuristic, (usize, usize))> = None;
        for &(i, j) in &pairs {
            spent += 1;
            let Some(candidate) = swapped(problem, &mut forced, &order, i, j) else {
                continue;
            };
            let length = candidate.makespan(problem);
            let forbidden = tabu.iter().any(|&(m, _)| m == (i, j));
            // A tabu move is allowed when it beats the best schedule (aspiration).
            if forbidden && length >= best.makespan(problem) {
                continue;
            }
            if chosen
                .as_ref()
                .is_none_or(|(c, _)| length < c.makespan(problem))
            {
                chosen = Some((candidate, (i, j)));
            }
        }
        stale += 1;
        match chosen {
            Some((next, (i, j))) => {
                // Moving `i` back before `j` would undo the move.
                tabu.push_back(((j, i), step + TENURE + rng.random_range(0..TENURE_SPREAD)));
                if next.makespan(problem) < best.makespan(problem) {
                    best = improve(problem, mirror, next.clone(), stop.effort);
                    stale = 0;
                }
                current = next;
            }
            None => stale = PATIENCE + 1,
        }
        if stale > PATIENCE {
            current = kick(problem, mirror, &best, rng).unwrap_or_else(|| best.clone());
            tabu.clear();
            stale = 0;
            spent += 1;
        }
    }
    best
}

/// Resource-adjacent pairs `(i, j)` on one critical chain of the schedule: `j`'s use of a
/// resource begins exactly when `i`'s use of it ends, `j` ends the chain's stretch that `i`
/// holds up, and no precedence orders `i` before `j` directly. Ties between tight
/// predecessors are broken at random, so repeated calls see different chains.
fn critical_pairs(problem: &Problem, starts: &[i64], rng: &mut SmallRng) -> Vec<(usize, usize)> {
    let n = problem.len();
    let p = &problem.durations;
    let ends_last = (0..n)
        .filter(|&j| starts[j] + p[j] == starts[problem.network.sink()])
        .collect::<Vec<_>>();
    if ends_last.is_empty() {
        return Vec::new();
    }
    let mut j = ends_last[rng.random_range(0..ends_last.len())];
    let mut pairs = Vec::new();
    let mut seen = vec![false; n];
    loop {
        seen[j] = true;
        let mut tight: Vec<(usize, bool)> = Vec::new();
        for a in problem.network.arcs() {
            if a.to == j && a.forward && a.from < n && starts[a.from] + a.weight == starts[j] {
                tight.push((a.from, false));
            }
        }
        for (i, demands) in problem.demands.iter().enumerate().take(n) {
            if i == j || tight.iter().any(|&(k, _)| k == i) {
                continue;
            }
            let adjacent = demands.iter().any(|di| {
                problem.demands[j].iter().any(|dj| {
                    di.resource == dj.resource
                        && di.amount > 0
                        && dj.amount > 0
                        && starts[i] + di.to == starts[j] + dj.from
                })
            });
            if adjacent && starts[i] < starts[j] {
                tight.push((i, true));
            }
        }
        tight.retain(|&(i, _)| !seen[i]);
        if tight.is_empty() {
            return pairs;
        }
        let (i, by_resource) = tight[rng.random_range(0..tight.len())];
        if by_resource {
            pairs.push((i, j));
        }
        j = i;
    }
}

/// The schedule with `j` forced before `i` (an extra arc: `i`'s use of their shared resource
/// begins after `j`'s ends), decoded in `order` with `j` moved just before `i`; it is
/// feasible for `problem` itself, since the arc only removes schedules.
fn swapped(
    problem: &Problem,
    forced: &mut Problem,
    order: &[usize],
    i: usize,
    j: usize,
) -> Option<Heuristic> {
    let lag = problem.demands[j]
        .iter()
        .flat_map(|dj| {
            problem.demands[i]
                .iter()
                .filter(move |di| di.resource == dj.resource)
                .map(move |di| dj.to - di.from)
        })
        .max()?;
    forced.network.clone_from(&problem.network);
    forced.network.add(j, i, lag, true);
    let mut priority = vec![0.0; problem.network.nodes()];
    for (rank, &k) in moved_before(order, j, i).iter().enumerate() {
        priority[k] = rank as f64;
    }
    priority[problem.network.sink()] = f64::INFINITY;
    let starts = sgs::serial(forced, &priority)?;
    Some(Heuristic {
        starts,
        rule: "critical-tabu",
    })
}

/// `order` with `moved` taken out and put just before `anchor`.
fn moved_before(order: &[usize], moved: usize, anchor: usize) -> Vec<usize> {
    let mut next: Vec<usize> = order.iter().copied().filter(|&k| k != moved).collect();
    let at = next.iter().position(|&k| k == anchor).unwrap_or(0);
    next.insert(at, moved);
    next
}

/// The schedule of a start order: serial generation, then forward–backward improvement.
fn decode(problem: &Problem, mirror: &Problem, order: &[usize]) -> Option<Heuristic> {
    let mut priority = vec![0.0; problem.network.nodes()];
    for (rank, &j) in order.iter().enumerate() {
        priority[j] = rank as f64;
    }
    priority[problem.network.sink()] = f64::INFINITY;
    let starts = sgs::serial(problem, &priority)?;
    Some(improve(
        problem,
        mirror,
        Heuristic {
            starts,
            rule: "critical-tabu",
        },
        // One decoded move is short; the search loop watches the deadline between moves.
        &Effort::default(),
    ))
}

/// The best schedule with a few random activities moved in its start order.
fn kick(
    problem: &Problem,
    mirror: &Problem,
    best: &Heuristic,
    rng: &mut SmallRng,
) -> Option<Heuristic> {
    let mut order = start_order(problem, &best.starts);
    let n = order.len();
    for _ in 0..3 {
        let moved = order.remove(rng.random_range(0..n));
        order.insert(rng.random_range(0..n), moved);
    }
    decode(problem, mirror, &order)
}
