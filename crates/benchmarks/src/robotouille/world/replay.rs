//! Replaying action strings step by step, as upstream's harness runs an agent's actions:
//! an action whose string matches a valid action of the current state is executed (one
//! step); any other is refused, listed with the precondition that fails (in the domain's
//! words), and **not counted**, as upstream neither executes nor counts an invalid action.
//! The run stops at the step the goal holds; later lines are listed as not run.
//!
//! A string names its objects; where the domain's action has parameters the string does not
//! show (the water of `Boil`/`Add`/`Fill … contents`, the station of `Add`, `Stack`,
//! `Unstack`, `Fill … contents`), any grounding that is valid makes the string valid, as
//! upstream matches the strings of the valid actions. Whitespace between words and a final
//! `.` are tolerated.

use serde::Serialize;

use super::kitchen::Kitchen;
use super::rules::{Act, State};
use crate::robotouille::actions::{parse_action, Action, Process};

/// What became of one line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum StepOutcome {
    /// Executed as step `step` (1-based, counting executed actions only).
    Executed {
        /// The step it took.
        step: usize,
    },
    /// Refused: the precondition that fails, or why the string is no action of this
    /// kitchen.
    Invalid {
        /// Why.
        reason: String,
    },
    /// After the goal was reached: not run.
    AfterGoal,
}

/// The replay of a list of action strings.
#[derive(Debug, Clone, Serialize)]
pub struct WorldReplay {
    /// Each line with what became of it.
    pub lines: Vec<(String, StepOutcome)>,
    /// Actions executed (invalid ones are not counted).
    pub executed: usize,
    /// The executed step after which the goal holds, if it does.
    pub goal_step: Option<usize>,
    /// The state at the end.
    #[serde(skip)]
    pub state: Option<State>,
}

/// Replays `texts` from the kitchen's start.
pub fn replay_texts<S: AsRef<str>>(k: &Kitchen, texts: &[S]) -> WorldReplay {
    let mut state = k.initial.clone();
    let mut lines = Vec::with_capacity(texts.len());
    let mut executed = 0;
    let mut goal_step = k.goal.reached(k, &state).then_some(0);
    for text in texts {
        let text = text.as_ref().trim();
        if goal_step.is_some() {
            lines.push((text.to_string(), StepOutcome::AfterGoal));
            continue;
        }
        match resolve(k, &state, text) {
            Ok(act) => {
                state.step(act);
                executed += 1;
                lines.push((text.to_string(), StepOutcome::Executed { step: executed }));
                if k.goal.reached(k, &state) {
                    goal_step = Some(executed);
                }
            }
            Err(reason) => lines.push((text.to_string(), StepOutcome::Invalid { reason })),
        }
    }
    WorldReplay {
        lines,
        executed,
        goal_step,
        state: Some(state),
    }
}

/// The valid action a string names in `state`, or why there is none.
pub fn resolve(k: &Kitchen, state: &State, text: &str) -> Result<Act, String> {
    let action = parse_action(text).ok_or_else(|| {
        format!("\"{text}\" is not an action string of Robotouille (e.g. \"Move robot1 from table1 to stove1\")")
    })?;
    let candidates = candidates(k, state, &action)?;
    let mut first_reason = None;
    for act in &candidates {
        match state.check(k, *act) {
            Ok(()) => return Ok(*act),
            Err(reason) => {
                first_reason.get_or_insert(reason);
            }
        }
    }
    Err(first_reason.unwrap_or_else(|| format!("\"{text}\" names no action of this kitchen")))
}

fn find(names: impl Iterator<Item = String>, name: &str, what: &str) -> Result<u8, String> {
    let mut known = Vec::new();
    for (k, n) in names.enumerate() {
        if n == name {
            return Ok(k as u8);
        }
        known.push(n);
    }
    Err(format!(
        "there is no {what} \"{name}\" in this kitchen (its {what}s: {})",
        known.join(", ")
    ))
}

/// The grounded actions a parsed string can stand for.
fn candidates(k: &Kitchen, state: &State, action: &Action) -> Result<Vec<Act>, String> {
    let station = |n: &str| find(k.stations.iter().map(|s| s.0.clone()), n, "station");
    let item = |n: &str| find(k.items.iter().map(|i| i.name.clone()), n, "item");
    let container = |n: &str| find(k.containers.iter().map(|c| c.0.clone()), n, "container");
    let robot = |n: &str| find(k.robots.iter().cloned(), n, "robot");
    let meals = || 0..state.meals.len().max(1) as u8;
    let here = |p: u8| -> Result<u8, String> {
        match state.robots[p as usize].at {
            super::rules::NONE => Err(format!("{} is at no station", k.robots[p as usize])),
            s => Ok(s),
        }
    };
    Ok(match action {
        Action::Wait => vec![Act::Wait],
        Action::Move { robot: r, from, to } => {
            vec![Act::Move(robot(r)?, station(from)?, station(to)?)]
        }
        Action::PickUp {
            robot: r,
            object,
            station: s,
        } => {
            let (p, s) = (robot(r)?, station(s)?);
            match item(object) {
                Ok(i) => vec![Act::Pick(p, i, s)],
                Err(e) => vec![Act::PickContainer(p, container(object).map_err(|_| e)?, s)],
            }
        }
        Action::Place {
            robot: r,
            object,
            station: s,
        } => {
            let (p, s) = (robot(r)?, station(s)?);
            match item(object) {
                Ok(i) => vec![Act::Place(p, i, s)],
                Err(e) => vec![Act::PlaceContainer(p, container(object).map_err(|_| e)?, s)],
            }
        }
        Action::Unstack {
            robot: r,
            object,
            below,
        } => {
            let p = robot(r)?;
            vec![Act::Unstack(p, item(object)?, item(below)?, here(p)?)]
        }
        Action::Stack {
            robot: r,
            object,
            below,
        } => {
            let p = robot(r)?;
            vec![Act::Stack(p, item(object)?, item(below)?, here(p)?)]
        }
        Action::Process {
            robot: r,
            process,
            object,
            station: s,
        } => {
            let (p, i, s) = (robot(r)?, item(object)?, station(s)?);
            vec![match process {
                Process::Cut => Act::Cut(p, i, s),
                Process::Cook => Act::Cook(p, i, s),
                Process::Fry => Act::Fry(p, i, s),
            }]
        }
        Action::FillPot {
            robot: r,
            pot,
            sink,
        } => vec![Act::FillPot(robot(r)?, container(pot)?, station(sink)?)],
        Action::Boil {
            robot: r,
            pot,
            stove,
        } => {
            let (p, c, s) = (robot(r)?, container(pot)?, station(stove)?);
            meals().map(|m| Act::Boil(p, c, s, m)).collect()
        }
        Action::Add {
            robot: r,
            item: x,
            pot,
        } => {
            let (p, i, c) = (robot(r)?, item(x)?, container(pot)?);
            let here = here(p)?;
            meals().map(|m| Act::Add(p, i, c, here, m)).collect()
        }
        Action::FillBowl {
            robot: r,
            bowl,
            pot,
        } => {
            let (p, b, c) = (robot(r)?, container(bowl)?, container(pot)?);
            let here = here(p)?;
            meals().map(|m| Act::FillBowl(p, b, c, here, m)).collect()
        }
    })
}
