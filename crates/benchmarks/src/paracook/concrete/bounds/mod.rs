//! Lower bounds on the time to serve every order of a concrete kitchen, valid for every
//! plan the game accepts: the instance's bound, and the search's estimate of the time still
//! needed from any state.
//!
//! Four arguments from any state, each a relaxation of the game:
//! - **unit chains**: every unit a dish needs travels from where it is (a dispenser, a hand,
//!   a counter, cookware, a plate) through the stations its state requires (a board, then
//!   for a pan food a stove) to the serving window, and an agent must first reach it. The
//!   unit's travel is at least its distance in the *item metric*: walking, except that with
//!   two or more agents an item crosses a counter in no time, since one agent can put it
//!   down and another pick it up on the other side. Which counters depends on the item, as
//!   the game decides what each station takes: a table, a dispenser's top and a board hold
//!   anything, a stove only cookware, a sink only a dirty plate, which it gives back washed.
//!   So a plate, or a unit of a food no cookware takes, crosses only the first three;
//!   cookware with what it holds (a unit of a pan or pot food may be in it) also a stove;
//!   and nothing crosses a sink but a plate by its wash, taken out on the far side in a team
//!   (one agent washes, another takes it). Chopping takes 4 with the unit on the board; a
//!   pan food cooks 24 and a pot food 16 on a stove after it is added. The walk from the
//!   side of a stove it went in to the side it comes out overlaps the cooking, so the chain
//!   counts the larger of the two; cookware carried on to another stove stops cooking while
//!   it is off one, so there the chain counts the cooking plus that carry.
//!   Orders are served first in, first out, so each serve is no earlier than the one
//!   before;
//! - **plate cycle**: the plates in the kitchen are all there ever are. Of any `P + 1`
//!   consecutive orders (`P` plates) two share a plate, and a plate comes back dirty 10 after
//!   its serve, must reach a sink, be washed (6) and reach the window: so serve `j` is at least
//!   serve `j - P` plus that cycle, and the first `P` serves wait for the plates that exist;
//! - **cookware energy**: `n` units for pans cook in the pans one batch after another, 24 per
//!   unit in a batch, so the pan with the most units is busy `⌈n / pans⌉ · 24` from its first
//!   addition on. This holds under the game's own clock too, which credits cooking from the
//!   first addition on, off the stove and between batches, but never more than the time
//!   since the first addition;
//! - **agent load**: carrying a raw unit to a board (alone: a raw unit on a plate can never
//!   leave it, and cookware refuses raw pan foods), chopping, carrying a dirty plate to the
//!   sink and washing it are work of one agent each, and `m` agents share it. The carries
//!   are summed, so each counts its distance with counters crossed free even for one cook,
//!   who can leave a unit on a counter and take it from the far side after walking round
//!   with another: one walk then carries both across.
//!
//! From the start, a fifth: the **agents' routes** (`route.rs`): who takes each unit from a
//! dispenser, who chops it, who takes the first plate, in which order, each agent walking
//! between its visits (it binds where one cook must do several things the chains let
//! happen at once); a lone cook's route also puts each dish's cookware on a stove, comes
//! back for it once cooked and serves every order in turn.
//!
//! From the start, a sixth: the **cooks' trips** (`trips.rs`): the trips every plan makes with
//! something in hand (each unit from a dispenser, each dish to the window, each dirty plate
//! to a sink), with counters crossed free, plus the cheapest way of walking empty-handed from
//! each trip's end to another trip's start, the chops and the washes, shared among the cooks.
//!
//! For a team with one order, from any state, a seventh: the **team's visits** (`visits.rs`):
//! the dispensers, boards, stoves and the window that cooks must still stand at, shared out
//! among the cooks, each walking its share's shortest route from where it is next free.
//!
//! For one cook, from any state, an eighth: the **lone cook's walk** (`lone.rs`): the
//! stations it must still reach (dispensers of foods the kitchen lacks, a board, a stove, the
//! sink and the return), all on its one route to the window, plus its chops and washes.
//!
//! The instance's bound takes the orders one prefix at a time: a plan's first `j` serves
//! are a plan for the first `j` orders alone, so the `j`-th serve is no sooner than their
//! bound, which the plate cycle carries on to the orders that reuse its plate.
//!
//! Under the game's own clock (the replica mode) cooking can be credited off the stove and
//! between batches, so the unit chains there leave out the cooking times; cookware energy
//! still holds. Every bound is the larger of the arguments, and the instance bound is the
//! larger of the two rule sets' where the plan must pass both.

use super::oracle::layout::{
    Cut, Layout, StationKind, Ware, CHOP_TIME, FAR, PAN_TIME, POT_TIME, RETURN_TIME, WASH_TIME,
};
use super::oracle::model::{Item, Job, State};

mod lone;
mod route;
mod trips;
mod visits;

/// Which rules a bound must hold under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// The rules the prompt states: cookware cooks only on a stove, a fresh 24 or 16 per batch.
    Intended,
    /// The game as it runs: cooking is credited from the first addition on.
    Replica,
}

