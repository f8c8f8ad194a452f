//! Published optima reproduced: PSPLIB j30, RCPSP/max sm_j10 and UBO10, and the job shops
//! ft06 and la01–la05 (samples in `makespan_testkit::external`), solved with the ordinary
//! pipeline under short per-instance limits. Whatever is proven must match the table; what
//! is not proven must bracket it. The full 60-second run is `benches/corpus.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

use makespan::solution::Status;
use makespan::solve::{Run, SolveOptions};
use makespan::validation::{self, Optima, Outcome, Published, Verdict};

/// The validation samples' folder, or `None` (the test is skipped) where it is absent.
fn samples() -> Option<PathBuf> {
    makespan_testkit::external("")
}

/// Validates `inputs` against `tables` (both under `samples`) with a per-instance MILP limit,
/// two at a time.
fn validate(samples: &Path, inputs: &[&str], tables: &[&str], time_limit: f64) -> Vec<Outcome> {
    let mut optima = Optima::default();
    for t in tables {
        optima.read(&samples.join(t)).unwrap();
    }
    let inputs: Vec<PathBuf> = inputs.iter().map(|i| samples.join(i)).collect();
    let cases = validation::load_cases(&inputs).unwrap();
    let options = SolveOptions {
        time_limit,
        ..SolveOptions::default()
    };
    let outcomes = validation::run(&cases, &optima, &options, &Run::default(), 2, &|_| {}).unwrap();
    eprintln!("{}", validation::render(&outcomes));
    outcomes
}

/// The properties every validation run must have, whatever the time limit.
fn assert_sound(outcomes: &[Outcome]) {
    for o in outcomes {
        let published = o
            .published
            .unwrap_or_else(|| panic!("{}: no table entry", o.key));
        assert!(
            !matches!(o.verdict, Verdict::Disagree(_)),
            "{}: {:?}",
            o.key,
            o.verdict
        );
        match (o.status, published) {
            (Status::Optimal, Published::Exact(v)) => assert_eq!(o.makespan, Some(v), "{}", o.key),
            (Status::Optimal, p) => {
                panic!("{}: optimal {:?} but the table has {p}", o.key, o.makespan)
            }
            (Status::Infeasible, p) => assert_eq!(p, Published::Unsat, "{}", o.key),
            (Status::Feasible, Published::Exact(v)) => {
                let (lb, ub) = (o.lower_bound.unwrap(), o.makespan.unwrap());
                assert!(lb <= v && v <= ub, "{}: {lb} ≤ {v} ≤ {ub} fails", o.key);
            }
            (Status::Feasible, p) => panic!("{}: a schedule, but the table has {p}", o.key),
            (Status::Error, _) => {
                assert!(o.makespan.is_none(), "{}: error with a schedule", o.key);
            }
            (Status::Invalid, _) => panic!("{}: the exact pipeline reported invalid", o.key),
        }
    }
}

fn proven(outcomes: &[Outcome], key: &str) -> bool {
    outcomes
        .iter()
        .any(|o| o.key.eq_ignore_ascii_case(key) && o.proven())
}

#[test]
fn rcpsp_max_samples_reproduce_the_optima_and_the_unsat_labels() {
    let Some(samples) = samples() else {
        return;
    };
    let outcomes = validate(
        &samples,
        &["rcpsp-max/sm_j10", "rcpsp-max/ubo10"],
        &[
            "rcpsp-max/sm_j10/optimum.csv",
            "rcpsp-max/ubo10/optimum.csv",
        ],
        30.0,
    );
    assert_eq!(outcomes.len(), 14);
    assert_sound(&outcomes);
    // PSP2's lags contradict each other: the temporal network alone proves it.
    assert!(proven(&outcomes, "PSP2.SCH"));
    // The benchmark proves all 14 within 60 s each; under test load most take a few seconds.
    let count = outcomes.iter().filter(|o| o.proven()).count();
    assert!(count >= 10, "only {count} of 14 proven");
}

