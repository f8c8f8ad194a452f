//! The oracle's driver: bounds first, then plans from several searches, each replayed by the
//! game's rules in both modes before it counts, the shortest kept.
//!
//! The searches, in order:
//! - **the first order alone** (several orders, one or two cooks): an exact search's bound
//!   on it holds for the first serve, and the plate cycle carries it on to the orders that
//!   reuse its plate (a bound only: a plan for one order is none for the kitchen);
//! - **the task planner** (any team): priority rules over recipe tasks and local moves;
//! - **the search ranked by the work left** (one cook, one order): a quick plan, most often
//!   the optimum, which the A* below then only has to prove (it does not prove it sooner,
//!   but a short limit that stops the A* still has it);
//! - **one order at a time** (one cook, several orders): each stage planned by that ranked
//!   search, then an exact search for a shorter one, from where the last stage ended; then
//!   beams over the whole kitchen at two widths, which overlap the orders; then the
//!   neighbourhood search on the best of those plans, its first decisions kept and the rest
//!   planned again by beams;
//! - **three cooks as pairs**: the task planner for each two of them, the third idle (with
//!   one order also a beam search); then for the pair with the best plan the team's
//!   widening beams (below), and with one order the joint search below, whose plans are the
//!   three's but whose bounds are not;
//! - **a team with one order**: first the team's beam search (below) for a fraction of the
//!   time, since the A* that follows keeps only states that may beat the incumbent and gets
//!   the rest of the time (with three cooks, whose joint search rarely ends, part of it,
//!   and the team's beam, wider, the rest);
//! - **a team with one or two orders**: the A* over the joint model, under the incumbent: at each
//!   instant the free cooks decide in any order, each acting, walking or sleeping until
//!   something in the kitchen changes (an interaction another cook makes at that instant
//!   included; beside cooking cookware with an empty hand, every step of the cooking); that
//!   loses no plan, so an exhaustive end is a proof and a
//!   stopped one a lower bound (a test checks on tiny kitchens that it meets a brute force
//!   over every plan in the game's order, and that its estimate never passes the exact time
//!   still needed from any state); within an instant its cooks act in any order, which the
//!   game does not always allow, so each plan it reaches is replayed by the game at once,
//!   and one the game refuses is passed over (the bound then stays at or below its time)
//!   while the search goes on to the next;
//! - **one cook alone**, for each cook (except a team with one or two orders, which the
//!   joint search covers): a plan where the others stand still is a plan for the team, so
//!   it is an incumbent for every team size; with one cook the A* over the model runs first,
//!   and an exhaustive search is a proof, a
//!   stopped one a lower bound (every plan shorter than the incumbent passes a state still
//!   queued, and none of those is below the least time so far plus estimate): the estimate
//!   it is guided by never passes the time still needed (a property test checks it against
//!   the exact time from every state of small kitchens), for one cook the model's decisions
//!   (walk, then act on arrival, or wait there for the next event, or wait for the next
//!   event before walking, or, empty-handed while something cooks, a single step, so as to
//!   take cookware off its stove at any whole time) lose nothing, since any plan can be
//!   shifted earlier into that form without changing what an action finds (see the
//!   model's notes), and the states it drops hold a plate that
//!   can never be served or an ingredient beyond what the orders need;
//! - **the team**, by beam search under the incumbent, at two widths.
//!
//! `optimal` means: the plan meets the bound under
//! the rules the prompt states (cookware cooks on a stove, a fresh batch each time). The
//! game's own clock can credit cooking off the stove and between batches; its bound is
//! reported beside, and every kept plan is done in both modes at the same time.

use std::time::{Duration, Instant};

use makespan_model::instance::{Instance, LoadError};
use makespan_model::solution::Status;
use makespan_world::{search_accepting, search_below, Limits, Outcome as Search};
use serde_json::Value;

