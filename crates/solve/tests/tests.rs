//! The solver's integration tests, in one binary (each test binary links HiGHS): properties
//! of the pipeline and of each exact method on random instances, against methods written
//! independently of them (brute force, enumeration, the MILP alone), certificates checked by
//! the independent checker, and the benchmarks' own files. They reach the stages through
//! the crate's `internals` feature; tests that need the benchmark data skip, saying so,
//! where it is absent (`makespan_testkit::data`).

mod common;

mod agent_search;
mod certify_bounds;
mod certify_orders;
mod cp_method;
mod propagation_properties;
mod robotouille;
mod setups_and_holds;
mod solver_properties;
mod timearena;
