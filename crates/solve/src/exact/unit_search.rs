//! An exact method for one agent doing unit-step work (a robot's moves, an assistant's turns): a
//! breadth-first search over time steps. A state is what has been done, where the agent
//! last worked, how long ago, and the ages of the done activities whose lags still matter;
//! every rule is relative to "now", so a state reached later than an identical one is
//! dominated and dropped. The first step at which everything is done is the optimum.
//! Lower bounds (work left, stations still to visit, the longest lag chain left) prune
//! states that cannot beat the best known schedule, so "nothing found below the bound"
//! proves that schedule optimal.

use std::collections::HashSet;
use std::time::Instant;

use crate::problem::Problem;
use crate::Cancel;

/// What the search established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchOutcome {
    /// The optimum: start times of the activities and the makespan.
    Optimal { starts: Vec<i64>, makespan: i64 },
    /// No schedule shorter than the bound it was given exists.
    NoneShorter,
    /// Gave up (time or state limit): nothing proven.
    GaveUp,
}

/// States kept at most (memory stays below about 1 GiB).
const MAX_STATES: usize = 8_000_000;

/// Whether the search applies: one agent, at most 128 activities, every one a single step
/// of agent work and of whatever resources it uses.
pub fn applies(problem: &Problem) -> bool {
    let Some(pool) = problem.agent_resource else {
        return false;
    };
    problem.capacities[pool] == 1
        && problem.len() <= 128
        && (0..problem.len()).all(|j| {
            problem.durations[j] == 1
                && problem.demands[j].iter().all(|d| d.from == 0 && d.to == 1)
                && problem.demands[j].iter().any(|d| d.resource == pool)
        })
}

/// What makes two states interchangeable: done set, last station, steps since, ages.
type Key = (u128, u16, u16, Vec<(u16, u16)>);

#[derive(Clone)]
struct State {
    done: u128,
    /// Station of the last activity (`u16::MAX`: none yet or no station).
    last: u16,
    /// Steps since the last activity ended, capped at the longest setup.
    since: u16,
    /// (activity, age = now − start) of done activities whose lags still matter.
    ages: Vec<(u16, u16)>,
    node: u32,
}

