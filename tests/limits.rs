//! Status discipline under limits: whatever stops the MILP early (time, nodes, model size),
//! the instance is `feasible` with a verified schedule, a lower bound below it, the gap, and
//! a reason naming the limit; never `optimal` without a proof.

use std::process::Command;

use makespan::instance::Instance;
use makespan::solution::{Solution, Status};
use makespan::solve::{solve, solve_detailed, Run, SolveOptions};
use makespan::verify::verify;

/// The solution is an honest `feasible`: verified schedule, bound strictly below the
/// makespan, the gap that goes with them, and a reason containing `limit`.
fn assert_feasible_with_bound(instance: &Instance, s: &Solution, limit: &str) {
    assert_eq!(s.status, Status::Feasible, "{:?}", s.reason);
    let makespan = s.makespan.expect("a feasible solution has a makespan");
    let bound = s
        .lower_bound
        .expect("a feasible solution has a lower bound");
    assert!(bound < makespan, "bound {bound} vs makespan {makespan}");
    let gap = s.gap.expect("a feasible solution has a gap");
    assert!((gap - (makespan - bound) as f64 / makespan as f64).abs() < 1e-12);
    let reason = s.reason.as_deref().unwrap_or_default();
    assert!(reason.contains(limit), "{reason}");
    assert!(verify(instance, &s.schedule).valid);
}

#[test]
fn a_node_limit_gives_feasible_with_bound_gap_and_reason() {
    let instance = crate::common::needs_branching();
    let options = SolveOptions {
        node_limit: Some(0),
        ..SolveOptions::default()
    };
    let s = solve(&instance, &options);
    assert_feasible_with_bound(&instance, &s, "node limit of 0");
    assert_eq!(s.nodes, Some(0));
}

#[test]
fn a_time_limit_too_short_to_prove_gives_feasible_with_bound_and_gap() {
    let instance = crate::common::hard();
    let options = SolveOptions {
        time_limit: 0.5,
        ..SolveOptions::default()
    };
    let s = solve(&instance, &options);
    assert_feasible_with_bound(&instance, &s, "time limit of 0.5 s");
}

/// Solves the hard job shop with `options` in `run`, cancelled after 0.3 s.
fn cancelled_after_300_ms(options: SolveOptions, run: Run) {
    let instance = crate::common::hard();
    let trip = run.cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        trip.cancel();
    });
    let clock = std::time::Instant::now();
    let (s, _) = solve_detailed(&instance, &options, &run);
    canceller.join().unwrap();
    // The default time limit is 60 s; the exact method sees the token at its next check.
    assert!(
        clock.elapsed().as_secs_f64() < 10.0,
        "{:?}",
        clock.elapsed()
    );
    assert_feasible_with_bound(&instance, &s, "cancelled");
}

#[test]
fn a_cancelled_solve_stops_the_constraint_model_at_once_and_keeps_a_schedule() {
    cancelled_after_300_ms(SolveOptions::default(), Run::default());
}

#[test]
fn a_cancelled_race_stops_the_constraint_model_and_the_milp_at_once() {
    cancelled_after_300_ms(
        SolveOptions {
            threads: std::num::NonZeroU32::new(2).unwrap(),
            ..SolveOptions::default()
        },
        Run::default(),
    );
}

#[test]
fn a_cancelled_solve_stops_the_milp_at_once_and_keeps_the_heuristic_schedule() {
    cancelled_after_300_ms(
        SolveOptions::default(),
        Run::default().without_constraint_model(),
    );
}

#[test]
fn a_model_too_large_for_memory_gives_feasible_with_bound_and_gap() {
    // The same job shop in units 10^9 times finer (plus one unit, so that scaling by the
    // gcd of all times cannot undo it): the time grid would need far more variables than
    // the MILP may build, and the times are beyond the CP method's 32 bits.
    let mut instance = crate::common::needs_branching();
    for a in &mut instance.activities {
        a.duration = a.duration * 1_000_000_000 + 1;
    }
    let s = solve(&instance, &SolveOptions::default());
    assert_feasible_with_bound(&instance, &s, "variables");
    assert_eq!(s.method, "heuristic");
}

