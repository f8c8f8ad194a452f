//! A planner at the level of recipe tasks, for any number of cooks: each unit a dish needs
//! is one task (fetch it, chop it, put it on its dish's plate, into cookware, or on a table
//! or its board for the plate to take on its way), each dish one more (take its plate past
//! the cookware, boards and tables its units wait at, then to the window), each plate that
//! must be used twice one more (fetch it dirty, wash it, put it where its next dish is
//! assembled, or serve that dish at once if only the plate was missing). A free cook takes
//! the ready task that comes first in a priority list (walking distance weighed in) and
//! carries it out step by step in the planner's model of the game; boards, tables, cookware
//! and the sink are reserved for the task that uses them (a board from when the task is
//! taken, or from when its unit is in hand), so steps in flight never collide. A unit bound
//! for cookware, or a dish on its way to the window, may be handed on: its cook leaves it on
//! a table and is free, and any cook takes it on from there (from whichever side), which is
//! how a team carries across a kitchen that tables divide.
//!
//! Why tasks and not single moves: with several cooks the move-level searches lose their way
//! among interleavings, while a handful of priority lists already give plans a cook would
//! write. One rollout costs microseconds, so the planner tries several priority rules, then
//! improves the best by local moves (a task given to another cook, two priorities swapped,
//! one moved, where a unit waits) and starts again from random priorities when the moves
//! stop finding shorter plans, within its time. It proves nothing; its plans count only
//! once the game's rules replay them (the oracle's driver does).

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::layout::{Cut, Layout, StationKind, FAR};
use super::model::{Decision, Item, Job, State, Then};

/// How a unit reaches its dish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Dispenser, plate.
    Raw,
    /// Dispenser, board (chop), plate.
    Chop,
    /// Dispenser, board (chop), pan on a stove (cooks there until the plate comes).
    Pan,
    /// Dispenser, pot on a stove.
    Pot,
}

impl Route {
    /// The step at which a unit of this route goes into its cookware, the leg a hand-on
    /// splits (`None`: it never does).
    fn into_ware(self) -> Option<usize> {
        match self {
            Route::Pan => Some(4),
            Route::Pot => Some(1),
            Route::Raw | Route::Chop => None,
        }
    }
}

/// Where a unit waits for its dish's plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leave {
    /// It is put on the plate itself.
    Plate,
    /// A chopped unit stays on its board, and the plate comes to take it there.
    Board,
    /// It is put on a free table, and the plate comes to take it there: the unit can be
    /// made before its plate is back from the sink, and its board is free at once.
    Table,
}

/// One unit of one order.
#[derive(Debug, Clone, Copy)]
struct Unit {
    order: usize,
    food: u8,
    route: Route,
}

/// A task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    /// Bring unit `n` to its dish (plate or cookware).
    Unit(usize),
    /// Take order `j`'s plate to its cookware, then serve it.
    Collect(usize),
    /// Wash a dirty plate and put it where order `j` is assembled.
    Wash(usize),
}

/// The tasks of a kitchen's orders.
#[derive(Debug, Clone)]
pub struct Tasks {
    units: Vec<Unit>,
    tasks: Vec<Task>,
    /// Stations holding a clean plate at the start.
    plates: Vec<usize>,
    /// The other tables, where units may wait for their plates.
    tables: Vec<usize>,
}

impl Tasks {
    /// The tasks of a kitchen; `None` when a dish needs something the task planner does not
    /// route (an ingredient no dispenser gives, a cooked food no cookware takes, no window).
    pub fn new(lay: &Layout) -> Option<Tasks> {
        let plates: Vec<usize> = (0..lay.stations.len())
            .filter(|&s| lay.stations[s].start == Some(super::layout::Start::Plate))
            .collect();
        if plates.is_empty() || lay.of_kind(StationKind::Window).next().is_none() {
            return None;
        }
        let has_ware = |w: super::layout::Ware| {
            lay.stations.iter().any(|s| {
                s.kind == StationKind::Stove && s.start == Some(super::layout::Start::Ware(w))
            })
        };
        let mut units = Vec::new();
        for (j, (_, needs)) in lay.orders.iter().enumerate() {
            for &(food, cut) in needs {
                lay.dispensers_of(food).next()?;
                let route = match cut {
                    Cut::Raw => Route::Raw,
                    Cut::Chopped => Route::Chop,
                    Cut::Cooked if lay.pan_food(food) && has_ware(super::layout::Ware::Pan) => {
                        Route::Pan
                    }
                    Cut::Cooked if lay.pot_food(food) && has_ware(super::layout::Ware::Pot) => {
                        Route::Pot
                    }
                    Cut::Cooked => return None,
                };
                if route != Route::Raw
                    && route != Route::Pot
                    && lay.of_kind(StationKind::Board).next().is_none()
                {
                    return None;
                }
                units.push(Unit {
                    order: j,
                    food,
                    route,
                });
            }
        }
        let k = lay.orders.len();
        if k > plates.len()
            && (lay.of_kind(StationKind::Sink).next().is_none()
                || lay.of_kind(StationKind::Return).next().is_none())
        {
            return None;
        }
        let mut tasks: Vec<Task> = (0..units.len()).map(Task::Unit).collect();
        tasks.extend((0..k).map(Task::Collect));
        tasks.extend((plates.len()..k).map(Task::Wash));
        let tables = lay
            .of_kind(StationKind::Table)
            .filter(|s| !plates.contains(s))
            .collect();
        Some(Tasks {
            units,
            tasks,
            plates,
            tables,
        })
    }

    /// How many tasks there are.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The order task `t` is for.
    fn order(&self, t: usize) -> usize {
        match self.tasks[t] {
            Task::Unit(u) => self.units[u].order,
            Task::Collect(j) | Task::Wash(j) => j,
        }
    }

    /// A priority rule: lower first. `Critical` puts the long chains (pans, then pots, then
    /// chopping) first within each order; `Fifo` keeps the recipe's order.
    fn rule(&self, rule: usize) -> Vec<f64> {
        self.tasks
            .iter()
            .enumerate()
            .map(|(t, task)| match *task {
                Task::Unit(u) => {
                    let unit = self.units[u];
                    let stage = match (rule, unit.route) {
                        (0, Route::Pan) => 0.0,
                        (0, Route::Pot) => 1.0,
                        (0, Route::Chop) => 2.0,
                        (0, Route::Raw) => 3.0,
                        _ => t as f64 * 0.01,
                    };
                    unit.order as f64 * 10.0 + stage
                }
                Task::Collect(j) => j as f64 * 10.0 + 5.0,
                Task::Wash(j) => (j - self.plates.len()) as f64 * 10.0 + 6.0,
            })
            .collect()
    }
}