use super::beam::beam;
use super::guided::guided;
use super::layout::Layout;
use super::lns;
use super::model::Decision;
use super::rolling::rolling;
use super::tasks;
use super::world::KitchenWorld;
use super::{answer, replay, replay_in, Planned};
use crate::paracook::concrete::bounds::{instance_bound_with, Bound};
use crate::paracook::concrete::replay::schedule_of;
use crate::paracook::concrete::sim::{self, Mode, Plan};
use crate::paracook::concrete::Kitchen;
use crate::simulated::WorldSolution;

/// Time the oracle takes per kitchen when the caller sets none.
pub const DEFAULT_TIME: Duration = Duration::from_secs(20);
/// States the A* keeps at most: about 1.5 GB (3 million took 1.1 GB on burger, seed 126,
/// one cook, two orders), within the 2 GiB that `solve` plans per parallel job. A lone cook
/// with two orders reaches 1.5 million in about 8 s, and its bound rises with every million
/// more.
pub const MAX_STATES: usize = 4_000_000;
/// States the quick ranked search keeps at most: it plans one order in far fewer, or not at
/// all.
const QUICK_STATES: usize = 400_000;

/// The share of the time limit the large-neighbourhood search gets on one cook's plan for
/// several orders (see [`lns`]).
const LNS_SHARE: f64 = 0.25;

/// A plan both modes of the game accept.
#[derive(Debug, Clone)]
pub struct Verified {
    /// The answer in the harness's form.
    pub answer: Value,
    /// The time of the last serve, the same in both modes.
    pub time: i64,
    /// Replayed in the game's own rules.
    pub replica: sim::Outcome,
    /// Replayed in the rules the prompt states.
    pub intended: sim::Outcome,
    /// The search that found it.
    pub method: String,
}

/// What the oracle established for one kitchen.
#[derive(Debug, Clone)]
pub struct Oracle {
    /// The shortest plan both modes accept, if any search found one.
    pub best: Option<Verified>,
    /// The lower bound under the rules the prompt states.
    pub intended_bound: Bound,
    /// The lower bound under the game's own clock (never above the other).
    pub replica_bound: Bound,
    /// Whether `best` is proven shortest (exhaustive search or the bound meets it).
    pub optimal: bool,
    /// Plans a search returned that the game refused in a mode: defects of the model.
    pub refused: Vec<String>,
    /// Plans of the joint model the game would run in another order within an instant (the
    /// game runs the cooks' turns at an instant in the order their actions began, ties by
    /// agent number): the joint searches went on past them.
    pub reordered: usize,
    /// States the searches kept.
    pub states: u64,
    /// A lower bound an exact A* established (the one cook's, or the team's over the joint
    /// model): when it stopped, every plan passes a state it still had queued, whose time so
    /// far plus estimate is at least this; when it ended, its optimum (0: none).
    pub searched: i64,
}

impl Oracle {
    /// The time every later search must beat: the best plan's (`i64::MAX` without one).
    fn upper(&self) -> i64 {
        self.best.as_ref().map_or(i64::MAX, |b| b.time)
    }

    /// Why a plan of `time` is not proven: the bound, what gave it, and how many of the
    /// joint search's plans the game refused for the order of turns within an instant
    /// (more time does not lift a bound those plans hold down).
    pub fn unproven(&self, time: i64) -> String {
        let source = if self.searched > self.intended_bound.value {
            "the exact search"
        } else {
            self.intended_bound.argument.name()
        };
        let reordered = match self.reordered {
            0 => String::new(),
            n => format!(
                "; the joint search reached {n} plan{} that the game refuses, since it runs \
                 the cooks' turns at an instant in the order their actions began, and its \
                 bound stops at the shortest",
                if n == 1 { "" } else { "s" }
            ),
        };
        format!(
            "best plan {time} against the bound {} ({source}){reordered}; not proven within \
             the limits",
            self.bound()
        )
    }

    /// The proven lower bound on the optimum: the plan's time when proven.
    pub fn bound(&self) -> i64 {
        match (&self.best, self.optimal) {
            (Some(b), true) => b.time,
            _ => self.intended_bound.value.max(self.searched),
        }
    }
}

