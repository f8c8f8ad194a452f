//! The lazy-clause-generation method (Pumpkin) on random small instances of every feature
//! it accepts: it agrees with the MILP and with the exhaustive cross-check, its schedules
//! verify, every certificate `solve --certify` writes is accepted by the independent checker,
//! and a certificate with one number changed is rejected.

use std::num::NonZeroU32;

use makespan_certify_check::check;
use makespan_model::certificate::{Certificate, Proof, ProofKind, Step};
use makespan_model::instance::Instance;
use makespan_model::solution::{Status, Verdict};
use makespan_solve::certify::certify;
use makespan_solve::check::cross_check;
use makespan_solve::internals::bounds;
use makespan_solve::internals::cp::{self, lns, CpModel, CpOutcome};
use makespan_solve::internals::heuristics::{self, Effort, Shop};
use makespan_solve::internals::milp::{self, MilpOutcome, MilpSettings};
use makespan_solve::internals::Problem;
use makespan_solve::{solve, Cancel, SolveOptions};
use makespan_verify::verify;
use proptest::prelude::*;

use crate::common::certified;
use makespan_testkit::strategies::{
    agent_instances, oven_recipe_instances, rcpsp_instances, rcpsp_instances_shaped, RcpspShape,
};

fn settings() -> MilpSettings {
    MilpSettings {
        time_limit: 30.0,
        threads: NonZeroU32::MIN,
        node_limit: None,
        export_lp: None,
        cancel: Cancel::new(),
    }
}

/// RCPSP instances with windows and maximum lags: releases, deadlines and a max lag on
/// some precedences, so some are infeasible.
fn window_instances() -> impl Strategy<Value = Instance> {
    (
        rcpsp_instances(),
        proptest::collection::vec((0i64..=3, proptest::option::of(4i64..=14)), 6),
        proptest::collection::vec(proptest::option::of(0i64..=4), 15),
    )
        .prop_map(|(mut instance, windows, max_lags)| {
            for (a, (release, deadline)) in instance.activities.iter_mut().zip(windows) {
                a.release = (release > 0).then_some(release);
                a.deadline = deadline.filter(|&d| d >= release + a.duration);
            }
            for (p, max) in instance.precedences.iter_mut().zip(max_lags) {
                p.max_lag = max.map(|m| m + p.min_lag);
            }
            instance
        })
}

/// RCPSP instances of 5–8 activities on two resources of capacity 4–6, demands 0–4:
/// several tasks fit side by side, so energetic reasoning has something to bound.
fn cumulative_instances() -> impl Strategy<Value = Instance> {
    rcpsp_instances_shaped(RcpspShape {
        activities: 5..=8,
        capacity: 4..=6,
        duration: 1..=5,
        max_demand: 4,
        precedence_odds: 5,
        max_lag: 1,
        name: "random-cumulative",
    })
}

/// The optimum by the constraint model alone (`None`: infeasible), starting from the
/// strongest combinatorial bound as the pipeline does.
fn cp_optimum(problem: &Problem) -> Option<i64> {
    let horizon = problem.durations.iter().sum::<i64>() + 40;
    let floor = bounds::best(problem, None).value;
    match cp::solve(
        problem,
        floor,
        horizon,
        None,
        30.0,
        &Cancel::new(),
        cp::FIRST,
    )
    .expect("small times fit")
    {
        CpOutcome::Optimal { makespan, .. } => Some(makespan),
        CpOutcome::NoneByHorizon => None,
        CpOutcome::Stopped { .. } => panic!("30 s are plenty for a small instance"),
    }
}