/// Finds the shortest schedule with makespan below `bound`, within `seconds`.
pub fn search(problem: &Problem, bound: i64, seconds: f64, cancel: &Cancel) -> SearchOutcome {
    let clock = Instant::now();
    let n = problem.len();
    let net = &problem.network;
    let (origin, sink) = (net.origin(), net.sink());
    let all: u128 = if n == 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    };
    let bit = |j: usize| 1u128 << j;
    // Arcs between activities, by endpoint.
    let mut into: Vec<Vec<(usize, i64, bool)>> = vec![Vec::new(); n];
    let mut out_of: Vec<Vec<(usize, i64)>> = vec![Vec::new(); n];
    let mut deadline = vec![i64::MAX; n];
    for a in net.arcs() {
        if a.from < n && a.to < n {
            into[a.to].push((a.from, a.weight, a.forward));
            out_of[a.from].push((a.to, a.weight));
        } else if a.to == origin && a.from < n {
            deadline[a.from] = deadline[a.from].min(-a.weight);
        }
    }
    let horizon = problem.earliest[sink] + n as i64 * 4 + 1000;
    let Ok(latest) = net.latest_starts(horizon) else {
        return SearchOutcome::NoneShorter;
    };
    let tail: Vec<i64> = (0..n).map(|j| horizon - latest[j]).collect();
    let station: Vec<u16> = (0..n)
        .map(|j| {
            problem
                .setups
                .as_ref()
                .and_then(|m| m.station[j])
                .map_or(u16::MAX, |s| s as u16)
        })
        .collect();
    let setup = |u: u16, v: u16| -> i64 {
        match &problem.setups {
            Some(m) if u != u16::MAX && v != u16::MAX => m.time[u as usize][v as usize],
            _ => 0,
        }
    };
    let longest_setup = problem
        .setups
        .as_ref()
        .map_or(0, |m| m.time.iter().flatten().copied().max().unwrap_or(0));
    let entry_cost: Vec<i64> = problem.setups.as_ref().map_or(Vec::new(), |m| {
        (0..m.time.len())
            .map(|v| {
                (0..m.time.len())
                    .filter(|&u| u != v)
                    .map(|u| m.time[u][v])
                    .min()
                    .unwrap_or(0)
            })
            .collect()
    });
    // Resources touched by holds or uses, for the capacity check.
    let holds = &problem.holds;

    // Parent pointers: (parent node, activity done in the step that led here, start).
    let mut nodes: Vec<(u32, u16, i64)> = vec![(u32::MAX, u16::MAX, -1)];
    let mut layer = vec![State {
        done: 0,
        last: u16::MAX,
        since: 0,
        ages: Vec::new(),
        node: 0,
    }];
    let mut seen: HashSet<Key> = HashSet::new();
    let mut t: i64 = 0;
    while !layer.is_empty() {
        if clock.elapsed().as_secs_f64() > seconds
            || nodes.len() > MAX_STATES
            || cancel.is_cancelled()
        {
            return SearchOutcome::GaveUp;
        }
        let mut next: Vec<State> = Vec::new();
        for s in &layer {
            let start_of = |i: usize| -> Option<i64> {
                s.ages
                    .binary_search_by_key(&(i as u16), |&(a, _)| a)
                    .ok()
                    .map(|k| t - i64::from(s.ages[k].1))
            };
            let is_done = |i: usize| s.done & bit(i) != 0;
            // The agent waits one step.
            let mut options: Vec<Option<usize>> = vec![None];
            for j in (0..n).filter(|&j| !is_done(j)) {
                if problem.earliest[j] > t || deadline[j] < t {
                    continue;
                }
                let ok_in = into[j].iter().all(|&(i, w, forward)| {
                    if is_done(i) {
                        start_of(i).is_none_or(|si| t >= si + w)
                    } else {
                        !forward
                    }
                });
                let ok_out = out_of[j]
                    .iter()
                    .all(|&(k, w)| !is_done(k) || start_of(k).is_none_or(|sk| sk >= t + w));
                let moved = s.last == u16::MAX
                    || station[j] == u16::MAX
                    || i64::from(s.since) >= setup(s.last, station[j]);
                if ok_in && ok_out && moved && fits(problem, holds, s.done, j) {
                    options.push(Some(j));
                }
            }
            for option in options {
                let (done, last, since) = match option {
                    None => (
                        s.done,
                        s.last,
                        s.since.saturating_add(1).min(longest_setup as u16),
                    ),
                    Some(j) => (s.done | bit(j), station[j], 0),
                };
                let now = t + 1;
                // Ages one step on; keep those a lag or deadline still depends on.
                let mut ages: Vec<(u16, u16)> = Vec::new();
                let mut dead = false;
                let known = s
                    .ages
                    .iter()
                    .map(|&(a, g)| (a as usize, i64::from(g) + 1))
                    .chain(option.map(|j| (j, 1)));
                for (i, age) in known {
                    let mut cap: Option<i64> = Some(0);
                    for &(k, w) in &out_of[i] {
                        if done & bit(k) == 0 {
                            cap = cap.map(|c| c.max(w));
                        }
                    }
                    for &(k, w, _) in &into[i] {
                        if done & bit(k) == 0 {
                            // k must start by start(i) − w.
                            if now - age - w < now {
                                dead = true;
                            }
                            cap = None;
                        }
                    }
                    match cap {
                        None => ages.push((i as u16, age as u16)),
                        Some(c) if age < c => ages.push((i as u16, age as u16)),
                        // Every lag out of i is met for good: its age no longer matters.
                        _ => {}
                    }
                }
                if dead || (0..n).any(|k| done & bit(k) == 0 && deadline[k] < now) {
                    continue;
                }
                ages.sort_unstable();
                if done == all {
                    let node = push(&mut nodes, s.node, option, t);
                    return SearchOutcome::Optimal {
                        starts: starts(&nodes, node, n),
                        makespan: now,
                    };
                }
                // Lower bound on the makespan from this state.
                let mut visits = 0;
                let mut stations_left: Vec<u16> = Vec::new();
                let mut chain = now;
                for k in (0..n).filter(|&k| done & bit(k) == 0) {
                    if station[k] != u16::MAX && station[k] != last {
                        stations_left.push(station[k]);
                    }
                    let mut est = now.max(problem.earliest[k]);
                    for &(i, w, _) in &into[k] {
                        if done & bit(i) != 0 {
                            if let Ok(p) = ages.binary_search_by_key(&(i as u16), |&(a, _)| a) {
                                est = est.max(now - i64::from(ages[p].1) + w);
                            }
                        }
                    }
                    chain = chain.max(est + tail[k]);
                }
                stations_left.sort_unstable();
                stations_left.dedup();
                // Every other station still to work at must be entered once; the steps
                // already idle since the last activity may have paid for one entry, and
                // before the first activity the start position is unknown here.
                if last != u16::MAX {
                    let cost = |v: &u16| entry_cost.get(*v as usize).copied().unwrap_or(0);
                    let paid = stations_left.iter().map(cost).max().unwrap_or(0);
                    visits =
                        stations_left.iter().map(cost).sum::<i64>() - paid.min(i64::from(since));
                }
                let left = (all & !done).count_ones() as i64;
                let lower = chain.max(now + left + visits);
                if lower >= bound {
                    continue;
                }
                let key = (done, last, since, ages.clone());
                if seen.insert(key) {
                    let node = push(&mut nodes, s.node, option, t);
                    next.push(State {
                        done,
                        last,
                        since,
                        ages,
                        node,
                    });
                }
            }
        }
        layer = next;
        t += 1;
    }
    SearchOutcome::NoneShorter
}