/// Plans a kitchen within `limits`; an error names what the planner cannot read.
pub fn plan_kitchen(kitchen: &Kitchen, limits: &Limits) -> Result<Oracle, String> {
    let started = Instant::now();
    let budget = limits.time.unwrap_or(DEFAULT_TIME);
    let deadline = started + budget;
    let lay = Layout::of_kitchen(kitchen)?;
    let m = lay.agents.len();
    let k = lay.orders.len();
    let share = |part: f64| deadline.min(Instant::now() + budget.mul_f64(part));
    // An A*'s limits: the state cap, `part` of the budget, the bound it may stop at.
    let search_limits = |part: f64, known_bound: i64| Limits {
        max_states: limits.max_states.min(MAX_STATES),
        time: Some(share(part).saturating_duration_since(Instant::now())),
        known_bound,
        cancel: limits.cancel.clone(),
    };
    // The first order alone, with several: the exact search's bound on it holds for the
    // first serve, which the plate cycle carries on to the later orders (one cook's search
    // ends on most kitchens; a pair's bound rises fast; three cooks' rarely passes the
    // arguments' within such a share).
    let mut searched_first = Vec::new();
    if k > 1 && m <= 2 {
        let first = lay.first_orders(1);
        let world = if m == 1 {
            KitchenWorld::new(&first)
        } else {
            KitchenWorld::joint(&first)
        };
        searched_first.push(
            match search_below(&world, &search_limits(0.1, 0), i64::MAX) {
                Search::Optimal(p) => p.cost,
                Search::Feasible { bound, .. } | Search::Unknown { bound } => bound,
                Search::Infeasible => 0,
            },
        );
    }
    let (intended_bound, replica_bound) = instance_bound_with(&lay, &searched_first);
    let target = intended_bound.value.max(limits.known_bound);
    let mut oracle = Oracle {
        best: None,
        intended_bound,
        replica_bound,
        optimal: false,
        refused: Vec::new(),
        reordered: 0,
        states: 0,
        searched: 0,
    };
    let cancelled = || limits.cancel.as_ref().is_some_and(|c| c()) || Instant::now() >= deadline;
    // The A*s below may stop at the instance's bound.
    let astar_limits = |part: f64| search_limits(part, target);
    // The team's widening beams (see `team_beam`) for `cooks` (empty: all), until `until`.
    let team_beams = |oracle: &mut Oracle, cooks: &[usize], until: Instant| {
        team_beam(oracle, kitchen, &lay, cooks, target, until, &cancelled);
    };
    // The task planner first, for every team size: an incumbent that the searches below
    // must beat (and, for one cook, the A* must prove or improve).
    // It wins most kitchens with a team or several orders; the A* gets the most time where
    // it can prove (one cook, up to two orders).
    let until = share(match (m, k) {
        (1, ..=2) => 0.15,
        (1, _) => 0.25,
        (_, 1) => 0.15,
        (2, _) => 0.7,
        _ => 0.5,
    });
    // The decisions of the best plan so far in the model of the whole kitchen, which the
    // large-neighbourhood search below plans again in part.
    let mut incumbent: Option<Vec<Decision>> = None;
    for (d, _) in tasks::plan(&lay, until, usize::MAX, 27, 4) {
        if keep(&mut oracle, kitchen, &lay, &lay, &[], &d, "world:tasks") {
            incumbent = Some(d);
        }
    }
    // One cook, one order: the ranked search's quick plan, most often the optimum, which
    // the A* below then only has to prove; under a short limit, where the A* cannot finish,
    // it is the answer (the task planner's is up to 16 steps longer on these kitchens).
    if m == 1 && k == 1 {
        let world = KitchenWorld {
            restricted: true,
            ..KitchenWorld::new(&lay)
        };
        if let Some((d, _)) = guided(&world, QUICK_STATES, share(0.05)) {
            keep(&mut oracle, kitchen, &lay, &lay, &[], &d, "world:guided");
        }
    }
    // One cook, several orders: one order at a time.
    if m == 1 && k > 1 {
        if let Some(d) = rolling(&lay, share(if k == 2 { 0.15 } else { 0.3 })) {
            if keep(&mut oracle, kitchen, &lay, &lay, &[], &d, "world:rolling") {
                incumbent = Some(d);
            }
        }
        // Then beams over the whole kitchen, which overlap the orders (the next order's
        // chopping and cooking while the first cooks) where the two planners above do not.
        // Which width does best varies from kitchen to kitchen, so two run, the narrow one
        // first; with more orders the wide one rarely finishes, and only the narrow one runs.
        // The narrow one ranks by the estimate with the lone cook's walk, the wide one
        // without it: each does better so (over the two-order kitchens, in all), and they
        // differ on different kitchens.
        let beams: &[(usize, i64, f64, bool)] = if k == 2 {
            &[(300, 3, 0.08, true), (1000, 3, 0.3, false)]
        } else {
            &[(300, 3, 0.1, true)]
        };
        let world = KitchenWorld {
            restricted: true,
            ..KitchenWorld::new(&lay)
        };
        for &(width, weight, part, walk) in beams {
            let plain;
            let world = if walk {
                &world
            } else {
                plain = KitchenWorld {
                    est: world.est.clone().without_walk(),
                    start: None,
                    ..world
                };
                &plain
            };
            let cutoff = oracle.upper();
            if let Some((d, _)) = beam(world, width, weight, Some(share(part)), cutoff) {
                if keep(&mut oracle, kitchen, &lay, &lay, &[], &d, "world:beam") {
                    incumbent = Some(d);
                }
            }
        }
        // Then the best of them, its first decisions kept and the rest planned again.
        if let Some(d) = &incumbent {
            if let Some((d, _)) = lns::improve(&lay, d, share(LNS_SHARE)) {
                keep(&mut oracle, kitchen, &lay, &lay, &[], &d, "world:lns");
            }
        }
    }
    // Three cooks: each pair of them, the third idle (a start position can make a cook
    // more hindrance than help to the priority rules).
    if m == 3 {
        // The pair whose plan is the best so far (the first pair if none is).
        let mut best_pair = [0, 1];
        for pair in [[0, 1], [0, 2], [1, 2]] {
            let sub = lay.team(&pair);
            let before = oracle.upper();
            let until = share(if k == 1 { 0.05 } else { 0.07 });
            for (d, _) in tasks::plan(&sub, until, usize::MAX, 27, 1) {
                keep(&mut oracle, kitchen, &lay, &sub, &pair, &d, "world:tasks");
            }
            // With one order, also the pair's beam search, as for two cooks (the third idle).
            if k == 1 {
                let world = KitchenWorld {
                    restricted: true,
                    ..KitchenWorld::new(&sub)
                };
                let cutoff = oracle.upper();
                if let Some((d, _)) = beam(&world, 100, 4, Some(share(0.04)), cutoff) {
                    keep(
                        &mut oracle,
                        kitchen,
                        &lay,
                        &sub,
                        &pair,
                        &d,
                        "world:beam-team",
                    );
                }
            }
            if oracle.upper() < before {
                best_pair = pair;
            }
        }
        // That pair's widening beams, as for two cooks (the third idle): a plan of two of
        // the cooks is one of the three, and two cooks' beams find plans that three cooks'
        // beams of the same width miss.
        team_beams(&mut oracle, &best_pair, share(0.15));
        // With one order, also that pair's joint search: far smaller than the three's; its
        // bounds say nothing about the three.
        if k == 1 && !cancelled() {
            let sub = lay.team(&best_pair);
            let world = KitchenWorld::joint(&sub);
            let upper = oracle.upper();
            // Each plan is judged (and kept) as the search reaches it.
            search_accepting(&world, &astar_limits(0.3), upper, |plan| {
                let d = decisions(&plan.steps);
                judge_joint(
                    &mut oracle,
                    kitchen,
                    &lay,
                    &sub,
                    &best_pair,
                    &d,
                    "world:astar-pair",
                )
            });
        }
    }
    // A team with one order: the team's beam before the joint search, whose incumbent it
    // tightens (the joint search keeps only states that may beat it), and which then gets
    // the rest of the time.
    if m > 1 && k == 1 {
        team_beams(&mut oracle, &[], share(0.15));
    }
    // A team with one or two orders: the A* over the joint model (every free agent decides, in any
    // order, and may sleep until the next event), under the incumbent. Its model loses no
    // plan (see `KitchenWorld::joint`), so an exhaustive end is a proof and a stopped one a
    // lower bound; its plans count once the game replays them, like any other.
    if m > 1 && k <= 2 {
        let world = KitchenWorld::joint(&lay);
        // Three cooks' joint search rarely ends within the limit: it gets part of the time,
        // and the team's beam the rest.
        let caps = astar_limits(match (m, k) {
            (2, 1) => 1.0,
            (_, 1) => 0.3,
            _ => 0.25,
        });
        let upper = oracle.upper();
        // Each plan is judged (and kept) as the search reaches it; one the game orders
        // differently is passed over, and the bound stays at or below its time.
        let searched = match search_accepting(&world, &caps, upper, |plan| {
            let d = decisions(&plan.steps);
            judge_joint(
                &mut oracle,
                kitchen,
                &lay,
                &lay,
                &[],
                &d,
                "world:astar-team",
            )
        }) {
            Search::Optimal(plan) => plan.cost,
            Search::Feasible { bound, .. } => bound,
            Search::Infeasible => upper,
            Search::Unknown { bound } => bound.min(upper),
        };
        if searched < i64::MAX {
            oracle.searched = oracle.searched.max(searched);
        }
    }
    // One cook alone, each in turn (a team with one or two orders has the joint search
    // instead, whose plans include every one cook's).
    for i in 0..m {
        if m > 1 && k <= 2 {
            break;
        }
        if cancelled() || oracle.optimal {
            break;
        }
        let alone = lay.alone(i);
        let world = KitchenWorld::new(&alone);
        let mut exhaustive = None;
        if m == 1 {
            let caps = astar_limits(if k <= 2 { 0.7 } else { 0.35 });
            // The A* keeps only states that can beat the incumbent, and finding none proves
            // it shortest.
            let upper = oracle.upper();
            match search_below(&world, &caps, upper) {
                Search::Optimal(p) => {
                    exhaustive = Some(p.cost);
                    keep(
                        &mut oracle,
                        kitchen,
                        &lay,
                        &alone,
                        &[i],
                        &decisions(&p.steps),
                        "world:astar",
                    );
                }
                Search::Feasible { plan, bound } => {
                    oracle.searched = oracle.searched.max(bound);
                    keep(
                        &mut oracle,
                        kitchen,
                        &lay,
                        &alone,
                        &[i],
                        &decisions(&plan.steps),
                        "world:astar",
                    );
                }
                Search::Infeasible if upper < i64::MAX => exhaustive = Some(upper),
                Search::Unknown { bound } => {
                    oracle.searched = oracle.searched.max(bound.min(upper));
                }
                Search::Infeasible => {}
            }
        }
        let cutoff = oracle.upper();
        if exhaustive.is_none() {
            let world = KitchenWorld {
                restricted: true,
                ..KitchenWorld::new(&alone)
            };
            // A narrow beam first: a plan within a fraction of the time, which the wide one
            // then has to beat.
            if oracle.best.is_none() {
                if let Some((d, _)) = beam(&world, 8, 4, Some(deadline), cutoff) {
                    keep(&mut oracle, kitchen, &lay, &alone, &[i], &d, "world:beam");
                }
            }
            let cutoff = oracle.upper();
            let until = share(0.3 / m as f64);
            if let Some((d, _)) = beam(&world, 200, 4, Some(until), cutoff) {
                keep(&mut oracle, kitchen, &lay, &alone, &[i], &d, "world:beam");
            }
        }
        // An exhaustive search for the only cook is a proof: its estimate is admissible and
        // its decisions lose nothing (see the module docs).
        if m == 1
            && exhaustive.is_some_and(|cost| oracle.best.as_ref().is_some_and(|b| b.time <= cost))
        {
            oracle.optimal = true;
        }
    }
    // The team.
    if m > 1 && !cancelled() {
        team_beams(&mut oracle, &[], deadline);
    }
    if oracle
        .best
        .as_ref()
        .is_some_and(|b| b.time <= target.max(oracle.searched))
    {
        oracle.optimal = true;
    }
    Ok(oracle)
}

