//! A concrete plan as makespan's schedules and reports carry it, and its verdict.
//!
//! In a schedule, each entry is one action: `activity` the action as the harness writes it
//! (compact JSON, `{"action":"MoveTo","target":[3,4]}`), `agent` the cook's index, one piece
//! `[start, end)`. A plan is judged by replaying it in both modes ([`verdict`]): every
//! violation of either, marked with the modes it fails under, and the goal.

use serde_json::Value;

use super::kitchen::Kitchen;
use super::kitchen_of;
use super::sim::{simulate, simulate_with, Action, AgentPlan, Mode, Options, Outcome, Plan};
use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_verify::{Report, Rule, Violation};

use crate::simulated::{Limits, Simulated, WorldSolution};

/// The action of a schedule entry: its text read as the harness's JSON (anything else is an
/// action the game does not know).
pub fn action_of_text(text: &str) -> (Action, Value) {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => (Action::from_json(&v), v),
        Err(_) => {
            let v = Value::from(text);
            (Action::from_json(&serde_json::json!({"action": text})), v)
        }
    }
}

/// The plan a schedule describes: per cook, its entries in start order (ties in the
/// schedule's order). Entries of cook indices the kitchen lacks go to cooks named
/// `agent<i+1>`, which the game refuses.
pub fn plan_of_schedule(kitchen: &Kitchen, schedule: &[ScheduledActivity]) -> Plan {
    let mut entries: Vec<(u32, i64, usize)> = schedule
        .iter()
        .enumerate()
        .map(|(i, s)| (s.agent.unwrap_or(0), s.start().unwrap_or(0), i))
        .collect();
    entries.sort();
    let mut plan = Plan {
        agents: kitchen
            .map
            .agents
            .iter()
            .map(|a| AgentPlan {
                raw: Some(Vec::new()),
                ..AgentPlan::new(a.name.clone(), Vec::new())
            })
            .collect(),
    };
    for (agent, _, i) in entries {
        let a = agent as usize;
        while plan.agents.len() <= a {
            let n = plan.agents.len() + 1;
            plan.agents.push(AgentPlan {
                raw: Some(Vec::new()),
                ..AgentPlan::new(format!("agent{n}"), Vec::new())
            });
        }
        let (action, raw) = action_of_text(&schedule[i].activity);
        plan.agents[a].actions.push(action);
        if let Some(r) = plan.agents[a].raw.as_mut() {
            r.push(raw);
        }
    }
    plan
}

/// The schedule of a replay: one entry per started action, times rounded outwards to
/// whole steps (only fractional waits make them fractional).
pub fn schedule_of(plan: &Plan, outcome: &Outcome) -> Vec<ScheduledActivity> {
    outcome
        .steps
        .iter()
        .map(|s| {
            let name = &outcome.agents[s.agent].name;
            let list = plan.agents.iter().find(|a| &a.name == name);
            let text = list.map_or_else(String::new, |l| l.raw(s.index).to_string());
            let start = s.start.floor() as i64;
            let end = s.end.ceil() as i64;
            ScheduledActivity::at(text, Some(s.agent as u32), start, end - start)
        })
        .collect()
}

/// A violation's modes, as reports print them.
fn modes(replica: bool, intended: bool) -> &'static str {
    match (replica, intended) {
        (true, true) => "both modes",
        (true, false) => "replica mode only (the game as the benchmark runs it)",
        _ => "intended mode only (the rules the prompt states)",
    }
}

/// Both replays of a plan: the game's verdict (it stops at the first error) and every
/// violation (each action that fails, the replay going on past it), per mode.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The replica replay, stopping where the game stops.
    pub replica: Outcome,
    /// The intended replay, stopping at the first error.
    pub intended: Outcome,
    /// The replica replay going on past errors.
    pub replica_all: Outcome,
    /// The intended replay going on past errors.
    pub intended_all: Outcome,
}

/// Replays a plan in both modes.
pub fn verdict(kitchen: &Kitchen, plan: &Plan) -> Verdict {
    let all = Options {
        keep_going: true,
        snapshots: false,
    };
    Verdict {
        replica: simulate(kitchen, plan, Mode::Replica),
        intended: simulate(kitchen, plan, Mode::Intended),
        replica_all: simulate_with(kitchen, plan, Mode::Replica, all),
        intended_all: simulate_with(kitchen, plan, Mode::Intended, all),
    }
}

