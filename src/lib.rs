//! makespan: provably optimal schedules for LLM planning benchmarks, and a strict verifier
//! for any plan.
//!
//! The pipeline is `import → Instance → solve → Solution` and `plan → verify → Report`.
//! Importers ([`formats`]) only translate; the solver ([`solve`]) and the verifier
//! ([`verify`]) never know which benchmark an instance came from.

pub mod agent_search;
mod assign;
mod baseline;
pub mod batch;
pub mod bounds;
pub mod check;
pub mod compare;
pub mod expand;
pub mod formats;
pub mod generate;
pub mod heuristics;
pub mod instance;
pub mod interrupt;
pub mod milp;
pub mod network;
pub mod problem;
mod problem_rules;
pub mod schedule;
pub mod sequencing;
pub mod solution;
pub mod solve;
pub mod unit_search;
pub mod validation;
pub mod verify;
