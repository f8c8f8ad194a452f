//! The kitchen as a [`World`] for the search: a state is the planner's model at a moment
//! an agent decides, an action is that agent's decision, its cost the time until the next
//! decision, the lower bound the bounds' estimate from the state.

use makespan_world::World;

use super::layout::{Layout, StationKind, FAR};
use super::model::{Decision, Job, State, Then};
use crate::paracook::concrete::bounds::{Estimator, Rules};

/// A kitchen to search.
pub struct KitchenWorld<'a> {
    /// The kitchen.
    pub lay: &'a Layout,
    /// The remaining-time estimate (intended rules: the model's).
    pub est: Estimator,
    /// Leave out moves a good plan rarely needs (cookware leaving its stove, items parked on
    /// a dispenser's top): for the beam search, never for the exact one.
    pub restricted: bool,
    /// Where the search starts (`None`: the kitchen's start, settled).
    pub start: Option<State>,
    /// Search the joint model, complete for a team (see [`KitchenWorld::joint`]).
    pub joint: bool,
}

impl<'a> KitchenWorld<'a> {
    /// The world of a kitchen.
    pub fn new(lay: &'a Layout) -> Self {
        KitchenWorld {
            lay,
            est: Estimator::new(lay, Rules::Intended),
            restricted: false,
            start: None,
            joint: false,
        }
    }

    /// The joint model of a team, whose exhaustive search is a proof: at each instant the
    /// free agents decide in any order (one agent's zero-time actions without a break, as
    /// the game runs them: of the agents arriving at once to act, one acts and the others
    /// decide there after it, and one that acted and then sleeps acts again a step later at
    /// the soonest), each acting on a station next to it, walking to a cell next to
    /// a station to decide again there, or sleeping until something in the kitchen changes
    /// (an interaction another agent makes later at the same instant included).
    ///
    /// Why nothing is lost: take any plan the rules as stated accept. Call a *change* an
    /// interaction, the end of a chop or a wash, a plate's return and cookware done: between
    /// two changes what an action finds stays the same, except how long cookware on a stove
    /// has cooked, which only taking it off with an empty hand reads. A run of an agent's
    /// zero-time actions and the timed action after them (its *chain*) that starts neither
    /// at a change nor where the agent's own last action ended, and does not begin by taking
    /// cooking cookware off, can move back to the latest of those two before it, after
    /// everything else that happens then: every chain in between starts with a walk or a
    /// chop or a wash (anything else is a change), so the moved chain finds what it found
    /// before, its walk arrives earlier (agents never block one another), and its chop or
    /// wash ends earlier on a station no one may touch while it is locked (one locked in
    /// between was locked when it started, so it uses another). Every such move lowers the
    /// sum of the chains' start times, so moving ends, and the plan it ends with is a path
    /// here with the same serves: a sleeping agent wakes at each change, and one beside
    /// cooking cookware with an empty hand at each step of the cooking, to take it off.
    /// Consecutive walks are one direct walk, no longer, so an agent whose walk ends acts or
    /// sleeps before it walks again. A walk or a sleep changes nothing another agent finds,
    /// so it may wait for its turn as the first free agent's.
    /// The orders within an instant relax the game's (by when each action started), so the
    /// exhaustive search bounds the game's plans; a plan it finds still goes through the
    /// game's replay before it counts.
    pub fn joint(lay: &'a Layout) -> Self {
        KitchenWorld {
            joint: true,
            ..KitchenWorld::new(lay)
        }
    }

    /// Every decision of the agents that may decide in the joint model, with the state it
    /// leads to and the time that passes.
    fn expand_joint(&self, state: &State, out: &mut Vec<(Decision, i64, State)>) {
        let deciders = state.joint_deciders();
        for &i in &deciders {
            let agent = state.agents[i];
            // A walk or a sleep changes nothing another agent finds at this instant, so
            // the first free agent takes it first: the other orders reach the same states.
            let pure = i == deciders[0];
            // Woken by a step of cooking alone: only taking the cookware off differs from
            // what it could have done at the last change.
            if agent.job == Job::TakeOff {
                for (s, station) in self.lay.stations.iter().enumerate() {
                    if station.kind == StationKind::Stove && station.access.contains(&agent.cell) {
                        self.go(state, i, agent.cell, s, &[Then::Interact], out);
                    }
                }
                if pure {
                    self.child(state, Decision::Sleep { agent: i as u8 }, out);
                }
                continue;
            }
            let mut stays: Vec<u8> = Vec::new();
            for (s, station) in self.lay.stations.iter().enumerate() {
                let process = matches!(station.kind, StationKind::Board | StationKind::Sink);
                for &cell in &station.access {
                    if cell != agent.cell {
                        if pure
                            && !agent.arrived()
                            && !stays.contains(&cell)
                            && self.lay.dist(agent.cell, cell) < FAR
                        {
                            stays.push(cell);
                            self.go(state, i, cell, s, &[Then::Stay], out);
                        }
                        continue;
                    }
                    let thens: &[Then] = if process {
                        &[Then::Interact, Then::Process]
                    } else {
                        &[Then::Interact]
                    };
                    self.go(state, i, cell, s, thens, out);
                }
            }
            if pure {
                self.child(state, Decision::Sleep { agent: i as u8 }, out);
            }
        }
    }

