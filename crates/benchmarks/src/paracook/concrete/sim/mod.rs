//! The game's simulator, event for event: what a plan does in a kitchen, when, and where the
//! game stops it.
//!
//! **Events.** Time jumps from one action end to the next. At each such time the stations'
//! clocks run first (cookware on stoves, dirty plates that are due), then every cook whose
//! action ends then, in the order the cooks joined that time (ties by cook order), completes
//! it, starts its next action and runs all its zero-duration actions before the next cook
//! goes. Effects happen when an action completes; durations are fixed when it starts (a walk
//! is a shortest path, an interaction 0, chopping 4, washing 6).
//!
//! **Two rule sets.** [`Mode::Replica`] is what the benchmark scores, its quirks included:
//! cookware credits time off the stove and idle time between batches, a cook may chop while
//! another one's release happens later in the same instant, two cooks may wash one plate,
//! a stove can be "processed" for 16 or 24 steps before the game crashes, `Finish` does not
//! stop a cook, fractional waits run. [`Mode::Intended`] follows the rules the prompt states:
//! cookware cooks only on a stove and each batch gets its own full time, a release comes
//! before an acquisition in the same instant (with a warning), the sink is exclusive,
//! processing a stove, acting after `Finish` and fractional waits are errors.
//!
//! The game stops at the first error; [`Options::keep_going`] skips a failing action and
//! goes on, so that every violation of a plan is listed.

mod plan;
mod world;

use serde::Serialize;
use serde_json::Value;

pub use plan::{py_repr, py_str, Action, AgentPlan, Invalid, Plan};
pub use world::{ErrorClass, Ingredient, Item, World};

use super::kitchen::{adjacent, Kitchen, StationKind};
use world::{crash, execution, Refusal};

/// Which rules a plan is replayed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The game as the benchmark runs it, quirks included.
    Replica,
    /// The rules the prompt states.
    Intended,
}

impl Mode {
    /// Both modes, replica first.
    pub const BOTH: [Mode; 2] = [Mode::Replica, Mode::Intended];

    /// Its name: `replica` or `intended`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Replica => "replica",
            Mode::Intended => "intended",
        }
    }
}

/// How a replay runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Skip a failing action and go on instead of stopping, to list every violation
    /// (`done` is then false whenever there is one).
    pub keep_going: bool,
    /// Record the world after every event, as the game's `state_history` does.
    pub snapshots: bool,
}

/// An error of a plan: where, when and the rule in the game's words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// The cook whose action failed (`None` for a plan the game refuses to load).
    pub agent: Option<String>,
    /// The index of that action in the cook's list.
    pub index: Option<usize>,
    /// When it failed.
    pub time: f64,
    /// The game's message (or, for intended-only rules, the prompt's rule).
    pub rule: String,
    /// Which kind of error.
    pub class: ErrorClass,
}

/// One started action: its cook, index and span.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The cook's index in the kitchen.
    pub agent: usize,
    /// The action's index in the cook's list.
    pub index: usize,
    /// When it started.
    pub start: f64,
    /// When it ends (completes, or would have).
    pub end: f64,
}

/// Per-cook times, as the harness reports them (summed when actions start).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct AgentTimes {
    /// The cook's name.
    pub name: String,
    /// Walking.
    pub moving: f64,
    /// Waiting.
    pub waiting: f64,
    /// Processing (chopping, washing, a stove).
    pub processing: f64,
    /// All of it (what the harness calls execution time).
    pub execution: f64,
    /// Actions started of the cook's list.
    pub started: usize,
    /// Length of the cook's list.
    pub total: usize,
}

/// What a replay established.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The rules it ran under.
    pub mode: Mode,
    /// All orders served and no error: the harness's verdict for IO and CoT answers.
    pub done: bool,
    /// All orders served (an error after the last serve does not undo it): the verdict of
    /// the harness's fixed and human agents.
    pub all_served: bool,
    /// The time of the last event: what the harness reports as the time (OCT).
    pub oct: f64,
    /// When the last order was served, if any was.
    pub last_serve: Option<f64>,
    /// Served orders and when.
    pub served: Vec<(String, f64)>,
    /// Orders left open.
    pub remaining: Vec<String>,
    /// Per cook.
    pub agents: Vec<AgentTimes>,
    /// The error that stopped the run (the first violation).
    pub error: Option<Violation>,
    /// Every violation (more than one only with [`Options::keep_going`]).
    pub violations: Vec<Violation>,
    /// Same-instant orderings the intended rules resolved (a release before an acquire)
    /// that the game would have refused.
    pub warnings: Vec<Violation>,
    /// Every started action.
    pub steps: Vec<Step>,
    /// `(time, world)` after each event, when asked for.
    #[serde(skip)]
    pub snapshots: Vec<(f64, Value)>,
}