/// Which argument gave a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Argument {
    /// Unit chains with first-in first-out serving.
    Chains,
    /// The plate cycle.
    Plates,
    /// Cookware energy.
    Cookware,
    /// Agent load.
    Load,
    /// The agents' routes through the visits every plan makes (at the start only).
    Route,
    /// A team's visits still to make, shared out among its cooks (one order).
    Visits,
    /// A lone cook's route through the stations it must still reach.
    Walk,
    /// A search's bound on the kitchen's first orders alone, carried on to the later ones by
    /// the plate cycle and first-in first-out serving.
    Orders,
    /// The trips every plan makes in hand and the cooks' walks between them (at the start
    /// only).
    Trips,
}

impl Argument {
    /// The argument's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Argument::Chains => "chains",
            Argument::Plates => "plates",
            Argument::Cookware => "cookware",
            Argument::Load => "load",
            Argument::Route => "route",
            Argument::Visits => "visits",
            Argument::Walk => "walk",
            Argument::Orders => "the first orders' search",
            Argument::Trips => "trips",
        }
    }
}

/// A lower bound and the argument that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The time.
    pub value: i64,
    /// The argument that gave it (the first of the largest).
    pub argument: Argument,
}

/// A unit's chain from each cell to a window, by the state it is in, in one metric.
#[derive(Debug, Clone)]
struct Chains {
    /// From a cell to a window.
    to_window: Vec<i32>,
    /// A raw unit that must be chopped, from a cell to a window.
    chop_window: Vec<i32>,
    /// A chopped pan food, from a cell to a window.
    pan_window: Vec<i32>,
    /// A raw pan food.
    chop_pan_window: Vec<i32>,
    /// A raw pot food.
    pot_window: Vec<i32>,
}

impl Chains {
    fn new(n: usize, item: &[i32], cells: &Cells, lags: (i32, i32)) -> Chains {
        let zero = vec![0; n];
        let to_window = through(n, item, &cells.windows, 0, &zero);
        let pan_window = cooked(n, item, &cells.stoves, lags.0, &to_window);
        Chains {
            chop_window: through(n, item, &cells.boards, CHOP_TIME, &to_window),
            chop_pan_window: through(n, item, &cells.boards, CHOP_TIME, &pan_window),
            pot_window: cooked(n, item, &cells.stoves, lags.1, &to_window),
            pan_window,
            to_window,
        }
    }
}

/// The access cells of the stations a chain passes.
struct Cells {
    windows: Vec<u8>,
    boards: Vec<u8>,
    stoves: StoveSides,
}

/// The cells cookware is put on a stove from or taken off it from, and between each two
/// the least time a unit cooking in it needs beyond its cooking.
#[derive(Debug, Clone)]
struct StoveSides {
    cells: Vec<u8>,
    /// `[i * k + j]` for the `i`-th and `j`-th of `cells`: 0 where one stove has both (the
    /// cookware may stay on it all along); otherwise it is carried from one stove to
    /// another, and off a stove it does not cook, so the least carry between a stove beside
    /// the one and a stove beside the other comes on top of the cooking.
    hop: Vec<i32>,
}

impl StoveSides {
    /// The stoves of `lay`, the carries between them measured in `off_stove`: the item
    /// metric of cookware, whatever the team, since a carry is at least that whoever makes
    /// it (crossing a stove on the way is time on a stove, which cooks; crossing a table
    /// is time off one, at least none).
    fn new(lay: &Layout, off_stove: &[i32]) -> StoveSides {
        let n = lay.cell_count();
        let stoves: Vec<&[u8]> = lay
            .of_kind(StationKind::Stove)
            .map(|s| &lay.stations[s].access[..])
            .collect();
        let gap = |x: &[u8], y: &[u8]| -> i32 {
            x.iter()
                .flat_map(|&c| {
                    y.iter()
                        .map(move |&d| off_stove[c as usize * n + d as usize])
                })
                .min()
                .unwrap_or(FAR)
        };
        let cells = lay.sides_of(&[StationKind::Stove]);
        let beside = |c: u8| stoves.iter().filter(move |s| s.contains(&c));
        let hop = cells
            .iter()
            .flat_map(|&a| cells.iter().map(move |&b| (a, b)))
            .map(|(a, b)| {
                beside(a)
                    .flat_map(|x| beside(b).map(move |y| if x == y { 0 } else { gap(x, y) }))
                    .min()
                    .unwrap_or(FAR)
            })
            .collect();
        StoveSides { cells, hop }
    }

    /// From the `i`-th side to the `j`-th, `between` apart in a chain's metric, for a unit
    /// that must still cook `lag`.
    fn leg(&self, i: usize, j: usize, lag: i32, between: i32) -> i32 {
        between.max(lag.saturating_add(self.hop[i * self.cells.len() + j]))
    }
}

