//! The planner's model of a kitchen in motion: what every agent holds and is doing, what lies
//! on every station, how long each cookware still cooks, which dirty plates are on their way
//! back, how many orders are served.
//!
//! Decisions: an agent decides only when it is free, and its choice is a **job**: walk to a
//! cell next to a station and `Interact` or `Process` there on arrival, or wait until the next
//! thing happens (another agent's action ends, a cookware finishes, a dirty plate comes back).
//! Acting on arrival or at such a moment loses nothing: between those moments nothing in the
//! kitchen changes but how long cookware on a stove has cooked, so any plan can be shifted
//! earlier into this form without changing what any action finds, with one exception: an
//! empty hand taking cookware off a stove before it is done takes it with less cooking
//! left the later it does (the count pauses off the stove, so taking it later can help, for
//! instance to free the stove for other cookware). Everything else an action can do to
//! cooking cookware finds the same: food added ends its cooking at the same moment, a
//! plate takes the same uncooked units. So an empty-handed agent may also wait a single
//! step while something cooks, and its taking cookware off at any whole time is a plan here.
//!
//! Order of events at one instant is the game's: cookware and plate returns first, then the
//! agents whose actions end, in the order their actions started (ties by agent number), each
//! one's zero-time actions before the next agent's. A board being chopped on (and the sink
//! while washing) refuses every other agent until the chopping ends, as the game's lock
//! does; so a plan of this model passes the game's stricter ordering and the intended
//! rules' "release before acquire" alike.
//!
//! Cooking follows the rules as the prompt states them: cookware cooks only on a stove, 24
//! (pan) or 16 (pot) per item added, and the count restarts after a batch is done. The
//! game's own clock only ever cooks sooner (it credits time off the stove and between
//! batches), so a plan that waits for this model's cooking is cooked in both.
//!
//! States hold times relative to the present, so two situations that differ only in when
//! they happen are one state for the search.

use super::layout::{
    Cut, Layout, StationKind, Ware, CHOP_TIME, PAN_TIME, POT_TIME, RETURN_TIME, WASH_TIME,
};

/// Up to six ingredient units in one container, each `(food + 1) * 4 + state`, sorted, 0 for
/// a free slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Bag([u8; 6]);

fn code(food: u8, cut: Cut) -> u8 {
    (food + 1) * 4 + cut as u8
}

fn decode(c: u8) -> (u8, Cut) {
    let cut = match c % 4 {
        0 => Cut::Raw,
        1 => Cut::Chopped,
        _ => Cut::Cooked,
    };
    (c / 4 - 1, cut)
}

impl Bag {
    /// The units, in order.
    pub fn units(&self) -> impl Iterator<Item = (u8, Cut)> + '_ {
        self.0.iter().filter(|&&c| c != 0).map(|&c| decode(c))
    }

    /// How many units it holds.
    pub fn len(&self) -> usize {
        self.0.iter().filter(|&&c| c != 0).count()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }

    /// Adds a unit; false when full.
    fn push(&mut self, food: u8, cut: Cut) -> bool {
        let Some(free) = self.0.iter().position(|&c| c == 0) else {
            return false;
        };
        self.0[free] = code(food, cut);
        self.0[..=free].sort_unstable_by(|a, b| b.cmp(a));
        true
    }

    /// Moves all of `other`'s units in; false when they do not fit.
    fn take_all(&mut self, other: &mut Bag) -> bool {
        for (food, cut) in other.units().collect::<Vec<_>>() {
            if !self.push(food, cut) {
                return false;
            }
        }
        *other = Bag::default();
        true
    }

    fn cook_all(&mut self) {
        for c in self.0.iter_mut().filter(|c| **c != 0) {
            let (food, _) = decode(*c);
            *c = code(food, Cut::Cooked);
        }
        self.0.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Whether every unit is in `needs` (a sorted list), counting repeats.
    pub fn within(&self, needs: &[(u8, Cut)]) -> bool {
        let mut left = needs.to_vec();
        self.units()
            .all(|u| match left.iter().position(|n| *n == u) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            })
    }

    /// Whether it holds exactly `needs` (sorted).
    pub fn equals(&self, needs: &[(u8, Cut)]) -> bool {
        self.len() == needs.len() && self.within(needs)
    }
}

