//! What the constraint model's property tests share: the small random projects they draw
//! and the optimum they check against.

use makespan_model::instance::Instance;
use makespan_testkit::strategies::{rcpsp_instances_shaped, RcpspShape};
use proptest::strategy::Strategy;

use super::model::CpModel;
use super::{minimise, Branching, CpOutcome};
use crate::problem::Problem;
use crate::Cancel;

/// Projects of 4–7 activities on two resources of capacity 3–5, small enough that every
/// search in a test ends in milliseconds, named `name`.
pub(super) fn small_projects(name: &'static str) -> impl Strategy<Value = Instance> {
    rcpsp_instances_shaped(RcpspShape {
        activities: 4..=7,
        capacity: 3..=5,
        duration: 1..=5,
        max_demand: 3,
        precedence_odds: 4,
        max_lag: 1,
        name,
    })
}

/// The optimum of `problem` by the constraint model's own minimisation branching on
/// `branching` (`None`: infeasible). A test of a branching checks it against another one.
pub(super) fn optimum(problem: &Problem, branching: Branching) -> Option<i64> {
    let horizon = problem.durations.iter().sum::<i64>() + 20;
    let model = CpModel::build(problem, horizon).ok()?;
    match minimise(&model, 30.0, &Cancel::new(), branching, None).unwrap() {
        CpOutcome::Optimal { makespan, .. } => Some(makespan),
        CpOutcome::NoneByHorizon => None,
        CpOutcome::Stopped { .. } => panic!("30 s are plenty for a small instance"),
    }
}
