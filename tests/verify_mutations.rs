//! Mutation testing of the verifier: random small instances get a valid schedule from a
//! simple greedy built here (independently of any solver), which must verify clean; then
//! one mutation that breaks a known rule must be reported under that rule.

use makespan::instance::Instance;
use makespan::schedule::{Piece, ScheduledActivity};
use makespan::verify::{verify, Rule};
use proptest::prelude::*;

use crate::common::strategies::mutation_instances;

/// A generated instance: activity `i` may only depend on activities before it, so index
/// order is a topological order.
#[derive(Debug, Clone)]
struct Case {
    instance: Instance,
    schedule: Vec<ScheduledActivity>,
}

fn case() -> impl Strategy<Value = Case> {
    mutation_instances().prop_map(|instance| {
        let schedule = greedy(&instance);
        Case { instance, schedule }
    })
}

/// Serial schedule generation in index order: each activity at the earliest time its
/// predecessors, the earliest free agent and the pot allow, in one piece.
fn greedy(instance: &Instance) -> Vec<ScheduledActivity> {
    let m = instance.agents.unwrap_or(1) as usize;
    let mut agent_free = vec![0i64; m];
    let mut pot_free = 0i64;
    let mut placed: Vec<ScheduledActivity> = Vec::new();
    for a in &instance.activities {
        let mut ready = 0;
        for p in instance.precedences.iter().filter(|p| p.after == a.id) {
            let before = placed
                .iter()
                .find(|s| s.activity == p.before)
                .expect("index order is topological");
            let anchor = match p.relation {
                makespan::instance::Relation::FinishToStart => before.end().unwrap_or(0),
                makespan::instance::Relation::StartToStart => before.start().unwrap_or(0),
            };
            ready = ready.max(anchor + p.min_lag);
        }
        if !a.uses.is_empty() {
            ready = ready.max(pot_free);
        }
        let agent = (0..m).min_by_key(|&k| agent_free[k]).unwrap_or(0);
        let start = ready.max(agent_free[agent]);
        agent_free[agent] = start + a.duration;
        if !a.uses.is_empty() {
            pot_free = start + a.duration;
        }
        placed.push(ScheduledActivity::at(
            a.id.clone(),
            Some(agent as u32),
            start,
            a.duration,
        ));
    }
    placed
}

/// A change to a valid schedule, and the rule it must trigger.
#[derive(Debug, Clone, Copy)]
enum Mutation {
    /// Start a successor `by` units before its precedence allows.
    ShiftBeforePredecessor {
        edge: usize,
        by: i64,
    },
    /// Move an activity onto another's agent so that they overlap.
    MoveOntoBusyAgent {
        moved: usize,
        onto: usize,
        offset: i64,
    },
    Drop {
        which: usize,
    },
    Duplicate {
        which: usize,
    },
    /// Split a non-preemptible activity, leaving a gap.
    Split {
        which: usize,
        gap: i64,
    },
    /// Run two activities that use the unary pot at the same time.
    ShareThePot {
        moved: usize,
        onto: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0usize..64, 1i64..=3).prop_map(|(edge, by)| Mutation::ShiftBeforePredecessor { edge, by }),
        (0usize..64, 0usize..64, 0i64..6).prop_map(|(moved, onto, offset)| {
            Mutation::MoveOntoBusyAgent {
                moved,
                onto,
                offset,
            }
        }),
        (0usize..64).prop_map(|which| Mutation::Drop { which }),
        (0usize..64).prop_map(|which| Mutation::Duplicate { which }),
        (0usize..64, 0i64..=3).prop_map(|(which, gap)| Mutation::Split { which, gap }),
        (0usize..64, 0usize..64).prop_map(|(moved, onto)| Mutation::ShareThePot { moved, onto }),
    ]
}

fn start_of(s: &ScheduledActivity) -> i64 {
    s.start().unwrap_or(0)
}

