//! Robotouille action plans: one simulator action string per step, replayed on the task's
//! graph (`task_graphs.json`, carried by every Robotouille instance) under the simulator's
//! rules, every broken rule reported with its step.
//!
//! Input: a text file with one action per line (blank lines are skipped; every other line is
//! one step, also one that does not parse), or a JSON list of action strings. Actions:
//! `Move robot1 from S1 to S2`, `Pick up X from S using robot1`, `Place X on S using robot1`,
//! `Stack X on top of Y using robot1`, `Unstack X from Y using robot1`,
//! `Cut|Cook|Fry X on S using robot1`, `Fill P with water from S using robot1`,
//! `Add X into P using robot1`, `Boil P's contents on S using robot1`,
//! `Fill B with P's contents using robot1`, `Do nothing`.
//!
//! # Two layers of rules
//! **The world** (what the simulator checks): the robot acts only at the station it is at
//! (a `Move` costs its step; any two stations are one move apart); the hand holds one thing
//! (picking, cutting, cooking, frying, filling and boiling need it empty; placing, stacking
//! and adding need the named object in it; filling a bowl needs the pot in it, and the robot
//! keeps the pot); `Place` needs an empty station; `Pick up` takes an object lying directly
//! on the station, `Unstack` one lying on another item, both only with nothing on top;
//! `Stack` goes on the top item of a station; cut, cook, fry, fill and boil need the object
//! alone on a board, stove, fryer, sink and stove; `Add` and `Fill bowl` happen where the pot
//! and the bowl are.
//! **The recipe** (the task graph): every other action must be the next pending step of the
//! graph for its object (kind, object and target match), after all of its `preds` (earlier
//! steps) and at least 4 steps after the cook, fry, fill or boil whose result it uses (`lag`).
//! At the end every required step must have happened: that is the goal.
//!
//! # Rules reported (snake_case names as in every report)
//! `malformed_action` (a line that is not an action string), `unknown_activity` (an unknown
//! robot, station or object, or an action that is no step of the recipe), `duplicate_activity`
//! (a recipe step done again, e.g. a fourth cut), `setup_violated` (the robot is not at the
//! station: a move is missing), `resource_over_capacity` (the hand is full, the station is
//! occupied, a move to the station the robot is at), `state_violated` (the hand does not hold
//! the object, the object is not where the action says, lies under something, or the station
//! is of the wrong type), `precedence_violated` (a prerequisite step has not happened),
//! `result_not_arrived` (a cooked, fried, filled or boiled result used before it is ready),
//! `missing_activity` (the goal is not reached: a required step never happens).
//!
//! # Decisions
//! - **Steps.** Step `k` is the `k`-th non-blank line (or list entry); violations carry it as
//!   their time, and their message names the line. A delayed effect started at step `k` is
//!   ready for the action at step `k + 4` (measured in the simulator: cook at step 5, cooked
//!   after step 8).
//! - **Rejected actions.** An action that breaks a rule of the world has no effect, as in the
//!   simulator, and it still uses its step; the first violation is then the cause and the
//!   later ones may be its consequences (a forgotten put-down leaves the hand full for every
//!   later pick). One exception keeps a forgotten move from cascading: after
//!   `setup_violated` the robot is taken to be at the action's station, if the action is
//!   otherwise accepted. An action that breaks only a rule of the recipe takes effect (the
//!   recipe step counts as done), so a wrong order is reported once, not at every later step.
//! - **Score.** The plan's length is the step at which the goal holds (the simulator stops
//!   there); lines after it are still checked. With `--solution` the ratio is to that
//!   solution's makespan. The report names the task (`robotouille-<task>`): a plan belongs
//!   to the task, not to one of the importer's variants.
//!
//! # Where this is stricter or looser than the simulator
//! Stricter (the task graph's fixed modelling choices): every action other than `Move` and
//! `Do nothing` must be a step of the task graph, so detours the simulator allows (putting
//! an item down and picking it up again, stacking temporarily on another item, parking the
//! pot on an appliance where the graph says "table") are reported; assembly happens on the
//! table of the bottom bread or bun; the ingredient-to-role assignment is the graph's (tasks
//! 4 and 9: which onion goes into the burger, the soup, the rings; the simulator takes any).
//! Looser: the effect-skip quirk is not modelled (a result can be ready one step later in
//! the simulator when two delayed effects finish together); objects the graph does not list
//! do not occupy stations (the default instances list all of them); the simulator's handling
//! of a refused action (feedback, whether the step counts) is not reproduced: here it counts.
//! Names are those of `task_graphs.json`, which are the simulator's: stations and items
//! numbered per kind in order of position (x, then y), as the upstream builder does
//! (`load_environment` sorts by (x, y) before numbering), not in file order;
//! `tests/robotouille.rs` checks every name and start station against the native files.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::robotouille::{task_name, Task, TaskActivity};
use makespan_model::instance::LoadError;
use makespan_verify::{Report, Rule, Violation};

