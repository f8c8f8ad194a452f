//! Orders one at a time: the exact search serves the first order, then, from the state it
//! ends in, the next, and so on. Each stage is a small search (one order's worth of work
//! from a known state), so it finishes where one search over every order cannot; what it
//! gives up is overlap between orders (the next order's cooking started while the current
//! one is plated). A stage the exact search cannot finish in its time is planned by the beam.
//! It proves nothing; its plan is an incumbent like any other.

use std::time::Instant;

use makespan_world::{search_below, Limits, Outcome, World};

use super::beam::beam;
use super::layout::Layout;
use super::model::{Decision, State};
use super::world::KitchenWorld;

/// States each stage's search keeps at most.
const STAGE_STATES: usize = 400_000;

/// The decisions of a plan that serves the orders stage by stage, or `None` when a stage
/// finds no plan before `deadline`.
pub fn rolling(lay: &Layout, deadline: Instant) -> Option<Vec<Decision>> {
    let k = lay.orders.len();
    let mut plan: Vec<Decision> = Vec::new();
    let mut state: Option<State> = None;
    for j in 1..=k {
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        let stage = lay.first_orders(j);
        let world = KitchenWorld {
            start: state.take(),
            ..KitchenWorld::new(&stage)
        };
        // The stages left share the time that is left evenly; in each, the exact search
        // gets half, and a beam the rest if it finds nothing.
        let until = now + (deadline - now) / (k - j + 1) as u32;
        let caps = Limits {
            max_states: STAGE_STATES,
            time: Some((until - now) / 2),
            ..Limits::default()
        };
        let steps: Vec<Decision> = match search_below(&world, &caps, i64::MAX) {
            Outcome::Optimal(p) => p.steps.iter().map(|s| s.action).collect(),
            Outcome::Feasible { plan, .. } => plan.steps.iter().map(|s| s.action).collect(),
            Outcome::Infeasible | Outcome::Unknown { .. } => {
                let narrow = KitchenWorld {
                    restricted: true,
                    start: world.start.clone(),
                    ..KitchenWorld::new(&stage)
                };
                beam(&narrow, 200, 4, Some(until), i64::MAX)?.0
            }
        };
        let mut at = world.initial();
        for &d in &steps {
            at.apply(&stage, d, None).ok()?;
            at.settle(&stage, None).ok()?;
            plan.push(d);
        }
        state = Some(at);
    }
    Some(plan)
}
