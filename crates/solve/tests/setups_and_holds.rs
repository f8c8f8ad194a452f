//! Setups and holds are general features: on random one-agent instances with stations,
//! travel times, lags and held resources, the time-indexed MILP (src/milp/setups.rs,
//! src/milp/holds.rs) and the exact unit-step search must agree on the optimum, and the
//! dispatching heuristic's schedules must pass the independent verifier.

use std::num::NonZeroU32;

use makespan_model::instance::{Activity, Hold, Instance, Precedence, Relation, Resource, Setup};
use makespan_solve::internals::heuristics::{self, Effort};
use makespan_solve::internals::milp::{self, MilpOutcome, MilpSettings};
use makespan_solve::internals::unit_search::{search, SearchOutcome};
use makespan_solve::internals::Problem;
use makespan_solve::Cancel;
use makespan_verify::verify;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::common::unit_steps;

/// `n` unit activities at 3 stations (travel 1 or 2, a metric), a few lags, and items that
/// hold one shared shelf from their `put` to their `pick`.
fn random(seed: u64) -> Instance {
    let mut rng = SmallRng::seed_from_u64(seed);
    let n = rng.random_range(5..=9);
    let mut inst = Instance::new(format!("random-{seed}"), Some(1));
    for j in 0..n {
        let mut a = Activity::new(format!("a{j}"), 1);
        a.station = Some(format!("s{}", rng.random_range(0..3)));
        inst.activities.push(a);
    }
    for j in 1..n {
        if rng.random_bool(0.5) {
            let i = rng.random_range(0..j);
            inst.precedences.push(Precedence {
                relation: Relation::StartToStart,
                min_lag: rng.random_range(1..=4),
                ..Precedence::finish_to_start(format!("a{i}"), format!("a{j}"), 0)
            });
        }
    }
    let used: std::collections::BTreeSet<String> = inst
        .activities
        .iter()
        .filter_map(|a| a.station.clone())
        .collect();
    // s0–s1 far (2), everything else near (1): a metric.
    for u in &used {
        for v in used.iter().filter(|v| *v != u) {
            let far = (u == "s0" && v == "s1") || (u == "s1" && v == "s0");
            inst.setups.push(Setup {
                from: u.clone(),
                to: v.clone(),
                time: if far { 2 } else { 1 },
            });
        }
    }
    inst.resources.push(Resource {
        id: "shelf".into(),
        capacity: 1,
        states: vec![],
    });
    for (put, pick) in [(0, 1), (2, 3)] {
        if pick < n && rng.random_bool(0.7) {
            inst.precedences.push(Precedence::finish_to_start(
                format!("a{put}"),
                format!("a{pick}"),
                0,
            ));
            inst.holds.push(Hold {
                resource: "shelf".into(),
                amount: 1,
                from: Some(format!("a{put}")),
                until: Some(format!("a{pick}")),
            });
        }
    }
    inst
}

#[test]
fn milp_and_search_agree_and_schedules_verify() {
    let settings = MilpSettings {
        time_limit: 30.0,
        threads: NonZeroU32::MIN,
        export_lp: None,
        node_limit: None,
        cancel: Cancel::new(),
    };
    for seed in 0..25 {
        let inst = random(seed);
        inst.validate().unwrap();
        let problem = Problem::compile(&inst).unwrap();
        let heuristic = heuristics::best(&problem, 0, Effort::default()).expect("a schedule");
        let upper = heuristic.makespan(&problem);
        let report = verify(
            &inst,
            &unit_steps(&inst, &heuristic.starts[..inst.activities.len()]),
        );
        assert!(report.valid, "{seed}: {}", report.render_text());

        let by_search = match search(&problem, upper, 30.0, &Cancel::new()) {
            SearchOutcome::Optimal { starts, makespan } => {
                assert!(verify(&inst, &unit_steps(&inst, &starts)).valid, "{seed}");
                makespan
            }
            SearchOutcome::NoneShorter => upper,
            SearchOutcome::GaveUp => panic!("{seed}: search gave up"),
        };
        let by_milp = match milp::solve(&problem, upper - 1, 0, &settings).unwrap() {
            MilpOutcome::Infeasible { .. } => upper,
            MilpOutcome::Solved {
                starts,
                makespan,
                proven,
                ..
            } => {
                assert!(proven, "{seed}");
                let report = verify(&inst, &unit_steps(&inst, &starts));
                assert!(report.valid, "{seed}: {}", report.render_text());
                makespan
            }
            other => panic!("{seed}: {other:?}"),
        };
        assert_eq!(by_search, by_milp, "seed {seed}");
        // With a loose bound the search must find the optimum itself (its pruning and
        // dominance, not the heuristic, decide).
        match search(&problem, upper + 3, 30.0, &Cancel::new()) {
            SearchOutcome::Optimal { makespan, .. } => assert_eq!(makespan, by_milp, "{seed}"),
            other => panic!("{seed}: {other:?}"),
        }
    }
}