/// The knobs of one rollout.
#[derive(Debug, Clone)]
pub struct Params {
    /// A priority per task, lower first.
    prio: Vec<f64>,
    /// A cook per task that alone may take it (`None`: any).
    cook: Vec<Option<u8>>,
    /// How much a step of walking to a task's first station weighs against priority.
    walk: f64,
    /// How many orders beyond the first unserved one units may be started for.
    ahead: usize,
    /// Which of the starting plates each of the first orders uses (a rotation).
    rotate: usize,
    /// Per task: where its unit waits for the plate.
    leave: Vec<Leave>,
    /// A unit's board is chosen and reserved once the unit is in hand, not when its task is
    /// taken: where one board serves every dish well, the cooks then share it, one fetching
    /// while another chops, instead of one waiting for the whole task before it.
    late: bool,
    /// Per task: the table a unit bound for cookware, or a dish, is handed on at, if any (a
    /// unit's where the table is free when its task is taken, a dish's where it is free once
    /// every unit is on the plate).
    relay: Vec<Option<usize>>,
    /// Per task: a unit bound for a pan may be fetched and chopped while every pan is in use,
    /// and waits on its board until one is free (its cook free meanwhile), and one bound for
    /// a pot fetched and left on a table near the stoves: with few pans or pots and several
    /// orders, the cooking then starts as soon as the last dish leaves the cookware.
    park: Vec<bool>,
    /// Per order past the plates the kitchen has: the table its washed plate is put on and
    /// its dish assembled at (`None`: where the plate it reuses stood), so a dish can be
    /// made near the sink or the window rather than where the plates happened to start.
    sites: Vec<Option<usize>>,
}

/// What a task is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Open,
    Taken,
    Done,
}

/// A cook's task in progress: the task, its step, and the step sent to the model and not yet
/// seen completed (`advance`: it was an action, not a move to wait at).
#[derive(Debug, Clone, Copy)]
struct Doing {
    task: usize,
    step: usize,
    sent: Option<(usize, bool)>,
}

/// The planner's books beside the model's state: reservations and progress.
#[derive(Debug, Clone)]
struct Book {
    stage: Vec<Stage>,
    board_of: Vec<Option<usize>>,
    ware_of: Vec<Option<usize>>,
    /// The unit each board (or, for a unit left on a table, that table) is kept for.
    board_owner: Vec<Option<usize>>,
    /// The table each unit waits on for its plate, once chosen.
    table_of: Vec<Option<usize>>,
    /// The table each unit is handed on at, kept for it from when its task is taken.
    relay_of: Vec<Option<usize>>,
    /// Per task: the step another cook takes it up at, once handed on (0: never was).
    resume: Vec<usize>,
    ware_owner: Vec<Option<usize>>,
    sink_owner: Vec<bool>,
    sink_of: Vec<Option<usize>>,
    site: Vec<usize>,
    plate_ready: Vec<bool>,
    cooks: Vec<Option<Doing>>,
}

/// A step: the station, what to do there, and whether it can be done now.
#[derive(Debug, Clone, Copy)]
struct Step {
    station: usize,
    then: Then,
    ready: bool,
    /// The station of the following step, to choose the cell between them.
    next: Option<usize>,
}

struct Roll<'a> {
    lay: &'a Layout,
    t: &'a Tasks,
    p: &'a Params,
}

