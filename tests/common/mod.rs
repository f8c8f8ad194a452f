//! Shared by the integration tests: running the binary, solving and certifying, and (from
//! `makespan-testkit`) the random job shops for tests that need the exact methods to work
//! hard and the proptest strategies.

#![allow(dead_code)] // each test binary uses a different part

use std::process::{Command, Output};

use makespan::instance::Instance;
use makespan::schedule::ScheduledActivity;
use makespan::solution::{Solution, Status};
use makespan::solve::bounds;
use makespan::solve::problem::Problem;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;
pub use makespan_testkit::job_shop::{hard, job_shop, needs_branching};
pub use makespan_testkit::strategies;

/// Solves `instance` with the pipeline and, when it is proven optimal, certifies it into
/// `dir` (as `s.cert.json`) and checks the certificate with the independent checker.
pub fn certified(instance: &Instance, dir: &std::path::Path) -> Option<Solution> {
    let mut solution = solve(instance, &SolveOptions::default());
    if solution.status != Status::Optimal {
        return None;
    }
    let cancel = makespan::Cancel::new();
    let record = makespan::solve::certify::certify(instance, &solution, dir, "s", 30.0, &cancel);
    solution.certificate = Some(record.unwrap());
    let checked = makespan_certify_check::check(&solution, dir);
    assert!(checked.is_ok(), "{checked:?}");
    Some(solution)
}

/// `None` when `solve` proves `instance` optimal: a verified schedule whose makespan equals
/// the solution's lower bound and is at least the combinatorial bound; else what went wrong.
pub fn unproven(instance: &Instance) -> Option<String> {
    let solution = solve(instance, &SolveOptions::default());
    let report = verify(instance, &solution.schedule);
    let problem = Problem::compile(instance).unwrap();
    let lower = bounds::best(&problem, None).value;
    let makespan = solution.makespan.unwrap_or(i64::MAX);
    let ok = solution.status == Status::Optimal
        && report.valid
        && solution.lower_bound == Some(makespan)
        && lower <= makespan;
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

/// The schedule of an instance of unit steps on agent 0, from the steps' starts in order.
pub fn unit_steps(inst: &Instance, starts: &[i64]) -> Vec<ScheduledActivity> {
    inst.activities
        .iter()
        .zip(starts)
        .map(|(a, &s)| ScheduledActivity::at(a.id.clone(), Some(0), s, 1))
        .collect()
}