/// Every violation of both modes, each once with the modes it fails under:
/// `(violation, fails in replica, fails in intended)`.
pub fn violations(v: &Verdict) -> Vec<(super::sim::Violation, bool, bool)> {
    let mut out: Vec<(super::sim::Violation, bool, bool)> = Vec::new();
    for x in &v.replica_all.violations {
        let also =
            v.intended_all.violations.iter().any(|y| {
                (&y.agent, y.index, y.time, &y.rule) == (&x.agent, x.index, x.time, &x.rule)
            });
        out.push((x.clone(), true, also));
    }
    for y in &v.intended_all.violations {
        if !out.iter().any(|(x, ..)| {
            (&y.agent, y.index, y.time, &y.rule) == (&x.agent, x.index, x.time, &x.rule)
        }) {
            out.push((y.clone(), false, true));
        }
    }
    out.sort_by(|a, b| a.0.time.total_cmp(&b.0.time));
    out
}

/// makespan's report on a plan: each violation of either mode
/// ([`Rule::PreconditionFailed`], naming the cook, the action's place, the modes and the
/// game's words) and the goal per mode ([`Rule::GoalNotReached`]); the makespan is the
/// replica replay's time (OCT).
pub fn report(instance: &str, kitchen: &Kitchen, plan: &Plan) -> Report {
    let v = verdict(kitchen, plan);
    // The game serves every order, the rules the prompt states do not: the plan works only
    // through the game's quirks (cooking credited off the stove or between batches, a
    // same-instant hand-over, two cooks at one sink, a fractional wait).
    let exploit = v.replica.done && !v.intended.done;
    let flag = |text: String, replica: bool| {
        if exploit && !replica {
            format!(
                "{text}; a replica-only exploit: the game serves every order (t = {}) only through this",
                v.replica.oct
            )
        } else {
            text
        }
    };
    let mut out = Vec::new();
    for (x, replica, intended) in violations(&v) {
        let who = match (&x.agent, x.index) {
            (Some(a), Some(i)) => {
                let list = plan.agents.iter().find(|p| &p.name == a);
                let text = list.map_or_else(String::new, |l| l.raw(i).to_string());
                format!("{a}'s action {} {text}", i + 1)
            }
            _ => "the plan".to_string(),
        };
        out.push(Violation::new(
            Rule::PreconditionFailed,
            vec![who.clone()],
            Some(x.time.floor() as i64),
            flag(
                format!(
                    "{who} at t = {}: {} (fails in {})",
                    x.time,
                    x.rule,
                    modes(replica, intended)
                ),
                replica,
            ),
            "change the action or what comes before it so that the game accepts it".into(),
        ));
    }
    for (mode, o) in [(Mode::Replica, &v.replica), (Mode::Intended, &v.intended)] {
        if o.error.is_none() && !o.all_served {
            out.push(Violation::new(
                Rule::GoalNotReached,
                Vec::new(),
                Some(o.oct.ceil() as i64),
                flag(
                    format!(
                        "in {} mode the plan ends at t = {} with orders {:?} still open",
                        mode.name(),
                        o.oct,
                        o.remaining
                    ),
                    mode == Mode::Replica,
                ),
                "add the actions that prepare and serve the open orders, first in first out".into(),
            ));
        }
    }
    let schedule = schedule_of(plan, &v.replica);
    let busy: i64 = schedule
        .iter()
        .map(|s| s.end().unwrap_or(0) - s.start().unwrap_or(0))
        .sum();
    let makespan = v.replica.oct.ceil() as i64;
    let agents = kitchen.agents() as i64;
    Report {
        instance: instance.to_string(),
        valid: out.is_empty(),
        violations: out,
        makespan: Some(makespan),
        busy_time: busy,
        agent_idle_time: Some(agents * makespan - busy),
        peak_agents: kitchen.agents() as u32,
    }
}

/// ParaCook's concrete kitchens as simulated worlds.
pub struct ConcreteWorld;

impl Simulated for ConcreteWorld {
    /// The oracle's planner ([`super::oracle::solve::solve`]): every plan it keeps finishes in
    /// both modes, and `optimal` only where a valid bound meets it.
    fn solve(&self, instance: &Instance, limits: &Limits) -> Result<WorldSolution, LoadError> {
        super::oracle::solve::solve(instance, limits)
    }

    fn replay(&self, instance: &Instance, plan: &[ScheduledActivity]) -> Report {
        match kitchen_of(instance) {
            Some(Ok(kitchen)) => {
                report(&instance.name, &kitchen, &plan_of_schedule(&kitchen, plan))
            }
            Some(Err(e)) => Report::malformed_answer(
                &instance.name,
                e,
                "re-import the instance from its checkout".into(),
            ),
            None => Report::malformed_answer(
                &instance.name,
                format!("{} is not a concrete ParaCook kitchen", instance.name),
                "replay plans against instances imported with --mode concrete".into(),
            ),
        }
    }

    /// Each cook's actions on the game's time axis, the boards, stoves, sink and serving
    /// window as lanes ([`super::drawing`]).
    fn draw(
        &self,
        instance: &Instance,
        plan: &[ScheduledActivity],
        prefix: &str,
        graph: &mut Instance,
    ) -> Option<Vec<ScheduledActivity>> {
        let kitchen = kitchen_of(instance)?.ok()?;
        Some(super::drawing::draw(&kitchen, plan, prefix, graph))
    }

