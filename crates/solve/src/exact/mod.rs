//! Exact methods: each proves an optimum (or that none shorter than a given schedule exists).
pub mod agent_search;
pub mod milp;
pub mod unit_search;