/// The robot of a single-robot task.
const ROBOT: &str = "robot1";

/// Steps from the start of a delayed effect (cook, fry, fill, boil) to the first action that
/// may use its result (as measured in the simulator); the task graph's `lag` says the same
/// per step.
const EFFECT_STEPS: i64 = 4;

/// What a cut, cook or fry action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Process {
    /// `Cut X on S`: on a board.
    Cut,
    /// `Cook X on S`: on a stove, a delayed effect.
    Cook,
    /// `Fry X on S`: on a fryer, a delayed effect.
    Fry,
}

impl Process {
    /// The task-graph kind and the station kind it needs.
    fn kinds(self) -> (&'static str, &'static str) {
        match self {
            Process::Cut => ("cut", "board"),
            Process::Cook => ("cook", "stove"),
            Process::Fry => ("fry", "fryer"),
        }
    }
}

/// One parsed action string. `robot` is the robot named in the string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `Move R from S1 to S2`.
    Move {
        /// The robot named in the string.
        robot: String,
        /// The station the robot leaves.
        from: String,
        /// The station the robot goes to.
        to: String,
    },
    /// `Pick up X from S using R`: take an object lying directly on a station.
    PickUp {
        /// The robot named in the string.
        robot: String,
        /// The object picked up.
        object: String,
        /// The station it lies on.
        station: String,
    },
    /// `Unstack X from Y using R`: take an object lying on another item.
    Unstack {
        /// The robot named in the string.
        robot: String,
        /// The object taken.
        object: String,
        /// The item it lies on.
        below: String,
    },
    /// `Place X on S using R`: put the held object on an empty station.
    Place {
        /// The robot named in the string.
        robot: String,
        /// The object placed.
        object: String,
        /// The station it goes on.
        station: String,
    },
    /// `Stack X on top of Y using R`: put the held object on the top item of a station.
    Stack {
        /// The robot named in the string.
        robot: String,
        /// The object stacked.
        object: String,
        /// The item it goes on.
        below: String,
    },
    /// `Cut|Cook|Fry X on S using R`.
    Process {
        /// The robot named in the string.
        robot: String,
        /// Which of cut, cook and fry.
        process: Process,
        /// The object processed.
        object: String,
        /// The station it lies on.
        station: String,
    },
    /// `Fill P with water from S using R`: a delayed effect.
    FillPot {
        /// The robot named in the string.
        robot: String,
        /// The pot filled.
        pot: String,
        /// The sink it stands on.
        sink: String,
    },
    /// `Boil P's contents on S using R`: a delayed effect.
    Boil {
        /// The robot named in the string.
        robot: String,
        /// The pot boiled.
        pot: String,
        /// The stove it stands on.
        stove: String,
    },
    /// `Add X into P using R`: put the held item into a pot.
    Add {
        /// The robot named in the string.
        robot: String,
        /// The item added.
        item: String,
        /// The pot it goes into.
        pot: String,
    },
    /// `Fill B with P's contents using R`: pour the held pot into a bowl.
    FillBowl {
        /// The robot named in the string.
        robot: String,
        /// The bowl filled.
        bowl: String,
        /// The pot poured from (the robot keeps it).
        pot: String,
    },
    /// `Do nothing`: the step passes.
    Wait,
}

/// One step of a plan as written: its line (or list entry, 1-based), its text, and the
/// action if the text parses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionLine {
    /// The 1-based line (or list entry) of the step.
    pub line: usize,
    /// The text as written, trimmed.
    pub text: String,
    /// The parsed action; `None` if the text is not an action string.
    pub action: Option<Action>,
}

/// A parsed plan: its steps in order. `entries` is true for a JSON list (positions are
/// list entries, not lines).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ActionPlan {
    /// The steps, in order.
    pub steps: Vec<ActionLine>,
    /// The plan was a JSON list: positions are list entries, not lines.
    pub entries: bool,
}

/// Parses a text of one action per line; blank lines are skipped, every other line is a step.
pub fn parse_actions(text: &str) -> ActionPlan {
    let steps = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| step(k + 1, l))
        .collect();
    ActionPlan {
        steps,
        entries: false,
    }
}

/// Reads a plan: a JSON list of action strings when the text starts with `[`, else one
/// action per line. Only a JSON list that does not parse is an error; text that is no
/// action is a step the verifier reports.
pub fn read_actions(path: &Path, text: &str) -> Result<ActionPlan, LoadError> {
    if !text.trim_start().starts_with('[') {
        return Ok(parse_actions(text));
    }
    let list: Vec<String> = serde_json::from_str(text).map_err(|e| {
        let mut err = LoadError::json_in(path, text, &e);
        if let LoadError::Json { message, .. } = &mut err {
            message.push_str(
                "; expected a JSON list of action strings such as \"Move robot1 from table1 to stove1\"",
            );
        }
        err
    })?;
    Ok(ActionPlan {
        steps: list
            .iter()
            .enumerate()
            .map(|(k, t)| step(k + 1, t))
            .collect(),
        entries: true,
    })
}