/// The optimum by the MILP alone (`None`: infeasible).
fn milp_optimum(problem: &Problem) -> Option<i64> {
    let horizon = problem.durations.iter().sum::<i64>() + 40;
    match milp::solve(problem, horizon, 0, &settings()).unwrap() {
        MilpOutcome::Solved {
            makespan, proven, ..
        } => {
            assert!(proven);
            Some(makespan)
        }
        MilpOutcome::Infeasible { .. } => None,
        other => panic!("unexpected {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn cp_agrees_with_the_milp_on_agents_and_a_tool(instance in agent_instances()) {
        let problem = Problem::compile(&instance).unwrap();
        prop_assert!(cp::applies(&problem));
        prop_assert_eq!(cp_optimum(&problem), milp_optimum(&problem));
    }

    #[test]
    fn cp_agrees_with_the_milp_on_resources(instance in rcpsp_instances()) {
        let problem = Problem::compile(&instance).unwrap();
        prop_assert_eq!(cp_optimum(&problem), milp_optimum(&problem));
    }

    #[test]
    fn cp_agrees_with_the_milp_on_windows_and_max_lags(instance in window_instances()) {
        // A positive cycle is refused before any method runs.
        if let Ok(problem) = Problem::compile(&instance) {
            let milp = milp_optimum(&problem);
            prop_assert_eq!(cp_optimum(&problem), milp);
            // Deciding only the machines' orders (then every start at its earliest) from
            // scratch is complete: the same optimum, and a schedule that keeps every row.
            let horizon = problem.durations.iter().sum::<i64>() + 40;
            let model = CpModel::build(&problem, horizon).unwrap();
            let by_orders = cp::minimise(&model, 30.0, &Cancel::new(), cp::Branching::Orders, None);
            match by_orders.unwrap() {
                CpOutcome::Optimal { starts, makespan } => {
                    prop_assert!(model.holds(&starts, makespan));
                    prop_assert_eq!(Some(makespan), milp);
                }
                CpOutcome::NoneByHorizon => prop_assert_eq!(None, milp),
                other => panic!("30 s are plenty for a small instance: {other:?}"),
            }
        }
    }

    /// Job shops with releases and deadlines, where detectable precedences, not-first and
    /// not-last prune (and deadlines make some infeasible): the constraint model's optimum
    /// is the MILP's.
    #[test]
    fn cp_agrees_with_the_milp_on_job_shops_with_windows(
        jobs in 2usize..=4,
        machines in 2usize..=3,
        seed in 0u64..1_000,
        windows in proptest::collection::vec((0i64..=6, proptest::option::of(8i64..=30)), 12),
    ) {
        let mut instance = makespan_testkit::job_shop::job_shop("js", jobs, machines, seed);
        for (a, (release, deadline)) in instance.activities.iter_mut().zip(windows) {
            a.release = (release > 0).then_some(release);
            a.deadline = deadline.filter(|&d| d >= release + a.duration);
        }
        if let Ok(problem) = Problem::compile(&instance) {
            prop_assert_eq!(cp_optimum(&problem), milp_optimum(&problem));
        }
    }

    #[test]
    fn pipeline_schedules_verify_and_agree_with_the_exhaustive_check(instance in rcpsp_instances()) {
        let solution = solve(&instance, &SolveOptions::default());
        if solution.status == Status::Optimal {
            prop_assert!(verify(&instance, &solution.schedule).valid);
            let second = cross_check(&instance, &solution, &SolveOptions::default(), &Cancel::new());
            prop_assert_ne!(second.verdict, Verdict::Disagree, "{:?}", second);
        }
    }

    #[test]
    fn racing_the_milp_on_two_threads_proves_the_same(instance in window_instances()) {
        let one = solve(&instance, &SolveOptions::default());
        let two = solve(&instance, &SolveOptions { threads: NonZeroU32::new(2).unwrap(), ..SolveOptions::default() });
        prop_assert_eq!(one.status, two.status);
        prop_assert_eq!(one.makespan, two.makespan);
        if two.status == Status::Optimal {
            prop_assert!(verify(&instance, &two.schedule).valid);
        }
    }

    /// The large neighbourhood search's schedules hold in the model, never beat the optimum,
    /// and where it claims the optimum, the MILP agrees; from its own schedule it returns
    /// one no longer.
    #[test]
    fn neighbourhood_search_schedules_hold_and_its_proofs_agree(instance in window_instances(), seed in 0u64..4) {
        let Ok(problem) = Problem::compile(&instance) else { return Ok(()) };
        let horizon = problem.durations.iter().sum::<i64>() + 40;
        let Ok(model) = CpModel::build(&problem, horizon) else { return Ok(()) };
        let cancel = Cancel::new();
        let optimum = milp_optimum(&problem);
        let found = lns::improve(&model, None, 2.0, &cancel, seed);
        if let Some((starts, makespan)) = &found.best {
            prop_assert!(model.holds(starts, *makespan));
            prop_assert!(Some(*makespan) >= optimum);
            let again = lns::improve(&model, Some(starts.clone()), 1.0, &cancel, seed + 1);
            let (starts, shorter) = again.best.expect("it holds the schedule it started from");
            prop_assert!(model.holds(&starts, shorter));
            prop_assert!(shorter <= *makespan);
        }
        if found.optimal {
            prop_assert_eq!(found.best.map(|b| b.1), optimum);
        }
    }

    /// The tabu search on a job shop's machine sequences (with releases) returns schedules
    /// that hold in the model, no longer than the one it starts from and never shorter
    /// than the MILP's optimum.
    #[test]
    fn tabu_search_schedules_hold_and_never_beat_the_optimum(
        jobs in 2usize..=4,
        machines in 2usize..=3,
        seed in 0u64..1_000,
        releases in proptest::collection::vec(0i64..=6, 12),
    ) {
        let mut instance = makespan_testkit::job_shop::job_shop("js", jobs, machines, seed);
        for (a, release) in instance.activities.iter_mut().zip(releases) {
            a.release = (release > 0).then_some(release);
        }
        let problem = Problem::compile(&instance).unwrap();
        let shop = Shop::of(&problem).expect("a job shop with releases");
        let first = heuristics::best(&problem, 0, Effort::default()).unwrap();
        let optimum = milp_optimum(&problem).expect("a job shop has schedules");
        let (starts, makespan) = shop
            .improve(&first.starts[..problem.len()], optimum, 0.2, &Cancel::new(), seed, |_, _| false)
            .expect("the heuristic's schedule orders every machine");
        let model = CpModel::build(&problem, first.makespan(&problem)).unwrap();
        prop_assert!(model.holds(&starts, makespan));
        prop_assert_eq!(starts.iter().zip(&problem.durations).map(|(s, p)| s + p).max(), Some(makespan));
        prop_assert!(makespan >= optimum);
    }

    /// Energetic reasoning (in every search but a proof's) keeps the optimum: the search
    /// with it, the proof's search without any redundant propagator (a DRCP log), and the
    /// MILP agree, on resources wide enough for several tasks at once.
    #[test]
    fn energetic_reasoning_keeps_the_optimum(instance in cumulative_instances()) {
        let problem = Problem::compile(&instance).unwrap();
        let horizon = problem.durations.iter().sum::<i64>() + 40;
        let model = CpModel::build(&problem, horizon).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let proof = dir.path().join("proof.drcp");
        let optimum = |proof: Option<&std::path::Path>| {
            match cp::minimise(&model, 30.0, &Cancel::new(), cp::Branching::SmallestStart, proof).unwrap() {
                CpOutcome::Optimal { starts, makespan } => {
                    assert!(model.holds(&starts, makespan));
                    makespan
                }
                other => panic!("30 s are plenty for a small instance: {other:?}"),
            }
        };
        let with = optimum(None);
        prop_assert_eq!(with, optimum(Some(&proof)));
        prop_assert_eq!(Some(with), milp_optimum(&problem));
    }

    #[test]
    fn every_certificate_checks(instance in rcpsp_instances()) {
        let dir = tempfile::tempdir().unwrap();
        certified(&instance, dir.path());
    }

    /// Recipe-shaped instances (split steps, windows into them, start-instant needs,
    /// states): where a certificate is written it checks, and no certificate claims one
    /// unit more than the optimum.
    #[test]
    fn certificates_of_split_steps_check_and_claim_no_more_than_the_optimum(instance in oven_recipe_instances()) {
        let mut solution = solve(&instance, &SolveOptions::default());
        prop_assume!(solution.status == Status::Optimal);
        let dir = tempfile::tempdir().unwrap();
        let cancel = Cancel::new();
        if let Ok(record) = certify(&instance, &solution, dir.path(), "s", 30.0, &cancel) {
            solution.certificate = Some(record);
            let checked = check(&solution, dir.path());
            prop_assert!(checked.is_ok(), "{:?}", checked);
        }
        let mut inflated = solution.clone();
        inflated.makespan = inflated.makespan.map(|m| m + 1);
        prop_assert!(certify(&instance, &inflated, dir.path(), "t", 30.0, &cancel).is_err());
    }
}

/// One cook: `stir` (4 units, split) must end exactly when `simmer` starts (on the stove,
/// the cook only at its start), and `fry` needs the cook and the stove for 1. The cook's
/// work on `stir` is what makes the optimum 7 (without it a schedule ends at 6), so the
/// proof needs `stir`'s units of work; times are multiplied by `scale`.
fn the_cooks_work_on_a_split_step(scale: i64) -> Instance {
    let text = r#"{"format": "makespan-instance/1", "name": "split-work", "agents": 1,
        "resources": [{"id": "stove"}],
        "activities": [{"id": "stir", "duration": 4, "preemptible": true},
                       {"id": "fry", "duration": 1, "uses": ["stove"]},
                       {"id": "simmer", "duration": 2, "agent": "start", "uses": ["stove"]}],
        "precedences": [{"before": "stir", "after": "simmer", "max_lag": 0}]}"#;
    let mut instance: Instance = serde_json::from_str(text).unwrap();
    for a in &mut instance.activities {
        a.duration *= scale;
    }
    instance
}

