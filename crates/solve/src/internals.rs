//! The solver's stages, for its own tests (`crates/solve/tests`) and benches only: the
//! feature `internals` that compiles this module is turned on by the crate's dev-dependency
//! on itself, never by another crate. No promise: these change whenever the solver does.

pub use crate::problem::Problem;

/// Lower bounds on the makespan.
pub mod bounds {
    pub use crate::bounds::{best, critical_path, load};
}

/// Schedules by priority rules, sampling and local search.
pub mod heuristics {
    pub use crate::heuristics::shop::Shop;
    pub use crate::heuristics::{best, Effort};
}

/// The time-indexed MILP and the propagation before it.
pub mod milp {
    pub use crate::exact::milp::propagate::{first_open_horizon, tighten};
    pub use crate::exact::milp::{solve, MilpOutcome, MilpSettings};
}

/// The constraint model (Pumpkin).
pub mod cp {
    pub use crate::exact::cp::model::CpModel;
    pub use crate::exact::cp::model::{Row, Var};
    pub use crate::exact::cp::{
        applies, minimise, solve, Branching, CpOutcome, Strategy, FIRST, SEED,
    };

    /// Large neighbourhood search on the model.
    pub mod lns {
        pub use crate::exact::cp::lns::{improve, Improved};
    }
}

/// The exact search over time for one agent and unit steps.
pub mod unit_search {
    pub use crate::exact::unit_search::{search, SearchOutcome};
}

/// The exact search over time for one agent and work of any length.
pub mod agent_search {
    pub use crate::exact::agent_search::{applies, search};
}