fn push(nodes: &mut Vec<(u32, u16, i64)>, parent: u32, option: Option<usize>, t: i64) -> u32 {
    nodes.push((parent, option.map_or(u16::MAX, |j| j as u16), t));
    (nodes.len() - 1) as u32
}

/// Start times read back along the parent pointers.
fn starts(nodes: &[(u32, u16, i64)], mut node: u32, n: usize) -> Vec<i64> {
    let mut starts = vec![0; n];
    while node != u32::MAX {
        let (parent, act, t) = nodes[node as usize];
        if act != u16::MAX {
            starts[act as usize] = t;
        }
        node = parent;
    }
    starts
}

/// Whether doing `j` in the current step keeps every resource within capacity: the holds
/// in force during the step (opened by a done activity or by `j`, not yet closed) plus the
/// units `j` uses.
fn fits(
    problem: &Problem,
    holds: &[crate::problem::sequencing::HoldSpan],
    done: u128,
    j: usize,
) -> bool {
    let is_done = |i: usize| done & (1u128 << i) != 0;
    let mut touched: Vec<usize> = problem.demands[j].iter().map(|d| d.resource).collect();
    touched.extend(
        holds
            .iter()
            .filter(|h| h.from == Some(j))
            .map(|h| h.resource),
    );
    touched.iter().all(|&r| {
        let own: i64 = problem.demands[j]
            .iter()
            .filter(|d| d.resource == r)
            .map(|d| d.amount)
            .sum();
        let held: i64 = holds
            .iter()
            .filter(|h| h.resource == r)
            .filter(|h| h.from.is_none_or(|f| f == j || is_done(f)))
            .filter(|h| h.until.is_none_or(|u| u == j || !is_done(u)))
            .map(|h| h.amount)
            .sum();
        own + held <= problem.capacities[r]
    })
}
