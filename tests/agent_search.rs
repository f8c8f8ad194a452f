//! Property: the exact search over time for one agent ([`makespan::solve::exact::agent_search`]) and the
//! time-indexed MILP find the same optimum on random Recipe2Plan-shaped instances: one
//! cook; continuous, interruptible and autonomous steps; a stove and a microwave; time
//! windows (max lags on every piece); an oven preheat and bake that set and require a
//! temperature. The search prunes with canonical forms (runs of free chunks, eager
//! autonomous starts) whose soundness this checks against a method that has none.

use std::num::NonZeroU32;

use makespan::instance::{Activity, AgentUse, Instance, Precedence, Resource, ResourceUse};
use makespan::solve::exact::agent_search;
use makespan::solve::exact::milp::{self, MilpOutcome, MilpSettings};
use makespan::solve::exact::unit_search::SearchOutcome;
use makespan::solve::problem::Problem;
use proptest::prelude::*;

/// `(duration, kind, appliance)`: kind 0 continuous, 1 interruptible, 2 autonomous;
/// appliance 0 none, 1 stove, 2 microwave (never on interruptible steps, as in the data).
type Step = (i64, u8, u8);

fn instances() -> impl Strategy<Value = Instance> {
    (
        proptest::collection::vec((1i64..=4, 0u8..3, 0u8..3), 4..=8),
        proptest::collection::vec(
            (0usize..8, 0usize..8, proptest::option::of(0i64..=3)),
            0..=8,
        ),
        any::<bool>(),
    )
        .prop_map(|(steps, links, oven)| build(&steps, &links, oven))
}

fn build(steps: &[Step], links: &[(usize, usize, Option<i64>)], oven: bool) -> Instance {
    let mut activities: Vec<Activity> = steps
        .iter()
        .enumerate()
        .map(|(i, &(d, kind, appliance))| {
            let mut a = Activity::new(format!("s{i}"), d);
            match kind {
                1 => a.preemptible = d >= 2,
                2 => a.agent = AgentUse::StartInstant,
                _ => {}
            }
            if !a.preemptible && appliance > 0 {
                a.uses.push(ResourceUse {
                    resource: ["stove", "microwave"][usize::from(appliance) - 1].into(),
                    amount: 1,
                });
            }
            a
        })
        .collect();
    let n = activities.len();
    let mut seen = std::collections::HashSet::new();
    let mut precedences: Vec<Precedence> = links
        .iter()
        .filter(|&&(i, j, _)| i < j && j < n && seen.insert((i, j)))
        .map(|&(i, j, window)| Precedence {
            max_lag: window,
            ..Precedence::finish_to_start(format!("s{i}"), format!("s{j}"), 0)
        })
        .collect();
    let mut resources = vec![
        Resource {
            id: "stove".into(),
            capacity: 1,
            states: Vec::new(),
        },
        Resource {
            id: "microwave".into(),
            capacity: 1,
            states: Vec::new(),
        },
    ];
    if oven {
        // An autonomous preheat to 350, and a bake that needs 350 after it.
        let mut preheat = Activity::new("preheat", 2);
        preheat.agent = AgentUse::StartInstant;
        preheat.sets.insert("oven.temperature".into(), 350.into());
        let mut bake = Activity::new("bake", 3);
        bake.agent = AgentUse::StartInstant;
        bake.requires.insert("oven.temperature".into(), 350.into());
        for a in [&mut preheat, &mut bake] {
            a.uses.push(ResourceUse {
                resource: "oven".into(),
                amount: 1,
            });
        }
        activities.extend([preheat, bake]);
        precedences.push(Precedence::finish_to_start("preheat", "bake", 0));
        resources.push(Resource {
            id: "oven".into(),
            capacity: 1,
            states: vec!["temperature".into()],
        });
    }
    Instance {
        activities,
        precedences,
        resources,
        ..Instance::new("random-recipe", Some(1))
    }
}

/// The MILP's proven optimum within `horizon` (`None`: nothing ends by it).
fn milp_optimum(problem: &Problem, horizon: i64) -> Option<i64> {
    let settings = MilpSettings {
        time_limit: 60.0,
        threads: NonZeroU32::MIN,
        node_limit: None,
        export_lp: None,
    };
    match milp::solve(problem, horizon, 0, &settings).expect("the MILP runs") {
        MilpOutcome::Infeasible { .. } => None,
        MilpOutcome::Solved {
            makespan, proven, ..
        } => {
            assert!(proven, "the MILP did not prove its optimum");
            Some(makespan)
        }
        other => panic!("the MILP stopped: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn search_optimum_equals_milp_optimum(instance in instances()) {
        instance.validate().expect("a valid instance");
        let Ok(problem) = Problem::compile_scaled(&instance) else {
            // A positive lag cycle: infeasible before any search.
            return Ok(());
        };
        prop_assert!(agent_search::applies(&problem));
        let horizon: i64 = problem.durations.iter().sum::<i64>() * 2 + 8;
        let exact = milp_optimum(&problem, horizon);
        match agent_search::search(&problem, horizon + 1, 60.0) {
            SearchOutcome::Optimal { makespan, .. } => prop_assert_eq!(Some(makespan), exact),
            SearchOutcome::NoneShorter => prop_assert_eq!(None, exact),
            SearchOutcome::GaveUp => prop_assert!(false, "the search gave up on a tiny instance"),
        }
    }
}

/// The canonical forms at work: two free interruptible steps and an autonomous one that
/// must wait for a window; the search still finds the MILP's optimum.
#[test]
fn runs_of_free_chunks_keep_the_optimum() {
    let steps = [(3, 1, 0), (3, 1, 0), (2, 2, 1), (2, 0, 1), (1, 0, 0)];
    let links = [(2, 3, Some(0)), (0, 4, None), (3, 4, Some(1))];
    let instance = build(&steps, &links, true);
    let problem = Problem::compile_scaled(&instance).unwrap();
    let exact = milp_optimum(&problem, 40);
    let SearchOutcome::Optimal { makespan, .. } = agent_search::search(&problem, 41, 60.0) else {
        panic!("no optimum found");
    };
    assert_eq!(Some(makespan), exact);
}