/// Replays `plan` in `kitchen` under `mode`, stopping at the first error as the game does.
pub fn simulate(kitchen: &Kitchen, plan: &Plan, mode: Mode) -> Outcome {
    simulate_with(kitchen, plan, mode, Options::default())
}

/// [`simulate`] with options.
pub fn simulate_with(kitchen: &Kitchen, plan: &Plan, mode: Mode, options: Options) -> Outcome {
    let mut engine = Engine::new(kitchen, plan, mode, options);
    engine.run();
    engine.outcome()
}

/// A cook's progress through its list.
#[derive(Debug, Clone, Default)]
struct Cook {
    /// Index in the plan (`None`: the plan gives it nothing).
    list: Option<usize>,
    next: usize,
    current: Option<usize>,
    finish: f64,
    idle: bool,
    finished: bool,
    times: AgentTimes,
}

/// The game stopped (the error is recorded).
struct Stop;

struct Engine<'k, 'p> {
    world: World<'k>,
    plan: &'p Plan,
    mode: Mode,
    options: Options,
    cooks: Vec<Cook>,
    now: f64,
    /// Time points: a time and the cooks whose action ends then, in joining order.
    queue: Vec<(f64, Vec<usize>)>,
    violations: Vec<Violation>,
    warnings: Vec<Violation>,
    steps: Vec<Step>,
    snapshots: Vec<(f64, Value)>,
}

impl<'k, 'p> Engine<'k, 'p> {
    fn new(kitchen: &'k Kitchen, plan: &'p Plan, mode: Mode, options: Options) -> Self {
        let cooks = kitchen
            .map
            .agents
            .iter()
            .map(|a| Cook {
                idle: true,
                times: AgentTimes {
                    name: a.name.clone(),
                    ..AgentTimes::default()
                },
                ..Cook::default()
            })
            .collect();
        Engine {
            world: World::new(kitchen, mode),
            plan,
            mode,
            options,
            cooks,
            now: 0.0,
            queue: vec![(0.0, (0..kitchen.agents()).collect())],
            violations: Vec::new(),
            warnings: Vec::new(),
            steps: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    fn kitchen(&self) -> &'k Kitchen {
        self.world.kitchen
    }

    /// Records a violation; `Err(Stop)` unless the replay goes on past errors.
    fn fail(&mut self, agent: Option<usize>, index: Option<usize>, r: Refusal) -> Result<(), Stop> {
        self.violations.push(Violation {
            agent: agent.map(|a| self.kitchen().map.agents[a].name.clone()),
            index,
            time: self.now,
            rule: r.message,
            class: r.class,
        });
        if self.options.keep_going {
            Ok(())
        } else {
            Err(Stop)
        }
    }

    fn run(&mut self) {
        if self.load().is_err() || self.resolve_instant_actions().is_err() {
            return;
        }
        while !self.queue.is_empty() {
            if self.step().is_err() {
                return;
            }
        }
    }

    /// The game loads the lists in the plan's order and refuses unknown cooks and entries
    /// that are no lists.
    fn load(&mut self) -> Result<(), Stop> {
        for (i, a) in self.plan.agents.iter().enumerate() {
            let cook = self
                .kitchen()
                .map
                .agents
                .iter()
                .position(|c| c.name == a.name);
            match cook {
                Some(c) if !a.not_a_list => {
                    self.cooks[c].list = Some(i);
                    self.cooks[c].times.total = a.actions.len();
                }
                Some(_) => self.fail(
                    None,
                    None,
                    world::rule(format!("Action plan for Agent {} is not a list", a.name)),
                )?,
                None => self.fail(
                    None,
                    None,
                    world::rule(format!("Agent {} does not exist in the world", a.name)),
                )?,
            }
        }
        Ok(())
    }

    fn action(&self, cook: usize, index: usize) -> &'p Action {
        let list = self.cooks[cook]
            .list
            .expect("a cook with an action has a list");
        &self.plan.agents[list].actions[index]
    }