/// Distances and costs-to-go the bounds read, precomputed once per kitchen and rule set.
#[derive(Debug, Clone)]
pub struct Estimator {
    n: usize,
    agents: usize,
    /// The item metric of what never rides in cookware (see [`across_counters`]).
    carry: Vec<i32>,
    /// The item metric of cookware and what rides in it (stoves crossed too).
    ware: Vec<i32>,
    /// The chains of foods no cookware takes, and of plates, in the carry metric.
    plain: Chains,
    /// The chains of foods a pan or a pot takes, in the cookware metric (such a unit may ride
    /// in cookware even where it must reach the window only chopped).
    cookable: Chains,
    /// A dirty plate, from a cell to a window (sink and wash on the way, see [`washed`]).
    wash_window: Vec<i32>,
    /// A raw unit, from a cell to a board (counters crossed free, whatever the team).
    to_board: Vec<i32>,
    /// A dirty plate, from a cell to a sink (counters crossed free, whatever the team).
    to_sink: Vec<i32>,
    /// A chopped pan food to a stove; a raw one through a board.
    to_stove: Vec<i32>,
    chop_to_stove: Vec<i32>,
    pot_to_stove: Vec<i32>,
    /// Cooking time counted on a unit's chain (0 under the game's clock).
    pan_lag: i32,
    pot_lag: i32,
    /// From a stove to a window, the best.
    stove_window: i32,
    /// The stoves' access cells, and the carries between stoves.
    stoves: StoveSides,
    /// The plate returns' access cells.
    returns: Vec<u8>,
    /// A team's remaining visits (one order only).
    visits: Option<visits::Visits>,
    /// A lone cook's route (one cook only).
    lone: Option<lone::Lone>,
}

/// From each cell through a cooking place: the unit reaches a stove cell `a` (item metric),
/// cooks `lag` there, and leaves from a stove cell `b`, then costs `after[b]`. Cooking is
/// passive: the walk from `a` to `b` around one stove overlaps it, so the two count as their
/// larger; a carry on to another stove does not (see [`StoveSides`]).
fn cooked(n: usize, item: &[i32], stoves: &StoveSides, lag: i32, after: &[i32]) -> Vec<i32> {
    let sides = &stoves.cells;
    let out: Vec<i32> = sides
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            sides
                .iter()
                .enumerate()
                .map(|(j, &b)| {
                    stoves
                        .leg(i, j, lag, item[a as usize * n + b as usize])
                        .saturating_add(after[b as usize])
                })
                .min()
                .unwrap_or(FAR)
        })
        .collect();
    (0..n)
        .map(|c| {
            sides
                .iter()
                .zip(&out)
                .map(|(&a, &rest)| item[c * n + a as usize].saturating_add(rest))
                .min()
                .unwrap_or(FAR)
                .min(FAR)
        })
        .collect()
}

fn through(n: usize, item: &[i32], targets: &[u8], cost: i32, after: &[i32]) -> Vec<i32> {
    (0..n)
        .map(|c| {
            targets
                .iter()
                .map(|&a| {
                    item[c * n + a as usize]
                        .saturating_add(cost)
                        .saturating_add(after[a as usize])
                })
                .min()
                .unwrap_or(FAR)
                .min(FAR)
        })
        .collect()
}

/// From each cell through a sink: a dirty plate reaches a side of one (`carry` metric) and
/// is washed there; in a `team` another cook may take the clean plate out on any side of
/// the same sink, while a lone cook takes it where it stands (walking round after); then it
/// costs `after` from there.
fn washed(lay: &Layout, carry: &[i32], after: &[i32], team: bool) -> Vec<i32> {
    // What it costs from where the plate goes in: in a team the best side of that sink.
    let mut out = after.to_vec();
    if team {
        for s in lay.of_kind(StationKind::Sink) {
            let access = &lay.stations[s].access;
            let best = access
                .iter()
                .map(|&b| after[b as usize])
                .min()
                .unwrap_or(FAR);
            for &a in access {
                out[a as usize] = out[a as usize].min(best);
            }
        }
    }
    let sinks = lay.sides_of(&[StationKind::Sink]);
    through(lay.cell_count(), carry, &sinks, WASH_TIME, &out)
}

/// Walking distances between every two cells, `[a * n + b]`.
fn walking(lay: &Layout) -> Vec<i32> {
    let n = lay.cell_count();
    (0..n * n)
        .map(|k| lay.dist((k / n) as u8, (k % n) as u8))
        .collect()
}

/// The item metric of a team from the walking distances `plain`: an item crosses a counter
/// in no time, put down on one side and taken up on another (shortest paths over those free
/// crossings). Which counters: a table, a dispenser's top and a board hold anything; a stove
/// holds only cookware, so only cookware (with what it holds) crosses one, when `stoves`; a
/// sink takes only a dirty plate and gives it back washed, so nothing crosses one but by
/// that wash, which the chains through a sink count on their own.
fn across_counters(lay: &Layout, plain: &[i32], stoves: bool) -> Vec<i32> {
    let n = lay.cell_count();
    let mut item = plain.to_vec();
    for s in &lay.stations {
        let holds = match s.kind {
            StationKind::Table | StationKind::Dispenser | StationKind::Board => true,
            StationKind::Stove => stoves,
            StationKind::Window | StationKind::Sink | StationKind::Return => false,
        };
        if holds {
            for &a in &s.access {
                for &b in &s.access {
                    item[a as usize * n + b as usize] = 0;
                }
            }
        }
    }
    for k in 0..n {
        for i in 0..n {
            let ik = item[i * n + k];
            if ik >= FAR {
                continue;
            }
            for j in 0..n {
                let via = ik + item[k * n + j];
                if via < item[i * n + j] {
                    item[i * n + j] = via;
                }
            }
        }
    }
    item
}