fn step(line: usize, text: &str) -> ActionLine {
    let text = text.trim();
    ActionLine {
        line,
        text: text.to_string(),
        action: parse_action(text),
    }
}

/// One action string, as the simulator prints it (a trailing `.` is allowed).
pub fn parse_action(text: &str) -> Option<Action> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    let words: Vec<&str> = text.split_whitespace().collect();
    let n = |w: &str| is_name(w).then(|| w.to_string());
    let owner = |w: &str| {
        w.strip_suffix("'s")
            .or_else(|| w.strip_suffix("’s"))
            .and_then(n)
    };
    let action = match words.as_slice() {
        ["Do", "nothing"] => Action::Wait,
        ["Move", r, "from", a, "to", b] => Action::Move {
            robot: n(r)?,
            from: n(a)?,
            to: n(b)?,
        },
        ["Pick", "up", x, "from", s, "using", r] => Action::PickUp {
            robot: n(r)?,
            object: n(x)?,
            station: n(s)?,
        },
        ["Unstack", x, "from", y, "using", r] => Action::Unstack {
            robot: n(r)?,
            object: n(x)?,
            below: n(y)?,
        },
        ["Place", x, "on", s, "using", r] => Action::Place {
            robot: n(r)?,
            object: n(x)?,
            station: n(s)?,
        },
        ["Stack", x, "on", "top", "of", y, "using", r] => Action::Stack {
            robot: n(r)?,
            object: n(x)?,
            below: n(y)?,
        },
        [verb @ ("Cut" | "Cook" | "Fry"), x, "on", s, "using", r] => Action::Process {
            robot: n(r)?,
            process: match *verb {
                "Cut" => Process::Cut,
                "Cook" => Process::Cook,
                _ => Process::Fry,
            },
            object: n(x)?,
            station: n(s)?,
        },
        ["Fill", p, "with", "water", "from", s, "using", r] => Action::FillPot {
            robot: n(r)?,
            pot: n(p)?,
            sink: n(s)?,
        },
        ["Boil", p, "contents", "on", s, "using", r] => Action::Boil {
            robot: n(r)?,
            pot: owner(p)?,
            stove: n(s)?,
        },
        ["Add", x, "into", p, "using", r] => Action::Add {
            robot: n(r)?,
            item: n(x)?,
            pot: n(p)?,
        },
        ["Fill", b, "with", p, "contents", "using", r] => Action::FillBowl {
            robot: n(r)?,
            bowl: n(b)?,
            pot: owner(p)?,
        },
        _ => return None,
    };
    Some(action)
}

fn is_name(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The verdict on an action plan: the report (makespan = the step at which the goal holds,
/// or the plan's length when it is never reached) and what the plan did with its steps.
#[derive(Debug, Clone, Serialize)]
pub struct ActionReport {
    /// The verifier's report: every broken rule with its step.
    pub report: Report,
    /// Steps in the plan (non-blank lines or list entries).
    pub steps: usize,
    /// The step after which every required recipe step has happened; `None` if never.
    pub goal_step: Option<i64>,
    /// `Move` actions up to the goal (or the end).
    pub moves: usize,
    /// `Do nothing` steps up to the goal (or the end).
    pub waits: usize,
    /// The step (1-based) at which each recipe step happened, in plan order.
    #[serde(skip)]
    pub done: Vec<(String, i64)>,
}

/// Where an object is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// On a station, at this height (0 = directly on it).
    On(String, usize),
    Hand,
    /// Added into this pot.
    In(String),
}

/// The replay: the world, the recipe steps done, and the violations so far.
struct Replay<'a> {
    activities: &'a [TaskActivity],
    stations: &'a [String],
    containers: Vec<String>,
    items: Vec<String>,
    robot: String,
    hand: Option<String>,
    stacks: HashMap<String, Vec<String>>,
    inside: HashMap<String, String>,
    done: HashMap<&'a str, i64>,
    out: Vec<Violation>,
}