/// Something an agent can hold or a station can carry.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Item {
    /// One ingredient.
    Food(u8, Cut),
    /// A clean plate and what is on it.
    Plate(Bag),
    /// A dirty plate.
    Dirty,
    /// Cookware, its contents and the cooking time still due (counting only on a stove).
    Ware(Ware, Bag, i16),
}

/// What an agent does after walking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Then {
    /// `Interact` on arrival.
    Interact,
    /// `Process` on arrival.
    Process,
    /// Nothing on arrival: the agent decides again there, to act the moment something
    /// happens (cooking done, a plate back, another agent's action ending). Walking first and
    /// waiting there arrives no later than waiting first and walking after.
    Stay,
}

/// What an agent is doing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Job {
    /// Free: it decides now.
    Decide,
    /// Walking to its cell, then acting on the station.
    Go(u8, Then),
    /// Chopping or washing at the station until its action ends.
    Processing(u8),
    /// Waiting.
    Wait,
    /// Idle until something in the kitchen changes (the joint model only): an interaction
    /// (one another agent makes later at this instant included), a chop or a wash ending,
    /// cookware done, a plate back.
    Sleep,
    /// Woken from sleep by a step of cooking at which nothing else changed (the joint model
    /// only): beside cooking cookware with an empty hand, it may take the cookware off the
    /// stove now (how long it has cooked is all that differs from the last change), or sleep
    /// on.
    TakeOff,
}

/// One agent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Agent {
    /// Its cell (while walking: where it is going).
    pub cell: u8,
    /// What it holds.
    pub hold: Option<Item>,
    /// What it is doing.
    pub job: Job,
    /// When that ends, relative to now.
    pub at: i16,
    /// When that started, relative to now: actions ending at one instant run in this order.
    reg: i16,
}

/// The kitchen at one moment.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// The agents, in the game's order.
    pub agents: Vec<Agent>,
    /// What lies on each station (by station number).
    pub places: Vec<Option<Item>>,
    /// Dirty plates on their way back: when each arrives, relative to now.
    pub dues: Vec<i16>,
    /// Dirty plates waiting at the return.
    pub dirty: u8,
    /// Orders served so far.
    pub served: u8,
}

/// A decision of one agent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Decision {
    /// Walk to `cell`, then act on `station`.
    Go {
        /// The agent.
        agent: u8,
        /// Where it stands to act.
        cell: u8,
        /// The station it acts on.
        station: u8,
        /// Interact or Process.
        then: Then,
    },
    /// Wait for `duration`.
    Wait {
        /// The agent.
        agent: u8,
        /// How long.
        duration: i16,
    },
    /// Sleep until the next event (the joint model only).
    Sleep {
        /// The agent.
        agent: u8,
    },
}

/// A step the game would refuse or the planner drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dead;

/// A game action an agent completed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Act {
    /// `MoveTo` a cell.
    MoveTo(u8),
    /// `Interact` with a station.
    Interact(u8),
    /// `Process` at a station.
    Process(u8),
    /// `Wait`.
    Wait,
}

/// The game actions completed while replaying decisions, with their times.
#[derive(Debug, Default)]
pub struct Log {
    /// The present, in absolute time.
    pub now: i32,
    /// `(agent, action, start, end)` in the order they complete.
    pub done: Vec<(u8, Act, i32, i32)>,
    /// When each agent's timed action began (the joint model keeps no start in its states).
    begun: Vec<i32>,
}

impl Log {
    fn push(&mut self, agent: usize, act: Act, start_rel: i16, end_rel: i16) {
        self.done.push((
            agent as u8,
            act,
            self.now + i32::from(start_rel),
            self.now + i32::from(end_rel),
        ));
    }

    /// Records `agent`'s timed action, ending now, from when it began.
    fn ended(&mut self, agent: usize, act: Act) {
        self.done
            .push((agent as u8, act, self.begun[agent], self.now));
    }
}

const FIRST: i16 = i16::MIN;