/// Applies the mutation; `None` when it does not apply to this case.
fn apply(case: &Case, mutation: Mutation) -> Option<(Vec<ScheduledActivity>, Rule)> {
    let inst = &case.instance;
    let mut plan = case.schedule.clone();
    let n = plan.len();
    let index = |id: &str| plan.iter().position(|s| s.activity == id);
    let rule = match mutation {
        Mutation::ShiftBeforePredecessor { edge, by } => {
            let p = inst.precedences.get(edge % inst.precedences.len().max(1))?;
            let (b, a) = (index(&p.before)?, index(&p.after)?);
            let anchor = match p.relation {
                makespan::instance::Relation::FinishToStart => plan[b].end()?,
                makespan::instance::Relation::StartToStart => plan[b].start()?,
            };
            let d = inst.activities[a].duration;
            let start = anchor + p.min_lag - by;
            plan[a].pieces = vec![Piece(start, start + d)];
            Rule::PrecedenceViolated
        }
        Mutation::MoveOntoBusyAgent {
            moved,
            onto,
            offset,
        } => {
            let (x, y) = (moved % n, onto % n);
            if x == y {
                return None;
            }
            let start = start_of(&plan[y]) + offset % inst.activities[y].duration;
            plan[x].agent = plan[y].agent;
            plan[x].pieces = vec![Piece(start, start + inst.activities[x].duration)];
            Rule::AgentDoubleBooked
        }
        Mutation::Drop { which } => {
            plan.remove(which % n);
            Rule::MissingActivity
        }
        Mutation::Duplicate { which } => {
            let copy = plan[which % n].clone();
            plan.push(copy);
            Rule::DuplicateActivity
        }
        Mutation::Split { which, gap } => {
            let i = which % n;
            let a = &inst.activities[i];
            if a.preemptible || a.duration < 2 {
                return None;
            }
            let s = start_of(&plan[i]);
            plan[i].pieces = vec![Piece(s, s + 1), Piece(s + 1 + gap, s + a.duration + gap)];
            Rule::NotPreemptible
        }
        Mutation::ShareThePot { moved, onto } => {
            let (x, y) = (moved % n, onto % n);
            if x == y || inst.activities[x].uses.is_empty() || inst.activities[y].uses.is_empty() {
                return None;
            }
            let start = start_of(&plan[y]);
            plan[x].pieces = vec![Piece(start, start + inst.activities[x].duration)];
            Rule::ResourceOverCapacity
        }
    };
    Some((plan, rule))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn greedy_schedules_verify_clean(case in case()) {
        case.instance.validate().expect("generated instances are well-formed");
        let report = verify(&case.instance, &case.schedule);
        prop_assert!(report.valid, "{}", report.render_text());
        let latest = case.schedule.iter().filter_map(ScheduledActivity::end).max();
        prop_assert_eq!(report.makespan, latest);
    }

    #[test]
    fn every_mutation_is_reported_under_its_rule(case in case(), mutation in mutation()) {
        let applied = apply(&case, mutation);
        prop_assume!(applied.is_some());
        let Some((plan, rule)) = applied else { unreachable!() };
        let report = verify(&case.instance, &plan);
        prop_assert!(!report.valid);
        prop_assert!(
            report.violations.iter().any(|v| v.rule == rule),
            "{:?} should give {:?}:\n{}",
            mutation,
            rule,
            report.render_text()
        );
    }

    #[test]
    fn arbitrary_schedules_never_panic(
        case in case(),
        entries in prop::collection::vec(
            (0usize..10, prop::option::of(0u32..5), prop::collection::vec((any::<i64>(), any::<i64>()), 0..3)),
            0..12,
        ),
    ) {
        let schedule: Vec<ScheduledActivity> = entries
            .into_iter()
            .map(|(i, agent, pieces)| ScheduledActivity {
                activity: case.instance.activities.get(i).map_or("ghost".to_string(), |a| a.id.clone()),
                agent,
                pieces: pieces.into_iter().map(|(s, e)| Piece(s, e)).collect(),
            })
            .collect();
        let report = verify(&case.instance, &schedule);
        prop_assert_eq!(report.valid, report.violations.is_empty());
        prop_assert!(!report.render_text().is_empty());
    }
}