/// Replays `plan` on `task` and reports every violation (see the module docs).
pub fn verify_actions(task: &Task, plan: &ActionPlan) -> ActionReport {
    let objects = task.object_list().unwrap_or_default();
    let mut stacks: HashMap<String, Vec<String>> = HashMap::new();
    for (name, info) in &objects {
        stacks
            .entry(info.initial_station.clone())
            .or_default()
            .push(name.clone());
    }
    let of_kind = |k: &str| -> Vec<String> {
        objects
            .iter()
            .filter(|(_, i)| i.kind == k)
            .map(|(n, _)| n.clone())
            .collect()
    };
    let mut replay = Replay {
        activities: &task.activities,
        stations: &task.stations,
        containers: of_kind("container"),
        items: of_kind("item"),
        robot: task.robot_start.clone(),
        hand: None,
        stacks,
        inside: HashMap::new(),
        done: HashMap::new(),
        out: Vec::new(),
    };
    let place = if plan.entries { "entry" } else { "line" };
    let (mut moves, mut waits, mut goal_step) = (0, 0, None);
    let required: Vec<&TaskActivity> = task
        .activities
        .iter()
        .filter(|a| a.required != Some(false))
        .collect();
    for (k, line) in plan.steps.iter().enumerate() {
        let at = Step {
            step: k as i64 + 1,
            what: format!("`{}` ({place} {})", line.text, line.line),
        };
        match &line.action {
            None => replay.out.push(Violation::new(
                Rule::MalformedAction,
                Vec::new(),
                Some(at.step),
                format!("{} is not a Robotouille action string", at.what),
                "write one action per line as the simulator prints it, e.g. `Move robot1 from table1 to stove1` or `Do nothing`".into(),
            )),
            Some(action) => {
                if goal_step.is_none() {
                    match action {
                        Action::Move { .. } => moves += 1,
                        Action::Wait => waits += 1,
                        _ => {}
                    }
                }
                replay.act(action, &at);
            }
        }
        if goal_step.is_none()
            && required
                .iter()
                .all(|a| replay.done.contains_key(a.id.as_str()))
        {
            goal_step = Some(at.step);
        }
    }
    for a in &required {
        if !replay.done.contains_key(a.id.as_str()) {
            replay.out.push(Violation::new(
                Rule::MissingActivity,
                vec![a.id.clone()],
                None,
                format!(
                    "goal not reached: recipe step `{}` ({}) never happens",
                    a.id,
                    describe(a)
                ),
                format!("add the action for `{}` after its prerequisites", a.id),
            ));
        }
    }
    let steps = plan.steps.len();
    let makespan = goal_step.or((steps > 0).then_some(steps as i64));
    let busy = goal_step.map_or(replay.done.len(), |g| {
        replay.done.values().filter(|&&s| s <= g).count()
    }) as i64;
    let report = Report {
        instance: format!("robotouille-{}", task_name(&task.task)),
        valid: replay.out.is_empty(),
        violations: replay.out,
        makespan,
        busy_time: busy,
        agent_idle_time: makespan.map(|m| m - busy),
        peak_agents: u32::from(steps > 0),
    };
    let mut done: Vec<(String, i64)> = replay
        .done
        .iter()
        .map(|(id, step)| (id.to_string(), *step))
        .collect();
    done.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    ActionReport {
        report,
        steps,
        goal_step,
        moves,
        waits,
        done,
    }
}

/// Where an action puts its object, to tell apart recipe steps of one kind and object.
enum Target {
    Any,
    /// `Place` on this station: a `put` there (not stacking), or a `place_any`.
    PlaceOn(String),
    /// `Stack` onto the top of this station: a stacking `put` there.
    StackOn(Option<String>),
    /// `Add` into this pot, `Fill` this bowl.
    Into(String),
}

impl Target {
    fn fits(&self, a: &TaskActivity) -> bool {
        let to = a.to.as_deref();
        let stacks = a.mode.as_deref() == Some("stack");
        match self {
            Target::Any => true,
            Target::PlaceOn(s) if a.kind == "put" => !stacks && to == Some(s.as_str()),
            // `place_any`: any free station, or one of the kind `to` names (`table`).
            Target::PlaceOn(s) => to.is_none_or(|kind| s.starts_with(kind)),
            Target::StackOn(s) => stacks && to == s.as_deref(),
            Target::Into(x) => to == Some(x.as_str()),
        }
    }
}

/// The step being replayed: its number and how to name it in messages.
struct Step {
    step: i64,
    what: String,
}

/// A short description of a recipe step for messages.
fn describe(a: &TaskActivity) -> String {
    match (a.kind.as_str(), a.to.as_deref()) {
        ("put", Some(to)) => format!(
            "{} {} on {to}",
            if a.mode.as_deref() == Some("stack") {
                "stack"
            } else {
                "place"
            },
            a.obj
        ),
        ("place_any", Some(to)) => format!("place {} on any free {to}", a.obj),
        ("place_any", None) => format!("place {} on any free station", a.obj),
        ("add", Some(pot)) => format!("add {} into {pot}", a.obj),
        ("fill_bowl", Some(bowl)) => format!("fill {bowl} from {}", a.obj),
        (kind, _) => format!("{kind} {}", a.obj),
    }
}

impl<'a> Replay<'a> {
    fn violation(
        &mut self,
        rule: Rule,
        ids: Vec<String>,
        at: &Step,
        message: String,
        hint: String,
    ) {
        self.out.push(Violation::new(
            rule,
            ids,
            Some(at.step),
            format!("{}: {message}", at.what),
            hint,
        ));
    }

