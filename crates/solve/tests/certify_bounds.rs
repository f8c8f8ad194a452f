//! Bound-only certificates over the instance's own rules: critical paths through activities
//! split into pieces and energetic intervals are produced, accepted by the independent
//! checker, and rejected once a number is changed or the bound raised; on random instances
//! every such proof is of a bound the optimum reaches, and checks.

use makespan_certify_check::{check, check_bound_proof};
use makespan_model::certificate::{Certificate, Proof, ProofKind, Step};
use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};
use makespan_solve::certify::{bound_proof, energetic_proof};
use makespan_solve::{solve, SolveOptions};
use makespan_verify::verify;
use proptest::prelude::*;

use makespan_testkit::strategies::{
    agent_instances, mutation_instances, oven_recipe_instances, rcpsp_instances,
};

fn instance(json: &str) -> Instance {
    serde_json::from_str(json).unwrap()
}

/// Solves `instance` to optimality, certifies it into `dir` and checks the certificate.
fn certified(instance: &Instance, dir: &std::path::Path) -> (Solution, Certificate) {
    let solution = crate::common::certified(instance, dir).expect("an optimal solution");
    let file = &solution.certificate.as_ref().unwrap().file;
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    (solution, serde_json::from_str(&text).unwrap())
}

/// The certificate with `change` applied is rejected, and so is the original with its bound
/// (and the solution's makespan) raised by one.
fn tampered_is_rejected(instance: &Instance, change: impl Fn(&mut Proof)) {
    let dir = tempfile::tempdir().unwrap();
    let (solution, original) = certified(instance, dir.path());
    let path = dir
        .path()
        .join(&solution.certificate.as_ref().unwrap().file);
    let mut tampered = original.clone();
    change(&mut tampered.proof);
    assert_ne!(tampered, original);
    std::fs::write(&path, serde_json::to_string(&tampered).unwrap()).unwrap();
    let verdict = check(&solution, dir.path());
    assert!(verdict.is_err(), "accepted {tampered:?}");
    let raised = Certificate {
        bound: original.bound + 1,
        ..original
    };
    std::fs::write(&path, serde_json::to_string(&raised).unwrap()).unwrap();
    let mut longer = solution.clone();
    longer.makespan = solution.makespan.map(|m| m + 1);
    assert!(check(&longer, dir.path()).is_err(), "accepted {raised:?}");
}

/// One cook: wash (3) → chop (4, interruptible) → fry (5) with 1 unit between chop and fry,
/// and a 2-unit task on the side. The chain 3 + 4 + 1 + 5 = 13 is the optimum.
fn chain_through_a_split_step() -> Instance {
    instance(
        r#"{"format": "makespan-instance/1", "name": "split-chain", "agents": 1,
            "activities": [{"id": "wash", "duration": 3},
                           {"id": "chop", "duration": 4, "preemptible": true},
                           {"id": "fry", "duration": 5, "agent": "start"},
                           {"id": "side", "duration": 2}],
            "precedences": [{"before": "wash", "after": "chop"},
                            {"before": "chop", "after": "fry", "min_lag": 1}]}"#,
    )
}

#[test]
fn a_critical_path_through_a_split_activity_is_certified() {
    let dir = tempfile::tempdir().unwrap();
    let (solution, certificate) = certified(&chain_through_a_split_step(), dir.path());
    assert_eq!(solution.makespan, Some(13));
    assert_eq!(solution.certificate.unwrap().kind, ProofKind::Bound);
    let Proof::CriticalPath { steps } = certificate.proof else {
        panic!("a critical path: {certificate:?}")
    };
    assert!(
        steps.contains(&Step::Lag {
            before: "chop".into(),
            after: "fry".into(),
            weight: 5
        }),
        "{steps:?}"
    );
}

#[test]
fn a_tampered_critical_path_through_a_split_activity_is_rejected() {
    tampered_is_rejected(&chain_through_a_split_step(), |proof| {
        let Proof::CriticalPath { steps } = proof else {
            panic!("a critical path")
        };
        for step in steps {
            if let Step::Lag { weight, .. } = step {
                *weight += 1;
            }
        }
    });
}

#[test]
fn a_maximum_lag_after_a_split_activity_is_not_read_backwards() {
    // `cut` (4, interruptible) must end at most 2 before `serve` (released at 10) starts;
    // `stew` starts with `cut`. Split as [0, 3) + [7, 8), `cut` starts at 0 and the schedule
    // ends at 11; read backwards as if `cut` ran in one block, the lag would force its start
    // to 4 and `stew`'s end to 14.
    let instance = instance(
        r#"{"format": "makespan-instance/1", "name": "late-end", "agents": null,
            "activities": [{"id": "cut", "duration": 4, "preemptible": true},
                           {"id": "serve", "duration": 1, "release": 10},
                           {"id": "stew", "duration": 10}],
            "precedences": [{"before": "cut", "after": "serve", "max_lag": 2},
                            {"before": "cut", "after": "stew", "relation": "start_to_start"}]}"#,
    );
    let schedule: Vec<ScheduledActivity> = serde_json::from_value(serde_json::json!([
        {"activity": "cut", "pieces": [[0, 3], [7, 8]]},
        {"activity": "serve", "pieces": [[10, 11]]},
        {"activity": "stew", "pieces": [[0, 10]]}
    ]))
    .unwrap();
    let report = verify(&instance, &schedule);
    assert!(report.valid, "{}", report.render_text());
    assert_eq!(report.makespan, Some(11));
    let steps = vec![
        Step::Release {
            activity: "serve".into(),
            at: 10,
        },
        Step::Lag {
            before: "serve".into(),
            after: "cut".into(),
            weight: -6,
        },
        Step::Lag {
            before: "cut".into(),
            after: "stew".into(),
            weight: 0,
        },
        Step::End {
            activity: "stew".into(),
            duration: 10,
        },
    ];
    let why = check_bound_proof(&instance, &Proof::CriticalPath { steps }, 14)
        .unwrap_err()
        .to_string();
    assert!(why.contains("no precedence makes \"cut\" start"), "{why}");
    // Nor does a critical path or an energetic interval prove more than 11.
    assert!(bound_proof(&instance, 12).is_none());
}