/// The team's beam search, wider and wider until `until`, a cancel, or a plan that meets
/// `target` or what a search proved. `cooks` names the team's cooks that search (empty:
/// all of them; the others stand still).
fn team_beam(
    oracle: &mut Oracle,
    kitchen: &Kitchen,
    lay: &Layout,
    cooks: &[usize],
    target: i64,
    until: Instant,
    cancelled: &dyn Fn() -> bool,
) {
    let sub;
    let searched = if cooks.is_empty() {
        lay
    } else {
        sub = lay.team(cooks);
        &sub
    };
    let world = KitchenWorld {
        restricted: true,
        ..KitchenWorld::new(searched)
    };
    for (width, weight) in [
        (12, 4),
        (100, 4),
        (100, 8),
        (400, 4),
        (400, 8),
        (1500, 4),
        (1500, 8),
    ] {
        let met = target.max(oracle.searched);
        if cancelled()
            || Instant::now() >= until
            || oracle.best.as_ref().is_some_and(|b| b.time <= met)
        {
            break;
        }
        let cutoff = oracle.upper();
        if let Some((d, _)) = beam(&world, width, weight, Some(until), cutoff) {
            keep(oracle, kitchen, lay, searched, cooks, &d, "world:beam-team");
        }
    }
}

fn decisions(steps: &[makespan_world::Step<Decision>]) -> Vec<Decision> {
    steps.iter().map(|s| s.action).collect()
}