impl Estimator {
    /// The estimator of a kitchen under `rules`.
    pub fn new(lay: &Layout, rules: Rules) -> Estimator {
        let n = lay.cell_count();
        let agents = lay.agents.len().max(1);
        let walk = walking(lay);
        // The load sums carries, so each must hold whoever carries what when: a lone cook can
        // leave a unit on a counter and take it from the far side after walking round with
        // another unit, one walk carrying both across, so its legs cross counters free too.
        let across = across_counters(lay, &walk, false);
        let around_stoves = across_counters(lay, &walk, true);
        let stoves = StoveSides::new(lay, &around_stoves);
        let (carry, ware) = if agents >= 2 {
            (across.clone(), around_stoves)
        } else {
            (walk.clone(), walk)
        };
        let access = |kind: StationKind| lay.sides_of(&[kind]);
        let cells = Cells {
            windows: access(StationKind::Window),
            boards: access(StationKind::Board),
            stoves,
        };
        let zero = vec![0; n];
        let lags = match rules {
            Rules::Intended => (PAN_TIME, POT_TIME),
            Rules::Replica => (0, 0),
        };
        let plain = Chains::new(n, &carry, &cells, lags);
        let cookable = Chains::new(n, &ware, &cells, lags);
        let wash_window = washed(lay, &carry, &plain.to_window, agents >= 2);
        let to_board = through(n, &across, &cells.boards, 0, &zero);
        let to_sink = through(n, &across, &access(StationKind::Sink), 0, &zero);
        let to_stove = through(n, &ware, &cells.stoves.cells, 0, &zero);
        let chop_to_stove = through(n, &ware, &cells.boards, CHOP_TIME, &to_stove);
        let stove_window = cells
            .stoves
            .cells
            .iter()
            .map(|&a| cookable.to_window[a as usize])
            .min()
            .unwrap_or(FAR);
        Estimator {
            n,
            agents,
            carry,
            ware,
            plain,
            cookable,
            wash_window,
            to_board,
            to_sink,
            pot_to_stove: to_stove.clone(),
            to_stove,
            chop_to_stove,
            pan_lag: lags.0,
            pot_lag: lags.1,
            stove_window,
            stoves: cells.stoves,
            returns: access(StationKind::Return),
            visits: visits::Visits::new(lay, rules),
            lone: lone::Lone::new(lay, rules),
        }
    }

    /// From the best of `cells`, for cookware that must still cook `cook` on a stove: to a
    /// stove cell, the cooking overlapping the walk around that stove to the cell it leaves
    /// from (a carry to another stove on top of it), then to a window.
    fn cook_out(&self, cells: &[u8], cook: i32) -> i32 {
        let n = self.n;
        let sides = &self.stoves.cells;
        let mut best = FAR;
        for &c in cells {
            for (i, &a) in sides.iter().enumerate() {
                let to = self.ware[c as usize * n + a as usize];
                if to >= best {
                    continue;
                }
                for (j, &b) in sides.iter().enumerate() {
                    let t = to
                        .saturating_add(self.stoves.leg(
                            i,
                            j,
                            cook,
                            self.ware[a as usize * n + b as usize],
                        ))
                        .saturating_add(self.cookable.to_window[b as usize]);
                    best = best.min(t);
                }
            }
        }
        best
    }

    /// From each cell, the rest of the chain of a unit of `food` that is `now` and must be
    /// `need` at a window; `None` when it can never become that.
    fn cost(&self, lay: &Layout, food: u8, need: Cut, now: Cut) -> Option<&Vec<i32>> {
        let pan = lay.pan_food(food);
        let pot = lay.pot_food(food);
        let chains = if pan || pot {
            &self.cookable
        } else {
            &self.plain
        };
        match (need, now) {
            (Cut::Raw, Cut::Raw) => Some(&chains.to_window),
            (Cut::Chopped, Cut::Raw) => Some(&chains.chop_window),
            (Cut::Chopped, Cut::Chopped) => Some(&chains.to_window),
            (Cut::Cooked, Cut::Raw) if pan => Some(&chains.chop_pan_window),
            (Cut::Cooked, Cut::Chopped) if pan => Some(&chains.pan_window),
            (Cut::Cooked, Cut::Raw) if pot => Some(&chains.pot_window),
            (Cut::Cooked, Cut::Cooked) => Some(&chains.to_window),
            _ => None,
        }
    }

