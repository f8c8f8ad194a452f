//! makespan's integration tests, in one binary (each test binary links HiGHS, so one is
//! built instead of two dozen): the CLI run as a user runs it, and the library on the
//! benchmarks' own files, through its public API. The solver's property suites are its own
//! crate's (`crates/solve/tests`). Tests that need the benchmark data skip, saying so, where
//! it is absent (`makespan_testkit::data`).

mod common;

mod answer_forms;
mod asynctool;
mod batch_safety;
mod benchmarks_end_to_end;
mod certify_cli;
mod check;
mod cli;
mod docs_commands;
mod error_text;
mod explain_properties;
mod formats_detect;
mod formats_import;
mod fuzz_readers;
mod gantt;
#[cfg(unix)]
mod interrupt;
mod limits;
mod paracook_concrete;
mod recipe2plan;
mod recipe2plan_properties;
mod references;
mod resource_limits;
mod robotouille;
mod robotouille_actions;
mod robotouille_worlds;
mod robustness;
mod score;
mod timearena;
mod timearena_cli;
mod upstream_scores;
mod validation_sets;
mod verify_agent_lists;
mod verify_mutations;
mod verify_plans;