/// The joint model's mark of an agent free at the end of a walk that was its whole chain:
/// it acts there or sleeps, never walks on at once (two walks in a row are one direct walk,
/// no longer, and where an agent passes changes nothing).
const ARRIVED: i16 = 1;

/// The joint model's mark of an agent asleep since an instant at which it acted: the game
/// runs one agent's turn at an instant in one piece, and a wait lasts a step at least, so
/// woken by another agent at that same instant it acts again a step later at the soonest.
const SLEPT_AFTER_ACTING: i16 = 2;

impl Agent {
    /// Whether the agent has just ended a walk in the joint model, and so may not walk on
    /// before it acts or sleeps.
    pub fn arrived(&self) -> bool {
        self.job == Job::Decide && self.reg == ARRIVED
    }
}

impl State {
    /// The kitchen at time 0.
    pub fn initial(lay: &Layout) -> State {
        State {
            agents: lay
                .agents
                .iter()
                .map(|(_, cell)| Agent {
                    cell: *cell,
                    hold: None,
                    job: Job::Decide,
                    at: 0,
                    reg: 0,
                })
                .collect(),
            places: lay
                .stations
                .iter()
                .map(|s| match s.start {
                    Some(super::layout::Start::Plate) => Some(Item::Plate(Bag::default())),
                    Some(super::layout::Start::Ware(w)) => Some(Item::Ware(w, Bag::default(), 0)),
                    None => None,
                })
                .collect(),
            dues: Vec::new(),
            dirty: 0,
            served: 0,
        }
    }

    /// Whether every order is served.
    pub fn done(&self, lay: &Layout) -> bool {
        self.served as usize >= lay.orders.len()
    }

    /// The agent that decides now: the first whose action ends now, in the game's order.
    pub fn decider(&self) -> Option<usize> {
        let i =
            (0..self.agents.len()).min_by_key(|&i| (self.agents[i].at, self.agents[i].reg, i))?;
        (self.agents[i].job == Job::Decide && self.agents[i].at == 0).then_some(i)
    }

    /// The time until the next thing happens that no agent's decision causes (another
    /// agent's action ending, cookware done, a plate back), if any.
    pub fn next_event(&self, lay: &Layout, except: usize) -> Option<i16> {
        let agents = self
            .agents
            .iter()
            .enumerate()
            .filter(|&(i, a)| i != except && a.job != Job::Decide && a.at > 0)
            .map(|(_, a)| a.at);
        agents
            .chain(self.cooking_stoves(lay).map(|(_, left)| left))
            .chain(self.dues.iter().copied().filter(|&d| d > 0))
            .min()
    }

    /// Whether cookware on a stove is cooking.
    pub fn cooking(&self, lay: &Layout) -> bool {
        self.cooking_stoves(lay).next().is_some()
    }

    /// The stoves whose cookware is cooking, each with the steps it has left: the next
    /// event, and what taking the cookware off finds, depend on them.
    fn cooking_stoves<'s>(&'s self, lay: &'s Layout) -> impl Iterator<Item = (usize, i16)> + 's {
        self.places.iter().enumerate().filter_map(|(s, p)| match p {
            Some(Item::Ware(_, bag, left))
                if *left > 0 && !bag.is_empty() && lay.stations[s].kind == StationKind::Stove =>
            {
                Some((s, *left))
            }
            _ => None,
        })
    }

    /// Lets `dt` pass: actions, cooking and returns advance.
    fn advance(&mut self, lay: &Layout, dt: i16) {
        if dt <= 0 {
            return;
        }
        for a in &mut self.agents {
            a.at -= dt;
            a.reg = a.reg.saturating_sub(dt).max(FIRST + 1);
        }
        for (s, place) in self.places.iter_mut().enumerate() {
            if let Some(Item::Ware(_, bag, left)) = place {
                if *left > 0 && lay.stations[s].kind == StationKind::Stove {
                    *left = (*left - dt).max(0);
                    if *left == 0 {
                        bag.cook_all();
                    }
                }
            }
        }
        for d in &mut self.dues {
            *d -= dt;
        }
        let back = self.dues.iter().filter(|&&d| d <= 0).count();
        self.dues.retain(|&d| d > 0);
        self.dirty += back as u8;
    }