    /// Every decision the agent deciding in `state` can take, with the state it leads to
    /// (after events run up to the next decision) and the time that passes.
    pub fn expand(&self, state: &State, out: &mut Vec<(Decision, i64, State)>) {
        if self.joint {
            return self.expand_joint(state, out);
        }
        let Some(i) = state.decider() else { return };
        let agent = state.agents[i];
        for (s, station) in self.lay.stations.iter().enumerate() {
            let process = matches!(station.kind, StationKind::Board | StationKind::Sink);
            // Quick refusals that hold whatever happens on the way.
            let interact = match station.kind {
                StationKind::Window => matches!(agent.hold, Some(super::model::Item::Plate(_))),
                StationKind::Return => agent.hold.is_none(),
                _ => true,
            };
            for &cell in &station.access {
                if self.lay.dist(agent.cell, cell) >= FAR {
                    continue;
                }
                let thens: &[Then] = match (interact, process) {
                    (true, true) => &[Then::Interact, Then::Process],
                    (true, false) => &[Then::Interact],
                    (false, true) => &[Then::Process],
                    (false, false) => &[],
                };
                self.go(state, i, cell, s, thens, out);
            }
        }
        if state.next_event(self.lay, i).is_some() {
            let mut stays: Vec<u8> = Vec::new();
            for (s, station) in self.lay.stations.iter().enumerate() {
                if !self.awaits(state, s) {
                    continue;
                }
                for &cell in &station.access {
                    if cell != agent.cell
                        && !stays.contains(&cell)
                        && self.lay.dist(agent.cell, cell) < FAR
                    {
                        stays.push(cell);
                        self.go(state, i, cell, s, &[Then::Stay], out);
                    }
                }
            }
        }
        if let Some(dt) = state.next_event(self.lay, i) {
            self.child(
                state,
                Decision::Wait {
                    agent: i as u8,
                    duration: dt,
                },
                out,
            );
            // Cooking progresses between events, so taking cookware off its stove finds
            // a different count at every step: an empty-handed agent may wait one step
            // while something cooks (see the model's notes).
            if dt > 1 && !self.restricted && agent.hold.is_none() && state.cooking(self.lay) {
                self.child(
                    state,
                    Decision::Wait {
                        agent: i as u8,
                        duration: 1,
                    },
                    out,
                );
            }
        }
    }

    /// Agent `agent` walking to `cell` beside `station`, then each of `thens` there.
    fn go(
        &self,
        state: &State,
        agent: usize,
        cell: u8,
        station: usize,
        thens: &[Then],
        out: &mut Vec<(Decision, i64, State)>,
    ) {
        for &then in thens {
            let d = Decision::Go {
                agent: agent as u8,
                cell,
                station: station as u8,
                then,
            };
            self.child(state, d, out);
        }
    }

    fn child(&self, state: &State, d: Decision, out: &mut Vec<(Decision, i64, State)>) {
        let mut next = state.clone();
        if next.apply(self.lay, d, None).is_err() {
            return;
        }
        let settled = if self.joint {
            next.settle_joint(self.lay, None)
        } else {
            next.settle(self.lay, None)
        };
        let Ok(passed) = settled else {
            return;
        };
        if self.joint {
            next.canonical(None);
        }
        if self.restricted && self.unusual(state, &next) {
            return;
        }
        out.push((d, i64::from(passed), next));
    }
}

impl KitchenWorld<'_> {
    /// Whether an agent may walk next to station `s` to act there once something happens:
    /// only where an event changes what acting finds. Alone, those are a stove whose
    /// cookware is cooking and the plate return while plates are on their way; in a team
    /// any station may also receive what another agent brings (the beam search leaves that
    /// out).
    fn awaits(&self, state: &State, s: usize) -> bool {
        match self.lay.stations[s].kind {
            StationKind::Stove => {
                matches!(
                    state.places[s],
                    Some(super::model::Item::Ware(_, bag, left)) if left > 0 && !bag.is_empty()
                ) || (state.agents.len() > 1 && !self.restricted)
            }
            StationKind::Return => !state.dues.is_empty(),
            StationKind::Window => false,
            _ => state.agents.len() > 1 && !self.restricted,
        }
    }

    /// Whether a step takes cookware off a stove or parks something on a dispenser.
    fn unusual(&self, before: &State, after: &State) -> bool {
        self.lay
            .stations
            .iter()
            .enumerate()
            .any(|(s, st)| match st.kind {
                StationKind::Stove => {
                    matches!(before.places[s], Some(super::model::Item::Ware(..)))
                        && after.places[s].is_none()
                }
                StationKind::Dispenser => before.places[s].is_none() && after.places[s].is_some(),
                _ => false,
            })
    }
}

impl World for KitchenWorld<'_> {
    type State = State;
    type Action = Decision;

    fn initial(&self) -> State {
        if let Some(s) = &self.start {
            return s.clone();
        }
        let mut s = State::initial(self.lay);
        // Nothing happens before the first decisions.
        let _ = s.settle(self.lay, None);
        if self.joint {
            s.canonical(None);
        }
        s
    }

    fn is_goal(&self, state: &State) -> bool {
        state.done(self.lay)
    }

    fn successors(&self, state: &State, out: &mut Vec<(Decision, i64, State)>) {
        if !state.done(self.lay) {
            self.expand(state, out);
        }
    }

    fn lower_bound(&self, state: &State) -> i64 {
        self.est.remaining(self.lay, state).value
    }
}