impl Roll<'_> {
    fn nearest(&self, from: u8, s: usize) -> i32 {
        self.lay.stations[s]
            .access
            .iter()
            .map(|&a| self.lay.dist(from, a))
            .min()
            .unwrap_or(FAR)
    }

    /// The task of unit `u` (units come first, in order).
    fn task_of(&self, u: usize) -> usize {
        u
    }

    /// The window nearest station `s`.
    fn window_near(&self, s: usize) -> Option<usize> {
        self.lay
            .of_kind(StationKind::Window)
            .min_by_key(|&w| self.between(s, w))
    }

    /// Walking between two stations, from the best access cell of one to the other's.
    fn between(&self, a: usize, b: usize) -> i32 {
        let lay = self.lay;
        lay.stations[a]
            .access
            .iter()
            .flat_map(|&x| lay.stations[b].access.iter().map(move |&y| lay.dist(x, y)))
            .min()
            .unwrap_or(FAR)
    }

    /// The access cell of `s` to walk to from `from`, counting the walk on to `next`.
    fn cell(&self, from: u8, s: usize, next: Option<usize>) -> Option<u8> {
        self.lay.stations[s]
            .access
            .iter()
            .copied()
            .filter(|&a| self.lay.dist(from, a) < FAR)
            .min_by_key(|&a| {
                let on = next.map_or(0, |n| self.nearest(a, n));
                (
                    self.lay.dist(from, a).saturating_add(on),
                    self.lay.dist(from, a),
                )
            })
    }

    /// The nearest dispenser of `food` whose top is free, else the nearest (to wait at).
    fn dispenser(&self, state: &State, food: u8, from: u8) -> Option<usize> {
        self.lay
            .dispensers_of(food)
            .min_by_key(|&d| (state.places[d].is_some(), self.nearest(from, d)))
    }

    /// The board for unit `u`: of the free ones (no owner, nothing on it; every one unless
    /// `free`), the one nearest the way on to its plate or the stoves, `to(s)` being the walk
    /// to board `s`.
    fn board(
        &self,
        b: &Book,
        state: &State,
        u: usize,
        to: impl Fn(usize) -> i32,
        free: bool,
    ) -> Option<usize> {
        let unit = self.t.units[u];
        let site = b.site[unit.order];
        let onward = |s: usize| match unit.route {
            Route::Chop => self.between(s, site),
            _ => self
                .lay
                .of_kind(StationKind::Stove)
                .map(|st| self.between(s, st))
                .min()
                .unwrap_or(0),
        };
        self.lay
            .of_kind(StationKind::Board)
            .filter(|&s| !free || vacant(b, state, s))
            .min_by_key(|&s| to(s) + onward(s))
    }

    /// The table for unit `u` to wait on for its plate: of the free ones (no owner, nothing
    /// on it; every one unless `free`), the nearest on the way from `from` to the window the
    /// plate will go to. Tables that start with a plate are left to the plates.
    fn table(&self, b: &Book, state: &State, u: usize, from: u8, free: bool) -> Option<usize> {
        let window = self.window_near(b.site[self.t.units[u].order]);
        self.t
            .tables
            .iter()
            .copied()
            .filter(|&s| !free || vacant(b, state, s))
            .min_by_key(|&s| self.nearest(from, s) + window.map_or(0, |w| self.between(s, w)))
    }

    fn units_of(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.t.units.len()).filter(move |&u| self.t.units[u].order == j)
    }

    /// The step `step` of task `task` for a cook at `from`, or `None` when it is complete.
    fn step(&self, b: &Book, state: &State, i: usize, task: usize, step: usize) -> Option<Step> {
        let lay = self.lay;
        let from = state.agents[i].cell;
        let hand_empty = state.agents[i].hold.is_none();
        let busy = |s: usize| {
            state
                .agents
                .iter()
                .any(|a| a.job == Job::Processing(s as u8))
        };
        match self.t.tasks[task] {
            Task::Unit(u) => {
                let unit = self.t.units[u];
                let site = b.site[unit.order];
                let board = b.board_of[u];
                let ware = b.ware_of[u];
                let window = self.window_near(site);
                let leave = self.p.leave[task];
                let plate = Step {
                    station: site,
                    then: Then::Interact,
                    ready: b.plate_ready[unit.order]
                        && matches!(state.places[site], Some(Item::Plate(_))),
                    next: window,
                };
                // Where the unit goes to wait for the plate, or the plate itself.
                let to_plate = || match (leave, b.table_of[u]) {
                    (Leave::Table, Some(table)) => Some(Step {
                        station: table,
                        then: Then::Interact,
                        ready: state.places[table].is_none(),
                        next: None,
                    }),
                    // Every table taken: the plate if it is there, else wait at the best
                    // table.
                    (Leave::Table, None) if !plate.ready => Some(Step {
                        station: self.table(b, state, u, from, false)?,
                        then: Then::Interact,
                        ready: false,
                        next: None,
                    }),
                    _ => Some(plate),
                };
                let to_ware = |s: usize| Step {
                    station: s,
                    then: Then::Interact,
                    ready: matches!(state.places[s], Some(Item::Ware(_, bag, _)) if bag.len() < 6),
                    next: None,
                };
                let first_next = match unit.route {
                    Route::Raw => to_plate().map(|s| s.station),
                    Route::Chop | Route::Pan => board,
                    Route::Pot => ware,
                };
                if let (Some(h), Some(into)) = (b.relay_of[u], unit.route.into_ware()) {
                    if step >= into {
                        return match step - into {
                            0 => Some(Step {
                                station: h,
                                then: Then::Interact,
                                ready: state.places[h].is_none(),
                                next: None,
                            }),
                            1 => Some(Step {
                                station: h,
                                then: Then::Interact,
                                ready: hand_empty && state.places[h].is_some(),
                                next: ware,
                            }),
                            2 => Some(to_ware(ware?)),
                            _ => None,
                        };
                    }
                }
                if step == 0 {
                    let d = self.dispenser(state, unit.food, from)?;
                    return Some(Step {
                        station: d,
                        then: Then::Interact,
                        ready: hand_empty && state.places[d].is_none(),
                        next: first_next,
                    });
                }
                match (unit.route, step) {
                    (Route::Chop, 3 | 4) if leave == Leave::Board => None,
                    (Route::Raw, 1) => to_plate(),
                    (Route::Pot, 1) => Some(to_ware(ware?)),
                    (Route::Chop | Route::Pan, 1) => match board {
                        Some(board) => Some(Step {
                            station: board,
                            then: Then::Interact,
                            ready: state.places[board].is_none() && !busy(board),
                            next: Some(board),
                        }),
                        // Chosen late, and every board taken: wait at the best of them.
                        None => Some(Step {
                            station: self.board(b, state, u, |s| self.nearest(from, s), false)?,
                            then: Then::Interact,
                            ready: false,
                            next: None,
                        }),
                    },
                    (Route::Chop | Route::Pan, 2) => Some(Step {
                        station: board?,
                        then: Then::Process,
                        ready: matches!(state.places[board?], Some(Item::Food(_, Cut::Raw))),
                        next: board,
                    }),
                    (Route::Chop | Route::Pan, 3) => Some(Step {
                        station: board?,
                        then: Then::Interact,
                        ready: !busy(board?),
                        next: if unit.route == Route::Chop {
                            Some(site)
                        } else {
                            ware
                        },
                    }),
                    (Route::Chop, 4) => to_plate(),
                    (Route::Pan, 4) => Some(to_ware(ware?)),
                    _ => None,
                }
            }
            Task::Collect(j) => {
                let site = b.site[j];
                if step == 0 {
                    return Some(Step {
                        station: site,
                        then: Then::Interact,
                        ready: hand_empty && matches!(state.places[site], Some(Item::Plate(_))),
                        next: self.window_near(site),
                    });
                }
                // Handed on: taken from its table, then on to the window.
                if step == 2 {
                    let h = self.p.relay[task]?;
                    return Some(Step {
                        station: h,
                        then: Then::Interact,
                        ready: hand_empty && matches!(state.places[h], Some(Item::Plate(_))),
                        next: self.window_near(h),
                    });
                }
                // The cookware, boards and tables still holding this order's units, nearest
                // first; then the window.
                let mut wares: Vec<usize> = (0..lay.stations.len())
                    .filter(|&s| b.ware_owner[s] == Some(j))
                    .collect();
                for u in self.units_of(j) {
                    let waits = match self.p.leave[self.task_of(u)] {
                        Leave::Plate => None,
                        Leave::Board => b.board_of[u],
                        Leave::Table => b.table_of[u],
                    };
                    wares.extend(waits.filter(|&s| b.board_owner[s] == Some(u)));
                }
                if let Some(&s) = wares.iter().min_by_key(|&&s| self.nearest(from, s)) {
                    let cooked = match state.places[s] {
                        Some(Item::Ware(_, bag, left)) => {
                            left == 0
                                && !bag.is_empty()
                                && bag.units().all(|(_, c)| c == Cut::Cooked)
                        }
                        Some(Item::Food(..)) => !busy(s),
                        _ => false,
                    };
                    return Some(Step {
                        station: s,
                        then: Then::Interact,
                        ready: cooked,
                        next: None,
                    });
                }
                if state.served as usize > j {
                    return None;
                }
                // Every unit on the plate: left on its table for another cook to serve.
                if step == 1 {
                    if let Some(h) = self.p.relay[task].filter(|&h| vacant(b, state, h)) {
                        return Some(Step {
                            station: h,
                            then: Then::Interact,
                            ready: true,
                            next: None,
                        });
                    }
                }
                let w = lay
                    .of_kind(StationKind::Window)
                    .min_by_key(|&w| self.nearest(from, w))?;
                Some(Step {
                    station: w,
                    then: Then::Interact,
                    ready: state.served as usize == j,
                    next: None,
                })
            }
            Task::Wash(j) => {
                let sink = b.sink_of[task]?;
                let site = b.site[j];
                match step {
                    0 => {
                        let heading = b
                            .cooks
                            .iter()
                            .enumerate()
                            .filter(|&(c, d)| {
                                c != i
                                    && d.is_some_and(|d| {
                                        d.step == 0
                                            && d.sent.is_some()
                                            && matches!(self.t.tasks[d.task], Task::Wash(_))
                                    })
                            })
                            .count();
                        let r = lay
                            .of_kind(StationKind::Return)
                            .min_by_key(|&r| self.nearest(from, r))?;
                        Some(Step {
                            station: r,
                            then: Then::Interact,
                            ready: hand_empty && state.dirty as usize > heading,
                            next: Some(sink),
                        })
                    }
                    1 => Some(Step {
                        station: sink,
                        then: Then::Interact,
                        ready: state.places[sink].is_none(),
                        next: Some(sink),
                    }),
                    2 => Some(Step {
                        station: sink,
                        then: Then::Process,
                        ready: matches!(state.places[sink], Some(Item::Dirty)),
                        next: Some(sink),
                    }),
                    3 => Some(Step {
                        station: sink,
                        then: Then::Interact,
                        ready: !busy(sink) && matches!(state.places[sink], Some(Item::Plate(_))),
                        next: Some(site),
                    }),
                    4 => Some(Step {
                        station: site,
                        then: Then::Interact,
                        ready: state.places[site].is_none(),
                        next: None,
                    }),
                    _ => None,
                }
            }
        }
    }

    /// Books the completion of the step a cook sent.
    fn completed(&self, b: &mut Book, state: &State, i: usize) {
        let Some(mut d) = b.cooks[i] else { return };
        let Some((station, advance)) = d.sent.take() else {
            return;
        };
        if advance {
            match self.t.tasks[d.task] {
                Task::Unit(u) => {
                    let route = self.t.units[u].route;
                    if d.step == 3 && matches!(route, Route::Chop | Route::Pan) {
                        if let Some(board) = b.board_of[u] {
                            b.board_owner[board] = None;
                        }
                    }
                    if d.step + 1 == PARKED && route == Route::Pan && b.ware_of[u].is_none() {
                        // Chopped, and no pan yet: it waits on its board, its cook free.
                        b.stage[d.task] = Stage::Open;
                        b.resume[d.task] = PARKED;
                        b.cooks[i] = None;
                        return;
                    }
                    if let (Some(h), Some(into)) = (b.relay_of[u], route.into_ware()) {
                        if d.step == into {
                            // Left on the table: any cook takes it on from there.
                            b.stage[d.task] = Stage::Open;
                            b.resume[d.task] = into + 1;
                            b.cooks[i] = None;
                            return;
                        }
                        if d.step == into + 1 {
                            b.board_owner[h] = None;
                        }
                    }
                }
                Task::Collect(_)
                    if d.step == 1
                        && self.p.relay[d.task] == Some(station)
                        && state.agents[i].hold.is_none() =>
                {
                    // Left on the table (not a unit taken from it onto the plate in hand):
                    // any cook serves it from there.
                    b.stage[d.task] = Stage::Open;
                    b.resume[d.task] = 2;
                    b.cooks[i] = None;
                    return;
                }
                Task::Collect(j) => {
                    if b.ware_owner[station] == Some(j) {
                        b.ware_owner[station] = None;
                    }
                    if d.step >= 1 && b.board_owner[station].is_some() {
                        b.board_owner[station] = None;
                    }
                }
                Task::Wash(_) => {
                    if d.step == 3 {
                        b.sink_owner[station] = false;
                    }
                }
            }
            // A collect stays at step 1 while it visits cookware and the window (at step 3
            // once handed on).
            if !(matches!(self.t.tasks[d.task], Task::Collect(_)) && d.step != 0 && d.step != 2) {
                d.step += 1;
            }
        }
        b.cooks[i] = Some(d);
        // A washed plate in hand whose order waits only for it: its cook serves it at once,
        // taking the units from where they wait, rather than leave it for another to fetch.
        if let Task::Wash(j) = self.t.tasks[d.task] {
            let collect = self.collect_of(j);
            if d.step == 4
                && b.stage[collect] == Stage::Open
                && self.p.cook[collect].is_none_or(|c| c as usize == i)
                && self.collectable(b, j)
            {
                b.stage[d.task] = Stage::Done;
                b.plate_ready[j] = true;
                b.stage[collect] = Stage::Taken;
                b.cooks[i] = Some(Doing {
                    task: collect,
                    step: 1,
                    sent: None,
                });
                return;
            }
        }
        if self.step(b, state, i, d.task, d.step).is_none() {
            b.stage[d.task] = Stage::Done;
            if let Task::Wash(j) = self.t.tasks[d.task] {
                b.plate_ready[j] = true;
            }
            b.cooks[i] = None;
        }
    }

    /// Whether order `j`'s units are all where its plate takes them and the order before
    /// it is being served: all its collect waits for besides a plate.
    fn collectable(&self, b: &Book, j: usize) -> bool {
        let units_done = self
            .units_of(j)
            .all(|u| b.stage[self.task_of(u)] == Stage::Done);
        let before = j == 0 || b.stage[self.collect_of(j - 1)] != Stage::Open;
        units_done && before
    }

    /// The task collecting order `j` (the collects follow the units).
    fn collect_of(&self, j: usize) -> usize {
        self.t.units.len() + j
    }

    /// The task washing the plate of order `j`, if it needs one (the washes come last).
    fn wash_of(&self, j: usize) -> Option<usize> {
        let (k, p) = (self.lay.orders.len(), self.t.plates.len());
        (j >= p).then(|| self.t.units.len() + k + j - p)
    }

    /// The cookware unit `u` goes into, coming from station `from`: of the stoves whose
    /// cookware of its kind is free to it, an empty one of its own first (cooking in
    /// parallel), then one its order shares, nearest the way from `from` to its plate.
    fn ware(&self, b: &Book, state: &State, u: usize, from: Option<usize>) -> Option<usize> {
        let unit = self.t.units[u];
        let want = if unit.route == Route::Pan {
            super::layout::Ware::Pan
        } else {
            super::layout::Ware::Pot
        };
        let free = |s: usize| match state.places[s] {
            Some(Item::Ware(w, bag, _)) if w == want => {
                (b.ware_owner[s].is_none() && bag.is_empty())
                    || (b.ware_owner[s] == Some(unit.order) && bag.len() < 6)
            }
            _ => false,
        };
        let stoves: Vec<usize> = self
            .lay
            .of_kind(StationKind::Stove)
            .filter(|&s| free(s))
            .collect();
        let site = b.site[unit.order];
        let near = |s: usize| from.map_or(0, |f| self.between(f, s)) + self.between(s, site);
        stoves
            .iter()
            .copied()
            .filter(|&s| b.ware_owner[s].is_none())
            .min_by_key(|&s| near(s))
            .or_else(|| stoves.iter().copied().min_by_key(|&s| near(s)))
    }

    /// The table a pot unit fetched while every pot is in use waits on: its hand-on table if
    /// free, else the free table nearest a stove.
    fn park_table(&self, b: &Book, state: &State, t: usize) -> Option<usize> {
        let near_stove = |s: usize| {
            self.lay
                .of_kind(StationKind::Stove)
                .map(|st| self.between(s, st))
                .min()
                .unwrap_or(FAR)
        };
        self.p.relay[t]
            .filter(|&h| vacant(b, state, h))
            .or_else(|| {
                self.t
                    .tables
                    .iter()
                    .copied()
                    .filter(|&s| vacant(b, state, s))
                    .min_by_key(|&s| near_stove(s))
            })
    }

    /// Whether task `t` can be taken now; reserves what it needs when `take`.
    fn ready(&self, b: &mut Book, state: &State, t: usize, take: bool) -> bool {
        if b.stage[t] != Stage::Open {
            return false;
        }
        let served = state.served as usize;
        match self.t.tasks[t] {
            Task::Unit(u) => {
                if b.resume[t] > 0 {
                    // Made ready while all its cookware was in use: on once some is free.
                    let cooks = self.t.units[u].route.into_ware().is_some();
                    if cooks && b.ware_of[u].is_none() {
                        let from = b.board_of[u].or(b.relay_of[u]);
                        let Some(s) = self.ware(b, state, u, from) else {
                            return false;
                        };
                        if take {
                            b.ware_of[u] = Some(s);
                            b.ware_owner[s] = Some(self.t.units[u].order);
                        }
                    }
                    return true;
                }
                let unit = self.t.units[u];
                if unit.order > served + self.p.ahead {
                    return false;
                }
                // A unit that waits on a table needs a free table if its plate is not there.
                let table_free = self.p.leave[t] == Leave::Table
                    && self.t.tables.iter().any(|&s| vacant(b, state, s));
                if matches!(unit.route, Route::Raw | Route::Chop)
                    && !table_free
                    && !b.plate_ready[unit.order]
                    && !self
                        .wash_of(unit.order)
                        .is_some_and(|w| b.stage[w] != Stage::Open)
                {
                    return false;
                }
                let disp = self.lay.dispensers_of(unit.food).next();
                let board = if matches!(unit.route, Route::Chop | Route::Pan) && !self.p.late {
                    // The free board nearest the way from the dispenser on.
                    match self.board(
                        b,
                        state,
                        u,
                        |s| disp.map_or(0, |d| self.between(d, s)),
                        true,
                    ) {
                        Some(s) => Some(s),
                        None => return false,
                    }
                } else {
                    None
                };
                let ware = if matches!(unit.route, Route::Pan | Route::Pot) {
                    match self.ware(b, state, u, board.or(disp)) {
                        Some(s) => Some(s),
                        // Chopped now, into a pan once one is free.
                        None if unit.route == Route::Pan && self.p.park[t] => None,
                        // Fetched now and left on a table, into a pot once one is free.
                        None if self.p.park[t] && self.park_table(b, state, t).is_some() => None,
                        None => return false,
                    }
                } else {
                    None
                };
                if take {
                    b.relay_of[u] = self.p.relay[t].filter(|&h| vacant(b, state, h));
                    if unit.route == Route::Pot && ware.is_none() {
                        b.relay_of[u] = self.park_table(b, state, t);
                    }
                    if let Some(h) = b.relay_of[u] {
                        b.board_owner[h] = Some(u);
                    }
                    b.board_of[u] = board;
                    b.ware_of[u] = ware;
                    if let Some(s) = board {
                        b.board_owner[s] = Some(u);
                    }
                    if let Some(s) = ware {
                        b.ware_owner[s] = Some(unit.order);
                    }
                }
                true
            }
            Task::Collect(_) if b.resume[t] > 0 => true,
            Task::Collect(j) => self.collectable(b, j) && b.plate_ready[j],
            Task::Wash(j) => {
                let p = self.t.plates.len();
                let collected = (0..=j - p).all(|c| b.stage[self.collect_of(c)] != Stage::Open);
                let earlier =
                    (p..j).all(|w| self.wash_of(w).is_some_and(|x| b.stage[x] != Stage::Open));
                let sink = self
                    .lay
                    .of_kind(StationKind::Sink)
                    .find(|&s| !b.sink_owner[s] && state.places[s].is_none());
                match (collected && earlier, sink) {
                    (true, Some(s)) => {
                        if take {
                            b.sink_owner[s] = true;
                            b.sink_of[t] = Some(s);
                        }
                        true
                    }
                    _ => false,
                }
            }
        }
    }

    /// The decision of cook `i`, deciding now.
    fn decide(&self, b: &mut Book, state: &State, i: usize) -> Decision {
        self.completed(b, state, i);
        let agent = state.agents[i];
        if b.cooks[i].is_none() {
            let first = |b: &Book, t: usize| -> i32 {
                match self.t.tasks[t] {
                    Task::Unit(u) => match b.relay_of[u].filter(|_| b.resume[t] > 0) {
                        Some(h) => self.nearest(agent.cell, h),
                        None if b.resume[t] == PARKED => {
                            b.board_of[u].map_or(0, |s| self.nearest(agent.cell, s))
                        }
                        None => self
                            .dispenser(state, self.t.units[u].food, agent.cell)
                            .map_or(0, |d| self.nearest(agent.cell, d)),
                    },
                    Task::Collect(j) => match self.p.relay[t].filter(|_| b.resume[t] > 0) {
                        Some(h) => self.nearest(agent.cell, h),
                        None => self.nearest(agent.cell, b.site[j]),
                    },
                    Task::Wash(_) => self
                        .lay
                        .of_kind(StationKind::Return)
                        .map(|r| self.nearest(agent.cell, r))
                        .min()
                        .unwrap_or(0),
                }
            };
            let mut pick: Option<(f64, usize)> = None;
            for t in 0..self.t.tasks.len() {
                // A unit or dish handed on is for whichever cook, whoever brought it.
                if (b.resume[t] == 0 && self.p.cook[t].is_some_and(|c| c as usize != i))
                    || !self.ready(b, state, t, false)
                {
                    continue;
                }
                let key = self.p.prio[t] + self.p.walk * f64::from(first(b, t));
                if pick.is_none_or(|(k, _)| key < k) {
                    pick = Some((key, t));
                }
            }
            if let Some((_, t)) = pick {
                self.ready(b, state, t, true);
                b.stage[t] = Stage::Taken;
                b.cooks[i] = Some(Doing {
                    task: t,
                    step: b.resume[t],
                    sent: None,
                });
            }
        }
        let wait = Decision::Wait {
            agent: i as u8,
            duration: state.next_event(self.lay, i).unwrap_or(1).max(1),
        };
        let Some(mut doing) = b.cooks[i] else {
            return wait;
        };
        if let Task::Unit(u) = self.t.tasks[doing.task] {
            let route = self.t.units[u].route;
            // A board chosen late: the best free one once the unit is in hand.
            let chops = matches!(route, Route::Chop | Route::Pan);
            if chops && doing.step == 1 && b.board_of[u].is_none() {
                if let Some(s) = self.board(b, state, u, |s| self.nearest(agent.cell, s), true) {
                    b.board_of[u] = Some(s);
                    b.board_owner[s] = Some(u);
                }
            }
            // A table to wait on, chosen once the unit is ready for it.
            let last = matches!((route, doing.step), (Route::Raw, 1) | (Route::Chop, 4));
            if last && self.p.leave[doing.task] == Leave::Table && b.table_of[u].is_none() {
                if let Some(s) = self.table(b, state, u, agent.cell, true) {
                    b.table_of[u] = Some(s);
                    b.board_owner[s] = Some(u);
                }
            }
        }
        let Some(step) = self.step(b, state, i, doing.task, doing.step) else {
            return wait;
        };
        let at_station = self.lay.stations[step.station].access.contains(&agent.cell);
        let decision = if step.ready {
            let cell = if at_station {
                Some(agent.cell)
            } else {
                self.cell(agent.cell, step.station, step.next)
            };
            match cell {
                Some(cell) => {
                    doing.sent = Some((step.station, true));
                    Decision::Go {
                        agent: i as u8,
                        cell,
                        station: step.station as u8,
                        then: step.then,
                    }
                }
                None => wait,
            }
        } else if !at_station {
            match self.cell(agent.cell, step.station, None) {
                Some(cell) => {
                    doing.sent = Some((step.station, false));
                    Decision::Go {
                        agent: i as u8,
                        cell,
                        station: step.station as u8,
                        then: Then::Stay,
                    }
                }
                None => wait,
            }
        } else {
            wait
        };
        b.cooks[i] = Some(doing);
        decision
    }
}

