//! The solve pipeline for one instance: validate, compile, bound, heuristic, MILP if the
//! bounds leave a gap, then verify. Exact means proven: `optimal` is reported only when a
//! lower bound (combinatorial, or HiGHS's) meets the schedule, and every schedule passes
//! the independent verifier before it is returned.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};

use crate::assign;
use crate::bounds;
use crate::exact::{self, milp, Outcome};
use crate::heuristics::{self, Effort};
use crate::problem::{expand, Problem, Refusal};
use crate::Cancel;

/// How to solve.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// Wall-clock seconds for one instance, shared by every phase (compiling, bounds,
    /// heuristics, exact methods); when it runs out the best schedule so far is returned as
    /// `feasible`.
    pub time_limit: f64,
    /// Threads per instance: HiGHS's, and the one-agent search over time's; from 2, the
    /// constraint model and the MILP race on threads of their own.
    pub threads: NonZeroU32,
    /// Branch-and-bound nodes the MILP of one instance may explore; `None` for no limit.
    pub node_limit: Option<u64>,
    /// Write the MILP (if one is built) to this LP file.
    pub export_lp: Option<PathBuf>,
    /// Stop after bounds and heuristics: never run the MILP.
    pub heuristic_only: bool,
    /// Whether the constraint model (Pumpkin) may take the problems it expresses; `false`
    /// leaves them to the searches and the MILP, as before it existed (for comparisons).
    pub cp: bool,
    /// How hard the heuristics try (samples, local search).
    pub effort: Effort,
    /// Unit chunks preemptible activities may become, in all; above it they are scheduled
    /// without preemption (a valid schedule; optimal only where a bound proves it).
    pub max_chunks: u64,
    /// Stops the exact searches and HiGHS at their next check once tripped; the solve then
    /// ends like a limit (`feasible` with the best schedule found, or `error`).
    pub cancel: Cancel,
}

/// Default of [`SolveOptions::max_chunks`]: a few hundred times Recipe2Plan's largest need.
pub const MAX_CHUNKS: u64 = 5_000;

impl SolveOptions {
    /// Seconds left before the instance's deadline (the whole time limit when none is
    /// set): the budget of each phase, while messages name `time_limit` itself.
    pub fn seconds_left(&self) -> f64 {
        self.effort.deadline.map_or(self.time_limit, |d| {
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        })
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: 60.0,
            threads: NonZeroU32::MIN,
            node_limit: None,
            export_lp: None,
            heuristic_only: false,
            cp: true,
            effort: Effort::default(),
            max_chunks: MAX_CHUNKS,
            cancel: Cancel::new(),
        }
    }
}

/// Solves one instance. Never panics on bad input: problems become `error` or `infeasible`
/// solutions with a reason.
pub fn solve(instance: &Instance, options: &SolveOptions) -> Solution {
    let clock = Instant::now();
    if let Err(invalid) = instance.validate() {
        let reason = format!("invalid instance: {invalid}");
        return finish(
            instance,
            Outcome::refused(Status::Error, reason),
            None,
            clock,
        );
    }
    if options.time_limit.is_nan() || options.time_limit < 0.0 {
        let reason = format!(
            "the time limit must be a number of seconds ≥ 0, not {}",
            options.time_limit
        );
        return finish(
            instance,
            Outcome::refused(Status::Error, reason),
            None,
            clock,
        );
    }
    // One deadline for the whole instance, compiling included.
    let mut options = options.clone();
    options.effort.deadline = Some(clock + Duration::from_secs_f64(options.time_limit.min(1e9)));
    let chunks = expand::chunk_count(instance);
    let unchunked;
    let (solved, preemption) = if chunks > options.max_chunks {
        unchunked = without_preemption(instance);
        (&unchunked, Some(chunks))
    } else {
        (instance, None)
    };
    let (outcome, schedule) = match Problem::compile_scaled(solved) {
        Ok(problem) => {
            let mut outcome = match preemption {
                None => search(&problem, &options),
                Some(chunks) => search_unchunked(&problem, &options, chunks),
            };
            // The solvers work in units of the instance's time gcd.
            if let Some(b) = &mut outcome.bound {
                b.value *= problem.expanded.scale;
            }
            let schedule = outcome
                .starts
                .as_ref()
                .map(|starts| checked_schedule(instance, &problem, starts));
            (outcome, schedule)
        }
        Err(Refusal::Infeasible(reason)) => (Outcome::refused(Status::Infeasible, reason), None),
        Err(refusal) => (Outcome::refused(Status::Error, refusal.to_string()), None),
    };
    finish(instance, outcome, schedule, clock)
}