#[test]
fn the_units_of_a_split_step_certify_what_its_timing_cannot() {
    for scale in [1, 2] {
        let instance = the_cooks_work_on_a_split_step(scale);
        let dir = tempfile::tempdir().unwrap();
        let solution = certified(&instance, dir.path()).expect("an optimal solution");
        assert_eq!(solution.makespan, Some(7 * scale));
        assert_eq!(solution.certificate.as_ref().unwrap().kind, ProofKind::Drcp);
        let model = std::fs::read_to_string(dir.path().join("s.fzn")).unwrap();
        assert!(model.contains("s0_3"), "{model}");
        // Exact on a scale of 1; on a scale of 2 it holds for pieces on that grid.
        let checked = check(&solution, dir.path()).unwrap();
        assert_eq!(checked.grid, (scale > 1).then_some(scale));
    }
}

/// The 8 × 8 job shop that the heuristic leaves one unit above its optimum: on one thread
/// the constraint model, which starts with the large neighbourhood search, proves the
/// optimum, and its DRCP certificate passes the independent checker.
#[test]
fn the_job_shop_optimum_of_the_constraint_model_certifies() {
    let instance = makespan_testkit::job_shop::needs_branching();
    let dir = tempfile::tempdir().unwrap();
    let s = certified(&instance, dir.path()).expect("an optimal solution");
    assert_eq!(s.makespan, Some(70));
    assert!(s.method.contains("cp"), "{}", s.method);
    assert_eq!(s.certificate.as_ref().unwrap().kind, ProofKind::Drcp);
    assert!(verify(&instance, &s.schedule).valid);
}

