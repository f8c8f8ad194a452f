//! The lazy-clause-generation method (Pumpkin) on random small instances of every feature
//! it accepts: it agrees with the MILP and with the exhaustive cross-check, its schedules
//! verify, every certificate `solve --certify` writes is accepted by the independent checker,
//! and a certificate with one number changed is rejected.

use std::num::NonZeroU32;

use makespan::certificate::{Certificate, Proof, ProofKind, Step};
use makespan::instance::Instance;
use makespan::solution::{Status, Verdict};
use makespan::solve::certify::certify;
use makespan::solve::check::cross_check;
use makespan::solve::exact::cp::{self, CpOutcome};
use makespan::solve::exact::milp::{self, MilpOutcome, MilpSettings};
use makespan::solve::problem::Problem;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;
use makespan_certify_check::check;
use proptest::prelude::*;

use crate::common::certified;
use crate::common::strategies::{agent_instances, oven_recipe_instances, rcpsp_instances};

fn settings() -> MilpSettings {
    MilpSettings {
        time_limit: 30.0,
        threads: NonZeroU32::MIN,
        node_limit: None,
        export_lp: None,
        cancel: makespan::Cancel::new(),
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

/// The optimum by the constraint model alone (`None`: infeasible), starting from the
/// strongest combinatorial bound as the pipeline does.
fn cp_optimum(problem: &Problem) -> Option<i64> {
    let horizon = problem.durations.iter().sum::<i64>() + 40;
    let floor = makespan::solve::bounds::best(problem, None).value;
    match cp::solve(problem, floor, horizon, 30.0, &makespan::Cancel::new())
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
            prop_assert_eq!(cp_optimum(&problem), milp_optimum(&problem));
        }
    }

    #[test]
    fn pipeline_schedules_verify_and_agree_with_the_exhaustive_check(instance in rcpsp_instances()) {
        let solution = solve(&instance, &SolveOptions::default());
        if solution.status == Status::Optimal {
            prop_assert!(verify(&instance, &solution.schedule).valid);
            let second = cross_check(&instance, &solution, &SolveOptions::default());
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
        let cancel = makespan::Cancel::new();
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

/// The 8 × 8 job shop that the heuristic leaves one unit above its optimum: on two threads
/// the constraint model races the MILP, and the winner proves the optimum.
#[test]
fn a_race_on_two_threads_proves_the_job_shop_optimum() {
    let instance = crate::common::needs_branching();
    let options = SolveOptions {
        threads: NonZeroU32::new(2).unwrap(),
        ..SolveOptions::default()
    };
    let s = solve(&instance, &options);
    assert_eq!((s.status, s.makespan), (Status::Optimal, Some(70)), "{s:?}");
    assert!(verify(&instance, &s.schedule).valid);
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

/// The docs' example: `solve --certify` on the bundled instances, then `check-proof` on
/// the folder certifies every optimum (bound-only and DRCP proofs alike).
#[test]
fn solve_certify_then_check_proof_certifies_the_bundled_instances() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let solved = crate::common::makespan(&["solve", "instances", "--out", out, "--certify", "-q"]);
    assert!(solved.status.success(), "{}", crate::common::text(&solved));
    let checked = crate::common::makespan(&["check-proof", out]);
    let text = crate::common::text(&checked);
    assert!(checked.status.success(), "{text}");
    assert!(
        text.contains("by a DRCP proof") && text.contains("by a bound proof"),
        "{text}"
    );
    assert!(!text.contains("not certified"), "{text}");
    // `check-proof out/*.json` names the certificates too: they are passed over.
    let mut named: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    named.sort();
    assert!(named.iter().any(|p| p.ends_with(".cert.json")));
    let mut args = vec!["check-proof"];
    args.extend(named.iter().map(String::as_str));
    let globbed = crate::common::makespan(&args);
    let text = crate::common::text(&globbed);
    assert!(globbed.status.success(), "{text}");
    assert!(text.contains("11 solutions: 11 certified, 0 not"), "{text}");
}

/// `solve --certify` says how many optima it certified, and why the others are not: here
/// a travel time makes the optimum, which the constraint model leaves out, because `z` keeps
/// the agent busy without a station (the verifier lets such an activity reset the travel,
/// so travel is no order between two stations' work).
#[test]
fn solve_certify_says_why_an_optimum_is_not_certified() {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("travel.json");
    std::fs::write(
        &instance,
        r#"{"format": "makespan-instance/1", "name": "travel", "agents": 1,
            "activities": [{"id": "x", "duration": 1, "station": "a"},
                           {"id": "y", "duration": 1, "station": "b"},
                           {"id": "z", "duration": 1}],
            "precedences": [{"before": "x", "after": "z"}, {"before": "y", "after": "z"}],
            "setups": [{"from": "a", "to": "b", "time": 5}, {"from": "b", "to": "a", "time": 5}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let solved = crate::common::makespan(&[
        "solve",
        instance.to_str().unwrap(),
        "instances/two-cooks-breakfast.json",
        "--certify",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = crate::common::text(&solved);
    assert!(solved.status.success(), "{text}");
    assert!(
        text.contains("1 of 2 optimal solutions certified"),
        "{text}"
    );
    assert!(
        text.contains("travel: not certified: no bound-only proof reaches the makespan, and without this instance's setups (rules"),
        "{text}"
    );
}

/// Every certificate committed in `references/` checks once unpacked, and a solution
/// without one is the only kind not certified (the largest DRCP proofs are left out of the
/// repository). The benchmarks' references need their data; the bundled instances' do not.
#[test]
fn every_committed_certificate_checks() {
    let dir = tempfile::tempdir().unwrap();
    let data = makespan_testkit::data_dir();
    let mut certificates = 0;
    for (name, needs) in [
        ("instances", None),
        ("timearena", Some("timearena/tasks.json")),
        ("recipe2plan", Some("recipe2plan/cooking.json")),
    ] {
        if needs.is_some_and(|file| makespan_testkit::data(file).is_none()) {
            continue;
        }
        let file = format!("references/{name}.jsonl");
        let references =
            makespan::references::References::read(std::path::Path::new(&file)).unwrap();
        certificates += references
            .iter()
            .filter(|r| r.certificate.is_some())
            .count();
        let out = dir.path().join(name);
        let unpacked = crate::common::makespan(&[
            "references",
            "unpack",
            &file,
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            unpacked.status.success(),
            "{}",
            crate::common::text(&unpacked)
        );
    }
    let out = crate::common::makespan(&["check-proof", dir.path().to_str().unwrap(), "-q"]);
    let text = crate::common::text(&out);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("not certified"))
        .collect();
    assert!(
        lines
            .iter()
            .all(|l| l.ends_with("the solution has no certificate (solve with --certify)")),
        "{text}"
    );
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.contains(&format!(": {certificates} certified,")),
        "{summary}"
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