fn search(problem: &Problem, options: &SolveOptions) -> Outcome {
    let cheap = bounds::critical_path(problem).max(bounds::load(problem));
    if !problem.has_capacity_limits() {
        // Nothing competes for agents or resources: earliest starts are optimal.
        return Outcome {
            status: Status::Optimal,
            starts: Some(problem.earliest.clone()),
            bound: Some(cheap),
            reason: None,
            method: "critical-path".into(),
            milp_ran: false,
            nodes: None,
        };
    }
    // The strongest bound first: the heuristics stop as soon as they meet it.
    let lower = bounds::best_until(problem, None, options.effort.deadline);
    let heuristic = heuristics::best_until(
        problem,
        lower.value,
        effort(problem, options),
        &options.cancel,
    );
    let upper = heuristic.as_ref().map(|h| h.makespan(problem));
    let method = heuristic.as_ref().map_or("none", |h| h.rule);
    let cancelled = options.cancel.is_cancelled();
    if let (Some(h), Some(u)) = (&heuristic, upper) {
        if u <= lower.value || options.heuristic_only || cancelled {
            let skipped = if cancelled {
                "the solve was cancelled before the exact methods"
            } else {
                "--heuristic-only skips the MILP"
            };
            return Outcome {
                status: if u <= lower.value {
                    Status::Optimal
                } else {
                    Status::Feasible
                },
                starts: Some(h.starts.clone()),
                bound: Some(lower),
                reason: (u > lower.value).then(|| {
                    format!("not proven optimal: {skipped}; lower_bound and gap say how far from optimal it can be")
                }),
                method: format!("heuristic:{method}"),
                milp_ran: false,
                nodes: None,
            };
        }
    }
    if cancelled {
        return Outcome::refused(Status::Error, "the solve was cancelled".into());
    }
    if options.heuristic_only {
        return Outcome::refused(
            Status::Error,
            "the heuristics found no schedule that meets every maximum lag; run without --heuristic-only".into(),
        );
    }
    // The exact methods get what is left of the instance's time.
    if options.seconds_left() <= 0.0 {
        if let Some(h) = &heuristic {
            return Outcome {
                status: Status::Feasible,
                starts: Some(h.starts.clone()),
                bound: Some(lower),
                reason: Some(format!(
                    "not proven optimal: the time limit of {} s ran out before the exact methods (--time-limit)",
                    options.time_limit
                )),
                method: format!("heuristic:{method}"),
                milp_ran: false,
                nodes: None,
            };
        }
    }
    exact::solve(problem, lower, heuristic.as_ref(), options)
}

/// The instance with every activity whole: a schedule of it is one of the instance (a
/// preemptible activity may run in one piece).
fn without_preemption(instance: &Instance) -> Instance {
    let mut whole = instance.clone();
    for a in &mut whole.activities {
        a.preemptible = false;
    }
    whole
}

/// Too many chunks to expand: the heuristics on the activities kept whole, against bounds
/// that hold with preemption too (critical path and load; energetic reasoning assumes
/// activities run in one piece).
fn search_unchunked(problem: &Problem, options: &SolveOptions, chunks: u64) -> Outcome {
    let lower = bounds::critical_path(problem).max(bounds::load(problem));
    let Some(h) = heuristics::best_until(problem, lower.value, options.effort, &options.cancel)
    else {
        return Outcome::refused(
            Status::Error,
            format!("preemptible activities would become {chunks} unit chunks (limit {}, --max-chunks), and no schedule without preemption was found", options.max_chunks),
        );
    };
    let proven = h.makespan(problem) <= lower.value;
    Outcome {
        status: if proven {
            Status::Optimal
        } else {
            Status::Feasible
        },
        starts: Some(h.starts.clone()),
        bound: Some(lower),
        reason: (!proven).then(|| format!(
            "not proven optimal: preemptible activities would become {chunks} unit chunks (limit {}, raise with --max-chunks), so they were scheduled without preemption",
            options.max_chunks
        )),
        method: format!("heuristic:{}", h.rule),
        milp_ran: false,
        nodes: None,
    }
}

/// The heuristics' effort: a twentieth of the samples where an exact search over time or
/// the constraint model takes the problem, which need only a horizon to start from and find
/// the optimum on their own; and no polishing where the search over time takes it.
fn effort(problem: &Problem, options: &SolveOptions) -> heuristics::Effort {
    let mut effort = options.effort;
    if options.heuristic_only {
        return effort;
    }
    let over_time = crate::exact::agent_search::applies(problem);
    if over_time || crate::exact::cp::method::runs(problem, options) {
        effort.samples = effort.samples.div_ceil(20);
    }
    effort.polish &= !over_time;
    effort
}

