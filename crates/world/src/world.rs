//! The contract between a simulator and the search: a world has an initial state, a goal,
//! successors that each cost time, an admissible lower bound on the time still needed, and
//! states that compare equal when they are the same situation (the search merges them).
//!
//! A plan is the actions in order, each with the instant it starts and ends: the schedule
//! of actions that a world benchmark's solution file holds and that its simulator replays
//! before the solution is written. Actions that run side by side (several cooks) are one
//! joint action of the world, or actions of cost 0 followed by a wait: the world decides,
//! the search only adds costs.

use std::fmt::Debug;
use std::hash::Hash;

/// A simulated world the search explores.
pub trait World: Sync {
    /// A situation of the world. Two states that are equal are one situation: the world
    /// puts in it exactly what the rest of the plan can depend on (symmetric objects in a
    /// canonical order, clocks that no longer matter dropped), which is what makes the
    /// search small.
    type State: Clone + Eq + Hash + Debug;

    /// What a plan does in one step.
    type Action: Clone + Debug;

    /// The state before the first action.
    fn initial(&self) -> Self::State;

    /// Whether the state is finished.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Every action that can be taken in `state`, with the time it costs (≥ 0) and the state
    /// after it, appended to `out` (cleared by the caller).
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Action, i64, Self::State)>);

    /// A lower bound on the time from `state` to a goal: never more than the true remainder
    /// (admissible), or optimality proofs are wrong. 0 is always admissible.
    fn lower_bound(&self, state: &Self::State) -> i64;
}

/// One action of a plan, placed in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step<A> {
    /// The action.
    pub action: A,
    /// When it starts.
    pub start: i64,
    /// When it ends (`start` plus its cost).
    pub end: i64,
}

/// A plan from the initial state to a goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan<A> {
    /// Its actions in order.
    pub steps: Vec<Step<A>>,
    /// Its total time: the end of its last action (0 for an empty plan).
    pub cost: i64,
}

impl<A> Plan<A> {
    /// The plan of `actions` taken one after the other, each costing its time.
    pub fn sequential(actions: impl IntoIterator<Item = (A, i64)>) -> Plan<A> {
        let mut now = 0;
        let steps = actions
            .into_iter()
            .map(|(action, cost)| {
                let step = Step {
                    action,
                    start: now,
                    end: now + cost,
                };
                now = step.end;
                step
            })
            .collect();
        Plan { steps, cost: now }
    }
}
