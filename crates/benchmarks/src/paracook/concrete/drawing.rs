//! A concrete plan drawn on the game's time axis: each cook's actions as the game runs them
//! (walks, waits, chopping and washing, the instant interactions), the boards, stoves and
//! sink as lanes of their own (a stove busy while its pan or pot cooks, which no cook
//! attends), and each served order marked on the serving window's lane, ending when the
//! dish was served.
//!
//! The times are the replica replay's: what the benchmark's game does with the plan. A step
//! the game refuses is still drawn where it would have run (the replay goes on past errors),
//! so a broken plan shows where its violations sit.
//!
//! What holds a step where it is becomes a precedence, so that an explanation follows the
//! plan's real chain rather than calling every step free to start at 0:
//! - a cook's steps run one after another; a wait is idle time, so the step after waits
//!   follows the last step before them, and an explanation shows those waits as a wait of
//!   that step (unforced unless a station holds it);
//! - a step at a station follows the last step another cook took there before it (it finds
//!   what that one left: a unit on a table, a plate on the window's counter);
//! - cooking follows the step that started it, and the first step at that stove after the
//!   cooking is done follows the cooking (taking the pan off sooner takes it half cooked).

use makespan_model::instance::{Activity, AgentUse, Instance, Precedence, Resource, ResourceUse};
use makespan_model::schedule::ScheduledActivity;
use serde_json::Value;

use super::kitchen::{Kitchen, StationKind};
use super::replay::plan_of_schedule;
use super::sim::{simulate_with, Action, Mode, Options, Outcome};

/// The stations drawn as lanes: boards, stoves, the sink and the serving window.
fn drawn(kind: StationKind) -> bool {
    matches!(
        kind,
        StationKind::ChoppingBoard
            | StationKind::Stove
            | StationKind::Sink
            | StationKind::ServingWindow
    )
}

/// What a step does, in a word or two for its bar: a walk is one step per cell, so a long
/// label would set the chart's scale (bars are drawn wide enough for their labels) and
/// stretch a plan of a hundred steps over many screens. The full action and its station are
/// in the step's name, shown on hover; a chop's board and a serve's window are its lane.
fn label(kitchen: &Kitchen, action: &Action) -> String {
    let kind = |name: &str| {
        kitchen
            .map
            .tiles
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.kind)
    };
    match action {
        Action::MoveTo((x, y)) => format!("→ ({x}, {y})"),
        Action::Interact(t) if kind(t) == Some(StationKind::ServingWindow) => "serve".to_string(),
        Action::Interact(t) => t.clone(),
        Action::Process(t) => match kind(t) {
            Some(StationKind::ChoppingBoard) => "chop".to_string(),
            Some(StationKind::Sink) => "wash".to_string(),
            _ => format!("process {t}"),
        },
        Action::Wait(d) => format!("wait {d}"),
        Action::Finish => "finish".to_string(),
        Action::Invalid(_) => "an action the game cannot run".to_string(),
    }
}

/// Adds the station `name` to `graph` as a resource of capacity 1, once.
fn resource(graph: &mut Instance, name: &str) {
    if !graph.resources.iter().any(|r| r.id == name) {
        graph.resources.push(Resource {
            id: name.to_string(),
            capacity: 1,
            states: Vec::new(),
        });
    }
}

/// Adds an activity to `graph` and returns its one-piece schedule entry.
fn place(
    graph: &mut Instance,
    mut activity: Activity,
    agent: Option<u32>,
    start: i64,
    end: i64,
) -> ScheduledActivity {
    for u in &activity.uses {
        resource(graph, &u.resource);
    }
    activity.duration = end - start;
    // What the world does by itself (a pan cooking, an order served) starts when the world
    // makes it start, never earlier: its release, so that no explanation calls it a wait.
    if agent.is_none() {
        activity.release = Some(start);
    }
    let entry = ScheduledActivity::at(activity.id.clone(), agent, start, end - start);
    graph.activities.push(activity);
    entry
}

fn using(station: &str) -> Vec<ResourceUse> {
    vec![ResourceUse {
        resource: station.to_string(),
        amount: 1,
    }]
}

