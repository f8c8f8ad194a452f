//! Shared by the solver's tests: solving and certifying in one step, and schedules of unit
//! steps.

use std::path::Path;

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};
use makespan_solve::{certify, solve, Cancel, SolveOptions};

/// Solves `instance` with the pipeline and, when it is proven optimal, certifies it into
/// `dir` (as `s.cert.json`) and checks the certificate with the independent checker.
pub fn certified(instance: &Instance, dir: &Path) -> Option<Solution> {
    let mut solution = solve(instance, &SolveOptions::default());
    if solution.status != Status::Optimal {
        return None;
    }
    let record = certify::certify(instance, &solution, dir, "s", 30.0, &Cancel::new());
    solution.certificate = Some(record.unwrap());
    let checked = makespan_certify_check::check(&solution, dir);
    assert!(checked.is_ok(), "{checked:?}");
    Some(solution)
}

/// The schedule of an instance of unit steps on agent 0, from the steps' starts in order.
pub fn unit_steps(inst: &Instance, starts: &[i64]) -> Vec<ScheduledActivity> {
    inst.activities
        .iter()
        .zip(starts)
        .map(|(a, &s)| ScheduledActivity::at(a.id.clone(), Some(0), s, 1))
        .collect()
}
