//! The solve pipeline for one instance: validate, compile, bound, heuristic, MILP if the
//! bounds leave a gap, then verify. Exact means proven: `optimal` is reported only when a
//! lower bound (combinatorial, or HiGHS's) meets the schedule, and every schedule passes
//! the independent verifier before it is returned.

use std::time::{Duration, Instant};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};

use crate::assign;
use crate::bounds;
use crate::exact::{self, milp, Outcome};
use crate::heuristics::{self, Effort};
use crate::problem::{expand, Problem};
use crate::{Failure, Run, SolveOptions};

/// Solves one instance. Never panics on bad input: problems become `error` or `infeasible`
/// solutions with a reason.
pub fn solve(instance: &Instance, options: &SolveOptions) -> Solution {
    solve_detailed(instance, options, &Run::default()).0
}

/// [`solve`] in `run` (stopped by its cancel token), and why there is no schedule, typed,
/// beside the solution: `Some` exactly when the status is `infeasible` or `error`, and its
/// text is the solution's `reason`.
///
/// ```
/// use makespan_model::instance::{Activity, Instance};
/// use makespan_solve::{Failure, Run, SolveOptions, Status};
///
/// let broken = Instance {
///     activities: vec![Activity::new("boil", -1)],
///     ..Instance::new("broken", Some(1))
/// };
/// let (solution, failure) = makespan_solve::solve_detailed(&broken, &SolveOptions::default(), &Run::default());
/// assert_eq!(solution.status, Status::Error);
/// assert!(matches!(failure, Some(Failure::Invalid(_))));
/// ```
pub fn solve_detailed(
    instance: &Instance,
    options: &SolveOptions,
    run: &Run,
) -> (Solution, Option<Failure>) {
    let clock = Instant::now();
    if let Err(invalid) = instance.validate() {
        return finish(
            instance,
            Outcome::failed(Failure::Invalid(invalid)),
            None,
            clock,
        );
    }
    if options.time_limit.is_nan() || options.time_limit < 0.0 {
        let failure = Failure::TimeLimit(options.time_limit);
        return finish(instance, Outcome::failed(failure), None, clock);
    }
    // One deadline for the whole instance, compiling included.
    let run = Run {
        deadline: Some(clock + Duration::from_secs_f64(options.time_limit.min(1e9))),
        ..run.clone()
    };
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
                None => search(&problem, options, &run),
                Some(chunks) => search_unchunked(&problem, options, &run, chunks),
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
        Err(refusal) => (Outcome::failed(refusal.into()), None),
    };
    finish(instance, outcome, schedule, clock)
}

/// The heuristics' effort before [`effort`] adapts it: the default, stopped at the run's
/// deadline.
fn base_effort(run: &Run) -> Effort {
    Effort {
        deadline: run.deadline,
        ..Effort::default()
    }
}

fn search(problem: &Problem, options: &SolveOptions, run: &Run) -> Outcome {
    let cheap = bounds::critical_path(problem).max(bounds::load(problem));
    if !problem.has_capacity_limits() {
        // Nothing competes for agents or resources: earliest starts are optimal.
        return Outcome {
            status: Status::Optimal,
            starts: Some(problem.earliest.clone()),
            bound: Some(cheap),
            reason: None,
            failure: None,
            method: "critical-path".into(),
            milp_ran: false,
            nodes: None,
        };
    }
    // The strongest bound first: the heuristics stop as soon as they meet it.
    let lower = bounds::best_until(problem, None, run.deadline);
    let heuristic = heuristics::best_until(
        problem,
        lower.value,
        effort(problem, options, run),
        &run.cancel,
    );
    let upper = heuristic.as_ref().map(|h| h.makespan(problem));
    let method = heuristic.as_ref().map_or("none", |h| h.rule);
    let cancelled = run.cancel.is_cancelled();
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
                failure: None,
                method: format!("heuristic:{method}"),
                milp_ran: false,
                nodes: None,
            };
        }
    }
    if cancelled {
        return Outcome::failed(Failure::Cancelled);
    }
    if options.heuristic_only {
        return Outcome::failed(Failure::HeuristicOnly);
    }
    // The exact methods get what is left of the instance's time.
    if run.seconds_left(options.time_limit) <= 0.0 {
        if let Some(h) = &heuristic {
            return Outcome {
                status: Status::Feasible,
                starts: Some(h.starts.clone()),
                bound: Some(lower),
                reason: Some(format!(
                    "not proven optimal: the time limit of {} s ran out before the exact methods (--time-limit)",
                    options.time_limit
                )),
                failure: None,
                method: format!("heuristic:{method}"),
                milp_ran: false,
                nodes: None,
            };
        }
    }
    exact::solve(problem, lower, heuristic.as_ref(), options, run)
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
fn search_unchunked(problem: &Problem, options: &SolveOptions, run: &Run, chunks: u64) -> Outcome {
    let lower = bounds::critical_path(problem).max(bounds::load(problem));
    let Some(h) = heuristics::best_until(problem, lower.value, base_effort(run), &run.cancel)
    else {
        return Outcome::failed(Failure::TooManyChunks {
            chunks,
            limit: options.max_chunks,
        });
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
        failure: None,
        method: format!("heuristic:{}", h.rule),
        milp_ran: false,
        nodes: None,
    }
}

