//! The instance model of makespan: what every benchmark is translated into, what every solver
//! reads and what the verifier checks against.
//!
//! - [`instance`]: the unified instance (`makespan-instance/1`): agents, resources with states,
//!   activities with their agent use, precedences with min and max lags; reading with errors
//!   that name the file, the JSON path and the fix; validation; content hashes.
//! - [`schedule`]: a schedule, each activity's agent and pieces `[start, end)`.
//! - [`solution`]: the solution file (`makespan-solution/1`): a schedule plus the evidence for
//!   its status.
//! - [`setting`]: the settings a message asks a user for, named in the words of the front
//!   end (the CLI's flags, the Python package's keyword arguments).
//! - [`certificate`]: the certificate file (`makespan-certificate/1`): a checkable proof of an
//!   optimal solution's lower bound.
//!
//! This crate knows no benchmark and no solver: it depends on `serde` and nothing of makespan.

#![warn(missing_docs)]

pub mod certificate;
pub mod input;
pub mod instance;
pub mod schedule;
pub mod setting;
pub mod solution;
