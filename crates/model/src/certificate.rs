//! Certificates (`makespan-certificate/1`): the proof of an optimal solution's lower bound,
//! written beside the solution file by `solve --certify` and re-checked by
//! `makespan check-proof` with code that shares nothing with the solver.
//!
//! A bound-only proof is arithmetic over the instance's own numbers: a chain of rules
//! (critical path), the work one resource must do (load), or the work it must do inside one
//! interval when the schedule ends one unit before the bound (energetic). A search proof is a DRCP proof
//! (Pumpkin's format) over a FlatZinc model, which the checker first shows to be a
//! relaxation of the instance.

use serde::{Deserialize, Serialize};

/// The format tag of every certificate file.
pub const CERTIFICATE_FORMAT: &str = "makespan-certificate/1";

/// Which kind of proof a solution's certificate holds (recorded in the solution file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofKind {
    /// Arithmetic over the instance: [`Proof::CriticalPath`], [`Proof::Load`] or
    /// [`Proof::Energetic`].
    Bound,
    /// A DRCP proof over a FlatZinc model: [`Proof::Drcp`].
    Drcp,
}

/// The solution file's record of its certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertificateRecord {
    /// The kind of proof.
    pub kind: ProofKind,
    /// The certificate file, relative to the solution file's folder.
    pub file: String,
}

/// A certificate file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// Always [`CERTIFICATE_FORMAT`].
    pub format: String,
    /// The content hash of the instance it is about.
    pub instance_hash: String,
    /// The lower bound it proves: every schedule is at least this long.
    pub bound: i64,
    /// The proof.
    pub proof: Proof,
}

/// The proof of a certificate's bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Proof {
    /// A chain of timing rules from time 0 to the end: the bound is the sum of its steps.
    CriticalPath {
        /// The steps in order: a release, lags, and the end of the last activity.
        steps: Vec<Step>,
    },
    /// The work that one resource (or the agents) must do, over its capacity, rounded up.
    Load {
        /// The resource's id, or `None` for the agents.
        resource: Option<String>,
        /// Its capacity.
        capacity: i64,
        /// Each activity's work on it (units × time).
        work: Vec<Work>,
    },
    /// If every schedule ended by `bound − 1`, the activities would have to do more work on
    /// one resource (or the agents) inside `[from, to)` than its capacity allows there.
    Energetic {
        /// The resource's id, or `None` for the agents.
        resource: Option<String>,
        /// Its capacity.
        capacity: i64,
        /// The interval's start.
        from: i64,
        /// The interval's end (exclusive).
        to: i64,
        /// The work each activity must do on it inside the interval, given its window.
        work: Vec<IntervalWork>,
    },
    /// A DRCP proof that the FlatZinc model has no solution with a makespan below `bound /
    /// scale`, where the model's times are the instance's divided by `scale`.
    Drcp {
        /// The factor every time of the instance was divided by.
        scale: i64,
        /// The FlatZinc file, relative to the certificate's folder.
        model: String,
        /// The DRCP proof file (gzipped when it ends in `.gz`), relative to the same folder.
        proof: String,
    },
}

/// One step of a critical path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// The chain starts at `activity`, which starts no earlier than `at`.
    Release {
        /// The activity.
        activity: String,
        /// Its earliest start by its release (0 without one).
        at: i64,
    },
    /// `after` starts at least `weight` after `before` starts.
    Lag {
        /// The activity the chain comes from.
        before: String,
        /// The activity it goes to.
        after: String,
        /// The lag between their starts.
        weight: i64,
    },
    /// The schedule ends no earlier than `activity` starts plus `duration`.
    End {
        /// The chain's last activity.
        activity: String,
        /// Its duration.
        duration: i64,
    },
}

/// An activity's work on a resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    /// The activity.
    pub activity: String,
    /// Units × time it occupies the resource.
    pub work: i64,
}

/// The work an activity must do on a resource inside an energetic certificate's interval,
/// from a window that every schedule ending by `bound − 1` keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntervalWork {
    /// The activity.
    pub activity: String,
    /// No such schedule starts it earlier.
    pub earliest_start: i64,
    /// No such schedule ends it later.
    pub latest_end: i64,
    /// Units × time it must occupy the resource inside the interval.
    pub work: i64,
}