    /// Replays one action: the world's rules, then (if the world accepts it) the recipe's.
    fn act(&mut self, action: &Action, at: &Step) {
        if !self.names_known(action, at) {
            return;
        }
        let before = self.robot.clone();
        let accepted = match action {
            Action::Wait => return,
            Action::Move { from, to, .. } => {
                self.move_robot(from, to, at);
                return;
            }
            Action::PickUp {
                object, station, ..
            } => self.pick(object, station, None, at),
            Action::Unstack { object, below, .. } => match self.station_of(below, at) {
                Some(station) => self.pick(object, &station, Some(below), at),
                None => false,
            },
            Action::Place {
                object, station, ..
            } => self.place(object, station, at),
            Action::Stack { object, below, .. } => self.stack(object, below, at),
            Action::Process {
                process,
                object,
                station,
                ..
            } => self.process(process.kinds().1, object, station, at),
            Action::FillPot { pot, sink, .. } => self.process("sink", pot, sink, at),
            Action::Boil { pot, stove, .. } => self.process("stove", pot, stove, at),
            Action::Add { item, pot, .. } => self.add(item, pot, at),
            Action::FillBowl { bowl, pot, .. } => self.fill_bowl(bowl, pot, at),
        };
        if accepted {
            self.recipe(action, at);
        } else {
            // A refused action moves nobody, not even the robot taken to its station.
            self.robot = before;
        }
    }

    /// Unknown robots, stations and objects reject the action.
    fn names_known(&mut self, action: &Action, at: &Step) -> bool {
        let (robot, stations, objects): (&str, Vec<&str>, Vec<&str>) = match action {
            Action::Wait => return true,
            Action::Move { robot, from, to } => (robot, vec![from, to], vec![]),
            Action::PickUp {
                robot,
                object,
                station,
            }
            | Action::Place {
                robot,
                object,
                station,
            }
            | Action::Process {
                robot,
                object,
                station,
                ..
            } => (robot, vec![station], vec![object]),
            Action::Unstack {
                robot,
                object,
                below,
            }
            | Action::Stack {
                robot,
                object,
                below,
            } => (robot, vec![], vec![object, below]),
            Action::FillPot { robot, pot, sink } => (robot, vec![sink], vec![pot]),
            Action::Boil { robot, pot, stove } => (robot, vec![stove], vec![pot]),
            Action::Add { robot, item, pot } => (robot, vec![], vec![item, pot]),
            Action::FillBowl { robot, bowl, pot } => (robot, vec![], vec![bowl, pot]),
        };
        let mut known = true;
        if robot != ROBOT {
            known = false;
            self.violation(
                Rule::UnknownActivity,
                vec![],
                at,
                format!("there is no robot `{robot}`; the task has one robot, {ROBOT}"),
                format!("write `using {ROBOT}`"),
            );
        }
        for s in stations {
            if !self.stations.iter().any(|x| x == s) {
                known = false;
                let list = self.stations.join(", ");
                self.violation(
                    Rule::UnknownActivity,
                    vec![],
                    at,
                    format!("there is no station `{s}`"),
                    format!("use one of {list}"),
                );
            }
        }
        for o in objects {
            if !self.items.iter().chain(&self.containers).any(|x| x == o) {
                known = false;
                let list: Vec<&str> = self
                    .items
                    .iter()
                    .chain(&self.containers)
                    .map(String::as_str)
                    .collect();
                self.violation(
                    Rule::UnknownActivity,
                    vec![],
                    at,
                    format!("there is no object `{o}`"),
                    format!("use one of {}", list.join(", ")),
                );
            }
        }
        known
    }

    fn where_is(&self, object: &str) -> Option<Place> {
        if self.hand.as_deref() == Some(object) {
            return Some(Place::Hand);
        }
        if let Some(pot) = self.inside.get(object) {
            return Some(Place::In(pot.clone()));
        }
        self.stacks.iter().find_map(|(s, stack)| {
            let k = stack.iter().position(|o| o == object)?;
            Some(Place::On(s.clone(), k))
        })
    }

    fn describe_place(&self, object: &str) -> String {
        match self.where_is(object) {
            Some(Place::Hand) => format!("{object} is in the robot's hand"),
            Some(Place::In(pot)) => format!("{object} is in {pot}"),
            Some(Place::On(s, 0)) => format!("{object} is on {s}"),
            Some(Place::On(s, k)) => {
                let below = &self.stacks[&s][k - 1];
                format!("{object} is on top of {below} on {s}")
            }
            None => format!("{object} is nowhere"),
        }
    }

    /// The station `object` lies on, or a violation.
    fn station_of(&mut self, object: &str, at: &Step) -> Option<String> {
        match self.where_is(object) {
            Some(Place::On(s, _)) => Some(s),
            _ => {
                let message = format!("{}, not on a station", self.describe_place(object));
                self.violation(
                    Rule::StateViolated,
                    vec![],
                    at,
                    message,
                    format!("act on {object} only while it lies on a station"),
                );
                None
            }
        }
    }