/// The 8 × 8 job shop that the heuristic leaves one unit above its optimum: on two threads
/// the constraint model races the MILP, and the winner proves the optimum.
#[test]
fn a_race_on_two_threads_proves_the_job_shop_optimum() {
    let instance = makespan_testkit::job_shop::needs_branching();
    let options = SolveOptions {
        threads: NonZeroU32::new(2).unwrap(),
        ..SolveOptions::default()
    };
    let s = solve(&instance, &options);
    assert_eq!((s.status, s.makespan), (Status::Optimal, Some(70)), "{s:?}");
    assert!(verify(&instance, &s.schedule).valid);
}

/// The 8 × 8 job shop that the heuristic leaves at 71: the tabu search on its machine
/// sequences reaches the optimum 70, and stops there.
#[test]
fn the_tabu_search_reaches_the_job_shop_optimum() {
    let problem = Problem::compile(&makespan_testkit::job_shop::needs_branching()).unwrap();
    let first = heuristics::best(&problem, 70, Effort::default()).unwrap();
    assert!(first.makespan(&problem) > 70);
    let shop = Shop::of(&problem).expect("a job shop");
    for seed in 0..3 {
        let (starts, makespan) = shop
            .improve(
                &first.starts[..problem.len()],
                70,
                30.0,
                &Cancel::new(),
                seed,
                |_, _| false,
            )
            .unwrap();
        assert_eq!(makespan, 70, "seed {seed}");
        let model = CpModel::build(&problem, 70).unwrap();
        assert!(model.holds(&starts, makespan));
    }
}

