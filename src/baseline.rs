//! Benchmarks' own baseline methods (their "oracles"), replayed so that their schedules
//! can be verified and compared with the proven optimum. A baseline's schedule is never
//! trusted: it goes through the verifier, and one that breaks a rule is reported
//! `invalid`, with the violations, instead of being repaired.

use std::time::Instant;

use crate::formats::timearena;
use crate::instance::Instance;
use crate::solution::{Solution, Status};
use crate::solve::Method;
use crate::verify;

/// Runs a baseline method on an instance: status `feasible` (a valid schedule), `invalid`
/// (the schedule breaks rules; `reason` names each) or `error` (the method cannot run).
pub fn solve(instance: &Instance, method: Method, clock: Instant) -> Solution {
    let mut solution = Solution::new(instance, Status::Error, "timearena-greedy");
    debug_assert_eq!(method, Method::TimearenaGreedy);
    match timearena::greedy::run(instance) {
        Err(message) => solution.reason = Some(message),
        Ok(outcome) => {
            let report = verify::verify(instance, &outcome.schedule);
            let mut problems: Vec<String> = outcome
                .unmapped
                .iter()
                .map(|a| format!("the oracle schedules {a}, which the environment does not have"))
                .collect();
            problems.extend(
                report
                    .violations
                    .iter()
                    .map(|v| format!("{}: {}", v.rule, v.message)),
            );
            solution.status = if problems.is_empty() {
                Status::Feasible
            } else {
                Status::Invalid
            };
            solution.reason = (!problems.is_empty()).then(|| problems.join("; "));
            solution.makespan = Some(outcome.value);
            solution.schedule = outcome.schedule;
        }
    }
    solution.seconds = clock.elapsed().as_secs_f64();
    solution
}
