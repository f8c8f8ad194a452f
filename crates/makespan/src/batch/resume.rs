//! Whether a solution kept from an earlier run answers what this run asks. A kept file is
//! re-checked first ([`makespan_benchmarks::recheck`]: an edited schedule or a claim its schedule
//! does not back is re-solved); then a proof (`optimal`, `infeasible`) of the exact method
//! stands whatever its limits, and anything else stands only when it was produced by the
//! same method under limits no tighter than those asked for.

use makespan_model::instance::{content_hash, Instance};
use makespan_model::solution::{Solution, SolvedWith, Status};

/// What to do with the file found at an instance's solution path.
pub(super) enum Resume {
    /// Keep it: it answers what is asked.
    Keep(Box<Solution>),
    /// Solve again; `Some(why)` when a result for this instance was there but does not do.
    Solve(Option<String>),
}

pub(super) fn decide(
    existing: Option<Solution>,
    instance: &Instance,
    asked: &SolvedWith,
) -> Resume {
    let Some(existing) = existing else {
        return Resume::Solve(None);
    };
    if existing.instance.hash != content_hash(instance) {
        // Another version of the instance: its result says nothing about this one.
        return Resume::Solve(None);
    }
    if existing.status == Status::Error {
        return Resume::Solve(Some("the kept result is an error".into()));
    }
    if let Err(why) = makespan_benchmarks::recheck(&existing) {
        return Resume::Solve(Some(format!("the kept result fails its re-check: {why}")));
    }
    let proven = matches!(existing.status, Status::Optimal | Status::Infeasible);
    let kept_with = existing.solved_with.clone().unwrap_or_else(|| SolvedWith {
        // Files from before the record: a baseline names itself in `method`; anything else
        // came from the exact pipeline under unknown limits.
        method: if existing.method.contains(':') || proven {
            "exact".into()
        } else {
            existing.method.clone()
        },
        heuristic_only: existing.method.starts_with("heuristic"),
        time_limit: 0.0,
        node_limit: Some(0),
    });
    let same_method = kept_with.method == asked.method;
    if (same_method && proven) || kept_with.covers(asked) {
        return Resume::Keep(Box::new(existing));
    }
    let why = if !same_method {
        format!(
            "kept from method {}, {} asked",
            kept_with.method, asked.method
        )
    } else {
        format!(
            "the kept result is {} under weaker limits than those asked",
            existing.status
        )
    };
    Resume::Solve(Some(why))
}