/// A certificate with one number changed is rejected, whatever its kind.
fn tampered_is_rejected(instance: &Instance, kind: ProofKind) {
    let dir = tempfile::tempdir().unwrap();
    let solution = certified(instance, dir.path()).expect("an optimal solution");
    let record = solution.certificate.clone().unwrap();
    assert_eq!(record.kind, kind);
    let path = dir.path().join(&record.file);
    let original: Certificate =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut tampered = original.clone();
    match &mut tampered.proof {
        Proof::CriticalPath { steps } => match steps.last_mut().unwrap() {
            Step::End { duration, .. } => *duration += 1,
            other => panic!("a path ends with an end, not {other:?}"),
        },
        Proof::Load { work, .. } => work[0].work += 1,
        Proof::Energetic { work, .. } => work[0].work += 1,
        Proof::Drcp { scale, .. } => *scale += 1,
    }
    std::fs::write(&path, serde_json::to_string(&tampered).unwrap()).unwrap();
    let verdict = check(&solution, dir.path());
    assert!(verdict.is_err(), "accepted a tampered certificate");
    // The claimed bound itself is a number too.
    let raised = Certificate {
        bound: original.bound + 1,
        ..original.clone()
    };
    std::fs::write(&path, serde_json::to_string(&raised).unwrap()).unwrap();
    assert!(check(&solution, dir.path()).is_err());
}

fn a_task_too_long_for_the_gap() -> Instance {
    // One agent; b starts exactly 6 after a ends, and c (7) fits neither in that gap nor
    // anywhere that energetic reasoning sees: critical path 10, load 11, optimum 17, a
    // search proof. `f` runs alone for 16 units: below the optimum its start is fixed.
    serde_json::from_str(
        r#"{"format": "makespan-instance/1", "name": "gap", "agents": 1,
            "activities": [{"id": "a", "duration": 2}, {"id": "b", "duration": 2},
                           {"id": "c", "duration": 7},
                           {"id": "f", "duration": 16, "agent": "none"}],
            "precedences": [{"before": "a", "after": "b", "min_lag": 6, "max_lag": 6}]}"#,
    )
    .unwrap()
}

#[test]
fn a_tampered_critical_path_is_rejected() {
    let instance: Instance = serde_json::from_str(
        r#"{"format": "makespan-instance/1", "name": "chain", "agents": 2,
            "activities": [{"id": "a", "duration": 3}, {"id": "b", "duration": 4}],
            "precedences": [{"before": "a", "after": "b", "min_lag": 1}]}"#,
    )
    .unwrap();
    tampered_is_rejected(&instance, ProofKind::Bound);
}

#[test]
fn a_bound_certificate_replaces_an_earlier_search_proof_of_the_same_name() {
    let dir = tempfile::tempdir().unwrap();
    certified(&a_task_too_long_for_the_gap(), dir.path()).unwrap();
    assert!(dir.path().join("s.drcp.gz").exists());
    let chain: Instance = serde_json::from_str(
        r#"{"format": "makespan-instance/1", "name": "chain", "agents": 2,
            "activities": [{"id": "a", "duration": 3}, {"id": "b", "duration": 4}],
            "precedences": [{"before": "a", "after": "b"}]}"#,
    )
    .unwrap();
    let solution = certified(&chain, dir.path()).unwrap();
    assert_eq!(solution.certificate.unwrap().kind, ProofKind::Bound);
    assert!(!dir.path().join("s.drcp.gz").exists());
    assert!(!dir.path().join("s.fzn").exists());
}