/// One cook starts two 2-unit tasks, each followed by 5 units that run alone: the critical
/// path is 7 and the load 4, but to end by 8 both tasks would have to run within `[0, 3)`.
/// The optimum is 9.
fn two_heads_before_long_tails(split: bool) -> Instance {
    let mut instance = instance(
        r#"{"format": "makespan-instance/1", "name": "heads", "agents": 1,
            "activities": [{"id": "a", "duration": 2}, {"id": "b", "duration": 2},
                           {"id": "x", "duration": 5, "agent": "none"},
                           {"id": "y", "duration": 5, "agent": "none"}],
            "precedences": [{"before": "a", "after": "x"}, {"before": "b", "after": "y"}]}"#,
    );
    for a in &mut instance.activities[..2] {
        a.preemptible = split;
    }
    instance
}

#[test]
fn an_energetic_interval_is_certified_with_its_arithmetic() {
    for split in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (solution, certificate) = certified(&two_heads_before_long_tails(split), dir.path());
        assert_eq!(solution.makespan, Some(9));
        let Proof::Energetic {
            resource,
            capacity,
            from,
            to,
            work,
        } = certificate.proof
        else {
            panic!("an energetic interval: {certificate:?}")
        };
        assert_eq!((resource, capacity, from, to), (None, 1, 0, 3));
        let windows: Vec<_> = work
            .iter()
            .map(|w| (w.activity.as_str(), w.earliest_start, w.latest_end, w.work))
            .collect();
        assert_eq!(windows, [("a", 0, 3, 2), ("b", 0, 3, 2)]);
    }
}

#[test]
fn a_tampered_energetic_interval_is_rejected() {
    for split in [false, true] {
        let instance = two_heads_before_long_tails(split);
        // More work than the window forces.
        tampered_is_rejected(&instance, |proof| {
            let Proof::Energetic { work, .. } = proof else {
                panic!("an energetic interval")
            };
            work[0].work += 1;
        });
        // A window narrower than the rules give.
        tampered_is_rejected(&instance, |proof| {
            let Proof::Energetic { work, .. } = proof else {
                panic!("an energetic interval")
            };
            work[1].earliest_start += 1;
        });
        // A smaller capacity than the agents have.
        tampered_is_rejected(&instance, |proof| {
            let Proof::Energetic { capacity, .. } = proof else {
                panic!("an energetic interval")
            };
            *capacity = 0;
        });
    }
}

/// Every bound-only proof of every bound up to one above the optimum is of a bound the
/// optimum reaches, checks, and fails once a work entry grows by one or the bound passes
/// the optimum.
fn bound_proofs_are_sound(instance: &Instance) -> Result<(), TestCaseError> {
    let solution = solve(instance, &SolveOptions::default());
    let (Status::Optimal, Some(optimum)) = (solution.status, solution.makespan) else {
        return Ok(());
    };
    for bound in 1..=optimum + 1 {
        let proofs = [
            bound_proof(instance, bound),
            energetic_proof(instance, bound),
        ];
        for proof in proofs.into_iter().flatten() {
            prop_assert!(bound <= optimum, "{proof:?} proves {bound} > {optimum}");
            let checked = check_bound_proof(instance, &proof, bound);
            prop_assert!(checked.is_ok(), "{checked:?}: {proof:?}");
            prop_assert!(check_bound_proof(instance, &proof, optimum + 1).is_err());
            let mut tampered = proof.clone();
            if let Proof::Energetic { work, .. } = &mut tampered {
                work[0].work += 1;
                prop_assert!(check_bound_proof(instance, &tampered, bound).is_err());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bound_proofs_on_agents_are_sound_and_check(instance in agent_instances()) {
        bound_proofs_are_sound(&instance)?;
    }

    #[test]
    fn bound_proofs_on_resources_are_sound_and_check(instance in rcpsp_instances()) {
        bound_proofs_are_sound(&instance)?;
    }

    #[test]
    fn bound_proofs_on_split_steps_and_windows_are_sound_and_check(instance in oven_recipe_instances()) {
        bound_proofs_are_sound(&instance)?;
    }

    #[test]
    fn bound_proofs_with_start_to_start_lags_are_sound_and_check(instance in mutation_instances()) {
        bound_proofs_are_sound(&instance)?;
    }
}

/// The property tests above are not vacuous: on random instances, energetic intervals
/// certify optima that neither a critical path nor a load reaches.
#[test]
fn energetic_intervals_certify_optima_past_the_critical_path_and_the_load() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategies = [
        agent_instances().boxed(),
        rcpsp_instances().boxed(),
        oven_recipe_instances().boxed(),
    ];
    for strategy in strategies {
        let mut energetic = 0;
        for _ in 0..200 {
            let instance = strategy.new_tree(&mut runner).unwrap().current();
            let solution = solve(&instance, &SolveOptions::default());
            if let (Status::Optimal, Some(optimum)) = (solution.status, solution.makespan) {
                if let Some(Proof::Energetic { .. }) = bound_proof(&instance, optimum) {
                    energetic += 1;
                }
            }
        }
        assert!(
            energetic > 0,
            "no energetic certificate among 200 instances"
        );
    }
}