/// Replays a search's decisions in the model, then the plan in both modes of the game, and
/// keeps it when both serve every order without an error and it is the shortest so far; a
/// plan the game refuses is recorded in [`Oracle::refused`]. Returns whether it is now the
/// best. `cooks` maps the searched kitchen's cooks to the team's (empty: the team itself).
fn keep(
    oracle: &mut Oracle,
    kitchen: &Kitchen,
    team: &Layout,
    searched: &Layout,
    cooks: &[usize],
    d: &[Decision],
    method: &str,
) -> bool {
    let Some(planned) = replayed(oracle, replay(searched, d), cooks, method) else {
        return false;
    };
    let before = oracle.upper();
    if let Err(why) = offer(oracle, kitchen, team, &planned, method) {
        oracle.refused.push(why);
    }
    oracle.upper() < before
}

/// A search's plan in the joint model, judged by the game: kept when both modes serve every
/// order without an error and it is the shortest so far. Returns whether the game accepted
/// it. The joint model lets cooks act in any order within an instant, which the game does
/// not always allow (it runs each cook's zero-time actions in one turn, in the order the
/// cooks' actions began): a plan it orders differently is no defect of the model but a
/// plan of its relaxation, counted in [`Oracle::reordered`], and the search goes on.
fn judge_joint(
    oracle: &mut Oracle,
    kitchen: &Kitchen,
    team: &Layout,
    searched: &Layout,
    cooks: &[usize],
    d: &[Decision],
    method: &str,
) -> bool {
    let Some(planned) = replayed(oracle, replay_in(searched, d, true), cooks, method) else {
        return false;
    };
    let accepted = offer(oracle, kitchen, team, &planned, method).is_ok();
    if !accepted {
        oracle.reordered += 1;
    }
    accepted
}