/// The step a pan unit chopped while every pan was in use is taken up at: taking it off its
/// board.
const PARKED: usize = 3;

/// Whether station `s` (a board or a table) holds nothing and is kept for no unit.
fn vacant(b: &Book, state: &State, s: usize) -> bool {
    b.board_owner[s].is_none() && state.places[s].is_none()
}

/// Local moves in a row without a shorter plan after which the improvement starts again
/// from random priorities (the best plans found stay found).
const RESTART: usize = 5_000;

/// One rollout: the decisions and the time of the last serve, or `None` when the cooks get
/// stuck or pass `cap`.
fn rollout(lay: &Layout, t: &Tasks, p: &Params, cap: i32) -> Option<(Vec<Decision>, i32)> {
    let roll = Roll { lay, t, p };
    let n = lay.stations.len();
    let k = lay.orders.len();
    let plates = t.plates.len();
    let mut site = vec![0; k];
    for (j, s) in site.iter_mut().enumerate() {
        *s = if j < plates {
            t.plates[(j + p.rotate) % plates]
        } else {
            usize::MAX
        };
    }
    for j in plates..k {
        site[j] = p.sites[j].unwrap_or(site[j - plates]);
    }
    let mut b = Book {
        stage: vec![Stage::Open; t.tasks.len()],
        board_of: vec![None; t.units.len()],
        ware_of: vec![None; t.units.len()],
        board_owner: vec![None; n],
        table_of: vec![None; t.units.len()],
        relay_of: vec![None; t.units.len()],
        resume: vec![0; t.tasks.len()],
        ware_owner: vec![None; n],
        sink_owner: vec![false; n],
        sink_of: vec![None; t.tasks.len()],
        site,
        plate_ready: (0..k).map(|j| j < plates).collect(),
        cooks: vec![None; lay.agents.len()],
    };
    let mut state = State::initial(lay);
    let mut now = state.settle(lay, None).ok()?;
    let mut decisions = Vec::new();
    let mut idle = 0;
    while !state.done(lay) {
        if now > cap || idle > 400 {
            return None;
        }
        let i = state.decider()?;
        let d = roll.decide(&mut b, &state, i);
        let mut next = state.clone();
        let passed = match next
            .apply(lay, d, None)
            .and_then(|()| next.settle(lay, None))
        {
            Ok(passed) => passed,
            Err(_) => return None,
        };
        idle = if matches!(d, Decision::Wait { .. }) {
            idle + 1
        } else {
            0
        };
        now += passed;
        state = next;
        decisions.push(d);
    }
    Some((decisions, now))
}

