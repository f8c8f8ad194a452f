//! Solving a simulated world (an instance whose benchmark's simulator is its rule book):
//! the scheduling engine bounds it, the benchmark's search finds the plan, the simulator
//! replays the plan before it becomes a solution.
//!
//! Why the engine first: a world instance's activities are a relaxation of the world (the
//! benchmark fixes the choices a plan makes and writes travel as lags), so their optimum is a
//! lower bound on the world's. Handed to the search as [`Limits::known_bound`], it ends the
//! search at the first plan that meets it, and it is the bound a capped search reports when
//! its own is weaker.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use makespan_benchmarks::{Limits, Simulated, WorldSolution};
use makespan_model::solution::BoundSource;
use makespan_solve::{Run, SolveOptions};

use makespan_model::instance::{Activity, Precedence};
use makespan_model::schedule::ScheduledActivity;

use crate::{Instance, Solution, Status};

/// The share of the time limit the relaxation may take; the search gets the rest.
const RELAXATION_SHARE: f64 = 0.25;

/// Solves a world instance with its simulator in `run`; never panics, every failure an
/// `error` solution with the reason.
pub(crate) fn solve(
    instance: &Instance,
    simulator: &dyn Simulated,
    options: &SolveOptions,
    run: &Run,
) -> Solution {
    let started = Instant::now();
    let relaxed = makespan_solve::solve_detailed(
        instance,
        &SolveOptions {
            time_limit: options.time_limit * RELAXATION_SHARE,
            export_lp: None,
            ..options.clone()
        },
        run,
    )
    .0;
    let known_bound = relaxed.lower_bound.unwrap_or(0).max(0);
    let cancel = run.cancel.clone();
    let limits = Limits {
        time: Some(Duration::from_secs_f64(
            (options.time_limit - started.elapsed().as_secs_f64()).max(0.0),
        )),
        known_bound,
        cancel: Some(Arc::new(move || cancel.is_cancelled())),
        ..Limits::default()
    };
    let mut solution = match simulator.solve(instance, &limits) {
        Ok(found) => checked(instance, simulator, found, known_bound),
        Err(error) => Solution {
            reason: Some(error.to_string()),
            ..Solution::new(instance, Status::Error, "world")
        },
    };
    solution.seconds = started.elapsed().as_secs_f64();
    solution
}

/// The search's result as a solution, its plan replayed first: a plan the simulator refuses
/// is an error (a defect of makespan, reported as such), never a schedule.
fn checked(
    instance: &Instance,
    simulator: &dyn Simulated,
    found: WorldSolution,
    known_bound: i64,
) -> Solution {
    let mut solution = Solution {
        reason: found.reason,
        ..Solution::new(instance, found.status, found.method)
    };
    let bound = found.lower_bound.unwrap_or(0).max(known_bound);
    if found.plan.is_empty() && !matches!(found.status, Status::Optimal | Status::Feasible) {
        if found.status != Status::Infeasible {
            solution.lower_bound = Some(bound);
            solution.bound_source = Some(BoundSource::World);
        }
        return solution;
    }
    let report = simulator.replay(instance, &found.plan);
    let Some(makespan) = report.makespan.filter(|_| report.valid) else {
        let first = report
            .violations
            .first()
            .map_or_else(|| "no step placed".to_string(), ToString::to_string);
        solution.status = Status::Error;
        solution.reason = Some(format!(
            "the simulator refuses the plan its search returned, a defect of makespan (please report it): {first}"
        ));
        return solution;
    };
    let proven = found.status == Status::Optimal || bound >= makespan;
    solution.status = if proven {
        Status::Optimal
    } else {
        Status::Feasible
    };
    let bound = if proven { makespan } else { bound };
    solution.makespan = Some(makespan);
    solution.lower_bound = Some(bound);
    solution.bound_source = Some(BoundSource::World);
    solution.gap = Some(if makespan > 0 {
        (makespan - bound) as f64 / makespan as f64
    } else {
        0.0
    });
    if proven {
        solution.reason = None;
    }
    solution.schedule = found.plan;
    solution
}

/// A plan and its reference as explanations and pictures read them: activity graphs.
///
/// A simulated world's plan names actions, not the activities of its instance (those are a
/// relaxation), so its steps become activities of their own, named by their number and
/// action (`3: Move robot1 from table1 to stove1`; the reference's `reference 3: …`), on
/// the agents that took them; a simulator that can say more draws them itself
/// ([`makespan_benchmarks::Simulated::draw`]: the world's time axis, its stations as
/// resource lanes).
/// Any other plan is drawn as it is.
#[derive(Debug, Clone)]
pub struct Drawing {
    /// The instance the schedules are drawn against.
    pub instance: Instance,
    /// The plan.
    pub schedule: Vec<ScheduledActivity>,
    /// The reference, drawn below the plan on the same time axis.
    pub reference: Option<Vec<ScheduledActivity>>,
    /// Whether the plan and the reference share activities, so that the time the plan lost
    /// against the reference can be split by activity (not so for a world's two plans).
    pub comparable: bool,
}

