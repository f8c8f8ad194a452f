//! The unified instance model: types, validation, reading and hashing.

mod io;
mod magnitude;
mod model;
mod validate;

pub use io::{content_hash, parse_instance, problem_hash, LoadError};
pub use magnitude::{MAX_CAPACITY, MAX_TIME};
pub use model::{
    Activity, AgentUse, Hold, Instance, Objective, Precedence, Relation, Resource, ResourceUse,
    Setup, Source, TimeUnit, INSTANCE_FORMAT,
};
pub use validate::{Defect, ValidationError};