    /// The visits argument alone from `state` (0 where it does not apply: one cook, or
    /// several orders): the tests check it on its own against the exact time left.
    pub fn visits(&self, lay: &Layout, state: &State) -> i32 {
        self.visits.as_ref().map_or(0, |v| v.bound(lay, state))
    }

    /// The same estimator without the lone cook's walk: a beam ranks its states by the
    /// estimate, and on some kitchens it plans better without the walk's pull.
    pub fn without_walk(mut self) -> Estimator {
        self.lone = None;
        self
    }

    /// The lone cook's walk alone from `state` (0 with a team): the tests check it on its
    /// own against the exact time left.
    pub fn walk(&self, lay: &Layout, state: &State) -> i32 {
        self.lone.as_ref().map_or(0, |l| l.bound(lay, state))
    }

    /// The item metric between two cells for what never rides in cookware (a raw unit on
    /// its way to a board, a plate).
    pub fn item_dist(&self, a: u8, b: u8) -> i32 {
        self.carry[a as usize * self.n + b as usize]
    }

    /// From each cell to a window: a plate (or what never rides in cookware) with
    /// `cookware` false, cookware or what it holds with `cookware` true.
    pub(super) fn to_window(&self, cookware: bool) -> &[i32] {
        if cookware {
            &self.cookable.to_window
        } else {
            &self.plain.to_window
        }
    }

    /// A lower bound on the time from `state` until the last order is served, and the
    /// argument that gave it.
    pub fn remaining(&self, lay: &Layout, state: &State) -> Bound {
        self.estimate(lay, state).0
    }

    /// The bound of [`Estimator::remaining`], and the sum over the units still needed of
    /// their chains' lengths: no bound, but a measure of the work left that every useful step
    /// lowers, which the beam search ranks by.
    pub fn estimate(&self, lay: &Layout, state: &State) -> (Bound, i64) {
        self.estimate_with(lay, state, &[])
    }

