//! Lower bounds on the makespan: critical path with lags, resource load, and energetic
//! reasoning. They are cheap and often tight; when one meets a heuristic schedule the
//! schedule is proven optimal without a MILP.

use std::time::Instant;

use crate::problem::Problem;
use makespan_model::solution::BoundSource;

/// A lower bound and the reasoning that proves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LowerBound {
    pub value: i64,
    pub source: BoundSource,
}

impl LowerBound {
    /// The stronger of two bounds (the first on ties, so the simplest proof is kept).
    pub fn max(self, other: LowerBound) -> LowerBound {
        if other.value > self.value {
            other
        } else {
            self
        }
    }
}

/// Longest path through the temporal network.
pub fn critical_path(problem: &Problem) -> LowerBound {
    LowerBound {
        value: problem.critical_path(),
        source: BoundSource::CriticalPath,
    }
}

/// ⌈total demand × time / capacity⌉ over each resource (agents included).
pub fn load(problem: &Problem) -> LowerBound {
    let mut energy = vec![0i64; problem.capacities.len()];
    for d in problem.demands.iter().flatten() {
        energy[d.resource] += d.amount * (d.to - d.from);
    }
    let value = energy
        .iter()
        .zip(&problem.capacities)
        .map(|(&e, &c)| (e + c - 1) / c)
        .max()
        .unwrap_or(0);
    LowerBound {
        value,
        source: BoundSource::Load,
    }
}

/// The best of the cheap bounds, raised by energetic reasoning up to (at most) `upper`
/// (the pipeline calls [`best_until`]; this is for tests and benches).
#[cfg(any(test, feature = "internals"))]
pub fn best(problem: &Problem, upper: Option<i64>) -> LowerBound {
    best_until(problem, upper, None)
}

/// [`best`], with energetic reasoning (cubic in the number of demands) stopped at
/// `deadline`: the bound is then what was proven so far.
pub fn best_until(problem: &Problem, upper: Option<i64>, deadline: Option<Instant>) -> LowerBound {
    let simple = critical_path(problem).max(load(problem));
    if !problem.has_capacity_limits() {
        return simple;
    }
    let clock = Clock(deadline);
    energetic(problem, simple.value, upper, clock).map_or(simple, |value| {
        simple.max(LowerBound {
            value,
            source: BoundSource::Energetic,
        })
    })
}

/// Smallest makespan `D ≥ from` (searched up to `upper`) for which no time interval
/// `[t1, t2)` must receive more energy than a resource can give; `None` when every candidate
/// is overloaded up to `upper` (then `upper` itself is the bound).
/// When energetic reasoning must stop (`None`: never).
#[derive(Clone, Copy)]
pub(crate) struct Clock(pub Option<Instant>);