impl Drawing {
    /// The drawing of `schedule` (and `reference`) of `instance`.
    pub fn new(
        instance: &Instance,
        schedule: &[ScheduledActivity],
        reference: Option<&[ScheduledActivity]>,
    ) -> Drawing {
        let Some(simulator) = makespan_benchmarks::simulated_of(instance) else {
            return Drawing {
                instance: labelled(instance, schedule, reference),
                schedule: schedule.to_vec(),
                reference: reference.map(<[_]>::to_vec),
                comparable: true,
            };
        };
        let mut graph = Instance {
            time_unit: instance.time_unit,
            ..Instance::new(&instance.name, instance.agents)
        };
        let mut drawn = |plan: &[ScheduledActivity], prefix: &str| {
            simulator
                .draw(instance, plan, prefix, &mut graph)
                .unwrap_or_else(|| steps_as_activities(&mut graph, plan, prefix))
        };
        let schedule = drawn(schedule, "");
        let reference = reference.map(|r| drawn(r, "reference "));
        Drawing {
            instance: graph,
            schedule,
            reference,
            comparable: false,
        }
    }
}

/// The instance with its activities labelled as the benchmark's answer written from the plan
/// names them (the pool container an action used, not its `{container}` slot), and where
/// the reference's answer names another, that one too: both share one instance.
fn labelled(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    reference: Option<&[ScheduledActivity]>,
) -> Instance {
    let mut instance = instance.clone();
    let Some(answers) = makespan_benchmarks::benchmark_of(&instance).and_then(|b| b.answers())
    else {
        return instance;
    };
    let Some(ours) = answers.labels(&instance, schedule) else {
        return instance;
    };
    let theirs = reference
        .and_then(|r| answers.labels(&instance, r))
        .unwrap_or_default();
    for activity in &mut instance.activities {
        let Some(text) = ours.get(&activity.id) else {
            continue;
        };
        activity.label = Some(match theirs.get(&activity.id) {
            Some(other) if other != text => format!("{text} (reference: {other})"),
            _ => text.clone(),
        });
    }
    instance
}

