//! One function per rule. Each reads the instance and the schedule (or its placements)
//! and appends every violation of its rule; none stops at the first.

pub mod agents;
pub mod coverage;
pub mod holds;
pub mod pieces;
pub mod precedence;
pub mod resources;
pub mod setups;
pub mod states;
pub mod windows;