    /// The time (OCT) in `replica` and `intended` mode; none where the plan fails.
    fn times(
        &self,
        instance: &Instance,
        plan: &[ScheduledActivity],
    ) -> std::collections::BTreeMap<String, Option<f64>> {
        let Some(Ok(kitchen)) = kitchen_of(instance) else {
            return Default::default();
        };
        let plan = plan_of_schedule(&kitchen, plan);
        Mode::BOTH
            .iter()
            .map(|&mode| {
                let o = simulate(&kitchen, &plan, mode);
                (mode.name().to_string(), o.done.then_some(o.oct))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::kitchen::{
        AgentStart, Constants, ContainerKind, KitchenMap, Recipe, RecipeIngredient, StationKind,
        Tile,
    };
    use super::*;

    fn tile(name: &str, kind: StationKind, x: i32, item: Option<ContainerKind>) -> Tile {
        Tile {
            name: name.into(),
            kind,
            x,
            y: 0,
            provides: (kind == StationKind::Dispenser).then(|| "meat".to_string()),
            item,
        }
    }

    /// Along the top of a 6 × 3 kitchen: meat, a board, a stove with a pan, a table with a
    /// plate, the window; one order of fried meat.
    fn kitchen() -> Kitchen {
        Kitchen {
            key: "test".into(),
            category: "test".into(),
            seed: 0,
            orders_num: 1,
            map: KitchenMap {
                name: "kitchen".into(),
                width: 6,
                height: 3,
                agents: vec![AgentStart {
                    name: "agent1".into(),
                    x: 1,
                    y: 1,
                }],
                tiles: vec![
                    tile("dispenser1", StationKind::Dispenser, 0, None),
                    tile("chopping_board1", StationKind::ChoppingBoard, 1, None),
                    tile("stove1", StationKind::Stove, 2, Some(ContainerKind::Pan)),
                    tile("table1", StationKind::Table, 3, Some(ContainerKind::Plate)),
                    tile("serving_window", StationKind::ServingWindow, 4, None),
                ],
                source: Value::Null,
            },
            orders: vec!["fried_meat".into()],
            recipes: vec![Recipe {
                name: "fried_meat".into(),
                text: "Chop the meat and cook it in a pan.".into(),
                ingredients: vec![RecipeIngredient {
                    item: "meat".into(),
                    state: "cooked".into(),
                    cookware: Some("pan".into()),
                }],
            }],
            constants: Constants::default(),
            same_map_as: None,
        }
    }

    #[test]
    fn a_plan_that_cooks_in_hand_is_flagged_as_a_replica_only_exploit() {
        // The meat goes into the pan in the cook's hand at 8 and the pan back on the stove at
        // 33: the game's clock credits the 24 steps in hand, the stated rules do not.
        let text = r#"{"agent1": [
            {"action": "MoveTo", "target": [0, 1]}, {"action": "Interact", "target": "dispenser1"},
            {"action": "MoveTo", "target": [1, 1]}, {"action": "Interact", "target": "chopping_board1"},
            {"action": "Process", "target": "chopping_board1"},
            {"action": "MoveTo", "target": [2, 1]}, {"action": "Interact", "target": "stove1"},
            {"action": "MoveTo", "target": [1, 1]}, {"action": "Interact", "target": "chopping_board1"},
            {"action": "Wait", "duration": 24},
            {"action": "MoveTo", "target": [2, 1]}, {"action": "Interact", "target": "stove1"},
            {"action": "Wait", "duration": 1},
            {"action": "MoveTo", "target": [3, 1]}, {"action": "Interact", "target": "table1"},
            {"action": "MoveTo", "target": [2, 1]}, {"action": "Interact", "target": "stove1"},
            {"action": "MoveTo", "target": [4, 1]}, {"action": "Interact", "target": "serving_window"}
        ]}"#;
        let plan = Plan::from_json(&serde_json::from_str(text).unwrap()).unwrap();
        let k = kitchen();
        let r = report("test", &k, &plan);
        assert!(!r.valid);
        let v = verdict(&k, &plan);
        assert!(v.replica.done && !v.intended.done, "{:?}", v.intended.error);
        assert!(
            r.violations
                .iter()
                .all(|x| x.message.contains("a replica-only exploit")),
            "{:?}",
            r.violations
        );
        // Cooked on the stove for its full time, the plan is no exploit.
        let honest = text.replace(r#""duration": 1}"#, r#""duration": 24}"#);
        let plan = Plan::from_json(&serde_json::from_str(&honest).unwrap()).unwrap();
        let r = report("test", &k, &plan);
        assert!(r.valid, "{:?}", r.violations);
    }
}