/// The model's replay of a plan with its cooks renamed to the team's; a plan the model
/// cannot replay (a defect) is recorded in [`Oracle::refused`].
fn replayed(
    oracle: &mut Oracle,
    replay: Option<Planned>,
    cooks: &[usize],
    method: &str,
) -> Option<Planned> {
    let Some(mut planned) = replay else {
        oracle
            .refused
            .push(format!("{method}: the model does not replay its own plan"));
        return None;
    };
    if !cooks.is_empty() {
        for a in &mut planned.actions {
            a.0 = cooks[a.0 as usize] as u8;
        }
    }
    Some(planned)
}

/// Keeps a plan the game replays in both modes when it is the shortest so far; a plan no
/// shorter than the best is left unjudged. The reason when a mode refuses it.
fn offer(
    oracle: &mut Oracle,
    kitchen: &Kitchen,
    team: &Layout,
    planned: &Planned,
    method: &str,
) -> Result<(), String> {
    if oracle
        .best
        .as_ref()
        .is_some_and(|b| b.time <= i64::from(planned.time))
    {
        return Ok(());
    }
    oracle.best = Some(judged(kitchen, team, planned, method)?);
    Ok(())
}

/// A plan in the harness's answer form, replayed in both modes of the game; the reason
/// when a mode refuses it.
fn judged(
    kitchen: &Kitchen,
    team: &Layout,
    planned: &Planned,
    method: &str,
) -> Result<Verified, String> {
    let answer = answer(team, planned);
    let plan = Plan::from_json(&answer)
        .map_err(|e| format!("{method}: the game cannot read the plan: {e}"))?;
    let replica = sim::simulate(kitchen, &plan, Mode::Replica);
    let intended = sim::simulate(kitchen, &plan, Mode::Intended);
    for run in [&replica, &intended] {
        if !run.done {
            let why = run
                .error
                .as_ref()
                .map_or("orders left open".to_string(), |e| e.rule.clone());
            return Err(format!(
                "{method}: refused in {} mode: {why}",
                run.mode.name()
            ));
        }
    }
    let time = replica.oct.max(intended.oct).ceil() as i64;
    Ok(Verified {
        answer,
        time,
        replica,
        intended,
        method: method.to_string(),
    })
}