    /// [`Estimator::estimate`] where the `j`-th order still to serve is known to be served no
    /// sooner than `floors[j]` from `state` (as far as `floors` goes).
    fn estimate_with(&self, lay: &Layout, state: &State, floors: &[i32]) -> (Bound, i64) {
        let left = &lay.orders[state.served as usize..];
        if left.is_empty() {
            return (
                Bound {
                    value: 0,
                    argument: Argument::Chains,
                },
                0,
            );
        }
        // When and where each agent is next free.
        let free: Vec<(i32, u8)> = state
            .agents
            .iter()
            .map(|a| (i32::from(a.at.max(0)), a.cell))
            .collect();
        let reach = |cells: &[u8]| -> i32 {
            free.iter()
                .map(|&(t, c)| t + cells.iter().map(|&a| lay.dist(c, a)).min().unwrap_or(FAR))
                .min()
                .unwrap_or(FAR)
        };
        let best = |cost: &[i32], cells: &[u8]| {
            cells.iter().map(|&a| cost[a as usize]).min().unwrap_or(FAR)
        };
        // Where each item is: (time an agent can have it, the cells it is at).
        let mut located: Vec<(Item, i32, &[u8], bool)> = Vec::new();
        for a in &state.agents {
            if let Some(h) = a.hold {
                located.push((
                    h,
                    i32::from(a.at.max(0)),
                    std::slice::from_ref(&a.cell),
                    false,
                ));
            }
        }
        for (s, place) in state.places.iter().enumerate() {
            if let Some(p) = place {
                let cells = &lay.stations[s].access[..];
                let on_stove = lay.stations[s].kind == StationKind::Stove;
                // Being chopped or washed: it is done when its agent is.
                let worker = state
                    .agents
                    .iter()
                    .find(|a| a.job == Job::Processing(s as u8));
                match (worker, p) {
                    (Some(a), Item::Food(f, Cut::Raw)) => {
                        located.push((Item::Food(*f, Cut::Chopped), i32::from(a.at), cells, false))
                    }
                    (Some(a), Item::Dirty) => located.push((
                        Item::Plate(Default::default()),
                        i32::from(a.at),
                        cells,
                        false,
                    )),
                    _ => located.push((*p, reach(cells), cells, on_stove)),
                }
            }
        }
        // Chains: each remaining order's units, each from its best source.
        let cost_of = |food: u8, need: Cut, now: Cut| self.cost(lay, food, need, now);
        let unit = |food: u8, need: Cut| -> i32 {
            let mut best_t = FAR;
            for d in lay.dispensers_of(food) {
                let cells = &lay.stations[d].access;
                if let Some(cost) = cost_of(food, need, Cut::Raw) {
                    best_t = best_t.min(reach(cells).saturating_add(best(cost, cells)));
                }
            }
            for (item, t, cells, on_stove) in &located {
                match *item {
                    Item::Food(f, c) if f == food => {
                        if let Some(cost) = cost_of(food, need, c) {
                            best_t = best_t.min(t.saturating_add(best(cost, cells)));
                        }
                    }
                    Item::Plate(bag) if bag.units().any(|u| u == (food, need)) => {
                        best_t = best_t.min(t.saturating_add(best(&self.plain.to_window, cells)));
                    }
                    Item::Ware(w, bag, left_time)
                        if need == Cut::Cooked && bag.units().any(|(f, _)| f == food) =>
                    {
                        {
                            let lag = match w {
                                Ware::Pan => self.pan_lag,
                                Ware::Pot => self.pot_lag,
                            };
                            // Under the game's clock the rest may already be credited.
                            let cook = if lag == 0 { 0 } else { i32::from(left_time) };
                            // It leaves cookware on a stove: this one once it has cooked
                            // and an agent is there, or any other once carried there.
                            // Off a stove it cooks only once an agent has carried it to one;
                            // on one it cooks from now, even while an agent comes to move it.
                            let out = if *on_stove {
                                (*t).max(cook)
                                    .saturating_add(best(&self.cookable.to_window, cells))
                                    .min(self.cook_out(cells, cook))
                            } else if cook == 0 {
                                // Cooked (or credited) already: carried anywhere, a
                                // plate takes it there.
                                t.saturating_add(best(&self.cookable.to_window, cells))
                            } else {
                                t.saturating_add(self.cook_out(cells, cook))
                            };
                            best_t = best_t.min(out);
                        }
                    }
                    _ => {}
                }
            }
            best_t
        };
        let mut effort = 0i64;
        let order_units: Vec<i32> = left
            .iter()
            .map(|(_, needs)| {
                needs.iter().fold(0, |most, &(f, c)| {
                    let t = unit(f, c);
                    effort += i64::from(t.min(FAR));
                    most.max(t)
                })
            })
            .collect();
        // Plates: when each existing plate can be at the window, soonest first.
        let returns = &self.returns[..];
        // From a plate return to a window through a sink, and when a cook can first be at a
        // return: the same for every plate on its way back.
        let wash_from_return = best(&self.wash_window, returns);
        let reach_return = reach(returns);
        let cycle = i32::from(RETURN_TIME as i16) + wash_from_return;
        let mut plates: Vec<i32> = Vec::new();
        for (item, t, cells, _) in &located {
            match item {
                Item::Plate(_) => plates.push(t.saturating_add(best(&self.plain.to_window, cells))),
                Item::Dirty => plates.push(t.saturating_add(best(&self.wash_window, cells))),
                _ => {}
            }
        }
        let at_return = reach_return.saturating_add(wash_from_return);
        for _ in 0..state.dirty {
            plates.push(at_return);
        }
        for &d in &state.dues {
            plates.push(
                i32::from(d)
                    .max(reach_return)
                    .saturating_add(wash_from_return),
            );
        }
        plates.sort_unstable();
        let p = plates.len();
        let mut chains = 0;
        let mut with_plates = 0;
        let mut serves: Vec<i32> = Vec::new();
        for (j, &units) in order_units.iter().enumerate() {
            chains = chains.max(units);
            let plate = if j < p {
                let reuse = serves.first().map_or(FAR, |s0| s0.saturating_add(cycle));
                plates[j].min(reuse)
            } else if p > 0 {
                serves[j - p].saturating_add(cycle)
            } else {
                FAR
            };
            with_plates = with_plates
                .max(units)
                .max(plate)
                .max(floors.get(j).copied().unwrap_or(0));
            serves.push(with_plates);
        }
        // Cookware energy: fresh units for pans and pots, one after another per cookware.
        let cook = self
            .energy(lay, state, &located, &reach, Ware::Pan)
            .max(self.energy(lay, state, &located, &reach, Ware::Pot));
        // Load: carrying raw units to boards, chopping, carrying dirty plates to the sink, washing.
        let load = self.load(lay, state, &located, returns);
        let visits = self.visits(lay, state);
        let walk = self.walk(lay, state);
        let candidates = [
            (chains, Argument::Chains),
            (with_plates, Argument::Plates),
            (cook, Argument::Cookware),
            (load, Argument::Load),
            (visits, Argument::Visits),
            (walk, Argument::Walk),
        ];
        let (value, argument) = candidates
            .iter()
            .copied()
            .fold(
                (0, Argument::Chains),
                |acc, c| if c.0 > acc.0 { c } else { acc },
            );
        (
            Bound {
                value: i64::from(value.min(FAR)),
                argument,
            },
            effort,
        )
    }