/// The plan `schedule` of `kitchen` drawn into `graph` (see the module docs), its activities
/// named `{prefix}{n}: {action}` and `{prefix}{station}: …`.
pub fn draw(
    kitchen: &Kitchen,
    schedule: &[ScheduledActivity],
    prefix: &str,
    graph: &mut Instance,
) -> Vec<ScheduledActivity> {
    let plan = plan_of_schedule(kitchen, schedule);
    let options = Options {
        keep_going: true,
        snapshots: true,
    };
    let outcome = simulate_with(kitchen, &plan, Mode::Replica, options);
    // The station lanes in the map's order, whether used or not, so that a plan and its
    // reference show the same lanes.
    for t in kitchen.map.tiles.iter().filter(|t| drawn(t.kind)) {
        resource(graph, &t.name);
    }
    let mut out = Vec::new();
    // Per cook, its last step and its last step that was not a wait; every step at a
    // station, in time order.
    let mut last: Vec<Option<(String, i64)>> = vec![None; plan.agents.len()];
    let mut last_work: Vec<Option<(String, i64)>> = vec![None; plan.agents.len()];
    let mut at_stations: Vec<StationStep> = Vec::new();
    for (n, step) in outcome.steps.iter().enumerate() {
        let Some(list) = plan.agents.get(step.agent) else {
            continue;
        };
        let Some(action) = list.actions.get(step.index) else {
            continue;
        };
        let mut activity = Activity::new(format!("{prefix}{}: {}", n + 1, list.raw(step.index)), 0);
        activity.label = Some(label(kitchen, action));
        match action {
            // A cook who waits is idle: drawn as time the cook does not work.
            Action::Wait(_) => activity.agent = AgentUse::BusyFor(0),
            Action::Process(t) if kitchen.map.tiles.iter().any(|x| &x.name == t) => {
                activity.uses = using(t);
            }
            _ => {}
        }
        let (start, end) = (step.start.floor() as i64, step.end.ceil() as i64);
        let waits = matches!(action, Action::Wait(_));
        let before = if waits { &last } else { &last_work };
        // (A step the game refused may end after the next one starts: no link then.)
        if let Some((before, ended)) = &before[step.agent] {
            if *ended <= start {
                graph
                    .precedences
                    .push(Precedence::finish_to_start(before, &activity.id, 0));
            }
        }
        if let Action::Interact(t) | Action::Process(t) = action {
            let other = at_stations
                .iter()
                .rev()
                .find(|s| &s.station == t && s.agent != step.agent && s.end <= start);
            if let Some(other) = other {
                graph
                    .precedences
                    .push(Precedence::finish_to_start(&other.id, &activity.id, 0));
            }
            at_stations.push(StationStep {
                station: t.clone(),
                agent: step.agent,
                id: activity.id.clone(),
                start,
                end,
            });
        }
        last[step.agent] = Some((activity.id.clone(), end));
        if !waits {
            last_work[step.agent] = Some((activity.id.clone(), end));
        }
        out.push(place(graph, activity, Some(step.agent as u32), start, end));
    }
    out.extend(cooking(kitchen, &outcome, prefix, graph, &at_stations));
    let window = kitchen
        .map
        .tiles
        .iter()
        .find(|t| t.kind == StationKind::ServingWindow)
        .map(|t| t.name.clone());
    for (k, (dish, time)) in outcome.served.iter().enumerate() {
        let end = time.ceil() as i64;
        let mut activity = Activity::new(
            format!("{prefix}order {} served: {dish} at {time}", k + 1),
            0,
        );
        activity.label = Some(format!("order {}", k + 1));
        activity.agent = AgentUse::None;
        if let Some(w) = &window {
            activity.uses = using(w);
        }
        out.push(place(graph, activity, None, (end - 1).max(0), end));
    }
    out
}

/// A cook's step at a station, for the precedences between steps there.
struct StationStep {
    station: String,
    agent: usize,
    id: String,
    start: i64,
    end: i64,
}

/// Each stove's cooking spans: from the first event its pan or pot has contents waiting to
/// cook until they are done (the clock's credit at the last event plus what remains) or the
/// cookware leaves the stove; each after the step there that started it, and before the
/// first step there once it is done.
fn cooking(
    kitchen: &Kitchen,
    outcome: &Outcome,
    prefix: &str,
    graph: &mut Instance,
    steps: &[StationStep],
) -> Vec<ScheduledActivity> {
    let mut out = Vec::new();
    for (s, tile) in kitchen.map.tiles.iter().enumerate() {
        if tile.kind != StationKind::Stove {
            continue;
        }
        let cooking_at = |snapshot: &Value| -> Option<(String, f64)> {
            let item = &snapshot["tiles"][s]["item"];
            if item["is_cooking"] != true {
                return None;
            }
            let contents: Vec<&str> = item["contents"]
                .as_array()?
                .iter()
                .filter_map(|c| c["name"].as_str())
                .collect();
            let left =
                item["required_cook_time"].as_f64()? - item["processed_cook_time"].as_f64()?;
            Some((
                format!("{} of {}", item["name"].as_str()?, contents.join(", ")),
                left.max(0.0),
            ))
        };
        let mut open: Option<(f64, String, f64)> = None;
        let mut spans: Vec<(f64, f64, String)> = Vec::new();
        for (time, snapshot) in &outcome.snapshots {
            match (cooking_at(snapshot), open.take()) {
                (Some((what, left)), Some((start, _, _))) => {
                    open = Some((start, what, time + left))
                }
                (Some((what, left)), None) => open = Some((*time, what, time + left)),
                (None, Some((start, what, done))) => spans.push((start, done.min(*time), what)),
                (None, None) => {}
            }
        }
        // Still cooking when the plan ends: drawn until then (the game stops there).
        if let Some((start, what, done)) = open {
            spans.push((start, done.min(outcome.oct), what));
        }
        for (start, end, what) in spans {
            let (start, end) = (start.floor() as i64, end.ceil() as i64);
            if end <= start {
                continue;
            }
            let mut activity =
                Activity::new(format!("{prefix}{}: {what} from {start}", tile.name), 0);
            activity.label = Some(format!("{what} cooking"));
            activity.agent = AgentUse::None;
            activity.uses = using(&tile.name);
            let here = || steps.iter().filter(|s| s.station == tile.name);
            if let Some(cause) = here().rfind(|s| s.end <= start) {
                graph
                    .precedences
                    .push(Precedence::finish_to_start(&cause.id, &activity.id, 0));
            }
            if let Some(next) = here().find(|s| s.start >= end) {
                graph
                    .precedences
                    .push(Precedence::finish_to_start(&activity.id, &next.id, 0));
            }
            out.push(place(graph, activity, None, start, end));
        }
    }
    out
}
