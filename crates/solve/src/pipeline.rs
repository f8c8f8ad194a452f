//! The solve pipeline for one instance: validate, compile, bound, heuristic, MILP if the
//! bounds leave a gap, then verify. Exact means proven: `optimal` is reported only when a
//! lower bound (combinatorial, or HiGHS's) meets the schedule, and every schedule passes
//! the independent verifier before it is returned.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Instant;

use crate::assign;
use crate::bounds::{self, LowerBound};
use crate::exact::milp::{self, MilpOutcome, MilpSettings};
use crate::heuristics::{self, Effort};
use crate::problem::{Problem, Refusal};
use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{BoundSource, Solution, Status};

/// How to solve.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// Wall-clock seconds for the MILP of one instance.
    pub time_limit: f64,
    /// HiGHS threads per instance.
    pub threads: NonZeroU32,
    /// Branch-and-bound nodes the MILP of one instance may explore; `None` for no limit.
    pub node_limit: Option<u64>,
    /// Write the MILP (if one is built) to this LP file.
    pub export_lp: Option<PathBuf>,
    /// Stop after bounds and heuristics: never run the MILP.
    pub heuristic_only: bool,
    pub effort: Effort,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: 60.0,
            threads: NonZeroU32::MIN,
            node_limit: None,
            export_lp: None,
            heuristic_only: false,
            effort: Effort::default(),
        }
    }
}

/// What the search established, before it becomes a [`Solution`].
struct Outcome {
    status: Status,
    starts: Option<Vec<i64>>,
    bound: Option<LowerBound>,
    reason: Option<String>,
    method: String,
    milp_ran: bool,
    nodes: Option<u64>,
}