    /// The robot must be at `station`; if not, the missing move is reported once and the
    /// robot is taken to be there.
    fn be_at(&mut self, station: &str, at: &Step) {
        if self.robot != station {
            let from = self.robot.clone();
            self.violation(
                Rule::SetupViolated,
                vec![],
                at,
                format!("{ROBOT} is at {from}, not at {station}"),
                format!("insert `Move {ROBOT} from {from} to {station}` before this step"),
            );
            self.robot = station.to_string();
        }
    }

    fn hand_empty(&mut self, at: &Step) -> bool {
        match self.hand.clone() {
            None => true,
            Some(held) => {
                self.violation(
                    Rule::ResourceOverCapacity,
                    vec![],
                    at,
                    format!(
                        "hand full: {ROBOT} already holds {held} and holds one thing at a time"
                    ),
                    format!("put {held} down (place, stack or add it) first"),
                );
                false
            }
        }
    }

    fn holding(&mut self, object: &str, at: &Step) -> bool {
        if self.hand.as_deref() == Some(object) {
            return true;
        }
        let held = match &self.hand {
            None => "nothing (hand empty)".to_string(),
            Some(h) => h.clone(),
        };
        let where_ = self.describe_place(object);
        self.violation(
            Rule::StateViolated,
            vec![],
            at,
            format!("{ROBOT} holds {held}, not {object} ({where_})"),
            format!("pick up {object} first"),
        );
        false
    }

    fn move_robot(&mut self, from: &str, to: &str, at: &Step) {
        if self.robot != from {
            let here = self.robot.clone();
            self.violation(
                Rule::SetupViolated,
                vec![],
                at,
                format!("{ROBOT} is at {here}, not at {from}"),
                format!("move from {here}"),
            );
            self.robot = from.to_string();
        }
        if from == to {
            self.violation(
                Rule::ResourceOverCapacity,
                vec![],
                at,
                format!("{to} is not vacant: {ROBOT} is already there"),
                "drop the move".into(),
            );
            return;
        }
        self.robot = to.to_string();
    }

