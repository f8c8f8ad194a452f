//! Shared by the integration tests: running the binary, the check that a solve is proven
//! optimal, and (from `makespan-testkit`, which the solver's tests share) the random job
//! shops for tests that need the exact methods to work hard and the proptest strategies.

#![allow(dead_code)] // each test binary uses a different part

use std::process::{Command, Output};

use makespan::instance::Instance;
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;
pub use makespan_testkit::job_shop::{hard, job_shop, needs_branching};
pub use makespan_testkit::strategies;

/// `None` when `solve` proves `instance` optimal: a verified schedule whose makespan equals
/// the solution's lower bound; else what went wrong. (That every bound of the solver stays
/// below the optimum is the solver's own suite, `crates/solve/tests`.)
pub fn unproven(instance: &Instance) -> Option<String> {
    let solution = solve(instance, &SolveOptions::default());
    let report = verify(instance, &solution.schedule);
    let makespan = solution.makespan.unwrap_or(i64::MAX);
    let ok = solution.status == Status::Optimal
        && report.valid
        && solution.lower_bound == Some(makespan);
    (!ok).then(|| {
        format!(
            "{}: {:?} {:?}",
            instance.name, solution.status, solution.reason
        )
    })
}

/// Runs the `makespan` binary with `args` and waits for it.
pub fn makespan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output then standard error, for assertion messages.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Writes `instance` as a unified JSON file in `dir` and returns its path.
pub fn write(dir: &std::path::Path, instance: &Instance) -> std::path::PathBuf {
    let path = dir.join(format!("{}.json", instance.name));
    std::fs::write(&path, serde_json::to_string_pretty(instance).unwrap()).unwrap();
    path
}