impl Outcome {
    fn refused(status: Status, reason: String) -> Outcome {
        Outcome {
            status,
            starts: None,
            bound: None,
            reason: Some(reason),
            method: "validation".into(),
            milp_ran: false,
            nodes: None,
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
    let (outcome, schedule) = match Problem::compile_scaled(instance) {
        Ok(problem) => {
            let mut outcome = search(&problem, options);
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
    let lower = bounds::best(problem, None);
    let heuristic = heuristics::best(problem, lower.value, effort(problem, options));
    let upper = heuristic.as_ref().map(|h| h.makespan(problem));
    let method = heuristic.as_ref().map_or("none", |h| h.rule);
    if let (Some(h), Some(u)) = (&heuristic, upper) {
        if u <= lower.value || options.heuristic_only {
            return Outcome {
                status: if u <= lower.value {
                    Status::Optimal
                } else {
                    Status::Feasible
                },
                starts: Some(h.starts.clone()),
                bound: Some(lower),
                reason: (u > lower.value).then(|| {
                    "not proven optimal: --heuristic-only skips the MILP; lower_bound and gap say how far from optimal it can be".to_string()
                }),
                method: format!("heuristic:{method}"),
                milp_ran: false,
                nodes: None,
            };
        }
    }
    if let Some(outcome) = exhaustive(problem, options, heuristic.as_ref(), lower) {
        return outcome;
    }
    if options.heuristic_only {
        return Outcome::refused(
            Status::Error,
            "the heuristics found no schedule that meets every maximum lag; run without --heuristic-only".into(),
        );
    }
    exact(problem, options, heuristic.map(|h| h.starts), lower)
}

/// The heuristics' effort: a twentieth of the samples where an exact search over time
/// applies, which needs only a bound to prune with and finds the optimum on its own.
fn effort(problem: &Problem, options: &SolveOptions) -> heuristics::Effort {
    let mut effort = options.effort;
    if !options.heuristic_only && crate::exact::agent_search::applies(problem) {
        effort.samples = effort.samples.div_ceil(20);
    }
    effort
}

/// An exact search over time for one agent (doing unit steps, or work of any length),
/// when one applies and finishes in time: the optimum, or the proof that the heuristic's
/// `upper` is one.
fn exhaustive(
    problem: &Problem,
    options: &SolveOptions,
    heuristic: Option<&heuristics::Heuristic>,
    lower: LowerBound,
) -> Option<Outcome> {
    use crate::exact::unit_search::SearchOutcome;
    if options.heuristic_only {
        return None;
    }
    let search = if crate::exact::unit_search::applies(problem) {
        crate::exact::unit_search::search
    } else if crate::exact::agent_search::applies(problem) {
        crate::exact::agent_search::search
    } else {
        return None;
    };
    let upper = heuristic.map_or_else(|| safe_horizon(problem) + 1, |h| h.makespan(problem));
    let proven = |value| {
        Some(lower.max(LowerBound {
            value,
            source: BoundSource::Search,
        }))
    };
    let (starts, method, bound) = match search(problem, upper, options.time_limit) {
        SearchOutcome::GaveUp => return None,
        SearchOutcome::NoneShorter => match heuristic {
            Some(h) => (h.starts.clone(), "heuristic+search", proven(upper)),
            None => {
                return Some(Outcome::refused(
                    Status::Infeasible,
                    format!("the exhaustive search found no schedule ending by {}, which every feasible schedule can meet", upper - 1),
                ))
            }
        },
        SearchOutcome::Optimal { mut starts, makespan } => {
            starts.extend([0, makespan]);
            (starts, "search", proven(makespan))
        }
    };
    Some(Outcome {
        status: Status::Optimal,
        starts: Some(starts),
        bound,
        reason: None,
        method: method.into(),
        milp_ran: false,
        nodes: None,
    })
}

/// Runs the MILP on the horizon `upper − 1` (a shorter schedule exists?) or, without a
/// heuristic schedule, on a horizon every feasible instance fits in.
fn exact(
    problem: &Problem,
    options: &SolveOptions,
    heuristic: Option<Vec<i64>>,
    lower: LowerBound,
) -> Outcome {
    let settings = MilpSettings {
        time_limit: options.time_limit,
        threads: options.threads,
        node_limit: options.node_limit,
        export_lp: options.export_lp.clone(),
    };
    let sink = problem.network.sink();
    let upper = heuristic.as_ref().map(|s| s[sink]);
    let horizon = upper.map_or_else(|| safe_horizon(problem), |u| u - 1);
    let milp_bound = |value: i64| {
        lower.max(LowerBound {
            value,
            source: BoundSource::Milp,
        })
    };
    let outcome = |status, starts, bound, nodes| Outcome {
        status,
        starts,
        bound: Some(bound),
        reason: None,
        method: "milp".into(),
        milp_ran: true,
        nodes: Some(nodes),
    };
    match milp::solve(problem, horizon, lower.value, &settings) {
        Err(message) => Outcome {
            milp_ran: true,
            ..Outcome::refused(Status::Error, message)
        },
        Ok(MilpOutcome::Infeasible { nodes }) => match heuristic {
            // Nothing shorter than the heuristic's schedule exists: it is optimal.
            Some(starts) => Outcome {
                method: "heuristic+milp".into(),
                ..outcome(Status::Optimal, Some(starts), milp_bound(horizon + 1), nodes)
            },
            None => Outcome {
                reason: Some(format!(
                    "HiGHS proved that no schedule ends by {horizon}, which every feasible schedule of this instance can meet (the sum over activities of the longer of duration and largest outgoing lag, after the latest release)"
                )),
                bound: None,
                ..outcome(Status::Infeasible, None, lower, nodes)
            },
        },
        Ok(MilpOutcome::Solved {
            starts,
            makespan,
            bound,
            proven,
            nodes,
        }) => {
            // Origin at 0 and sink at the makespan, like every other node list.
            let mut full = starts;
            full.extend([0, makespan]);
            let bound = milp_bound(bound);
            if proven || bound.value >= makespan {
                outcome(Status::Optimal, Some(full), bound, nodes)
            } else {
                Outcome {
                    reason: Some(not_proven(options, nodes)),
                    ..outcome(Status::Feasible, Some(full), bound, nodes)
                }
            }
        }
        Ok(MilpOutcome::TooLarge { variables }) => Outcome {
            status: if heuristic.is_some() { Status::Feasible } else { Status::Error },
            starts: heuristic,
            bound: Some(lower),
            reason: Some(format!(
                "not proven: the time-indexed MILP on a horizon of {horizon} time units would need {variables} variables or capacity rows (more than {})",
                milp::MAX_VARIABLES
            )),
            method: "heuristic".into(),
            milp_ran: false,
            nodes: None,
        },
        Ok(MilpOutcome::Stopped { bound, nodes }) => {
            let bound = bound.map_or(lower, |b| milp_bound(b.min(horizon + 1)));
            Outcome {
                method: if heuristic.is_some() { "heuristic".into() } else { "milp".into() },
                reason: Some(if heuristic.is_some() {
                    not_proven(options, nodes)
                } else {
                    format!("no schedule found: {}", stopped_by(options, nodes))
                }),
                ..outcome(
                    if heuristic.is_some() { Status::Feasible } else { Status::Error },
                    heuristic,
                    bound,
                    nodes,
                )
            }
        }
    }
}

/// Why a schedule is `feasible` but not `optimal` after the MILP stopped early.
fn not_proven(options: &SolveOptions, nodes: u64) -> String {
    format!(
        "not proven optimal: {}; lower_bound and gap say how far from optimal it can be",
        stopped_by(options, nodes)
    )
}

/// Which limit stopped HiGHS: the node limit when it was reached, else the time limit.
fn stopped_by(options: &SolveOptions, nodes: u64) -> String {
    match options.node_limit {
        Some(limit) if nodes >= limit => {
            format!("the MILP stopped at the node limit of {limit} (--node-limit)")
        }
        _ => format!(
            "the MILP stopped at the time limit of {} s (--time-limit) after {nodes} nodes",
            options.time_limit
        ),
    }
}

/// A horizon that any feasible instance can meet: after the latest release, activities one
/// after another, each followed by its largest outgoing lag and its longest setup.
pub(crate) fn safe_horizon(problem: &Problem) -> i64 {
    let n = problem.len();
    let mut span: Vec<i64> = problem.durations[..n].to_vec();
    let mut release = 0;
    for a in problem.network.arcs() {
        if a.from < n && a.forward {
            span[a.from] = span[a.from].max(a.weight);
        } else if a.from == problem.network.origin() && a.forward {
            release = release.max(a.weight);
        }
    }
    // The agent may have to move after each activity.
    if let Some(setups) = &problem.setups {
        for (j, span) in span.iter_mut().enumerate() {
            *span += setups.station[j].map_or(0, |u| setups.longest_from(u));
        }
    }
    release + span.iter().sum::<i64>()
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