    fn raw(&self, cook: usize, index: usize) -> Value {
        let list = self.cooks[cook]
            .list
            .expect("a cook with an action has a list");
        self.plan.agents[list].raw(index)
    }

    fn name(&self, cook: usize) -> &'k str {
        &self.kitchen().map.agents[cook].name
    }

    fn resolve_instant_actions(&mut self) -> Result<(), Stop> {
        for c in 0..self.cooks.len() {
            self.assign(c)?;
            self.chain(c)?;
        }
        self.update_event_queue();
        Ok(())
    }

    /// Completes and starts the cook's zero-duration actions, before the next cook goes.
    fn chain(&mut self, c: usize) -> Result<(), Stop> {
        while self.cooks[c].finish == self.now && !self.cooks[c].idle {
            self.complete(c)?;
            self.assign(c)?;
        }
        Ok(())
    }

    fn step(&mut self) -> Result<(), Stop> {
        let at = self
            .queue
            .iter()
            .enumerate()
            .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
            .map(|(i, _)| i)
            .expect("step runs on a non-empty queue");
        let (time, cooks) = self.queue.swap_remove(at);
        self.now = time;
        self.world.update_stations(time);
        for c in cooks {
            if time != 0.0 {
                self.complete(c)?;
            }
            self.assign(c)?;
            self.chain(c)?;
        }
        self.update_event_queue();
        if self.options.snapshots {
            let snapshot = self.snapshot();
            self.snapshots.push((time, snapshot));
        }
        Ok(())
    }

    fn update_event_queue(&mut self) {
        for c in 0..self.cooks.len() {
            let cook = &self.cooks[c];
            if cook.idle || cook.current.is_none() {
                continue;
            }
            let finish = cook.finish;
            match self.queue.iter_mut().find(|(t, _)| *t == finish) {
                Some((_, list)) => {
                    if !list.contains(&c) {
                        list.push(c);
                    }
                }
                None => self.queue.push((finish, vec![c])),
            }
        }
    }

    /// The station an `Interact` or `Process` names, or the game's error.
    fn station(&self, c: usize, target: &str) -> Result<usize, Refusal> {
        let k = self.kitchen();
        if let Some(s) = k.map.tiles.iter().position(|t| t.name == target) {
            return Ok(s);
        }
        let other_object = k.map.agents.iter().any(|a| a.name == target)
            || k.map
                .tiles
                .iter()
                .any(|t| t.item.is_some_and(|i| i.name() == target));
        let what = if other_object {
            "non-station object"
        } else {
            "non-existent object"
        };
        Err(execution(format!(
            "Agent {} tried to interact with {what} {target}",
            self.name(c)
        )))
    }

    /// Starts the cook's next action, if it is idle and has one.
    fn assign(&mut self, c: usize) -> Result<(), Stop> {
        loop {
            let cook = &self.cooks[c];
            if !cook.idle {
                return Ok(());
            }
            let Some(list) = cook.list else { return Ok(()) };
            let index = cook.next;
            if index >= self.plan.agents[list].actions.len() {
                self.cooks[c].current = None;
                return Ok(());
            }
            match self.try_start(c, index) {
                Ok(()) => return Ok(()),
                Err(Fail::Stop) => return Err(Stop),
                Err(Fail::Refuse(r)) => {
                    self.fail(Some(c), Some(index), r)?;
                    // Going on: the failed action is skipped.
                    self.cooks[c].next += 1;
                    self.cooks[c].times.started += 1;
                }
            }
        }
    }

    /// The duration of the cook's action `index` if it may start now, as the game fixes it
    /// when the action starts.
    fn duration(&self, c: usize, index: usize) -> Result<f64, Refusal> {
        let action = self.action(c, index);
        let intended = self.mode == Mode::Intended;
        if intended && self.cooks[c].finished {
            return Err(intended_rule(format!(
                "Agent {} already said Finish; no action may follow it",
                self.name(c)
            )));
        }
        let cannot = |e: &Self| {
            execution(format!(
                "Agent {} cannot execute action {}",
                e.name(c),
                py_repr(&e.raw(c, index))
            ))
        };
        let k = self.kitchen();
        Ok(match action {
            Action::MoveTo(target) => match k.map.distance(self.world.positions[c], *target) {
                Some(d) => (d * k.constants.move_time) as f64,
                None => return Err(cannot(self)),
            },
            Action::Wait(d) => {
                if intended && d.fract() != 0.0 {
                    return Err(intended_rule(format!(
                        "Agent {} waits {d} steps; a wait lasts a whole number of steps",
                        self.name(c)
                    )));
                }
                *d
            }
            Action::Interact(_) | Action::Finish => k.constants.interact_time as f64,
            Action::Process(target) => {
                let s = self.station(c, target)?;
                match k.map.tiles[s].kind {
                    StationKind::ChoppingBoard => k.constants.cut_time as f64,
                    StationKind::Sink => k.constants.wash_time as f64,
                    StationKind::Stove if intended => {
                        return Err(intended_rule(format!(
                            "Agent {} tried to process on stove {target}: cookware on a stove cooks by itself",
                            self.name(c)
                        )))
                    }
                    StationKind::Stove => match &self.world.stations[s].item {
                        Some(Item::Cookware(kind, ..)) => match kind {
                            super::kitchen::ContainerKind::Pot => k.constants.pot_cook_time as f64,
                            _ => k.constants.pan_cook_time as f64,
                        },
                        _ => {
                            return Err(execution(format!(
                                "Agent {} tried to process on empty stove without any cookware on it",
                                self.name(c)
                            )))
                        }
                    },
                    _ => {
                        return Err(execution(format!(
                            "Agent {} tried to process on unsupported workstation {target}",
                            self.name(c)
                        )))
                    }
                }
            }
            Action::Invalid(why) => {
                return Err(match why {
                    Invalid::UnknownType(t) => execution(format!("Unknown action type: {t}")),
                    Invalid::NoPath => cannot(self),
                    Invalid::BadDuration => crash(format!(
                        "the duration of {} is not a number",
                        py_repr(&self.raw(c, index))
                    )),
                    Invalid::NoSuchObject(t) => execution(format!(
                        "Agent {} tried to interact with non-existent object {t}",
                        self.name(c)
                    )),
                    Invalid::Malformed(m) => crash(m.clone()),
                })
            }
        })
    }

    fn try_start(&mut self, c: usize, index: usize) -> Result<(), Fail> {
        let action = self.action(c, index);
        let intended = self.mode == Mode::Intended;
        let k = self.kitchen();
        let duration = self.duration(c, index)?;
        let cannot = |e: &Self| {
            execution(format!(
                "Agent {} cannot execute action {}",
                e.name(c),
                py_repr(&e.raw(c, index))
            ))
        };
        if duration < 0.0 {
            return Err(cannot(self).into());
        }
        if let Action::Interact(target) | Action::Process(target) = action {
            let s = self.station(c, target)?;
            let cell = k.map.tiles[s].cell();
            if !adjacent(self.world.positions[c], cell) {
                return Err(execution(format!(
                    "Agent {} tried to {} with workstation {target} that is not nearby",
                    self.name(c),
                    action.kind()
                ))
                .into());
            }
            if !self.world.can_use(s, c) && intended {
                self.release_before_acquire(c, index, s)
                    .map_err(|Stop| Fail::Stop)?;
            }
            if !self.world.can_use(s, c) {
                return Err(world::rule("Station is currently in use").into());
            }
            self.world.stations[s].in_use = true;
            self.world.stations[s].current_user = Some(c);
        }
        let cook = &mut self.cooks[c];
        cook.next = index + 1;
        cook.current = Some(index);
        cook.finish = self.now + duration;
        cook.idle = false;
        cook.times.started += 1;
        match action {
            Action::MoveTo(_) => cook.times.moving += duration,
            Action::Process(_) => cook.times.processing += duration,
            Action::Wait(_) => cook.times.waiting += duration,
            _ => {}
        }
        cook.times.execution += duration;
        self.steps.push(Step {
            agent: c,
            index,
            start: self.now,
            end: self.now + duration,
        });
        Ok(())
    }

    /// Intended rules: a cook whose use of the station ends now releases it before another
    /// cook takes it in the same instant; the game would refuse (the order of cooks within
    /// an instant decides), so this is a warning.
    fn release_before_acquire(&mut self, c: usize, index: usize, s: usize) -> Result<(), Stop> {
        let Some(holder) = self.world.stations[s].current_user else {
            return Ok(());
        };
        let h = &self.cooks[holder];
        if h.idle || h.finish != self.now {
            return Ok(());
        }
        self.warnings.push(Violation {
            agent: Some(self.name(c).to_string()),
            index: Some(index),
            time: self.now,
            rule: format!(
                "{} takes {} in the instant {} releases it; the game refuses this unless {} comes first in that instant",
                self.name(c),
                self.kitchen().map.tiles[s].name,
                self.name(holder),
                self.name(holder)
            ),
            class: ErrorClass::Intended,
        });
        self.complete(holder)
    }

    /// Completes the cook's current action: its effect, then the station's release.
    fn complete(&mut self, c: usize) -> Result<(), Stop> {
        let cook = &self.cooks[c];
        if cook.idle {
            return Ok(());
        }
        let Some(index) = cook.current else {
            return Ok(());
        };
        let action = self.action(c, index);
        let mut station = None;
        let result = match action {
            Action::MoveTo(target) => {
                self.world.positions[c] = *target;
                Ok(())
            }
            Action::Interact(t) | Action::Process(t) => match self.station(c, t) {
                Ok(s) => {
                    station = Some(s);
                    if matches!(action, Action::Interact(_)) {
                        self.world.interact(s, c, self.now)
                    } else {
                        self.world.process(s, c)
                    }
                }
                Err(r) => Err(r),
            },
            Action::Finish => {
                self.cooks[c].finished = true;
                Ok(())
            }
            Action::Wait(_) | Action::Invalid(_) => Ok(()),
        };
        if let Some(s) = station {
            self.world.stations[s].in_use = false;
            self.world.stations[s].current_user = None;
        }
        let cook = &mut self.cooks[c];
        cook.idle = true;
        cook.current = None;
        match result {
            Ok(()) => Ok(()),
            Err(r) => self.fail(Some(c), Some(index), r),
        }
    }

    /// The world as the game's `world.to_json()` writes it.
    fn snapshot(&self) -> Value {
        let k = self.kitchen();
        let agents: Vec<Value> = (0..self.cooks.len())
            .map(|c| {
                let (x, y) = self.world.positions[c];
                serde_json::json!({
                    "name": k.map.agents[c].name,
                    "x": x,
                    "y": y,
                    "current_action": self.cooks[c].current.map_or(Value::Null, |i| self.raw(c, i)),
                    "holding": self.world.holding[c].as_ref().map_or(Value::Null, Item::to_json),
                })
            })
            .collect();
        serde_json::json!({
            "width": k.map.width,
            "height": k.map.height,
            "agents": agents,
            "tiles": (0..k.map.tiles.len()).map(|s| self.world.station_json(s)).collect::<Vec<_>>(),
        })
    }

    fn outcome(self) -> Outcome {
        let all_served = self.world.orders.is_empty();
        let error = self.violations.first().cloned();
        Outcome {
            mode: self.mode,
            done: all_served && error.is_none(),
            all_served,
            oct: self.now,
            last_serve: self.world.served.last().map(|s| s.1),
            served: self.world.served.clone(),
            remaining: self.world.orders.iter().cloned().collect(),
            agents: self.cooks.into_iter().map(|c| c.times).collect(),
            error,
            violations: self.violations,
            warnings: self.warnings,
            steps: self.steps,
            snapshots: self.snapshots,
        }
    }
}

/// Why an action did not start: a refusal, or the run already stopped (a same-instant
/// release failed).
enum Fail {
    Refuse(Refusal),
    Stop,
}

impl From<Refusal> for Fail {
    fn from(r: Refusal) -> Fail {
        Fail::Refuse(r)
    }
}

fn intended_rule(message: String) -> Refusal {
    Refusal {
        message,
        class: ErrorClass::Intended,
    }
}