/// Each step of a world's plan as an activity of `graph` named `{prefix}{n}: {action}`, and
/// the plan as a schedule of those activities. An agent's steps run one after another, so
/// each follows the agent's step before it: an explanation then walks the plan's chain
/// instead of calling every step free to start at 0.
fn steps_as_activities(
    graph: &mut Instance,
    plan: &[ScheduledActivity],
    prefix: &str,
) -> Vec<ScheduledActivity> {
    let mut last: HashMap<Option<u32>, (String, i64)> = HashMap::new();
    plan.iter()
        .enumerate()
        .map(|(n, step)| {
            let id = format!("{prefix}{}: {}", n + 1, step.activity);
            let (start, end) = (step.start().unwrap_or(0), step.end().unwrap_or(0));
            graph.activities.push(Activity::new(&id, end - start));
            match last.insert(step.agent, (id.clone(), end)) {
                Some((before, ended)) if ended <= start => graph
                    .precedences
                    .push(Precedence::finish_to_start(before, &id, 0)),
                _ => {}
            }
            ScheduledActivity::at(id, step.agent, start, end - start)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use makespan_model::instance::Activity;
    use makespan_model::instance::LoadError;
    use makespan_model::schedule::{Piece, ScheduledActivity};
    use makespan_verify::{Report, Rule, Violation};
    use makespan_world::{search, Outcome, World};

    use super::*;

    /// Reach `goal` from 0 by `+1` (1 time unit) or `x2` (2 units); the optimum for 12 is 7.
    struct Doubling {
        goal: u32,
        /// A defective simulator: its replay refuses every plan.
        refuses: bool,
        max_states: usize,
    }

    impl World for Doubling {
        type State = u32;
        type Action = &'static str;
        fn initial(&self) -> u32 {
            0
        }
        fn is_goal(&self, s: &u32) -> bool {
            *s == self.goal
        }
        fn successors(&self, s: &u32, out: &mut Vec<(&'static str, i64, u32)>) {
            if *s < self.goal {
                out.push(("+1", 1, s + 1));
            }
            if *s > 0 && s * 2 <= self.goal {
                out.push(("x2", 2, s * 2));
            }
        }
        fn lower_bound(&self, _: &u32) -> i64 {
            0
        }
    }

    impl Simulated for Doubling {
        fn solve(&self, _: &Instance, limits: &Limits) -> Result<WorldSolution, LoadError> {
            let limits = Limits {
                max_states: self.max_states,
                ..limits.clone()
            };
            let (status, plan, bound) = match search(self, &limits) {
                Outcome::Optimal(plan) => (Status::Optimal, Some(plan), None),
                Outcome::Feasible { plan, bound } => (Status::Feasible, Some(plan), Some(bound)),
                Outcome::Infeasible => (Status::Infeasible, None, None),
                Outcome::Unknown { bound } => (Status::Error, None, Some(bound)),
            };
            let plan = plan.map_or_else(Vec::new, |plan| {
                plan.steps
                    .iter()
                    .map(|s| ScheduledActivity {
                        activity: s.action.to_string(),
                        agent: Some(0),
                        pieces: vec![Piece(s.start, s.end)],
                    })
                    .collect()
            });
            Ok(WorldSolution {
                status,
                plan,
                lower_bound: bound,
                method: "world:astar".into(),
                reason: (status != Status::Optimal).then(|| "capped".into()),
                states: 0,
            })
        }

        fn replay(&self, instance: &Instance, plan: &[ScheduledActivity]) -> Report {
            let mut value = 0;
            let mut violations = Vec::new();
            for step in plan {
                match step.activity.as_str() {
                    "+1" => value += 1,
                    "x2" => value *= 2,
                    other => violations.push(Violation::new(
                        Rule::PreconditionFailed,
                        vec![other.into()],
                        step.start(),
                        "no such action".into(),
                        "use +1 or x2".into(),
                    )),
                }
            }
            if self.refuses || value != self.goal {
                violations.push(Violation::new(
                    Rule::GoalNotReached,
                    Vec::new(),
                    None,
                    format!("ends at {value}"),
                    format!("reach {}", self.goal),
                ));
            }
            Report {
                instance: instance.name.clone(),
                valid: violations.is_empty(),
                violations,
                makespan: plan.iter().filter_map(ScheduledActivity::end).max(),
                busy_time: 0,
                agent_idle_time: None,
                peak_agents: 1,
            }
        }
    }

    /// A world whose relaxation (one activity of `relaxed` units) bounds it from below.
    fn instance(relaxed: i64) -> Instance {
        Instance {
            activities: vec![Activity::new("reach the goal", relaxed)],
            ..Instance::new("doubling", Some(1))
        }
    }

    fn doubling(refuses: bool, max_states: usize) -> Doubling {
        Doubling {
            goal: 12,
            refuses,
            max_states,
        }
    }

    fn solved(world: &Doubling, relaxed: i64) -> Solution {
        solve(
            &instance(relaxed),
            world,
            &SolveOptions::default(),
            &Run::default(),
        )
    }

    #[test]
    fn a_searched_world_is_optimal_with_its_replayed_plan_as_the_schedule() {
        let solution = solved(&doubling(false, 1_000), 1);
        assert_eq!(solution.status, Status::Optimal);
        assert_eq!(
            (solution.makespan, solution.lower_bound),
            (Some(7), Some(7))
        );
        assert_eq!(solution.bound_source, Some(BoundSource::World));
        let actions: Vec<&str> = solution
            .schedule
            .iter()
            .map(|a| a.activity.as_str())
            .collect();
        assert_eq!(actions, ["+1", "+1", "+1", "x2", "x2"]);
        assert!(makespan_benchmarks::recheck(&solution).is_err(), "no simulator is registered for a test world, so the activity graph's rules refuse its plan");
    }

    #[test]
    fn a_plan_the_simulator_refuses_is_an_error_never_a_schedule() {
        let solution = solved(&doubling(true, 1_000), 1);
        assert_eq!(solution.status, Status::Error);
        assert!(solution.schedule.is_empty() && solution.makespan.is_none());
        assert!(solution.reason.unwrap().contains("defect of makespan"));
    }

    #[test]
    fn a_capped_search_keeps_the_relaxations_bound() {
        // Two states kept: no plan yet; the relaxation proves 5, the search only 0.
        let solution = solved(&doubling(false, 2), 5);
        assert_eq!(solution.status, Status::Error);
        assert_eq!(solution.lower_bound, Some(5));
        assert!(solution.schedule.is_empty());
    }
}
