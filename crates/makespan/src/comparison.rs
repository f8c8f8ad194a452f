//! A plan against a reference solution of the same instance: the ratio to the optimum (or
//! the best known makespan) and the time lost, as `makespan verify --solution` prints them.

use makespan_model::instance::{content_hash, problem_hash, Instance};
use makespan_model::solution::{Solution, Status};
use makespan_verify::{compare, Comparison, Report};

/// Why a solution cannot serve as the reference of a plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// The solution solves another instance (compared by problem, not by name).
    #[error("the solution is for instance \"{solution}\" ({solution_hash}), not for \"{instance}\" ({instance_hash})")]
    OtherInstance {
        /// The solution's instance.
        solution: String,
        /// Its content hash.
        solution_hash: String,
        /// The plan's instance.
        instance: String,
        /// Its content hash.
        instance_hash: String,
    },
    /// The solution's schedule, makespan or bound do not agree with each other or with its
    /// instance (an edited file): its makespan cannot serve as the optimum.
    #[error("not a trustworthy reference solution: {0}")]
    Untrusted(String),
    /// The solution has no schedule to compare with.
    #[error("the solution has no makespan (status {0})")]
    NoMakespan(Status),
}

/// Compares the verified plan's makespan with `reference`, a solution of `instance`; the
/// comparison's `optimum` is a proven optimum when the reference's status is `optimal`. The
/// reference is re-checked first ([`makespan_benchmarks::recheck`]): a claimed makespan its
/// schedule does not back is an error, never a ratio.
pub fn compare_to(
    report: &Report,
    instance: &Instance,
    reference: &Solution,
) -> Result<Comparison, ReferenceError> {
    if problem_hash(&reference.instance.instance) != problem_hash(instance) {
        return Err(ReferenceError::OtherInstance {
            solution: reference.instance.name.clone(),
            solution_hash: reference.instance.hash.clone(),
            instance: instance.name.clone(),
            instance_hash: content_hash(instance),
        });
    }
    makespan_benchmarks::recheck(reference).map_err(ReferenceError::Untrusted)?;
    match reference.makespan {
        Some(optimum) => Ok(compare(report, optimum)),
        None => Err(ReferenceError::NoMakespan(reference.status)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Activity;
    use crate::SolveOptions;

    fn kitchen(cooks: u32) -> Instance {
        Instance {
            activities: vec![Activity::new("chop", 4), Activity::new("boil", 6)],
            ..Instance::new("kitchen", Some(cooks))
        }
    }

    #[test]
    fn a_slower_plan_gets_its_ratio_and_lost_time() {
        let two = kitchen(2);
        let optimum = crate::solve(&two, &SolveOptions::default());
        let one = crate::solve(&kitchen(1), &SolveOptions::default());
        // The one-cook schedule (10) is valid for two cooks too, 4 units slower than 6.
        let report = crate::verify(&two, &one.schedule);
        let c = compare_to(&report, &two, &optimum).unwrap();
        assert_eq!((c.optimum, c.lost_time), (6, Some(4)));
        assert_eq!(c.ratio, Some(10.0 / 6.0));
    }

    #[test]
    fn a_solution_of_another_instance_is_refused() {
        let optimum = crate::solve(&kitchen(2), &SolveOptions::default());
        let report = crate::verify(&kitchen(1), &optimum.schedule);
        let err = compare_to(&report, &kitchen(1), &optimum).unwrap_err();
        assert!(matches!(err, ReferenceError::OtherInstance { .. }), "{err}");
    }
}