#[test]
fn a_tampered_load_is_rejected() {
    let instance: Instance = serde_json::from_str(
        r#"{"format": "makespan-instance/1", "name": "load", "agents": 1,
            "activities": [{"id": "a", "duration": 3}, {"id": "b", "duration": 4}]}"#,
    )
    .unwrap();
    tampered_is_rejected(&instance, ProofKind::Bound);
}

#[test]
fn a_tampered_drcp_certificate_is_rejected() {
    tampered_is_rejected(&a_task_too_long_for_the_gap(), ProofKind::Drcp);
}

#[test]
fn a_drcp_proof_with_a_changed_line_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let solution = certified(&a_task_too_long_for_the_gap(), dir.path()).unwrap();
    // The model is part of the proof: a weakened row (one number changed) is rejected.
    let model = dir.path().join("s.fzn");
    let text = std::fs::read_to_string(&model).unwrap();
    let changed = text.replacen("],-8);", "],-9);", 1);
    assert_ne!(text, changed, "the model has a lag row of 8:\n{text}");
    std::fs::write(&model, changed).unwrap();
    assert!(check(&solution, dir.path()).is_err());
}

#[test]
fn a_start_fixed_by_its_window_is_certified_and_its_unary_row_checked() {
    // Pumpkin leaves a single-value variable's bounds out of its explanations, so the
    // model gives it two values and a unary row; the checker accepts that row only as
    // tight as the instance allows.
    let dir = tempfile::tempdir().unwrap();
    let solution = certified(&a_task_too_long_for_the_gap(), dir.path()).unwrap();
    assert_eq!(solution.certificate.as_ref().unwrap().kind, ProofKind::Drcp);
    let model = dir.path().join("s.fzn");
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.contains("var 0..1: s3;"), "{text}");
    let tightened = text.replacen("int_lin_le([1],[s3],0)", "int_lin_le([-1],[s3],-1)", 1);
    assert_ne!(
        text, tightened,
        "the model fixes s3 by a unary row:\n{text}"
    );
    std::fs::write(&model, tightened).unwrap();
    let verdict = check(&solution, dir.path());
    assert!(
        format!("{verdict:?}").contains("does not bound s3"),
        "{verdict:?}"
    );
}

/// [`a_task_too_long_for_the_gap`] with rules the constraint model does not take but that do
/// not make its optimum: `u` needs the cook at its start instant, `s` (agent-free) may be
/// split, and `t` must start right after `s` ends.
fn the_gap_with_rules_the_model_leaves_out() -> Instance {
    let mut instance = a_task_too_long_for_the_gap();
    let extra: Instance = serde_json::from_str(
        r#"{"format": "makespan-instance/1", "name": "extra", "agents": 1,
            "activities": [{"id": "s", "duration": 2, "preemptible": true, "agent": "none"},
                           {"id": "t", "duration": 1, "agent": "none"},
                           {"id": "u", "duration": 1, "agent": "start"}],
            "precedences": [{"before": "s", "after": "t", "max_lag": 0}]}"#,
    )
    .unwrap();
    instance.activities.extend(extra.activities);
    instance.precedences.extend(extra.precedences);
    instance
}

#[test]
fn a_drcp_proof_on_the_relaxation_certifies_rules_the_model_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let solution = certified(&the_gap_with_rules_the_model_leaves_out(), dir.path()).unwrap();
    assert_eq!(solution.makespan, Some(17));
    assert_eq!(solution.certificate.as_ref().unwrap().kind, ProofKind::Drcp);
    // The maximum lag after the split `s` (s3) bounds its end, not its start: a row that
    // reads it backwards into its start is not a rule of the instance.
    let model = dir.path().join("s.fzn");
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(!text.contains("[s4,s3]"), "{text}");
    let widened = text.replacen(
        "solve ",
        "constraint int_lin_le([1,-1],[s4,s3],2);\nsolve ",
        1,
    );
    assert_ne!(text, widened, "{text}");
    std::fs::write(&model, widened).unwrap();
    let verdict = check(&solution, dir.path());
    assert!(
        format!("{verdict:?}").contains("the instance does not make s3"),
        "{verdict:?}"
    );
}
