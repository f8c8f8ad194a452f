//! The solution file (`makespan-solution/1`): a schedule plus the evidence for its status.
//! Solution files embed their instance, so `makespan verify solution.json` needs nothing else.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::certificate::CertificateRecord;
use crate::instance::{content_hash, Instance, LoadError};
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
    /// A baseline method's schedule breaks rules of the
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
    /// Exhaustive search over time (unit steps of one agent, or one agent's work of any length) found
    /// nothing shorter.
    Search,
    /// Lazy-clause-generation constraint programming (Pumpkin) found nothing shorter.
    Cp,
    /// A simulated world's state-space search was exhaustive under an admissible bound, or
    /// the bound it kept (its own, or the scheduling engine's optimum of the world's
    /// relaxation) meets the plan.
    World,
}

/// The embedded instance and its identity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceRecord {
    /// The instance's name.
    pub name: String,
    /// [`crate::instance::content_hash`] of `instance`.
    pub hash: String,
    /// The instance itself, so the solution file can be verified on its own.
    pub instance: Instance,
}

/// A solved (or failed) instance, as written to disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Always [`SOLUTION_FORMAT`].
    pub format: String,
    /// The instance solved, embedded with its name and content hash.
    pub instance: InstanceRecord,
    /// What is known after solving.
    pub status: Status,
    /// Makespan of `schedule`, when one was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<i64>,
    /// Best proven lower bound on the makespan, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<i64>,
    /// Where `lower_bound` comes from.
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
    /// Wall-clock seconds spent solving.
    pub seconds: f64,
    /// Branch-and-bound nodes explored by the MILP, if it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The schedule found (empty when none was).
    #[serde(default)]
    pub schedule: Vec<ScheduledActivity>,
    /// The second method's verdict, when solved with `--check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CrossCheck>,
    /// The certificate of the lower bound, when written by `solve --certify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateRecord>,
    /// What was asked for (method and limits), so that a later run into the same folder
    /// knows whether this result answers what it asks; absent in files written before it
    /// was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solved_with: Option<SolvedWith>,
}

/// The method and limits a solution was produced under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolvedWith {
    /// `exact`, or the name of a benchmark's baseline.
    pub method: String,
    /// Bounds and heuristics only (no exact method).
    #[serde(default)]
    pub heuristic_only: bool,
    /// Seconds the instance was allowed.
    pub time_limit: f64,
    /// Branch-and-bound nodes the MILP was allowed, `None` for no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_limit: Option<u64>,
}

impl SolvedWith {
    /// Whether a result produced under `self` is at least as strong as one asked for under
    /// `asked`: the same method, and for the exact method limits no tighter (a baseline
    /// ignores them).
    pub fn covers(&self, asked: &SolvedWith) -> bool {
        let nodes = |n: Option<u64>| n.unwrap_or(u64::MAX);
        if self.method != asked.method {
            return false;
        }
        self.method != "exact"
            || (!self.heuristic_only || asked.heuristic_only)
                && self.time_limit >= asked.time_limit
                && nodes(self.node_limit) >= nodes(asked.node_limit)
    }
}

impl Solution {
    /// Reads a solution file. Errors name the file, and the line and column of bad JSON.
    pub fn read(path: &Path) -> Result<Solution, LoadError> {
        let text = crate::input::read_text(path)?;
        Solution::parse(path, &text)
    }

    /// Parses the text of a solution file; `path` is used only in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<Solution, LoadError> {
        serde_json::from_str(text).map_err(|e| match LoadError::json_in(path, text, &e) {
            LoadError::Json {
                path,
                line,
                column,
                message,
            } => LoadError::Json {
                path,
                line,
                column,
                message: format!("not a {SOLUTION_FORMAT} file: {message}"),
            },
            other => other,
        })
    }

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
            certificate: None,
            solved_with: None,
        }
    }
}

/// How `solve --check` (a second method re-solving the instance) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Both methods' findings are consistent.
    Agree,
    /// They contradict each other: one of them is wrong.
    Disagree,
    /// The second method established nothing (too large, no time, nothing to re-solve).
    Skipped,
}

/// The cross-check's record in the solution file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrossCheck {
    /// Whether the two methods agree.
    pub verdict: Verdict,
    /// The second method: `exhaustive` or `milp-alone`.
    pub method: String,
    /// What the second method found, and the disagreement if any.
    pub detail: String,
    /// Wall-clock seconds the second method took.
    pub seconds: f64,
}

impl Verdict {
    /// The verdict as written in `summary.csv` and the solution file.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Disagree => "disagree",
            Verdict::Skipped => "skipped",
        }
    }
}
