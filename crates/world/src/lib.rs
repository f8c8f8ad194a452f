//! Searches over simulated worlds: benchmarks whose rules are a simulator (states, actions,
//! a goal) rather than an activity graph.
//!
//! Some benchmarks leave choices to the plan that no single activity graph can state:
//! which item plays which role, which stove, where to park what a robot holds, how cooks
//! walk a map and hand items over. For them the simulator is the rule book. It lives in its
//! benchmark's folder (`makespan-benchmarks`), implements [`World`] and names every failed
//! precondition in the game's own words; this crate searches any [`World`] for a shortest
//! plan ([`search`]).
//!
//! Why a crate of its own: the simulators sit in the benchmarks' layer, which builds
//! without HiGHS, so the trait they implement cannot live in the solver crate that links
//! it. The search needs nothing but the trait. Lower bounds from the scheduling engine (a
//! relaxation of a world compiled to an instance and solved by `makespan-solve`) reach a
//! search through [`World::lower_bound`] or [`Limits::known_bound`], wired by the facade.
//!
//! `Optimal` means proven, as everywhere in makespan: the search was exhaustive under an
//! admissible bound. Every cap (states kept, time) ends in [`Outcome::Feasible`] with the
//! best plan and the bound proven so far, or [`Outcome::Unknown`] with the bound, never in
//! an abort.
//!
//! ```
//! use makespan_world::{search, Limits, Outcome, World};
//!
//! /// Reach `goal` from 0 by steps of +1 (1 time unit) or ×2 (2 time units).
//! struct Doubling { goal: u32 }
//!
//! impl World for Doubling {
//!     type State = u32;
//!     type Action = &'static str;
//!     fn initial(&self) -> u32 { 0 }
//!     fn is_goal(&self, s: &u32) -> bool { *s == self.goal }
//!     fn successors(&self, s: &u32, out: &mut Vec<(&'static str, i64, u32)>) {
//!         if *s < self.goal { out.push(("+1", 1, s + 1)); }
//!         if *s > 0 && s * 2 <= self.goal { out.push(("x2", 2, s * 2)); }
//!     }
//!     fn lower_bound(&self, s: &u32) -> i64 { i64::from(*s != self.goal) }
//! }
//!
//! let Outcome::Optimal(plan) = search(&Doubling { goal: 12 }, &Limits::default()) else {
//!     panic!("a small world is searched exhaustively");
//! };
//! assert_eq!(plan.cost, 7); // +1 +1 +1 x2 x2
//! assert_eq!(plan.steps.last().map(|s| s.end), Some(7));
//! ```

#![warn(missing_docs)]

mod astar;
mod beam;
mod world;

pub use astar::{search, search_accepting, search_below, Cancelled, Limits, Outcome};
pub use beam::beam;
pub use world::{Plan, Step, World};
