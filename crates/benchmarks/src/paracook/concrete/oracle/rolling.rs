//! Orders one at a time: a stage serves the first order, the next stage, from the state the
//! last one ended in, the next order, and so on. Each stage is a small search (one order's
//! worth of work from a known state), so it finishes where one search over every order cannot;
//! what it gives up is overlap between orders (the next order's cooking started while the
//! current one is plated). A stage is first planned by the search ranked by the work left
//! ([`super::guided`]), which reaches a plan in milliseconds; the exact search then looks for a
//! shorter one in half the stage's time; a stage neither plans is planned by the beam.
//! It proves nothing; its plan is an incumbent like any other.

use std::time::Instant;

use makespan_world::{search_below, Limits, Outcome, World};

use super::beam::beam;
use super::guided::guided;
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
        // The stages left share the time that is left evenly; in each, the ranked search
        // plans first (within half the stage's time, most often in milliseconds), the exact
        // search gets half of what is left to find a shorter plan, and a beam the rest if
        // neither finds one.
        let until = now + (deadline - now) / (k - j + 1) as u32;
        let narrow = KitchenWorld {
            restricted: true,
            start: world.start.clone(),
            ..KitchenWorld::new(&stage)
        };
        let quick = guided(&narrow, STAGE_STATES, now + (until - now) / 2);
        let caps = Limits {
            max_states: STAGE_STATES,
            time: Some(until.saturating_duration_since(Instant::now()) / 2),
            ..Limits::default()
        };
        let upper = quick.as_ref().map_or(i64::MAX, |(_, cost)| *cost);
        let steps: Vec<Decision> = match search_below(&world, &caps, upper) {
            Outcome::Optimal(p) => p.steps.iter().map(|s| s.action).collect(),
            Outcome::Feasible { plan, .. } => plan.steps.iter().map(|s| s.action).collect(),
            Outcome::Infeasible | Outcome::Unknown { .. } => match quick {
                Some((steps, _)) => steps,
                None => beam(&narrow, 200, 4, Some(until), i64::MAX)?.0,
            },
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
