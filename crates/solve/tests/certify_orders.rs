//! Setups and holds in the constraint model, as order variables: on random one-agent
//! instances with stations, travel times, lags and held resources (a one-item shelf and a
//! two-spot pool, holds from time 0 and to the end), the model has a schedule exactly down
//! to the optimum and none shorter (its schedule verifies), the constraint method agrees
//! with the exhaustive unit-step search, every certificate checks, and a model with one
//! order row changed is rejected; an activity busy without a station keeps the method off.

use makespan_certify_check::check;
use makespan_model::instance::{Activity, Hold, Instance, Precedence, Relation, Resource, Setup};
use makespan_model::solution::Status;
use makespan_solve::internals::cp::CpModel;
use makespan_solve::internals::cp::{self, Branching, CpOutcome};
use makespan_solve::internals::unit_search::{search, SearchOutcome};
use makespan_solve::internals::Problem;
use makespan_solve::Cancel;
use makespan_solve::{solve, SolveOptions};
use makespan_verify::verify;
use proptest::prelude::*;

use crate::common::{certified, unit_steps};

/// Unit activities at 3 stations (travel 1, or 2 between s0 and s1), start-to-start lags,
/// a one-item shelf held from a `put` to its `pick`, and a two-spot pool held from time 0
/// until a `pick`, from a `put` until a `pick`, and from a `put` to the end.
fn instances() -> impl Strategy<Value = Instance> {
    (
        proptest::collection::vec(0usize..3, 6..=9),
        proptest::collection::vec(proptest::option::of(1i64..=3), 9),
        proptest::collection::vec(proptest::bool::ANY, 5),
    )
        .prop_map(|(stations, lags, holds)| {
            let n = stations.len();
            let mut inst = Instance::new("orders", Some(1));
            for (j, s) in stations.iter().enumerate() {
                let mut a = Activity::new(format!("a{j}"), 1);
                a.station = Some(format!("s{s}"));
                if *s != 0 {
                    a.release = Some(1);
                }
                inst.activities.push(a);
            }
            for (j, lag) in lags.iter().enumerate().take(n).skip(1) {
                if let Some(lag) = lag {
                    inst.precedences.push(Precedence {
                        relation: Relation::StartToStart,
                        min_lag: *lag,
                        ..Precedence::finish_to_start(format!("a{}", j - 1), format!("a{j}"), 0)
                    });
                }
            }
            for u in 0..3 {
                for v in (0..3).filter(|&v| v != u) {
                    inst.setups.push(Setup {
                        from: format!("s{u}"),
                        to: format!("s{v}"),
                        time: if u + v == 1 { 2 } else { 1 },
                    });
                }
            }
            for (id, capacity) in [("shelf", 1), ("pool", 2)] {
                inst.resources.push(Resource {
                    id: id.into(),
                    capacity,
                    states: vec![],
                });
            }
            let id = |j: usize| Some(format!("a{j}"));
            // (resource, from, until): each taken where its flag is set.
            let spans = [
                ("shelf", id(0), id(2)),
                ("shelf", id(3), id(5)),
                ("pool", None, id(1)),
                ("pool", id(2), id(4)),
                ("pool", id(5), None),
            ];
            for ((resource, from, until), keep) in spans.into_iter().zip(holds) {
                if !keep {
                    continue;
                }
                if let (Some(f), Some(u)) = (&from, &until) {
                    inst.precedences
                        .push(Precedence::finish_to_start(f.clone(), u.clone(), 0));
                }
                inst.holds.push(Hold {
                    resource: resource.into(),
                    amount: 1,
                    from,
                    until,
                });
            }
            inst
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The model's rows are exact: a schedule of the optimum's length is found, and it
    /// keeps every rule; none is shorter.
    #[test]
    fn the_model_with_orders_has_the_optimum_and_nothing_shorter(instance in instances()) {
        let solution = solve(&instance, &SolveOptions::default());
        prop_assume!(solution.status == Status::Optimal);
        let optimum = solution.makespan.unwrap();
        let problem = Problem::compile(&instance).unwrap();
        let model = CpModel::build(&problem, optimum).unwrap();
        let cancel = Cancel::new();
        match cp::minimise(&model, 30.0, &cancel, Branching::Activity, None).unwrap() {
            CpOutcome::Optimal { starts, makespan } => {
                prop_assert_eq!(makespan, optimum);
                let report = verify(&instance, &unit_steps(&instance, &starts[..instance.activities.len()]));
                prop_assert!(report.valid, "{}", report.render_text());
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    /// The constraint method takes these instances, and its optimum is the exhaustive
    /// unit-step search's.
    #[test]
    fn the_constraint_method_agrees_with_the_exhaustive_search(instance in instances()) {
        let problem = Problem::compile(&instance).unwrap();
        prop_assert!(cp::applies(&problem));
        let horizon = 3 * problem.len() as i64 + 20;
        let cancel = Cancel::new();
        let by_search = match search(&problem, horizon + 1, 30.0, &cancel) {
            SearchOutcome::Optimal { makespan, .. } => Some(makespan),
            SearchOutcome::NoneShorter => None,
            SearchOutcome::GaveUp => panic!("the search gave up"),
        };
        let by_cp = match cp::solve(&problem, 0, horizon, None, 30.0, &cancel, cp::FIRST).unwrap() {
            CpOutcome::Optimal { starts, makespan } => {
                let report = verify(&instance, &unit_steps(&instance, &starts[..instance.activities.len()]));
                prop_assert!(report.valid, "{}", report.render_text());
                Some(makespan)
            }
            CpOutcome::NoneByHorizon => None,
            CpOutcome::Stopped { .. } => panic!("30 s are plenty"),
        };
        prop_assert_eq!(by_cp, by_search);
    }

    #[test]
    fn every_certificate_with_setups_and_holds_checks(instance in instances()) {
        let dir = tempfile::tempdir().unwrap();
        certified(&instance, dir.path());
    }
}

/// Two stations two moves apart, one shelf held from `a0` to `a2` and from `a3` to `a4`, and
/// a pool of two spots held from time 0 until `a1`, until `a3`, and from `a0` to `a2`: the
/// optimum needs the setups and the holds, so the certificate is a DRCP proof over order
/// variables, each of the three kinds of order rows among its rows.
fn travel_a_shelf_and_a_pool() -> Instance {
    let text = r#"{"format": "makespan-instance/1", "name": "travel", "agents": 1,
        "resources": [{"id": "shelf"}, {"id": "pool", "capacity": 2}],
        "activities": [{"id": "a0", "duration": 1, "station": "x"},
                       {"id": "a1", "duration": 1, "station": "y", "release": 2},
                       {"id": "a2", "duration": 1, "station": "x"},
                       {"id": "a3", "duration": 1, "station": "y", "release": 2},
                       {"id": "a4", "duration": 1, "station": "x"}],
        "precedences": [{"before": "a0", "after": "a2"}, {"before": "a3", "after": "a4"}],
        "setups": [{"from": "x", "to": "y", "time": 2}, {"from": "y", "to": "x", "time": 2}],
        "holds": [{"resource": "shelf", "from": "a0", "until": "a2"},
                  {"resource": "shelf", "from": "a3", "until": "a4"},
                  {"resource": "pool", "until": "a1"},
                  {"resource": "pool", "until": "a3"},
                  {"resource": "pool", "from": "a0", "until": "a2"}]}"#;
    serde_json::from_str(text).unwrap()
}

/// An activity that keeps the agent busy without a station resets its travel (the
/// verifier's rule), which no order between two stations' work states: the constraint
/// method leaves such an instance to the others.
#[test]
fn an_activity_busy_without_a_station_keeps_the_constraint_method_off() {
    let mut instance = travel_a_shelf_and_a_pool();
    assert!(cp::applies(&Problem::compile(&instance).unwrap()));
    instance.activities[2].station = None;
    assert!(!cp::applies(&Problem::compile(&instance).unwrap()));
}

/// `row` with its right-hand side lowered by one.
fn tightened(row: &str) -> String {
    let (head, rhs) = row.trim_end_matches(");").rsplit_once(',').unwrap();
    format!("{head},{});", rhs.parse::<i64>().unwrap() - 1)
}

#[test]
fn a_changed_order_row_is_rejected() {
    let instance = travel_a_shelf_and_a_pool();
    let dir = tempfile::tempdir().unwrap();
    let solution = certified(&instance, dir.path()).expect("an optimal solution");
    let fzn = dir.path().join("s.fzn");
    let model = std::fs::read_to_string(&fzn).unwrap();
    assert!(model.contains("var 0..1: b_0_1;"), "{model}");
    let row = |kind: &str, var: &str| {
        model
            .lines()
            .find(|l| l.starts_with(&format!("constraint int_lin_le({kind}")) && l.contains(var))
            .unwrap_or_else(|| panic!("no {kind} row over {var} in {model}"))
    };
    // A lag guarded by b_0_1, by its negation, and by a shelf order, each one unit longer
    // than the instance allows; the pool's "at least one of two" with one order dropped.
    let mut changed: Vec<(&str, String)> = Vec::new();
    for (kind, var) in [
        ("[1,-1,", "b_0_1"),
        ("[1,-1,-", "b_0_1"),
        ("[1,-1,", "o_0_"),
    ] {
        let r = row(kind, var);
        changed.push((r, tightened(r)));
    }
    let pool = row("[-1,-1]", "o_1_");
    let first = pool.split("],[").nth(1).unwrap().split(',').next().unwrap();
    changed.push((pool, format!("constraint int_lin_le([-1],[{first}],-1);")));
    for (from, to) in changed {
        std::fs::write(&fzn, model.replace(from, &to)).unwrap();
        let checked = check(&solution, dir.path());
        assert!(checked.is_err(), "{to}: {checked:?}");
    }
}