    /// Runs events until an agent must decide; returns the time that passed.
    pub fn settle(&mut self, lay: &Layout, mut log: Option<&mut Log>) -> Result<i32, Dead> {
        let mut passed = 0i32;
        loop {
            let Some(i) =
                (0..self.agents.len()).min_by_key(|&i| (self.agents[i].at, self.agents[i].reg, i))
            else {
                return Ok(passed);
            };
            let a = self.agents[i];
            if a.at > 0 {
                passed += i32::from(a.at);
                self.advance(lay, a.at);
                if let Some(log) = log.as_deref_mut() {
                    log.now += i32::from(a.at);
                }
                continue;
            }
            let record = |log: &mut Option<&mut Log>, act: Act, start: i16| {
                if let Some(log) = log.as_deref_mut() {
                    log.push(i, act, start, 0);
                }
            };
            match a.job {
                Job::Decide => return Ok(passed),
                Job::Go(station, then) => {
                    record(&mut log, Act::MoveTo(a.cell), a.reg);
                    match then {
                        Then::Interact => {
                            self.interact(lay, i, station as usize)?;
                            record(&mut log, Act::Interact(station), 0);
                            self.free(i);
                        }
                        Then::Process => self.start_process(lay, i, station as usize)?,
                        Then::Stay => self.free(i),
                    }
                }
                Job::Processing(station) => {
                    self.finish_process(lay, station as usize)?;
                    record(&mut log, Act::Process(station), a.reg);
                    self.free(i);
                }
                Job::Wait => {
                    record(&mut log, Act::Wait, a.reg);
                    self.free(i);
                }
                // Only the joint model sleeps.
                Job::Sleep | Job::TakeOff => return Err(Dead),
            }
        }
    }

    fn free(&mut self, i: usize) {
        let a = &mut self.agents[i];
        a.job = Job::Decide;
        a.at = 0;
        a.reg = FIRST;
    }

    /// Takes a decision of the agent that decides now; its zero-time action runs at once.
    pub fn apply(
        &mut self,
        lay: &Layout,
        d: Decision,
        mut log: Option<&mut Log>,
    ) -> Result<(), Dead> {
        if let Some(log) = log.as_deref_mut() {
            let agent = match d {
                Decision::Go { agent, .. }
                | Decision::Wait { agent, .. }
                | Decision::Sleep { agent } => agent as usize,
            };
            log.begun.resize(self.agents.len(), 0);
            log.begun[agent] = log.now;
        }
        match d {
            Decision::Go {
                agent,
                cell,
                station,
                then,
            } => {
                let i = agent as usize;
                let walk = lay.dist(self.agents[i].cell, cell);
                if walk >= super::layout::FAR {
                    return Err(Dead);
                }
                let a = &mut self.agents[i];
                a.cell = cell;
                if walk == 0 {
                    match then {
                        Then::Interact => {
                            self.interact(lay, i, station as usize)?;
                            if let Some(log) = log {
                                log.push(i, Act::Interact(station), 0, 0);
                            }
                            self.free(i);
                            self.wake();
                        }
                        Then::Process => self.start_process(lay, i, station as usize)?,
                        // Staying where it stands is no decision.
                        Then::Stay => return Err(Dead),
                    }
                } else {
                    a.job = Job::Go(station, then);
                    a.at = walk as i16;
                    a.reg = 0;
                }
            }
            Decision::Wait { agent, duration } => {
                let a = &mut self.agents[agent as usize];
                a.job = Job::Wait;
                a.at = duration;
                a.reg = 0;
            }
            Decision::Sleep { agent } => {
                let a = &mut self.agents[agent as usize];
                a.job = Job::Sleep;
                a.at = 0;
                a.reg = if a.reg == FIRST {
                    SLEPT_AFTER_ACTING
                } else {
                    0
                };
            }
        }
        Ok(())
    }