    fn energy(
        &self,
        lay: &Layout,
        state: &State,
        located: &[(Item, i32, &[u8], bool)],
        reach: &dyn Fn(&[u8]) -> i32,
        ware: Ware,
    ) -> i32 {
        let left = &lay.orders[state.served as usize..];
        let takes = |f: u8| match ware {
            Ware::Pan => lay.pan_food(f),
            Ware::Pot => lay.pot_food(f),
        };
        let (time, raw_cost, ready_cost) = match ware {
            Ware::Pan => (PAN_TIME, &self.chop_to_stove, &self.to_stove),
            Ware::Pot => (POT_TIME, &self.pot_to_stove, &self.pot_to_stove),
        };
        let needed = left
            .iter()
            .flat_map(|(_, needs)| needs.iter())
            .filter(|&&(f, c)| c == Cut::Cooked && takes(f))
            .count();
        let mut started = 0;
        let mut wares: Vec<i32> = Vec::new();
        let mut first = FAR;
        for (item, t, cells, on_stove) in located {
            match item {
                Item::Ware(w, bag, left_time) if *w == ware => {
                    started += bag.len();
                    wares.push(if *on_stove {
                        i32::from(*left_time)
                    } else {
                        t + i32::from(*left_time)
                    });
                }
                Item::Plate(bag) => {
                    started += bag
                        .units()
                        .filter(|&(f, c)| c == Cut::Cooked && takes(f))
                        .count()
                }
                Item::Food(f, c) if takes(*f) => {
                    let cost = match (ware, c) {
                        (Ware::Pan, Cut::Raw) => raw_cost,
                        _ => ready_cost,
                    };
                    first =
                        first.min(t + cells.iter().map(|&a| cost[a as usize]).min().unwrap_or(FAR));
                }
                _ => {}
            }
        }
        let fresh = needed.saturating_sub(started);
        if fresh == 0 || wares.is_empty() {
            return 0;
        }
        for (f, _) in lay.foods.iter().enumerate() {
            if takes(f as u8) {
                for d in lay.dispensers_of(f as u8) {
                    let cells = &lay.stations[d].access;
                    first = first.min(
                        reach(cells)
                            + cells
                                .iter()
                                .map(|&a| raw_cost[a as usize])
                                .min()
                                .unwrap_or(FAR),
                    );
                }
            }
        }
        if first >= FAR {
            return 0;
        }
        for _ in 0..fresh {
            let k = (0..wares.len())
                .min_by_key(|&k| wares[k].max(first))
                .unwrap_or(0);
            wares[k] = wares[k].max(first) + time;
        }
        wares
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .saturating_add(self.stove_window)
    }

    fn load(
        &self,
        lay: &Layout,
        state: &State,
        located: &[(Item, i32, &[u8], bool)],
        returns: &[u8],
    ) -> i32 {
        let left = &lay.orders[state.served as usize..];
        let mut work = 0i32;
        // Units still to chop: each must be carried alone from where it is to a board.
        let mut to_chop: Vec<u8> = left
            .iter()
            .flat_map(|(_, needs)| needs.iter())
            .filter(|&&(f, c)| lay.must_chop(f, c))
            .map(|&(f, _)| f)
            .collect();
        let mut loose_raw: Vec<(u8, i32)> = Vec::new();
        for (item, _, cells, _) in located {
            match item {
                Item::Food(f, Cut::Raw) => loose_raw.push((
                    *f,
                    cells
                        .iter()
                        .map(|&a| self.to_board[a as usize])
                        .min()
                        .unwrap_or(FAR),
                )),
                Item::Food(f, _) => {
                    if let Some(k) = to_chop.iter().position(|x| x == f) {
                        to_chop.swap_remove(k);
                    }
                }
                Item::Plate(bag) | Item::Ware(_, bag, _) => {
                    for (f, c) in bag.units() {
                        if c != Cut::Raw {
                            if let Some(k) = to_chop.iter().position(|&x| x == f) {
                                to_chop.swap_remove(k);
                            }
                        }
                    }
                }
                Item::Dirty => {}
            }
        }
        for f in to_chop {
            let carry = match loose_raw.iter().position(|&(x, _)| x == f) {
                Some(k) => loose_raw.swap_remove(k).1,
                None => lay
                    .dispensers_of(f)
                    .flat_map(|d| lay.stations[d].access.iter())
                    .map(|&a| self.to_board[a as usize])
                    .min()
                    .unwrap_or(FAR),
            };
            work = work.saturating_add(carry.min(FAR) + CHOP_TIME);
        }
        // Washes: every remaining order beyond the clean plates needs one.
        let clean = located
            .iter()
            .filter(|(i, ..)| matches!(i, Item::Plate(_)))
            .count();
        let washes = left.len().saturating_sub(clean);
        let mut dirty_legs: Vec<i32> = Vec::new();
        for (item, _, cells, _) in located {
            if matches!(item, Item::Dirty) {
                dirty_legs.push(
                    cells
                        .iter()
                        .map(|&a| self.to_sink[a as usize])
                        .min()
                        .unwrap_or(FAR),
                );
            }
        }
        let from_return = returns
            .iter()
            .map(|&a| self.to_sink[a as usize])
            .min()
            .unwrap_or(FAR);
        dirty_legs.sort_unstable();
        for k in 0..washes {
            let leg = dirty_legs.get(k).copied().unwrap_or(from_return);
            work = work.saturating_add(leg.min(FAR) + WASH_TIME);
        }
        // Each agent can take on work only once its current action ends, and an action
        // still running when the last order is served delays nothing: the least `t` with
        // `Σ (t − min(busy, t)) ≥ work`.
        if work <= 0 {
            return 0;
        }
        let m = self.agents as i32;
        let capacity = |t: i32| -> i32 {
            state
                .agents
                .iter()
                .map(|a| t - i32::from(a.at.max(0)).min(t))
                .sum()
        };
        let mut t = (work + m - 1) / m;
        while capacity(t) < work && t < FAR {
            t += 1;
        }
        t
    }
}