#[test]
fn the_solution_file_of_a_node_limited_solve_says_feasible_with_bound_and_gap() {
    let dir = tempfile::tempdir().unwrap();
    let input = crate::common::write(dir.path(), &crate::common::needs_branching());
    let out = dir.path().join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(["solve", "--quiet", "--node-limit", "0", "--out"])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(out.join("js-8x8.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file["status"], "feasible");
    assert!(file["lower_bound"].as_i64().unwrap() < file["makespan"].as_i64().unwrap());
    assert!(file["gap"].as_f64().unwrap() > 0.0);
    assert!(file["reason"].as_str().unwrap().contains("--node-limit"));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("js-8x8,feasible,"), "{summary}");
}

#[test]
fn a_negative_or_nan_time_limit_is_refused_not_a_panic() {
    for bad in ["-1", "nan", "inf"] {
        let run = Command::new(env!("CARGO_BIN_EXE_makespan"))
            .args([
                "solve",
                "instances/three-cooks-seven-dishes.json",
                "--quiet",
            ])
            .arg(format!("--time-limit={bad}"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("not a number of seconds"), "{stderr}");
    }
    // Through the library the MILP refuses it with a reason.
    let options = SolveOptions {
        time_limit: -1.0,
        ..SolveOptions::default()
    };
    let s = solve(&crate::common::needs_branching(), &options);
    assert_eq!(s.status, Status::Error);
    assert!(s.reason.unwrap().contains("time limit"));
}

/// Every reader of a user's input goes through the one bounded layer, `makespan_model::input`
/// (regular files only, size and unpacked-size caps): a source scan of the library crates
/// and the Python package for ways to open or read a file outside it. A new reader that
/// bypasses the layer fails here; the allow-list names each exception and why it is one.
#[test]
fn every_reader_goes_through_the_bounded_layer() {
    const BOUNDED: &str = "crates/model/src/input.rs";
    const PATTERNS: [&str; 8] = [
        "fs::read(",
        "fs::read_to_string(",
        "File::open(",
        "OpenOptions",
        ".read_to_string(",
        ".read_to_end(",
        "GzDecoder::new(",
        "from_reader(",
    ];
    /// (file, pattern, why it is not a user's input).
    const ALLOWED: [(&str, &str, &str); 4] = [
        (
            "crates/solve/src/exact/cp/hints.rs",
            "File::open(",
            "the proof log Pumpkin just wrote into this run's private folder",
        ),
        (
            "crates/solve/src/exact/cp/hints.rs",
            "GzDecoder::new(",
            "the same log, unpacked as it is rewritten",
        ),
        (
            "crates/makespan/src/jobs.rs",
            "fs::read_to_string(",
            "/proc/meminfo and /proc/self/limits, the kernel's",
        ),
        (
            "crates/makespan/src/references/unpack.rs",
            "GzDecoder::new(",
            "the bundle's bytes, read by input::read_bytes and unpacked under the same cap",
        ),
    ];
    let root = makespan_testkit::workspace();
    let mut files = Vec::new();
    let mut folders = vec![root.join("crates"), root.join("python/src")];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                // Tests, benches and the test kit read the repository's own files.
                if !["tests", "benches", "testkit"].contains(&name.as_str()) {
                    folders.push(path);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                files.push(path);
            }
        }
    }
    assert!(
        files.len() > 100,
        "the scan found only {} files",
        files.len()
    );
    let mut bypasses = Vec::new();
    let mut used = std::collections::HashSet::new();
    for path in &files {
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if relative == BOUNDED {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        // Unit tests read their own fixtures.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (k, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for pattern in PATTERNS {
                if !line.contains(pattern) {
                    continue;
                }
                match ALLOWED
                    .iter()
                    .position(|(file, p, _)| *file == relative && *p == pattern)
                {
                    Some(at) => {
                        used.insert(at);
                    }
                    None => bypasses.push(format!("{relative}:{}: {}", k + 1, line.trim())),
                }
            }
        }
    }
    assert!(
        bypasses.is_empty(),
        "readers outside makespan_model::input (use input::read_text, read_bytes, open or open_maybe_gzipped, or add an exception with its reason):\n{}",
        bypasses.join("\n")
    );
    let stale: Vec<_> = (0..ALLOWED.len())
        .filter(|k| !used.contains(k))
        .map(|k| ALLOWED[k].0)
        .collect();
    assert!(
        stale.is_empty(),
        "exceptions that no longer occur: {stale:?}"
    );
}
