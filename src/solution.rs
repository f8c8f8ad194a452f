//! The solution file (`makespan-solution/1`): a schedule plus the evidence for its status.
//! Solution files embed their instance, so `makespan verify solution.json` needs nothing else.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::instance::{content_hash, Instance};
use crate::schedule::ScheduledActivity;

/// The format tag of every solution file.
pub const SOLUTION_FORMAT: &str = "makespan-solution/1";

/// What is known about an instance after solving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The makespan equals a proven lower bound.
    Optimal,
    /// A verified schedule exists; its optimality is not proven (see bound and gap).
    Feasible,
    /// No schedule exists; `reason` says why.
    Infeasible,
    /// A baseline method's schedule (e.g. `timearena-greedy`) breaks rules of the
    /// instance; `reason` names them. The exact pipeline never reports it.
    Invalid,
    /// Something went wrong (unsupported feature, solver failure); `reason` says what.
    Error,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Invalid => "invalid",
            Status::Error => "error",
        })
    }
}

/// Where the lower bound that proves (or brackets) the makespan comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundSource {
    /// Longest path of the precedence network with lags and release times.
    CriticalPath,
    /// Total agent or resource work divided by the capacity.
    Load,
    /// Energetic reasoning over time intervals with heads and tails.
    Energetic,
    /// The MILP solver's dual bound (or its proof that a shorter schedule is infeasible).
    Milp,
    /// Exhaustive search over unit steps of one agent ([`crate::unit_search`]) found
    /// nothing shorter.
    Search,
}

/// The embedded instance and its identity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceRecord {
    pub name: String,
    /// [`crate::instance::content_hash`] of `instance`.
    pub hash: String,
    pub instance: Instance,
}

/// A solved (or failed) instance, as written to disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    pub format: String,
    pub instance: InstanceRecord,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_source: Option<BoundSource>,
    /// (makespan − lower bound) / makespan; 0 when optimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// Why the instance is infeasible, or what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Which method produced the schedule (e.g. `heuristic:serial-lft`, `milp`).
    pub method: String,
    /// Solver and version, e.g. `HiGHS 1.11.0` (or `makespan` when no MILP ran).
    pub solver: String,
    pub seconds: f64,
    /// Branch-and-bound nodes explored by the MILP, if it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(default)]
    pub schedule: Vec<ScheduledActivity>,
    /// The second method's verdict, when solved with `--check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<crate::check::CrossCheck>,
}

impl Solution {
    /// A solution of `instance` with its status and method, and nothing else known yet:
    /// the one place that ties a solution to its instance's content hash.
    pub fn new(instance: &Instance, status: Status, method: impl Into<String>) -> Self {
        Solution {
            format: SOLUTION_FORMAT.into(),
            instance: InstanceRecord {
                name: instance.name.clone(),
                hash: content_hash(instance),
                instance: instance.clone(),
            },
            status,
            makespan: None,
            lower_bound: None,
            bound_source: None,
            gap: None,
            reason: None,
            method: method.into(),
            solver: "makespan".into(),
            seconds: 0.0,
            nodes: None,
            schedule: Vec::new(),
            check: None,
        }
    }
}
