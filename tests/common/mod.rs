//! Shared by the integration tests: running the binary, and instances generated for tests
//! that need the MILP to work hard: random job shops (each job a chain of operations, each
//! operation on one unary machine, no agents), reproducible from a seed without any data file.

#![allow(dead_code)] // each test binary uses a different part

pub mod strategies;

use std::process::{Command, Output};

use makespan::instance::{Activity, AgentUse, Instance, Precedence, Resource, ResourceUse};
use makespan::schedule::ScheduledActivity;
use makespan::solution::{Solution, Status};
use makespan::solve::bounds;
use makespan::solve::problem::Problem;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;

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

/// A job shop of `jobs` × `machines` operations with durations 1..=10 drawn from a
/// linear congruential generator seeded with `seed`; machine orders are random permutations.
pub fn job_shop(name: &str, jobs: usize, machines: usize, seed: u64) -> Instance {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    for j in 0..jobs {
        let mut order: Vec<usize> = (0..machines).collect();
        for k in (1..machines).rev() {
            let r = (next() % (k as u64 + 1)) as usize;
            order.swap(k, r);
        }
        for (o, m) in order.into_iter().enumerate() {
            let mut a = Activity::new(format!("j{j}o{o}"), 1 + (next() % 10) as i64);
            a.agent = AgentUse::None;
            a.uses.push(ResourceUse {
                resource: format!("m{m}"),
                amount: 1,
            });
            activities.push(a);
            if o > 0 {
                precedences.push(Precedence::finish_to_start(
                    format!("j{j}o{}", o - 1),
                    format!("j{j}o{o}"),
                    0,
                ));
            }
        }
    }
    Instance {
        resources: (0..machines)
            .map(|m| Resource {
                id: format!("m{m}"),
                capacity: 1,
                states: vec![],
            })
            .collect(),
        activities,
        precedences,
        ..Instance::new(name, None)
    }
}

/// An 8 × 8 job shop that bounds, propagation and the heuristic (71) leave open by one unit:
/// the MILP needs branch-and-bound nodes to find the optimum 70.
pub fn needs_branching() -> Instance {
    job_shop("js-8x8", 8, 8, 1)
}

/// A 15 × 15 job shop that nothing proves within seconds (the constraint model proves the
/// 12 × 12 one in about 0.4 s; this one stays open after 30 s).
pub fn hard() -> Instance {
    job_shop("js-15x15", 15, 15, 1)
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