/// The best plans the task planner found within `deadline` (or `rollouts` tries), shortest
/// first, at most `keep` of them with distinct times, each as decisions for the model and the
/// time of its last serve.
pub fn plan(
    lay: &Layout,
    deadline: Instant,
    rollouts: usize,
    seed: u64,
    keep: usize,
) -> Vec<(Vec<Decision>, i32)> {
    let Some(t) = Tasks::new(lay) else {
        return Vec::new();
    };
    let m = lay.agents.len();
    let k = lay.orders.len();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found: Vec<(Vec<Decision>, i32)> = Vec::new();
    let mut cap = 4000;
    let mut best: Option<(Params, i32)> = None;
    let mut tries = 0;
    let mut stale = 0;
    let consider = |p: Params,
                    found: &mut Vec<(Vec<Decision>, i32)>,
                    best: &mut Option<(Params, i32)>,
                    cap: &mut i32| {
        let Some(r) = rollout(lay, &t, &p, *cap) else {
            return false;
        };
        let time = r.1;
        let shorter = best.as_ref().is_none_or(|(_, b)| time < *b);
        if best.as_ref().is_none_or(|(_, b)| time <= *b) {
            *best = Some((p, time));
            *cap = (*cap).min(time + time / 2 + 20);
        }
        if !found.iter().any(|f| f.1 == time) {
            found.push(r);
            found.sort_by_key(|f| f.1);
            found.truncate(keep);
        }
        shorter
    };
    // The units bound for cookware and the dishes, which may be handed on at a table.
    let relayable: Vec<usize> = (0..t.len())
        .filter(|&x| match t.tasks[x] {
            Task::Unit(u) => t.units[u].route.into_ware().is_some(),
            Task::Collect(_) => true,
            Task::Wash(_) => false,
        })
        .collect();
    // The units bound for cookware, which may be made ready before it is free.
    let parkable: Vec<usize> = (0..t.len())
        .filter(|&x| match t.tasks[x] {
            Task::Unit(u) => match t.units[u].route {
                Route::Pan => true,
                Route::Pot => !t.tables.is_empty(),
                Route::Raw | Route::Chop => false,
            },
            _ => false,
        })
        .collect();
    let parks: &[bool] = if parkable.is_empty() {
        &[false]
    } else {
        &[false, true]
    };
    // Where units may wait for their plates: on tables only where there are free ones.
    let leaves: &[Leave] = if t.tables.is_empty() {
        &[Leave::Plate, Leave::Board]
    } else {
        &[Leave::Plate, Leave::Board, Leave::Table]
    };
    // The rules: priorities × walking weights × how far ahead × plate rotations × where
    // units wait × when boards are chosen × whether units may wait for their cookware.
    for rule in 0..2 {
        for walk in [0.0, 0.3, 1.0, 3.0] {
            for ahead in [0, 1, k] {
                for (rotate, &leave, late, &park) in (0..t.plates.len().min(2))
                    .flat_map(|r| leaves.iter().map(move |l| (r, l)))
                    .flat_map(|(r, l)| [(r, l, false), (r, l, true)])
                    .flat_map(|(r, l, late)| parks.iter().map(move |p| (r, l, late, p)))
                {
                    let p = Params {
                        prio: t.rule(rule),
                        cook: vec![None; t.len()],
                        walk,
                        ahead,
                        rotate,
                        leave: vec![leave; t.len()],
                        late,
                        relay: vec![None; t.len()],
                        park: vec![park; t.len()],
                        sites: vec![None; k],
                    };
                    tries += 1;
                    consider(p, &mut found, &mut best, &mut cap);
                }
            }
        }
    }
    // Improvement: local moves from the best, and now and then a random restart.
    while tries < rollouts && Instant::now() < deadline {
        tries += 1;
        let p = match &best {
            Some((b, _)) if rng.random_bool(0.9) => {
                let mut p = b.clone();
                let n = p.prio.len();
                match rng.random_range(0..11) {
                    0 if m > 1 => {
                        let task = rng.random_range(0..n);
                        p.cook[task] = if rng.random_bool(0.3) {
                            None
                        } else {
                            Some(rng.random_range(0..m) as u8)
                        };
                    }
                    1 => {
                        let (a, c) = (rng.random_range(0..n), rng.random_range(0..n));
                        p.prio.swap(a, c);
                    }
                    2 => {
                        let a = rng.random_range(0..n);
                        p.prio[a] += rng.random_range(-12.0..12.0);
                    }
                    3 => {
                        let a = rng.random_range(0..n);
                        p.leave[a] = leaves[rng.random_range(0..leaves.len())];
                    }
                    4 => p.walk = [0.0, 0.3, 1.0, 3.0][rng.random_range(0..4)],
                    5 => p.late = !p.late,
                    7 if m > 1 && !relayable.is_empty() && !t.tables.is_empty() => {
                        // A unit bound for cookware or a dish handed on at a table (or no
                        // more).
                        let task = relayable[rng.random_range(0..relayable.len())];
                        p.relay[task] = rng
                            .random_bool(0.7)
                            .then(|| t.tables[rng.random_range(0..t.tables.len())]);
                    }
                    9 if k > t.plates.len() => {
                        // Where a dish on a washed plate is assembled.
                        let j = rng.random_range(t.plates.len()..k);
                        let places = t.plates.len() + t.tables.len();
                        p.sites[j] = rng.random_bool(0.8).then(|| {
                            let x = rng.random_range(0..places);
                            *t.plates
                                .get(x)
                                .unwrap_or_else(|| &t.tables[x - t.plates.len()])
                        });
                    }
                    8 if !parkable.is_empty() => {
                        let task = parkable[rng.random_range(0..parkable.len())];
                        p.park[task] = !p.park[task];
                    }
                    6 if m > 1 => {
                        // A whole order to one cook (or to any).
                        let j = rng.random_range(0..k);
                        let cook = rng.random_bool(0.8).then(|| rng.random_range(0..m) as u8);
                        for task in (0..n).filter(|&x| t.order(x) == j) {
                            p.cook[task] = cook;
                        }
                    }
                    _ => p.ahead = rng.random_range(0..=k),
                }
                p
            }
            _ => {
                let rule = rng.random_range(0..2);
                let mut prio = t.rule(rule);
                for x in &mut prio {
                    *x += rng.random_range(0.0..8.0);
                }
                Params {
                    prio,
                    cook: vec![None; t.len()],
                    walk: [0.0, 0.3, 1.0, 3.0][rng.random_range(0..4)],
                    ahead: rng.random_range(0..=k),
                    rotate: rng.random_range(0..t.plates.len()),
                    leave: (0..t.len())
                        .map(|_| leaves[rng.random_range(0..leaves.len())])
                        .collect(),
                    late: rng.random_bool(0.5),
                    relay: vec![None; t.len()],
                    park: (0..t.len()).map(|_| rng.random_bool(0.5)).collect(),
                    sites: vec![None; k],
                }
            }
        };
        if consider(p, &mut found, &mut best, &mut cap) {
            stale = 0;
        } else {
            stale += 1;
        }
        if stale > RESTART {
            best = None;
            stale = 0;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paracook::concrete::checkout::read_checkout;
    use crate::paracook::concrete::oracle::{answer, replay};
    use crate::paracook::concrete::sim::{simulate, Mode, Plan};
    use crate::paracook::concrete::tests::upstream;
    use crate::paracook::concrete::Kitchen;

    /// The first priority rule's knobs, with where units wait, when boards are chosen and
    /// where each task is handed on.
    fn knobs(t: &Tasks, leave: Leave, late: bool, relay: Vec<Option<usize>>) -> Params {
        Params {
            prio: t.rule(0),
            cook: vec![None; t.len()],
            walk: 0.3,
            ahead: 1,
            rotate: 0,
            leave: vec![leave; t.len()],
            late,
            relay,
            park: vec![false; t.len()],
            sites: vec![None; t.len()],
        }
    }

    /// Whether a cook in plan `d` goes to station `s`.
    fn goes_to(d: &[Decision], s: usize) -> bool {
        d.iter()
            .any(|x| matches!(x, Decision::Go { station, .. } if usize::from(*station) == s))
    }

    /// The model's plan `d` serves every order at `time` in the model and in both modes of
    /// the game.
    fn assert_served(k: &Kitchen, lay: &Layout, d: &[Decision], time: i32, what: &str) {
        let planned = replay(lay, d).expect("the model replays its own plan");
        assert_eq!(planned.time, time, "{} {what}", k.key);
        let plan = Plan::from_json(&answer(lay, &planned)).unwrap();
        for mode in [Mode::Replica, Mode::Intended] {
            let out = simulate(k, &plan, mode);
            assert!(out.done, "{} {what} {mode:?}: {:?}", k.key, out.error);
            assert_eq!(out.oct, f64::from(time), "{} {what}", k.key);
        }
    }

    /// Each place a unit may wait for its plate, with boards chosen when a task is taken or
    /// once its unit is in hand, gives plans the game serves in both modes at the time the
    /// model gives them, on the seed-84 team kitchens with three orders (whose third order
    /// waits for a washed plate, which its washer may serve at once).
    #[test]
    fn every_place_to_wait_and_every_board_choice_gives_plans_the_game_serves() {
        let Some(root) = upstream() else { return };
        let kitchens = read_checkout(&root).unwrap();
        let variants = [Leave::Plate, Leave::Board, Leave::Table]
            .into_iter()
            .flat_map(|leave| [(leave, false), (leave, true)]);
        let mut served: Vec<usize> = vec![0; 6];
        let mut tried = 0;
        for k in kitchens
            .iter()
            .filter(|k| k.seed == 84 && k.agents() > 1 && k.orders.len() == 3)
        {
            let lay = Layout::of_kitchen(k).unwrap();
            let t = Tasks::new(&lay).unwrap();
            tried += 1;
            for (v, (leave, late)) in variants.clone().enumerate() {
                let p = knobs(&t, leave, late, vec![None; t.len()]);
                let Some((d, time)) = rollout(&lay, &t, &p, 4000) else {
                    continue;
                };
                assert_served(k, &lay, &d, time, &format!("{leave:?} {late}"));
                served[v] += 1;
            }
        }
        assert_eq!(tried, 12);
        assert!(
            served.iter().all(|&n| n >= 10),
            "plans per variant: {served:?}"
        );
    }

    /// Pan units chopped while every pan is in use wait on their boards, pot units fetched
    /// while every pot is, on a table: the plans the game serves, and where the cookware is
    /// the bottleneck (several orders with a cooked food each) shorter than waiting for it
    /// before fetching.
    #[test]
    fn readying_units_before_their_cookware_is_free_gives_plans_the_game_serves() {
        let Some(root) = upstream() else { return };
        let kitchens = read_checkout(&root).unwrap();
        let (mut served, mut shorter, mut tried) = (0, 0, 0);
        for k in kitchens.iter().filter(|k| {
            k.seed == 84
                && k.agents() > 1
                && k.orders.len() >= 3
                && matches!(
                    k.category.as_str(),
                    "burger" | "burrito" | "pasta" | "sushi"
                )
        }) {
            let lay = Layout::of_kitchen(k).unwrap();
            let t = Tasks::new(&lay).unwrap();
            tried += 1;
            for leave in [Leave::Plate, Leave::Board, Leave::Table] {
                // The cookware's units of every order first, so the cookware is what they
                // wait for.
                let base = knobs(&t, leave, false, vec![None; t.len()]);
                let prio = (0..t.len())
                    .map(|x| match t.tasks[x] {
                        Task::Unit(u) if t.units[u].route.into_ware().is_some() => {
                            base.prio[x] - 100.0
                        }
                        _ => base.prio[x],
                    })
                    .collect();
                let waiting = Params {
                    prio,
                    ahead: k.orders.len(),
                    ..base
                };
                let parking = Params {
                    park: vec![true; t.len()],
                    ..waiting.clone()
                };
                let Some((d, time)) = rollout(&lay, &t, &parking, 4000) else {
                    continue;
                };
                assert_served(k, &lay, &d, time, &format!("{leave:?}, parked"));
                served += 1;
                if rollout(&lay, &t, &waiting, 4000).is_none_or(|(_, before)| time < before) {
                    shorter += 1;
                }
            }
        }
        assert_eq!(tried, 16);
        assert!(served >= 40, "{served} of 48 rollouts served");
        assert!(
            shorter >= 8,
            "{shorter} of {served} shorter than waiting for cookware"
        );
    }

    /// Every dish on a washed plate assembled at one table, for each table in turn (the
    /// plates' own included): the plans the game serves, and the washed plates go there.
    #[test]
    fn assembling_on_washed_plates_at_any_table_gives_plans_the_game_serves() {
        let Some(root) = upstream() else { return };
        let kitchens = read_checkout(&root).unwrap();
        let (mut tried, mut served, mut moved) = (0, 0, 0);
        for k in kitchens
            .iter()
            .filter(|k| k.seed == 84 && k.agents() > 1 && k.orders.len() == 4)
        {
            let lay = Layout::of_kitchen(k).unwrap();
            let t = Tasks::new(&lay).unwrap();
            for &s in t.plates.iter().chain(&t.tables) {
                let sites: Vec<Option<usize>> = (0..t.len())
                    .map(|j| (j >= t.plates.len()).then_some(s))
                    .collect();
                let p = Params {
                    sites,
                    ..knobs(&t, Leave::Plate, false, vec![None; t.len()])
                };
                tried += 1;
                let Some((d, time)) = rollout(&lay, &t, &p, 4000) else {
                    continue;
                };
                assert_served(k, &lay, &d, time, &format!("at {s}"));
                // A washed plate is put there.
                if goes_to(&d, s) {
                    moved += 1;
                }
                served += 1;
            }
        }
        assert!(tried >= 40, "{tried} variants");
        assert!(served * 10 >= tried * 8, "{served} of {tried} served");
        assert_eq!(moved, served);
    }

    /// Handing every unit bound for cookware and every dish on at one table, for each table
    /// in turn, gives plans the game serves in both modes at the time the model gives them
    /// (seed 126, every team, the dishes with cookware).
    #[test]
    fn handing_on_at_any_table_gives_plans_the_game_serves() {
        let Some(root) = upstream() else { return };
        let kitchens = read_checkout(&root).unwrap();
        let (mut tried, mut served, mut handed) = (0, 0, 0);
        for k in kitchens.iter().filter(|k| {
            k.seed == 126
                && k.agents() > 1
                && ["burrito", "pasta", "sushi"].contains(&k.category.as_str())
        }) {
            let lay = Layout::of_kitchen(k).unwrap();
            let t = Tasks::new(&lay).unwrap();
            for &h in &t.tables {
                let relay: Vec<Option<usize>> = t
                    .tasks
                    .iter()
                    .map(|task| match task {
                        Task::Unit(u) => t.units[*u].route.into_ware().map(|_| h),
                        Task::Collect(_) => Some(h),
                        Task::Wash(_) => None,
                    })
                    .collect();
                let p = knobs(&t, Leave::Plate, false, relay);
                tried += 1;
                let Some((d, time)) = rollout(&lay, &t, &p, 4000) else {
                    continue;
                };
                assert_served(k, &lay, &d, time, &format!("at {h}"));
                // A hand-on shows in the plan as an item put on the table and taken off it.
                if goes_to(&d, h) {
                    handed += 1;
                }
                served += 1;
            }
        }
        assert!(tried >= 40, "{tried} variants");
        assert!(served * 10 >= tried * 9, "{served} of {tried} served");
        assert!(handed * 10 >= served * 9, "{handed} of {served} handed on");
    }

    /// Burrito on seed 126: the chicken is chopped on the far side of the kitchen from the
    /// pans and the window. Handing it, or the dish, on at a table lets two cooks serve
    /// sooner than one cook can at all (48, proven); the planner without hand-ons found 48.
    #[test]
    fn two_cooks_hand_on_where_tables_divide_the_kitchen() {
        let Some(root) = upstream() else { return };
        let kitchens = read_checkout(&root).unwrap();
        let k = kitchens
            .iter()
            .find(|k| k.key == "burrito/seed_126/agent_num_2/orders_num_1")
            .unwrap();
        let lay = Layout::of_kitchen(k).unwrap();
        let far = Instant::now() + std::time::Duration::from_secs(600);
        // The local search is random: the best of three streams.
        let (d, time) = (27..30)
            .map(|seed| plan(&lay, far, 3000, seed, 1).remove(0))
            .min_by_key(|p| p.1)
            .unwrap();
        assert!(time <= 44, "{time}");
        assert_served(k, &lay, &d, time, "handed on");
    }
}