    /// The agents that may decide now in the joint model: the one in the middle of its
    /// zero-time actions if there is one (the game runs one agent's zero-time actions
    /// without a break), else every free agent, in any order (those woken only to take
    /// cookware off included).
    pub fn joint_deciders(&self) -> Vec<usize> {
        if let Some(i) = self
            .agents
            .iter()
            .position(|a| a.job == Job::Decide && a.reg == FIRST)
        {
            return vec![i];
        }
        (0..self.agents.len())
            .filter(|&i| matches!(self.agents[i].job, Job::Decide | Job::TakeOff))
            .collect()
    }

    /// Something in the kitchen changed now: every sleeping agent decides again, now or, if
    /// it acted earlier at this instant, a step later.
    fn wake(&mut self) {
        for a in &mut self.agents {
            if matches!(a.job, Job::Sleep | Job::TakeOff) {
                (a.job, a.at) = if a.reg == SLEPT_AFTER_ACTING {
                    (Job::Wait, 1)
                } else {
                    (Job::Decide, 0)
                };
                a.reg = 0;
            }
        }
    }

    /// Whether a sleeping agent stands, empty-handed, beside a stove whose cookware cooks:
    /// taking it off finds a different count at every step.
    fn may_take_off(&self, lay: &Layout, a: &Agent) -> bool {
        a.hold.is_none()
            && self
                .cooking_stoves(lay)
                .any(|(s, _)| lay.stations[s].access.contains(&a.cell))
    }

    /// The joint model's agents in one order whatever their numbers (the cooks are alike:
    /// only where each is and what it holds and does tells them apart), so that two
    /// situations that differ only by which cook is where are one state for the search.
    /// Returns the permutation: position `j` now holds the agent that was at `perm[j]`
    /// (`log`'s record of when each agent's action began follows it).
    pub fn canonical(&mut self, log: Option<&mut Log>) -> Vec<usize> {
        let mut perm: Vec<usize> = (0..self.agents.len()).collect();
        perm.sort_by_key(|&i| self.agents[i]);
        if perm.iter().enumerate().any(|(j, &i)| i != j) {
            self.agents = perm.iter().map(|&i| self.agents[i]).collect();
            if let Some(log) = log {
                log.begun.resize(self.agents.len(), 0);
                log.begun = perm.iter().map(|&i| log.begun[i]).collect();
            }
        }
        perm
    }