/// The instance's lower bound under the intended rules and under the game's clock: the
/// largest of what the arguments give at the start (a reference plan must pass both).
///
/// The orders are bounded one prefix at a time: the first `j` orders served form a plan for
/// the same kitchen with only those orders (the window looks at the first order left alone,
/// so nothing before the `j`-th serve depends on the orders after it), so the `j`-th serve is
/// no sooner than that kitchen's bound, and the plate cycle and first-in first-out serving
/// carry it on to the later serves.
pub fn instance_bound(lay: &Layout) -> (Bound, Bound) {
    instance_bound_with(lay, &[])
}

/// [`instance_bound`] where `searched[j]` is a bound on the first `j + 1` orders alone under
/// the intended rules, such as a search proved (the game's clock gets none of them).
pub fn instance_bound_with(lay: &Layout, searched: &[i64]) -> (Bound, Bound) {
    // The trips hold under both rule sets alike: once per prefix.
    let walk = walking(lay);
    let (carry, ware) = (
        across_counters(lay, &walk, false),
        across_counters(lay, &walk, true),
    );
    let trips: Vec<i64> = (1..=lay.orders.len())
        .map(|j| i64::from(trips::trips(&lay.first_orders(j), &carry, &ware)))
        .collect();
    let with_route = |rules: Rules| {
        let mut floors: Vec<i32> = Vec::new();
        let mut bound = Bound {
            value: 0,
            argument: Argument::Chains,
        };
        for j in 1..=lay.orders.len() {
            let prefix = lay.first_orders(j);
            let est = Estimator::new(&prefix, rules);
            let start = State::initial(&prefix);
            let mut next = est.estimate_with(&prefix, &start, &floors).0;
            if let Some(value) = est.route(&prefix).filter(|&v| i64::from(v) > next.value) {
                next = Bound {
                    value: i64::from(value),
                    argument: Argument::Route,
                };
            }
            if trips[j - 1] > next.value {
                next = Bound {
                    value: trips[j - 1],
                    argument: Argument::Trips,
                };
            }
            let proved = match rules {
                Rules::Intended => searched.get(j - 1).copied().unwrap_or(0),
                Rules::Replica => 0,
            };
            if proved > next.value {
                next = Bound {
                    value: proved,
                    argument: Argument::Orders,
                };
            }
            // No higher than the prefix before: that prefix's bound, by its own argument.
            if next.value <= bound.value {
                next = bound;
            }
            floors.push(next.value as i32);
            bound = next;
        }
        bound
    };
    (with_route(Rules::Intended), with_route(Rules::Replica))
}

#[cfg(test)]
mod tests {
    use super::super::oracle::layout::{Start, StationSpec};
    use super::*;

    /// Two cooks in a kitchen split by a wall with a sink and a stove in it; the way round
    /// is through a gap at the bottom. A plate or a unit crosses neither (a sink takes only a
    /// dirty plate, a stove only cookware), so it goes round; cookware and what it holds may
    /// cross the stove; a plate washed on one side is taken out on the other.
    ///
    /// ```text
    /// . . # . .
    /// . a K b W     K sink, W window
    /// . . # . .
    /// . . S . .     S stove with a pan
    /// . . . . .
    /// ```
    #[test]
    fn only_cookware_crosses_a_stove_and_nothing_a_sink() {
        let station = |name: &str, kind, x, y, start| StationSpec {
            name: name.into(),
            kind,
            x,
            y,
            provides: None,
            start,
        };
        let lay = Layout::new(
            5,
            5,
            &[
                station("sink", StationKind::Sink, 2, 1, None),
                station(
                    "stove1",
                    StationKind::Stove,
                    2,
                    3,
                    Some(Start::Ware(Ware::Pan)),
                ),
                station("serving_window", StationKind::Window, 4, 1, None),
            ],
            &[(2, 0), (2, 2)],
            &[("agent1".into(), 1, 1), ("agent2".into(), 3, 1)],
            &[],
        )
        .unwrap();
        let cell = |x, y| lay.cells.iter().position(|&c| c == (x, y)).unwrap() as u8;
        let (a, b) = (cell(1, 1), cell(3, 1));
        let est = Estimator::new(&lay, Rules::Intended);
        // Round by the gap: down 3, across 2, up 3.
        assert_eq!(lay.dist(a, b), 8);
        assert_eq!(est.item_dist(a, b), 8);
        // Cookware crosses the stove: down 2 and up 2.
        assert_eq!(est.to_window(false)[a as usize], 8);
        assert_eq!(est.to_window(true)[a as usize], 4);
        // Washed from this side, taken out on the window's by the other cook; a lone cook
        // takes it out where it washed.
        assert_eq!(est.wash_window[a as usize], WASH_TIME);
        let alone = Estimator::new(&lay.alone(0), Rules::Intended);
        assert_eq!(alone.wash_window[a as usize], WASH_TIME + 8);
    }
}
