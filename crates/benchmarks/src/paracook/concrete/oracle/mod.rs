//! The oracle of the concrete kitchens: plans that serve every order, as short as the search
//! finds them, each with a proven lower bound.
//!
//! - [`layout`]: the kitchen as the planner sees it (cells, distances, stations, orders);
//! - [`model`]: the kitchen in motion, agents deciding when free;
//! - [`world`]: that model as a `makespan_world::World`, for the exact A*;
//! - [`beam`]: a beam search over the same decisions, for kitchens too large for A*;
//! - [`rolling`]: one cook's orders one at a time, each stage an exact search;
//! - [`tasks`]: a planner at the level of recipe tasks for any number of cooks, with
//!   local improvement;
//! - the bounds are in `concrete::bounds`.
//!
//! A plan is kept only after the game's rules replay it; the model is the planner's, the
//! replay the verifier's, and they share no code.

pub mod beam;
pub mod layout;
pub mod model;
pub mod rolling;
pub mod solve;
pub mod tasks;
pub mod world;

use serde_json::{json, Map, Value};

use layout::Layout;
use model::{Act, Decision, Log, State};

/// A plan the model replayed: every game action with its agent and times, and the time of
/// the last serve.
#[derive(Debug, Clone)]
pub struct Planned {
    /// `(agent, action, start, end)`, in the order they complete.
    pub actions: Vec<(u8, Act, i32, i32)>,
    /// When the last order is served.
    pub time: i32,
}

/// Replays decisions in the model; `None` when one of them fails or the orders are not all
/// served at the end.
pub fn replay(lay: &Layout, decisions: &[Decision]) -> Option<Planned> {
    let mut state = State::initial(lay);
    let mut log = Log::default();
    state.settle(lay, Some(&mut log)).ok()?;
    for &d in decisions {
        state.apply(lay, d, Some(&mut log)).ok()?;
        state.settle(lay, Some(&mut log)).ok()?;
    }
    if !state.done(lay) {
        return None;
    }
    let time = log.now;
    // Actions that end after the last serve are left out: they change nothing served.
    let actions = log
        .done
        .into_iter()
        .filter(|&(_, act, start, end)| end <= time && !(act == Act::MoveTo(0) && start == end))
        .collect();
    Some(Planned { actions, time })
}

/// One game action in the harness's answer form.
pub fn action_json(lay: &Layout, act: Act, start: i32, end: i32) -> Value {
    match act {
        Act::MoveTo(cell) => {
            let (x, y) = lay.cells[cell as usize];
            json!({"action": "MoveTo", "target": [x, y]})
        }
        Act::Interact(s) => json!({"action": "Interact", "target": lay.stations[s as usize].name}),
        Act::Process(s) => json!({"action": "Process", "target": lay.stations[s as usize].name}),
        Act::Wait => json!({"action": "Wait", "duration": end - start}),
    }
}

/// The plan in the harness's answer form: each agent's actions in order, waits filling
/// any idle time between them.
pub fn answer(lay: &Layout, plan: &Planned) -> Value {
    let mut lists = Map::new();
    for (i, (name, _)) in lay.agents.iter().enumerate() {
        let mut list = Vec::new();
        let mut now = 0;
        for &(_, act, start, end) in plan.actions.iter().filter(|a| a.0 as usize == i) {
            if matches!(act, Act::MoveTo(_)) && start == end {
                continue;
            }
            if start > now {
                list.push(json!({"action": "Wait", "duration": start - now}));
            }
            list.push(action_json(lay, act, start, end));
            now = end;
        }
        lists.insert(name.clone(), Value::Array(list));
    }
    Value::Object(lists)
}