    /// The joint model's [`State::settle`]: every action that ends now completes first
    /// (a walk, a chop or a wash: none of them changes what another agent's action at this
    /// instant finds, except that a finished chop or wash frees its station, which the rules
    /// as stated let go before any taking), then one arrival's interaction (the others who
    /// arrive now to interact decide there after its turn), then, if an agent is free, it
    /// returns; otherwise time runs to the next event. Sleeping agents wake when something
    /// in the kitchen changes (a chop or a wash ends, cookware is done, a plate comes back;
    /// an interaction wakes them in [`State::apply`]); at a step of cooking where nothing
    /// else changed, only those beside the cooking cookware with an empty hand wake, to take
    /// it off or sleep on. Returns the time that passed; `Dead` when every agent sleeps and
    /// nothing can happen any more.
    pub fn settle_joint(&mut self, lay: &Layout, mut log: Option<&mut Log>) -> Result<i32, Dead> {
        let mut passed = 0i32;
        loop {
            let mut changed = false;
            // One arrival interacts at once; any other agent arriving now to interact stands
            // there free instead, to act after it: the game runs one agent's turn at an
            // instant in one piece. No order is lost, since each arrival could as well have
            // walked there to decide.
            let chain_open = self
                .agents
                .iter()
                .any(|a| a.job == Job::Decide && a.reg == FIRST);
            let mut interacting = None;
            for i in 0..self.agents.len() {
                let a = self.agents[i];
                if a.at > 0 || matches!(a.job, Job::Decide | Job::Sleep | Job::TakeOff) {
                    continue;
                }
                let mut record = |act: Act| {
                    if let Some(log) = log.as_deref_mut() {
                        log.ended(i, act);
                    }
                };
                let mut arrived = false;
                match a.job {
                    Job::Go(station, then) => {
                        if then == Then::Interact && !chain_open && interacting.is_none() {
                            // After every other action that ends now (a chop or a wash
                            // frees its station before any taking).
                            interacting = Some(i);
                            continue;
                        }
                        record(Act::MoveTo(a.cell));
                        match then {
                            Then::Process => {
                                self.start_process(lay, i, station as usize)?;
                                if let Some(log) = log.as_deref_mut() {
                                    log.begun[i] = log.now;
                                }
                                continue;
                            }
                            Then::Interact | Then::Stay => arrived = true,
                        }
                    }
                    Job::Processing(station) => {
                        self.finish_process(lay, station as usize)?;
                        record(Act::Process(station));
                        changed = true;
                    }
                    _ => record(Act::Wait),
                }
                let a = &mut self.agents[i];
                a.job = Job::Decide;
                a.at = 0;
                a.reg = if arrived { ARRIVED } else { 0 };
            }
            if let Some(i) = interacting {
                let a = self.agents[i];
                if let Job::Go(station, _) = a.job {
                    if let Some(log) = log.as_deref_mut() {
                        log.ended(i, Act::MoveTo(a.cell));
                    }
                    self.interact(lay, i, station as usize)?;
                    if let Some(log) = log.as_deref_mut() {
                        log.push(i, Act::Interact(station), 0, 0);
                    }
                    changed = true;
                    let a = &mut self.agents[i];
                    a.job = Job::Decide;
                    a.at = 0;
                    a.reg = FIRST;
                }
            }
            if changed {
                self.wake();
            }
            if self
                .agents
                .iter()
                .any(|a| matches!(a.job, Job::Decide | Job::TakeOff))
            {
                return Ok(passed);
            }
            let Some(mut dt) = self.next_event(lay, usize::MAX) else {
                return Err(Dead);
            };
            // While cookware cooks, how long it has cooked changes what taking it off the
            // stove leaves: a sleeping agent that could take it off wakes at every step.
            let watchers = self
                .agents
                .iter()
                .any(|a| a.job == Job::Sleep && self.may_take_off(lay, a));
            if watchers {
                dt = dt.min(1);
            }
            // Cookware done or a plate back at the new instant changes the kitchen.
            let done = self.cooking_stoves(lay).any(|(_, left)| left <= dt)
                || self.dues.iter().any(|&d| d <= dt);
            passed += i32::from(dt);
            self.advance(lay, dt);
            if let Some(log) = log.as_deref_mut() {
                log.now += i32::from(dt);
            }
            for a in &mut self.agents {
                // Order within an instant is the search's choice: starts are not kept.
                a.reg = 0;
                if a.job == Job::Sleep {
                    a.at = 0;
                }
            }
            if done {
                self.wake();
            } else if watchers {
                for i in 0..self.agents.len() {
                    let a = self.agents[i];
                    if a.job == Job::Sleep && self.may_take_off(lay, &a) {
                        self.agents[i].job = Job::TakeOff;
                    }
                }
            }
        }
    }

    fn locked_by_other(&self, me: usize, station: usize) -> bool {
        self.agents
            .iter()
            .enumerate()
            .any(|(i, a)| i != me && a.job == Job::Processing(station as u8))
    }

    fn start_process(&mut self, lay: &Layout, i: usize, station: usize) -> Result<(), Dead> {
        let time = match lay.stations[station].kind {
            StationKind::Board => CHOP_TIME,
            StationKind::Sink => WASH_TIME,
            _ => return Err(Dead),
        };
        if self.locked_by_other(i, station) {
            return Err(Dead);
        }
        // Nothing to chop or wash: the game fails at the end; the planner never tries.
        match (lay.stations[station].kind, self.places[station]) {
            (StationKind::Board, Some(Item::Food(f, Cut::Raw))) if useful_chop(lay, self, f) => {}
            (StationKind::Sink, Some(Item::Dirty)) => {}
            _ => return Err(Dead),
        }
        let a = &mut self.agents[i];
        a.job = Job::Processing(station as u8);
        a.at = time as i16;
        a.reg = 0;
        Ok(())
    }