#[test]
fn psplib_j30_sample_is_never_contradicted_and_the_easy_groups_are_proven() {
    let Some(samples) = samples() else {
        return;
    };
    let outcomes = validate(
        &samples,
        &["psplib-j30"],
        &["psplib-j30/j30_optimum.csv"],
        5.0,
    );
    assert_eq!(outcomes.len(), 18);
    assert_sound(&outcomes);
    // Groups 3, 4 and 35 close by bounds and heuristics alone, without a MILP.
    for easy in ["j303_1.sm", "j304_1.sm", "j3035_1.sm", "j301_1.sm"] {
        assert!(proven(&outcomes, easy), "{easy} not proven");
    }
}

#[test]
fn job_shop_samples_are_never_contradicted_and_the_easy_ones_are_proven() {
    let Some(samples) = samples() else {
        return;
    };
    let outcomes = validate(
        &samples,
        &[
            "jssp/ft06.jss",
            "jssp/la01.jss",
            "jssp/la02.jss",
            "jssp/la03.jss",
            "jssp/la04.jss",
            "jssp/la05.jss",
        ],
        &["jssp/ft_optimum.csv", "jssp/la_optimum.csv"],
        15.0,
    );
    assert_eq!(outcomes.len(), 6);
    assert_sound(&outcomes);
    // la02 by the critical-chain tabu search reaching its bound, la04 by shaving and edge
    // finding ruling out 589: neither waits for the MILP. The limit covers the heuristics
    // too, so it leaves them room on a loaded machine (they need about a second).
    for key in ["ft06.jss", "la05.jss", "la02.jss", "la04.jss"] {
        assert!(proven(&outcomes, key), "{key} not proven");
    }
}

fn run_cli(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(args)
        .output()
        .expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

#[test]
fn cli_validate_prints_the_table_and_fails_on_a_wrong_table() {
    let Some(samples) = samples() else {
        return;
    };
    let psp1 = samples.join("rcpsp-max/sm_j10/PSP1.SCH");
    let psp2 = samples.join("rcpsp-max/sm_j10/PSP2.SCH");
    let table = samples.join("rcpsp-max/sm_j10/optimum.csv");
    let files = [psp1.to_str().unwrap(), psp2.to_str().unwrap()];
    let (code, text) = run_cli(&[
        "validate",
        files[0],
        files[1],
        "--optima",
        table.to_str().unwrap(),
        "--quiet",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("rcpsp-max-sm_j10-PSP1"), "{text}");
    assert!(text.contains("unsat      unsat infeasible"), "{text}");
    assert!(
        text.contains("2 instances: 2 proven, 2 agree, 0 disagree"),
        "{text}"
    );

    // A table that claims a shorter optimum than the truth must fail the run.
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.csv");
    std::fs::write(&wrong, "problem,optimum\npsp1.sch,25\n").unwrap();
    let (code, text) = run_cli(&[
        "validate",
        files[0],
        "--optima",
        wrong.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("DISAGREE rcpsp-max-sm_j10-PSP1"), "{text}");

    let (code, text) = run_cli(&["validate", files[0], "--optima", "no/such.csv"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        // Read by the bounded reader, as every user file is: its error names the file.
        text.contains("no/such.csv: cannot read the file"),
        "{text}"
    );
}

#[test]
fn distinct_sample_instances_keep_distinct_names_through_dedupe() {
    let Some(samples) = samples() else {
        return;
    };
    let inputs: Vec<PathBuf> = ["psplib-j30", "rcpsp-max", "jssp"]
        .iter()
        .map(|i| samples.join(i))
        .collect();
    let cases = validation::load_cases(&inputs).unwrap();
    let instances: Vec<_> = cases.into_iter().map(|c| c.instance).collect();
    let count = instances.len();
    assert_eq!(count, 18 + 8 + 6 + 7, "every sample file is read");
    let unique = makespan::batch::dedupe(instances).unwrap();
    assert_eq!(unique.len(), count, "no two sample files merge");
}

#[test]
fn cli_solve_accepts_native_files_of_two_sets_with_one_file_name() {
    let Some(samples) = samples() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let a = samples.join("rcpsp-max/sm_j10/PSP1.SCH");
    let b = samples.join("rcpsp-max/ubo10/psp2.sch");
    let (code, text) = run_cli(&[
        "solve",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{text}");
    for name in ["rcpsp-max-sm_j10-PSP1.json", "rcpsp-max-ubo10-psp2.json"] {
        let solution = std::fs::read_to_string(out.path().join(name)).unwrap();
        assert!(solution.contains("\"status\": \"optimal\""), "{name}");
    }
}
