//! A solution file is a claim, not a fact: a kept result in an output folder or a
//! reference optimum may have been edited, or written by anyone. [`recheck`] checks what a
//! file can prove about itself: its instance matches its hash, its schedule passes the
//! verifier, and the makespan, bound and status it claims agree with that schedule. (Whether
//! the bound is a true lower bound is what the solver proves; a file cannot show it.)

use makespan_model::instance::{content_hash, Instance};
use makespan_model::schedule::{makespan, ScheduledActivity};
use makespan_model::solution::{Solution, Status};

use crate::Report;

/// `Ok` when the solution file is consistent with itself, else what is wrong.
pub fn recheck(solution: &Solution) -> Result<(), String> {
    recheck_with(solution, crate::verify)
}

/// [`recheck`] with the schedule judged by `verify` instead of the activity-graph rules: a
/// simulated world's plan is replayed by its benchmark's simulator.
pub fn recheck_with(
    solution: &Solution,
    verify: impl Fn(&Instance, &[ScheduledActivity]) -> Report,
) -> Result<(), String> {
    let record = &solution.instance;
    if record.name != record.instance.name || record.hash != content_hash(&record.instance) {
        return Err(format!(
            "the embedded instance does not match its name and hash ({} {})",
            record.name, record.hash
        ));
    }
    let needs_schedule = matches!(
        solution.status,
        Status::Optimal | Status::Feasible | Status::Invalid
    );
    if !needs_schedule {
        return Ok(());
    }
    if solution.schedule.is_empty() && !record.instance.activities.is_empty() {
        return Err(format!("status {} without a schedule", solution.status));
    }
    if solution.status != Status::Invalid {
        let report = verify(&record.instance, &solution.schedule);
        if !report.valid {
            let first = report
                .violations
                .first()
                .map_or(String::new(), |v| v.message.clone());
            return Err(format!(
                "its schedule breaks {} rule(s) of its instance, first: {first}",
                report.violations.len()
            ));
        }
    }
    let actual = makespan(&solution.schedule);
    if solution.makespan != Some(actual) {
        return Err(format!(
            "it claims makespan {}, but its schedule ends at {actual}",
            solution
                .makespan
                .map_or("(none)".to_string(), |m| m.to_string())
        ));
    }
    match solution.lower_bound {
        Some(bound) if bound > actual => Err(format!(
            "its lower bound {bound} exceeds its own makespan {actual}"
        )),
        Some(bound) if solution.status == Status::Optimal && bound != actual => Err(format!(
            "it claims optimal, but its bound {bound} is below its makespan {actual}"
        )),
        None if solution.status == Status::Optimal => {
            Err("it claims optimal without a lower bound".into())
        }
        _ => Ok(()),
    }
}