fn finish(
    instance: &Instance,
    outcome: Outcome,
    schedule: Option<Result<Vec<ScheduledActivity>, String>>,
    clock: Instant,
) -> Solution {
    let mut solution = Solution {
        lower_bound: outcome.bound.map(|b| b.value),
        bound_source: outcome.bound.map(|b| b.source),
        reason: outcome.reason,
        solver: if outcome.milp_ran {
            milp::highs_version()
        } else {
            "makespan".into()
        },
        nodes: outcome.nodes,
        ..Solution::new(instance, outcome.status, outcome.method)
    };
    if let Some(checked) = schedule {
        match checked {
            Ok(schedule) => {
                let makespan = makespan_model::schedule::makespan(&schedule);
                solution.makespan = Some(makespan);
                solution.gap = solution.lower_bound.map(|lb| {
                    if makespan > 0 {
                        (makespan - lb) as f64 / makespan as f64
                    } else {
                        0.0
                    }
                });
                solution.schedule = schedule;
            }
            Err(message) => {
                solution.status = Status::Error;
                solution.reason = Some(message);
            }
        }
    }
    solution.seconds = clock.elapsed().as_secs_f64();
    solution
}

/// Turns start times into a schedule with agents, and refuses it unless the verifier
/// finds no violation: a solver bug must never become an oracle reference.
fn checked_schedule(
    instance: &Instance,
    problem: &Problem,
    starts: &[i64],
) -> Result<Vec<ScheduledActivity>, String> {
    let agents = assign::agents(problem, starts)
        .ok_or("internal error: the schedule needs more agents than exist")?;
    let pieces = problem.expanded.pieces(starts);
    let schedule: Vec<ScheduledActivity> = instance
        .activities
        .iter()
        .zip(pieces)
        .zip(&problem.expanded.parts)
        .map(|((a, pieces), parts)| ScheduledActivity {
            activity: a.id.clone(),
            agent: parts.iter().find_map(|&k| agents[k]),
            pieces,
        })
        .collect();
    let report = makespan_verify::verify(instance, &schedule);
    if report.valid {
        Ok(schedule)
    } else {
        let details: Vec<String> = report
            .violations
            .iter()
            .map(|v| v.message.clone())
            .collect();
        Err(format!(
            "internal error: the solver's schedule failed verification: {}",
            details.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Precedence};
    use makespan_model::solution::BoundSource;

    fn chain(agents: Option<u32>) -> Instance {
        Instance {
            activities: vec![
                Activity::new("a", 2),
                Activity::new("b", 3),
                Activity::new("c", 4),
            ],
            precedences: vec![Precedence::finish_to_start("a", "b", 1)],
            ..Instance::new("chain", agents)
        }
    }

    #[test]
    fn unlimited_agents_are_solved_by_the_critical_path() {
        let s = solve(&chain(None), &SolveOptions::default());
        assert_eq!(
            (s.status, s.makespan, s.method.as_str()),
            (Status::Optimal, Some(6), "critical-path")
        );
        assert_eq!(s.bound_source, Some(BoundSource::CriticalPath));
    }

    #[test]
    fn one_agent_is_proven_by_the_load_bound() {
        let s = solve(&chain(Some(1)), &SolveOptions::default());
        assert_eq!(
            (s.status, s.makespan, s.lower_bound),
            (Status::Optimal, Some(9), Some(9))
        );
        assert_eq!(s.bound_source, Some(BoundSource::Load));
        assert_eq!(s.schedule.len(), 3);
    }

    #[test]
    fn invalid_and_unsupported_instances_are_errors_with_the_reason() {
        let mut invalid = chain(Some(1));
        invalid.activities[0].duration = -2;
        let s = solve(&invalid, &SolveOptions::default());
        assert_eq!(s.status, Status::Error);
        assert!(s.reason.unwrap().starts_with("invalid instance"));

        let mut preemptive = chain(Some(2));
        preemptive.activities[1].preemptible = true;
        let s = solve(&preemptive, &SolveOptions::default());
        assert_eq!(s.status, Status::Error);
        assert!(s.reason.unwrap().starts_with("not supported yet"));
        assert!(s.schedule.is_empty());
    }

    #[test]
    fn preemption_fills_the_gap_a_window_leaves() {
        // One agent: `b` starts exactly 1 after `a` ends; preemptible `c` fills the gap.
        let mut inst = chain(Some(1));
        inst.activities[2].preemptible = true;
        inst.precedences[0].max_lag = Some(1);
        let s = solve(&inst, &SolveOptions::default());
        assert_eq!((s.status, s.makespan), (Status::Optimal, Some(9)));
        assert!(s.schedule[2].pieces.len() >= 2, "{:?}", s.schedule);
        let report = makespan_verify::verify(&inst, &s.schedule);
        assert!(report.valid, "{}", report.render_text());
    }
}