/// The heuristics' effort: a twentieth of the samples where an exact search over time or
/// the constraint model takes the problem, which need only a horizon to start from and find
/// the optimum on their own; and no polishing where the search over time takes it.
fn effort(problem: &Problem, options: &SolveOptions, run: &Run) -> Effort {
    let mut effort = base_effort(run);
    if options.heuristic_only {
        return effort;
    }
    let over_time = crate::exact::agent_search::applies(problem);
    if over_time || crate::exact::cp::method::runs(problem, options, run) {
        effort.samples = effort.samples.div_ceil(20);
    }
    effort.polish &= !over_time;
    effort
}

fn finish(
    instance: &Instance,
    outcome: Outcome,
    schedule: Option<Result<Vec<ScheduledActivity>, Failure>>,
    clock: Instant,
) -> (Solution, Option<Failure>) {
    let mut failure = outcome.failure;
    let mut solution = Solution {
        lower_bound: outcome.bound.map(|b| b.value),
        bound_source: outcome.bound.map(|b| b.source),
        reason: failure.as_ref().map(Failure::to_string).or(outcome.reason),
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
            Err(internal) => {
                solution.status = internal.status();
                solution.reason = Some(internal.to_string());
                failure = Some(internal);
            }
        }
    }
    solution.seconds = clock.elapsed().as_secs_f64();
    (solution, failure)
}

/// Turns start times into a schedule with agents, and refuses it unless the verifier
/// finds no violation: a solver bug must never become an oracle reference.
fn checked_schedule(
    instance: &Instance,
    problem: &Problem,
    starts: &[i64],
) -> Result<Vec<ScheduledActivity>, Failure> {
    let agents = assign::agents(problem, starts)
        .ok_or_else(|| Failure::Internal("the schedule needs more agents than exist".into()))?;
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
        Err(Failure::Internal(format!(
            "the solver's schedule failed verification: {}",
            details.join("; ")
        )))
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

    /// Solves `instance` and checks that the typed failure and the solution agree: the
    /// failure's text is the reason, its status the solution's.
    fn failure_of(instance: &Instance, options: &SolveOptions) -> Option<Failure> {
        let (s, failure) = solve_detailed(instance, options, &Run::default());
        if let Some(f) = &failure {
            assert_eq!(s.status, f.status());
            assert_eq!(s.reason, Some(f.to_string()));
            assert!(s.schedule.is_empty());
        }
        failure
    }

    #[test]
    fn invalid_and_unsupported_instances_are_errors_with_the_reason() {
        let mut invalid = chain(Some(1));
        invalid.activities[0].duration = -2;
        let s = solve(&invalid, &SolveOptions::default());
        assert_eq!(s.status, Status::Error);
        assert!(s.reason.unwrap().starts_with("invalid instance"));
        let failure = failure_of(&invalid, &SolveOptions::default());
        assert!(matches!(failure, Some(Failure::Invalid(_))), "{failure:?}");

        let mut preemptive = chain(Some(2));
        preemptive.activities[1].preemptible = true;
        let s = solve(&preemptive, &SolveOptions::default());
        assert_eq!(s.status, Status::Error);
        assert!(s.reason.unwrap().starts_with("not supported yet"));
        assert!(s.schedule.is_empty());
        let failure = failure_of(&preemptive, &SolveOptions::default());
        assert!(
            matches!(failure, Some(Failure::Unsupported(_))),
            "{failure:?}"
        );
    }

    #[test]
    fn every_way_to_end_without_a_schedule_is_typed() {
        let mut cycle = chain(Some(1));
        cycle
            .precedences
            .push(Precedence::finish_to_start("b", "a", 0));
        let failure = failure_of(&cycle, &SolveOptions::default());
        assert!(
            matches!(failure, Some(Failure::Infeasible(_))),
            "{failure:?}"
        );

        let no_time = SolveOptions {
            time_limit: f64::NAN,
            ..SolveOptions::default()
        };
        let failure = failure_of(&chain(Some(1)), &no_time);
        assert!(
            matches!(failure, Some(Failure::TimeLimit(t)) if t.is_nan()),
            "{failure:?}"
        );

        assert_eq!(failure_of(&chain(Some(1)), &SolveOptions::default()), None);
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