    fn finish_process(&mut self, lay: &Layout, station: usize) -> Result<(), Dead> {
        let place = &mut self.places[station];
        match (lay.stations[station].kind, *place) {
            (StationKind::Board, Some(Item::Food(f, Cut::Raw))) => {
                *place = Some(Item::Food(f, Cut::Chopped))
            }
            (StationKind::Sink, Some(Item::Dirty)) => *place = Some(Item::Plate(Bag::default())),
            _ => return Err(Dead),
        }
        Ok(())
    }

    /// The game's `Interact` of agent `i` on `station`, or why it fails.
    fn interact(&mut self, lay: &Layout, i: usize, station: usize) -> Result<(), Dead> {
        if self.locked_by_other(i, station) {
            return Err(Dead);
        }
        let kind = lay.stations[station].kind;
        let hold = self.agents[i].hold;
        let place = self.places[station];
        let (hold, place) = match kind {
            StationKind::Table | StationKind::Board => basic(lay, hold, place)?,
            StationKind::Dispenser => match (hold, place) {
                (None, None) => {
                    let food = lay.stations[station].provides.ok_or(Dead)?;
                    (Some(Item::Food(food, Cut::Raw)), None)
                }
                _ => basic(lay, hold, place)?,
            },
            StationKind::Stove => match (hold, place) {
                (None, Some(p)) => (Some(p), None),
                (Some(h @ Item::Ware(..)), None) => (None, Some(h)),
                (Some(Item::Food(f, c)), Some(Item::Ware(w, mut bag, left))) => {
                    let left = add_to_ware(lay, w, &mut bag, left, f, c)?;
                    (None, Some(Item::Ware(w, bag, left)))
                }
                (Some(Item::Plate(mut plate)), Some(Item::Ware(w, mut bag, _))) => {
                    if !plate.take_all(&mut bag) {
                        return Err(Dead);
                    }
                    (Some(Item::Plate(plate)), Some(Item::Ware(w, bag, 0)))
                }
                _ => return Err(Dead),
            },
            StationKind::Window => {
                let Some(Item::Plate(plate)) = hold else {
                    return Err(Dead);
                };
                let (_, needs) = lay.orders.get(self.served as usize).ok_or(Dead)?;
                if !plate.equals(needs) {
                    return Err(Dead);
                }
                self.served += 1;
                self.dues.push(RETURN_TIME as i16);
                (None, place)
            }
            StationKind::Sink => match (hold, place) {
                (None, Some(p @ Item::Plate(_))) => (Some(p), None),
                (Some(Item::Dirty), None) => (None, Some(Item::Dirty)),
                _ => return Err(Dead),
            },
            StationKind::Return => {
                if hold.is_some() || self.dirty == 0 {
                    return Err(Dead);
                }
                self.dirty -= 1;
                (Some(Item::Dirty), place)
            }
        };
        self.agents[i].hold = hold;
        self.places[station] = place;
        if useful(lay, self) {
            Ok(())
        } else {
            Err(Dead)
        }
    }
}

/// Adds an ingredient to cookware as the game does, or fails as it does.
fn add_to_ware(
    lay: &Layout,
    w: Ware,
    bag: &mut Bag,
    left: i16,
    food: u8,
    cut: Cut,
) -> Result<i16, Dead> {
    let time = match w {
        Ware::Pan if lay.pan_food(food) && cut == Cut::Chopped => PAN_TIME,
        Ware::Pot if lay.pot_food(food) && cut == Cut::Raw => POT_TIME,
        _ => return Err(Dead),
    };
    if !bag.push(food, cut) {
        return Err(Dead);
    }
    Ok(left + time as i16)
}