impl Clock {
    fn expired(self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

/// Stopped at the deadline, with no answer.
pub(crate) struct Expired;

/// A bound proven before the deadline stopped the search: `D + 1` for the largest `D`
/// shown overloaded, or nothing when none was.
fn proven(failed: Option<i64>) -> Option<i64> {
    failed.map(|d| d + 1)
}

fn energetic(problem: &Problem, from: i64, upper: Option<i64>, clock: Clock) -> Option<i64> {
    match passes(problem, from, clock) {
        Ok(true) => return Some(from),
        Ok(false) => {}
        Err(Expired) => return None,
    }
    // Overload is monotone in D: find a passing D by doubling, then bisect.
    let mut lo = from; // fails
    let mut step = 1;
    let mut hi = loop {
        // Every makespan failing up to the end of time: no schedule exists (deadlines
        // the resources cannot meet), and any bound is proven.
        let Some(candidate) = lo.checked_add(step) else {
            return proven(Some(lo));
        };
        if let Some(u) = upper {
            if candidate >= u {
                break match passes(problem, u, clock) {
                    Ok(true) => u,
                    Ok(false) => return Some(u),
                    Err(Expired) => return proven(Some(lo)),
                };
            }
        }
        match passes(problem, candidate, clock) {
            Ok(true) => break candidate,
            Ok(false) => {}
            Err(Expired) => return proven(Some(lo)),
        }
        lo = candidate;
        step = step.saturating_mul(2);
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match passes(problem, mid, clock) {
            Ok(true) => hi = mid,
            Ok(false) => lo = mid,
            Err(Expired) => return proven(Some(lo)),
        }
    }
    Some(hi)
}

/// Whether makespan `d` survives energetic reasoning on every resource.
fn passes(problem: &Problem, d: i64, clock: Clock) -> Result<bool, Expired> {
    let Ok(latest) = problem.network.latest_starts(d) else {
        return Ok(false);
    };
    for r in 0..problem.capacities.len() {
        if overloaded(problem, r, &latest, clock)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One demand seen as a job with a window: it must run `len` units of `amount` within
/// `[release, due)`, in one block or, when `split`, in pieces. Shared with the energetic
/// certificates, which name the interval this finds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Energy {
    pub release: i64,
    pub due: i64,
    pub len: i64,
    pub amount: i64,
    pub split: bool,
}

impl Energy {
    /// Energy the job must spend inside `[t1, t2)` however it is placed in its window. In
    /// i128: windows without a deadline reach far, and amount × length would overflow i64.
    pub(crate) fn mandatory(&self, t1: i64, t2: i64) -> i128 {
        let [t1, t2, release, due, len] =
            [t1, t2, self.release, self.due, self.len].map(i128::from);
        let units = if self.split {
            (len - (t1 - release).max(0) - (due - t2).max(0)).min(t2 - t1)
        } else {
            (t2 - t1)
                .min(len)
                .min(release + len - t1)
                .min(t2 - (due - len))
        };
        units.max(0) * i128::from(self.amount)
    }
}

fn overloaded(
    problem: &Problem,
    resource: usize,
    latest: &[i64],
    clock: Clock,
) -> Result<bool, Expired> {
    let jobs: Vec<Energy> = problem
        .demands
        .iter()
        .enumerate()
        .flat_map(|(j, ds)| ds.iter().map(move |d| (j, d)))
        .filter(|(_, d)| d.resource == resource && d.to > d.from)
        .map(|(j, d)| Energy {
            release: problem.earliest[j] + d.from,
            due: latest[j] + d.to,
            len: d.to - d.from,
            amount: d.amount,
            split: false,
        })
        .collect();
    first_overload(&jobs, problem.capacities[resource], clock).map(|o| o.is_some())
}

/// The first interval `[t1, t2)` between the jobs' breakpoints (by `t1`, then `t2`) whose
/// mandatory energy exceeds `capacity × (t2 − t1)`.
pub(crate) fn first_overload(
    jobs: &[Energy],
    capacity: i64,
    clock: Clock,
) -> Result<Option<(i64, i64)>, Expired> {
    let mut starts: Vec<i64> = jobs
        .iter()
        .flat_map(|j| [j.release, j.due - j.len])
        .collect();
    let mut ends: Vec<i64> = jobs
        .iter()
        .flat_map(|j| [j.due, j.release + j.len])
        .collect();
    for times in [&mut starts, &mut ends] {
        times.sort_unstable();
        times.dedup();
    }
    for &t1 in &starts {
        if clock.expired() {
            return Err(Expired);
        }
        let over = ends.iter().filter(|&&t2| t2 > t1).find(|&&t2| {
            let energy: i128 = jobs.iter().map(|j| j.mandatory(t1, t2)).sum();
            energy > i128::from(capacity) * (i128::from(t2) - i128::from(t1))
        });
        if let Some(&t2) = over {
            return Ok(Some((t1, t2)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Instance, Precedence};

    fn instance(agents: u32, durations: &[i64], edges: &[(usize, usize, i64)]) -> Instance {
        Instance {
            activities: durations
                .iter()
                .enumerate()
                .map(|(i, &p)| Activity::new(format!("a{i}"), p))
                .collect(),
            precedences: edges
                .iter()
                .map(|&(i, j, l)| Precedence::finish_to_start(format!("a{i}"), format!("a{j}"), l))
                .collect(),
            ..Instance::new("t", Some(agents))
        }
    }

    #[test]
    fn load_bound_rounds_up() {
        let p = Problem::compile(&instance(2, &[3, 3, 3], &[])).unwrap();
        assert_eq!(load(&p).value, 5);
        assert_eq!(critical_path(&p).value, 3);
    }

    #[test]
    fn energetic_reasoning_sees_work_squeezed_between_lags() {
        // One agent; a0 (3) → a1 (3) and a2 (4) free: CP 6, load 10 = the optimum.
        let p = Problem::compile(&instance(1, &[3, 3, 4], &[(0, 1, 0)])).unwrap();
        assert_eq!(
            best(&p, None),
            LowerBound {
                value: 10,
                source: BoundSource::Load
            }
        );
        // Two agents, a0 (4) → a1 (4) with lag 4, and a2 (6), a3 (6) free: CP 12, load 10.
        // In [4, 8) nothing of the chain runs; energy is never overloaded, so CP stands.
        let p = Problem::compile(&instance(2, &[4, 4, 6, 6], &[(0, 1, 4)])).unwrap();
        assert_eq!(best(&p, None).value, 12);
    }

    #[test]
    fn energetic_detects_interval_overload() {
        // Agents 2. a0 → a1 with lag 5: chain 3 + 5 + 3 = 11. Three free jobs of length 3 must
        // squeeze around the chain; load = ⌈15/2⌉ = 8 < 11 = CP, so CP is the bound here.
        let p = Problem::compile(&instance(2, &[3, 3, 3, 3, 3], &[(0, 1, 5)])).unwrap();
        assert_eq!(best(&p, None).value, 11);
        assert_eq!(best(&p, None).source, BoundSource::CriticalPath);
        // One agent: all 15 units of work on one agent, CP 11 → load bound 15.
        let p = Problem::compile(&instance(1, &[3, 3, 3, 3, 3], &[(0, 1, 5)])).unwrap();
        assert_eq!(best(&p, None).value, 15);
    }

    #[test]
    fn energetic_reasoning_survives_far_deadlines() {
        // Windows reaching near i64::MAX: energy × length once overflowed i64 (a panic).
        let mut inst = instance(3, &[4, 4, 4, 4], &[(0, 1, 0)]);
        for a in &mut inst.activities {
            a.deadline = Some(i64::MAX / 4);
        }
        let p = Problem::compile(&inst).unwrap();
        assert_eq!(best(&p, None).value, 8);
    }

    #[test]
    fn energetic_reasoning_ends_on_deadlines_the_agents_cannot_meet() {
        // One agent, two jobs of 4 both due by 5: every makespan is overloaded, so the
        // doubling search once ran past i64::MAX (a panic); any bound above 5 is proven.
        let mut inst = instance(1, &[4, 4], &[]);
        for a in &mut inst.activities {
            a.deadline = Some(5);
        }
        let p = Problem::compile(&inst).unwrap();
        assert!(best(&p, None).value > 5);
    }
}