    /// `Pick up object from station` (`below` = None) or `Unstack object from below`.
    fn pick(&mut self, object: &str, station: &str, below: Option<&str>, at: &Step) -> bool {
        self.be_at(station, at);
        let mut ok = self.hand_empty(at);
        let stack = self.stacks.get(station).cloned().unwrap_or_default();
        let place = stack.iter().position(|o| o == object);
        let wrong = match (place, below) {
            (None, _) => Some(format!("{}, not on {station}", self.describe_place(object))),
            (Some(0), Some(b)) => Some(format!(
                "{object} lies directly on {station}, not on {b}; write `Pick up {object} from {station} using {ROBOT}`"
            )),
            (Some(k), None) if k > 0 => Some(format!(
                "{object} lies on {}, not directly on {station}; write `Unstack {object} from {} using {ROBOT}`",
                stack[k - 1], stack[k - 1]
            )),
            (Some(k), Some(b)) if k > 0 && stack[k - 1] != b => Some(format!(
                "{object} lies on {}, not on {b}",
                stack[k - 1]
            )),
            (Some(k), _) if k + 1 < stack.len() => Some(format!(
                "{object} is not clear: {} lies on it",
                stack[k + 1]
            )),
            _ => None,
        };
        if let Some(message) = wrong {
            ok = false;
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                message,
                "pick up what lies on top, from where it lies".into(),
            );
        }
        if ok {
            if let Some(s) = self.stacks.get_mut(station) {
                s.retain(|o| o != object);
            }
            self.hand = Some(object.to_string());
        }
        ok
    }

    fn place(&mut self, object: &str, station: &str, at: &Step) -> bool {
        self.be_at(station, at);
        let mut ok = self.holding(object, at);
        let there = self.stacks.get(station).cloned().unwrap_or_default();
        if !there.is_empty() {
            ok = false;
            self.violation(
                Rule::ResourceOverCapacity,
                vec![],
                at,
                format!("station occupied: {station} holds {}", there.join(", ")),
                format!(
                    "place {object} on an empty station, or stack it on {}",
                    there.last().map_or("", String::as_str)
                ),
            );
        }
        if ok {
            self.hand = None;
            self.stacks
                .entry(station.to_string())
                .or_default()
                .push(object.to_string());
        }
        ok
    }

    fn stack(&mut self, object: &str, below: &str, at: &Step) -> bool {
        let Some(station) = self.station_of(below, at) else {
            return false;
        };
        self.be_at(&station, at);
        let mut ok = self.holding(object, at);
        let top = self.stacks.get(&station).and_then(|s| s.last()).cloned();
        if self.containers.iter().any(|c| c == below) {
            ok = false;
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                format!("{below} is a container; nothing is stacked on it"),
                format!("`Add` an item into a pot, or stack {object} on an item"),
            );
        } else if top.as_deref() != Some(below) {
            ok = false;
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                format!(
                    "{below} is not clear: {} lies on it",
                    top.unwrap_or_default()
                ),
                "stack on the top item of a station".into(),
            );
        }
        if ok {
            self.hand = None;
            self.stacks
                .entry(station)
                .or_default()
                .push(object.to_string());
        }
        ok
    }

    /// Cut, cook, fry, fill or boil `object` on `station` (of kind `needs`).
    fn process(&mut self, needs: &str, object: &str, station: &str, at: &Step) -> bool {
        let mut ok = true;
        if station.trim_end_matches(|c: char| c.is_ascii_digit()) != needs {
            ok = false;
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                format!("{station} is not a {needs}"),
                format!("do this on a {needs}"),
            );
        }
        self.be_at(station, at);
        ok &= self.hand_empty(at);
        let stack = self.stacks.get(station).cloned().unwrap_or_default();
        if stack != [object] {
            ok = false;
            let message = if stack.first().map(String::as_str) == Some(object) {
                format!(
                    "{object} is not clear: {} lies on it",
                    stack[1..].join(", ")
                )
            } else {
                format!("{}, not alone on {station}", self.describe_place(object))
            };
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                message,
                format!("place {object} alone on {station} first"),
            );
        }
        ok
    }

    fn add(&mut self, item: &str, pot: &str, at: &Step) -> bool {
        if !self.containers.iter().any(|c| c == pot) {
            self.violation(
                Rule::StateViolated,
                vec![],
                at,
                format!("{pot} is not a container"),
                "add items into a pot".into(),
            );
            return false;
        }
        let Some(station) = self.station_of(pot, at) else {
            return false;
        };
        self.be_at(&station, at);
        if !self.holding(item, at) {
            return false;
        }
        self.hand = None;
        self.inside.insert(item.to_string(), pot.to_string());
        true
    }

    fn fill_bowl(&mut self, bowl: &str, pot: &str, at: &Step) -> bool {
        let Some(station) = self.station_of(bowl, at) else {
            return false;
        };
        self.be_at(&station, at);
        self.holding(pot, at)
    }

    /// The recipe step an accepted action performs, checked against its prerequisites and
    /// lags; an action that is no step of the recipe is reported.
    fn recipe(&mut self, action: &Action, at: &Step) {
        let on = |o: &str| match self.where_is(o) {
            Some(Place::On(s, _)) => Some(s),
            _ => None,
        };
        // The task-graph kinds the action can be, its object, and where it must go.
        let (kinds, object, target): (&[&str], &str, Target) = match action {
            Action::PickUp { object, .. } | Action::Unstack { object, .. } => {
                (&["pick"], object, Target::Any)
            }
            Action::Place {
                object, station, ..
            } => (
                &["put", "place_any"],
                object,
                Target::PlaceOn(station.clone()),
            ),
            Action::Stack { object, .. } => (&["put"], object, Target::StackOn(on(object))),
            Action::Process {
                process, object, ..
            } => (&[process.kinds().0], object, Target::Any),
            Action::FillPot { pot, .. } => (&["fill"], pot, Target::Any),
            Action::Boil { pot, .. } => (&["boil"], pot, Target::Any),
            Action::Add { item, pot, .. } => (&["add"], item, Target::Into(pot.clone())),
            Action::FillBowl { bowl, pot, .. } => (&["fill_bowl"], pot, Target::Into(bowl.clone())),
            Action::Move { .. } | Action::Wait => return,
        };
        let fits = |a: &TaskActivity| target.fits(a);
        let of_object = |a: &&TaskActivity| a.obj == object && kinds.contains(&a.kind.as_str());
        let found = self
            .activities
            .iter()
            .filter(of_object)
            .find(|a| !self.done.contains_key(a.id.as_str()) && fits(a));
        let Some(activity) = found else {
            let next = self
                .activities
                .iter()
                .find(|a| a.obj == object && !self.done.contains_key(a.id.as_str()));
            let expected = next.map_or(
                format!("the recipe has nothing left to do with {object}"),
                |a| {
                    format!(
                        "the recipe's next step for {object} is `{}` ({})",
                        a.id,
                        describe(a)
                    )
                },
            );
            let again = self
                .activities
                .iter()
                .filter(of_object)
                .any(|a| self.done.contains_key(a.id.as_str()));
            let (rule, what) = if again {
                (
                    Rule::DuplicateActivity,
                    "repeats a recipe step that is done",
                )
            } else {
                (Rule::UnknownActivity, "is no step of the recipe")
            };
            self.violation(
                rule,
                next.map(|a| a.id.clone()).into_iter().collect(),
                at,
                format!("this {what}; {expected}"),
                "drop the action, or do the recipe's step instead".into(),
            );
            return;
        };
        let id = activity.id.clone();
        for p in &activity.preds {
            if !self.done.contains_key(p.as_str()) {
                let before = self
                    .activities
                    .iter()
                    .find(|a| a.id == *p)
                    .map_or_else(String::new, |a| format!(" ({})", describe(a)));
                self.violation(
                    Rule::PrecedenceViolated,
                    vec![id.clone(), p.clone()],
                    at,
                    format!("`{id}` before its prerequisite `{p}`{before}"),
                    format!("do `{p}` at an earlier step"),
                );
            }
        }
        if let Some((cause, lag)) = &activity.lag {
            match self.done.get(cause.as_str()) {
                Some(&started) if at.step < started + lag => self.violation(
                    Rule::ResultNotArrived,
                    vec![id.clone(), cause.clone()],
                    at,
                    format!(
                        "`{id}` uses the result of `{cause}` (step {started}), ready only for step {}",
                        started + lag
                    ),
                    format!(
                        "wait (`Do nothing`) or do other work until step {}",
                        started + lag
                    ),
                ),
                None if !activity.preds.contains(cause) => self.violation(
                    Rule::ResultNotArrived,
                    vec![id.clone(), cause.clone()],
                    at,
                    format!("`{id}` uses the result of `{cause}`, which has not happened"),
                    format!("do `{cause}` at least {EFFECT_STEPS} steps earlier"),
                ),
                _ => {}
            }
        }
        let activities = self.activities;
        if let Some(a) = activities.iter().find(|a| a.id == id) {
            self.done.insert(a.id.as_str(), at.step);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_form_of_the_simulator_parses() {
        let r = || "robot1".to_string();
        let s = |x: &str| x.to_string();
        let cases = [
            (
                "Move robot1 from table1 to stove1",
                Action::Move {
                    robot: r(),
                    from: s("table1"),
                    to: s("stove1"),
                },
            ),
            (
                "Pick up chicken1 from table2 using robot1",
                Action::PickUp {
                    robot: r(),
                    object: s("chicken1"),
                    station: s("table2"),
                },
            ),
            (
                "Place chicken1 on stove1 using robot1",
                Action::Place {
                    robot: r(),
                    object: s("chicken1"),
                    station: s("stove1"),
                },
            ),
            (
                "Stack cheese1 on top of bread1 using robot1",
                Action::Stack {
                    robot: r(),
                    object: s("cheese1"),
                    below: s("bread1"),
                },
            ),
            (
                "Unstack bread2 from bread1 using robot1",
                Action::Unstack {
                    robot: r(),
                    object: s("bread2"),
                    below: s("bread1"),
                },
            ),
            (
                "Fry potato1 on fryer1 using robot1",
                Action::Process {
                    robot: r(),
                    process: Process::Fry,
                    object: s("potato1"),
                    station: s("fryer1"),
                },
            ),
            (
                "Fill pot1 with water from sink1 using robot1",
                Action::FillPot {
                    robot: r(),
                    pot: s("pot1"),
                    sink: s("sink1"),
                },
            ),
            (
                "Add onion1 into pot1 using robot1",
                Action::Add {
                    robot: r(),
                    item: s("onion1"),
                    pot: s("pot1"),
                },
            ),
            (
                "Boil pot1's contents on stove1 using robot1.",
                Action::Boil {
                    robot: r(),
                    pot: s("pot1"),
                    stove: s("stove1"),
                },
            ),
            (
                "  Fill bowl1 with pot1’s contents using robot1 ",
                Action::FillBowl {
                    robot: r(),
                    bowl: s("bowl1"),
                    pot: s("pot1"),
                },
            ),
            ("Do nothing", Action::Wait),
        ];
        for (text, action) in cases {
            assert_eq!(parse_action(text), Some(action), "{text}");
        }
        assert_eq!(
            parse_action("Cut lettuce1 on board1 using robot1"),
            Some(Action::Process {
                robot: r(),
                process: Process::Cut,
                object: s("lettuce1"),
                station: s("board1"),
            })
        );
    }

    #[test]
    fn near_misses_do_not_parse() {
        for text in [
            "",
            "do nothing",
            "Move robot1 to stove1",
            "Pick up chicken1 from table2",
            "Boil pot1 contents on stove1 using robot1",
            "Place chicken-1 on stove1 using robot1",
            "Place chicken1 on stove1 using robot1 now",
            "Stack cheese1 on bread1 using robot1",
        ] {
            assert_eq!(parse_action(text), None, "{text}");
        }
    }

    #[test]
    fn blank_lines_are_skipped_but_keep_the_numbering() {
        let plan = parse_actions("Do nothing\n\n  \nnonsense\r\nDo nothing\n");
        let lines: Vec<(usize, bool)> = plan
            .steps
            .iter()
            .map(|s| (s.line, s.action.is_some()))
            .collect();
        assert_eq!(lines, [(1, true), (4, false), (5, true)]);
    }
}