/// A counter's `Interact` (tables, boards, a dispenser's top): pick up, put down, an
/// ingredient into a container, a plate takes another container's contents.
fn basic(
    lay: &Layout,
    hold: Option<Item>,
    place: Option<Item>,
) -> Result<(Option<Item>, Option<Item>), Dead> {
    Ok(match (hold, place) {
        (None, Some(p)) => (Some(p), None),
        (None, None) => return Err(Dead),
        (Some(h), None) => (None, Some(h)),
        (Some(Item::Plate(mut plate)), Some(Item::Food(f, c))) => {
            if !plate.push(f, c) {
                return Err(Dead);
            }
            (Some(Item::Plate(plate)), None)
        }
        (Some(Item::Ware(w, mut bag, left)), Some(Item::Food(f, c))) => {
            let left = add_to_ware(lay, w, &mut bag, left, f, c)?;
            (Some(Item::Ware(w, bag, left)), None)
        }
        (Some(Item::Food(f, c)), Some(Item::Plate(mut plate))) => {
            if !plate.push(f, c) {
                return Err(Dead);
            }
            (None, Some(Item::Plate(plate)))
        }
        (Some(Item::Food(f, c)), Some(Item::Ware(w, mut bag, left))) => {
            let left = add_to_ware(lay, w, &mut bag, left, f, c)?;
            (None, Some(Item::Ware(w, bag, left)))
        }
        (Some(Item::Plate(mut plate)), Some(Item::Plate(mut other))) => {
            if !plate.take_all(&mut other) {
                return Err(Dead);
            }
            (Some(Item::Plate(plate)), Some(Item::Plate(other)))
        }
        (Some(Item::Plate(mut plate)), Some(Item::Ware(w, mut bag, _))) => {
            if !plate.take_all(&mut bag) {
                return Err(Dead);
            }
            (Some(Item::Plate(plate)), Some(Item::Ware(w, bag, 0)))
        }
        (Some(Item::Ware(w, mut bag, _)), Some(Item::Plate(mut plate))) => {
            if !plate.take_all(&mut bag) {
                return Err(Dead);
            }
            (Some(Item::Ware(w, bag, 0)), Some(Item::Plate(plate)))
        }
        _ => return Err(Dead),
    })
}

/// Every item in the kitchen, wherever it is.
pub fn items(state: &State) -> impl Iterator<Item = &Item> {
    state
        .agents
        .iter()
        .filter_map(|a| a.hold.as_ref())
        .chain(state.places.iter().flatten())
}

/// Whether the remaining orders need this ingredient chopped (for a plate or a pan).
fn useful_chop(lay: &Layout, state: &State, food: u8) -> bool {
    lay.orders[state.served as usize..]
        .iter()
        .any(|(_, needs)| needs.iter().any(|&(f, c)| f == food && lay.must_chop(f, c)))
}

/// Whether the kitchen can still serve the remaining orders as far as its contents go:
/// every plate holds part of a remaining dish, all cookware contents are for one, loose
/// ingredients are in a state some dish can still use, and no ingredient exists more often
/// than the remaining dishes need it. A plate's contents never leave plates (there is no
/// trash), so a plate that fails this can never be served, and an ingredient beyond the
/// need can only end on such a plate or lie in the way: the planner drops such states.
pub fn useful(lay: &Layout, state: &State) -> bool {
    let left = &lay.orders[state.served as usize..];
    let mut count = vec![0usize; lay.foods.len()];
    for item in items(state) {
        match item {
            Item::Food(f, c) => {
                count[*f as usize] += 1;
                let usable = left.iter().any(|(_, needs)| {
                    needs.iter().any(|&(nf, nc)| {
                        nf == *f
                            && (nc == *c
                                || (*c == Cut::Raw && nc == Cut::Chopped)
                                || (*c == Cut::Raw && nc == Cut::Cooked)
                                || (*c == Cut::Chopped && nc == Cut::Cooked && lay.pan_food(nf)))
                    })
                });
                if !usable {
                    return false;
                }
            }
            Item::Plate(bag) => {
                for (f, _) in bag.units() {
                    count[f as usize] += 1;
                }
                if !bag.is_empty() && !left.iter().any(|(_, needs)| bag.within(needs)) {
                    return false;
                }
            }
            Item::Ware(_, bag, _) => {
                let mut cooked = *bag;
                cooked.cook_all();
                for (f, _) in bag.units() {
                    count[f as usize] += 1;
                }
                if !bag.is_empty() && !left.iter().any(|(_, needs)| cooked.within(needs)) {
                    return false;
                }
            }
            Item::Dirty => {}
        }
    }
    let mut need = vec![0usize; lay.foods.len()];
    for (_, needs) in left {
        for &(f, _) in needs {
            need[f as usize] += 1;
        }
    }
    count.iter().zip(&need).all(|(c, n)| c <= n)
}
