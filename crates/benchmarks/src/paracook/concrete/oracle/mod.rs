//! The oracle of the concrete kitchens: plans that serve every order, as short as the search
//! finds them, each with a proven lower bound.
//!
//! - [`layout`]: the kitchen as the planner sees it (cells, distances, stations, orders);
//! - [`model`]: the kitchen in motion, agents deciding when free;
//! - [`world`]: that model as a `makespan_world::World`, for the exact A*;
//! - [`beam`]: a beam search over the same decisions, for kitchens too large for A*;
//! - [`guided`]: a best-first search ranked by the work left, a lone cook's quick plan;
//! - [`rolling`]: one cook's orders one at a time, each stage a quick plan, then an exact
//!   search for a shorter one;
//! - [`tasks`]: a planner at the level of recipe tasks for any number of cooks, with
//!   local improvement;
//! - [`lns`]: a plan's first decisions kept and the rest planned again by a wide beam;
//! - the bounds are in `concrete::bounds`.
//!
//! A plan is kept only after the game's rules replay it; the model is the planner's, the
//! replay the verifier's, and they share no code.

pub mod beam;
pub mod guided;
pub mod layout;
pub mod lns;
pub mod model;
pub mod rolling;
pub mod solve;
pub mod tasks;
pub mod world;

use std::collections::HashMap;

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
    replay_in(lay, decisions, false)
}

/// [`replay`] in the model the decisions come from: the joint one (`joint`, see
/// [`world::KitchenWorld::joint`]) or the one where agents decide in the game's order.
///
/// The joint model keeps its cooks in a canonical order (see [`State::canonical`]), so its
/// decisions name positions in that order; the replay follows each position back to its
/// cook.
pub fn replay_in(lay: &Layout, decisions: &[Decision], joint: bool) -> Option<Planned> {
    let mut state = State::initial(lay);
    let mut log = Log::default();
    // The cook at each position, and how many of the log's actions name cooks already.
    let mut who: Vec<usize> = (0..state.agents.len()).collect();
    let mut named = 0;
    let mut settle = |state: &mut State, log: &mut Log| -> Option<()> {
        if joint {
            state.settle_joint(lay, Some(log)).ok()?;
            for entry in &mut log.done[named..] {
                entry.0 = who[entry.0 as usize] as u8;
            }
            named = log.done.len();
            let perm = state.canonical(Some(log));
            who = perm.iter().map(|&i| who[i]).collect();
        } else {
            state.settle(lay, Some(log)).ok()?;
        }
        Some(())
    };
    settle(&mut state, &mut log)?;
    for &d in decisions {
        state.apply(lay, d, Some(&mut log)).ok()?;
        settle(&mut state, &mut log)?;
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
///
/// At one instant the game runs the agents in the order their ending actions began (ties by
/// agent number), and a plan's zero-time actions at that instant must run in the planner's
/// order. An agent that waited before acting gets its wait split so that the last part
/// begins after the actions of the agents that act before it (where the wait is long
/// enough); the game's replay is the judge of the rest.
pub fn answer(lay: &Layout, plan: &Planned) -> Value {
    let n = lay.agents.len();
    let mut per: Vec<Vec<(Act, i32, i32)>> = vec![Vec::new(); n];
    // Where each agent's first zero-time action at an instant comes in the planner's order.
    let mut first: HashMap<(usize, i32), usize> = HashMap::new();
    for (pos, &(agent, act, start, end)) in plan.actions.iter().enumerate() {
        if matches!(act, Act::MoveTo(_)) && start == end {
            continue;
        }
        per[agent as usize].push((act, start, end));
        if start == end {
            first.entry((agent as usize, start)).or_insert(pos);
        }
    }
    let mut at: Vec<(i32, usize, usize)> = first.iter().map(|(&(a, t), &p)| (t, p, a)).collect();
    at.sort_unstable();
    // (instant, agent) → when the last part of the agent's wait before it begins.
    let mut split: HashMap<(usize, i32), i32> = HashMap::new();
    let mut began: Vec<(i32, usize)> = Vec::new();
    for (j, &(t, _, a)) in at.iter().enumerate() {
        if j == 0 || at[j - 1].0 != t {
            began.clear();
        }
        let k = per[a].iter().position(|x| x.1 == t).unwrap_or(0);
        let (prev_start, prev_end) = match k {
            0 => (-1, 0),
            _ => (per[a][k - 1].1, per[a][k - 1].2),
        };
        let reg = if prev_end == t || (k == 0 && t == 0) {
            (prev_start, a)
        } else {
            let need = began.iter().copied().max().unwrap_or((-1, 0));
            let mut s = prev_end;
            if (s, a) < need {
                s = if a > need.1 { need.0 } else { need.0 + 1 };
            }
            if s < t {
                split.insert((a, t), s);
                (s, a)
            } else {
                (prev_end, a)
            }
        };
        began.push(reg);
    }
    let mut lists = Map::new();
    for (i, (name, _)) in lay.agents.iter().enumerate() {
        let mut list = Vec::new();
        let mut now = 0;
        for &(act, start, end) in &per[i] {
            if start > now {
                let s = split.get(&(i, start)).copied().unwrap_or(now).max(now);
                for (from, to) in [(now, s), (s, start)] {
                    if to > from {
                        list.push(json!({"action": "Wait", "duration": to - from}));
                    }
                }
            }
            list.push(action_json(lay, act, start, end));
            now = end;
        }
        lists.insert(name.clone(), Value::Array(list));
    }
    Value::Object(lists)
}