/// The `Simulated::solve` of the concrete kitchens: the oracle on the instance's kitchen.
pub fn solve(instance: &Instance, limits: &Limits) -> Result<WorldSolution, LoadError> {
    let here = std::path::Path::new(&instance.name);
    let kitchen = match crate::paracook::concrete::kitchen_of(instance) {
        Some(Ok(k)) => k,
        Some(Err(e)) => return Err(LoadError::format(here, "source.notes.world", e)),
        None => {
            return Err(LoadError::format(
                here,
                "source.notes.world",
                "not a concrete ParaCook kitchen",
            ))
        }
    };
    let oracle = plan_kitchen(&kitchen, limits)
        .map_err(|e| LoadError::format(here, "source.notes.world", e))?;
    let bound = oracle.bound();
    let states = oracle.states;
    let unproven = match &oracle.best {
        Some(best) if !oracle.optimal => Some(oracle.unproven(best.time)),
        _ => None,
    };
    Ok(match oracle.best {
        Some(best) => WorldSolution {
            status: if oracle.optimal {
                Status::Optimal
            } else {
                Status::Feasible
            },
            // The replay of the answer as written, waits and their splits included.
            plan: match Plan::from_json(&best.answer) {
                Ok(plan) => schedule_of(&plan, &best.intended),
                Err(e) => return Err(LoadError::format(here, "source.notes.world", e)),
            },
            lower_bound: Some(bound),
            method: best.method.clone(),
            reason: unproven,
            states,
        },
        None => WorldSolution {
            status: Status::Error,
            plan: Vec::new(),
            lower_bound: Some(bound),
            method: "world:beam".into(),
            reason: Some(match oracle.refused.first() {
                Some(r) => format!("no plan the game accepts was found: {r}"),
                None => "no plan was found within the limits".to_string(),
            }),
            states,
        },
    })
}
