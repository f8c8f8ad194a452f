//! A schedule: when each activity runs and on which agent. Produced by the solvers, read from
//! plans, checked by the verifier.

use serde::{Deserialize, Serialize};

/// A half-open interval `[start, end)` during which an activity runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Piece(pub i64, pub i64);

impl Piece {
    /// The first instant of the piece (inclusive).
    pub fn start(&self) -> i64 {
        self.0
    }
    /// The instant the piece ends (exclusive).
    pub fn end(&self) -> i64 {
        self.1
    }
}

/// One activity in a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduledActivity {
    /// Id of the instance's activity.
    pub activity: String,
    /// The agent (0-based) that performs it; `None` when it needs no agent or agents are
    /// unlimited and not assigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<u32>,
    /// When it runs: one piece unless the activity is preemptible.
    pub pieces: Vec<Piece>,
}

impl ScheduledActivity {
    /// A non-preemptive placement `[start, start + duration)`.
    pub fn at(activity: impl Into<String>, agent: Option<u32>, start: i64, duration: i64) -> Self {
        ScheduledActivity {
            activity: activity.into(),
            agent,
            pieces: vec![Piece(start, start + duration)],
        }
    }

    /// Start of the first piece.
    pub fn start(&self) -> Option<i64> {
        self.pieces.iter().map(Piece::start).min()
    }

    /// End of the last piece.
    pub fn end(&self) -> Option<i64> {
        self.pieces.iter().map(Piece::end).max()
    }
}

/// Latest end over all activities (0 for an empty schedule).
pub fn makespan(schedule: &[ScheduledActivity]) -> i64 {
    schedule
        .iter()
        .filter_map(ScheduledActivity::end)
        .max()
        .unwrap_or(0)
}
