//! A lone cook's walk, from any state of a kitchen with one cook and any number of orders:
//! the cook is the only one who can stand at a station, so every station that something
//! still to happen needs lies on its one route, which ends at the window with the last
//! serve.
//!
//! The stations the route must still reach: a dispenser of every food of which the orders
//! left need more units than the kitchen holds (units never vanish, and only a dispenser
//! makes new ones); a board while some unit still has to be chopped; a stove while some
//! unit that must be cooked is not yet cooked and off its stove (under the rules as stated
//! cookware cooks only on a stove, and its contents leave the stove only by an interaction
//! there); the sink while the orders left outnumber the clean plates (a dirty plate is
//! washed there), and the plate return while more plates must be washed than dirty plates
//! are out of it already; and the window last. Besides walking, the cook stands 4 at a
//! board for every chop still to do and 6 at the sink for every wash, and does nothing else
//! meanwhile.
//!
//! So the time left is at least: when the cook is next free, plus the shortest route from
//! its cell through one side of each of those stations to the window (its legs the shortest
//! walks between the sides, whichever it uses), plus the chops and washes. Several units of
//! one food count as one dispenser on the route (their chops and the cook's hand are left
//! out), which only makes it shorter. The shortest routes from every cell through every set
//! of stations are computed once per kitchen (Held and Karp's dynamic programme over the
//! few kinds of station), so a state costs one look-up.

use super::super::oracle::layout::{Cut, Layout, StationKind, CHOP_TIME, FAR, WASH_TIME};
use super::super::oracle::model::{Item, Job, State};
use super::Rules;

/// Most foods a kitchen's counts cover (more: the argument gives 0, which only lowers the
/// bound); the counts live on the stack, since the search asks for them in every state.
const MAX_FOODS: usize = 16;

/// Per food, units the orders from one on need: in all, chopped, cooked.
type Needs = [[u8; MAX_FOODS]; 3];

/// A kind of station the route may have to reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// A dispenser of this food.
    Pick(u8),
    /// A board.
    Board,
    /// A stove.
    Stove,
    /// The sink.
    Sink,
    /// The plate return.
    Return,
}

/// The stops of a one-cook kitchen and the shortest routes through them.
#[derive(Debug, Clone)]
pub(super) struct Lone {
    stops: Vec<Stop>,
    /// Per cell and set of stops: the shortest walk from the cell through a side of each
    /// stop to a side of the window. `FAR` where there is none.
    table: Vec<i32>,
    /// Whether the stove counts (the rules as stated: cookware cooks only on a stove).
    stove: bool,
    /// What the orders from each on need (by orders served).
    needs: Vec<Needs>,
}

impl Lone {
    /// The stops of a kitchen with one cook; `None` with a team (shared work has its own
    /// arguments) or without a window.
    pub(super) fn new(lay: &Layout, rules: Rules) -> Option<Lone> {
        if lay.agents.len() != 1 || lay.orders.is_empty() || lay.foods.len() > MAX_FOODS {
            return None;
        }
        let needs = (0..lay.orders.len())
            .map(|served| {
                let mut n: Needs = [[0; MAX_FOODS]; 3];
                for (_, needs) in &lay.orders[served..] {
                    for &(f, c) in needs {
                        let f = f as usize;
                        n[0][f] += 1;
                        if lay.must_chop(f as u8, c) {
                            n[1][f] += 1;
                        }
                        if c == Cut::Cooked && (lay.pan_food(f as u8) || lay.pot_food(f as u8)) {
                            n[2][f] += 1;
                        }
                    }
                }
                n
            })
            .collect();
        let mut stops: Vec<Stop> = Vec::new();
        for (_, needs) in &lay.orders {
            for &(food, _) in needs {
                if !stops.contains(&Stop::Pick(food)) {
                    stops.push(Stop::Pick(food));
                }
            }
        }
        stops.extend([Stop::Board, Stop::Stove, Stop::Sink, Stop::Return]);
        let cells_of = |kind: StationKind| lay.sides_of(&[kind]);
        let cells: Vec<Vec<u8>> = stops
            .iter()
            .map(|&stop| match stop {
                Stop::Pick(f) => lay
                    .dispensers_of(f)
                    .flat_map(|s| lay.stations[s].access.iter().copied())
                    .collect(),
                Stop::Board => cells_of(StationKind::Board),
                Stop::Stove => cells_of(StationKind::Stove),
                Stop::Sink => cells_of(StationKind::Sink),
                Stop::Return => cells_of(StationKind::Return),
            })
            .collect();
        let windows = cells_of(StationKind::Window);
        if windows.is_empty() {
            return None;
        }
        let k = stops.len();
        let sets = 1usize << k;
        // The sides of every stop, numbered: the route's positions between stops.
        let places: Vec<u8> = {
            let mut all: Vec<u8> = cells.iter().flatten().copied().collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let p_n = places.len();
        let index = |c: u8| places.binary_search(&c).unwrap_or(0);
        let sides: Vec<Vec<usize>> = cells
            .iter()
            .map(|cs| cs.iter().map(|&c| index(c)).collect())
            .collect();
        let to_window =
            |c: u8| -> i32 { windows.iter().map(|&w| lay.dist(c, w)).min().unwrap_or(FAR) };
        // `from[set * p_n + p]`: from side `p`, through every stop of `set`, to the window.
        let mut from = vec![FAR; sets * p_n];
        for (p, &c) in places.iter().enumerate() {
            from[p] = to_window(c);
        }
        // From cell `c` through every stop of `set` (not empty) to the window: first a side
        // of one stop of the set, then the rest of the set from that side.
        let through = |from: &[i32], c: u8, set: usize| -> i32 {
            let mut best = FAR;
            for (j, side) in sides.iter().enumerate() {
                if set & (1 << j) == 0 {
                    continue;
                }
                let rest = (set & !(1 << j)) * p_n;
                for &q in side {
                    best = best.min(lay.dist(c, places[q]).saturating_add(from[rest + q]));
                }
            }
            best.min(FAR)
        };
        for set in 1..sets {
            for (p, &c) in places.iter().enumerate() {
                from[set * p_n + p] = through(&from, c, set);
            }
        }
        let n = lay.cell_count();
        let mut table = vec![FAR; n * sets];
        for c in 0..n {
            let row = &mut table[c * sets..(c + 1) * sets];
            row[0] = to_window(c as u8).min(FAR);
            for (set, slot) in row.iter_mut().enumerate().skip(1) {
                *slot = through(&from, c as u8, set);
            }
        }
        Some(Lone {
            stops,
            table,
            stove: rules == Rules::Intended,
            needs,
        })
    }

    /// The lower bound from `state`: when the cook is next free, plus its shortest route
    /// through the stops still due to the window, plus the chops and washes left.
    pub(super) fn bound(&self, lay: &Layout, state: &State) -> i32 {
        let left = &lay.orders[state.served as usize..];
        let Some(cook) = state.agents.first() else {
            return 0;
        };
        if left.is_empty() {
            return 0;
        }
        let Some(&[need, need_cut, need_cooked]) = self.needs.get(state.served as usize) else {
            return 0;
        };
        let foods = lay.foods.len();
        // Units of each food the kitchen holds, those chopped (or being chopped), and those
        // cooked and off their stoves; clean plates (one being washed counts) and dirty ones
        // out of the return.
        let mut held = [0u8; MAX_FOODS];
        let mut cut = [0u8; MAX_FOODS];
        let mut done = [0u8; MAX_FOODS];
        let (mut clean, mut dirty_out) = (0usize, 0usize);
        let mut count = |f: u8, c: Cut, off_stove: bool| {
            let f = f as usize;
            held[f] = held[f].saturating_add(1);
            if c != Cut::Raw {
                cut[f] = cut[f].saturating_add(1);
            }
            if c == Cut::Cooked && off_stove {
                done[f] = done[f].saturating_add(1);
            }
        };
        let mut item = |it: &Item, stove: bool, processing: bool| match *it {
            Item::Food(f, c) => {
                let c = if processing && c == Cut::Raw {
                    Cut::Chopped
                } else {
                    c
                };
                count(f, c, true)
            }
            Item::Plate(bag) => {
                clean += 1;
                bag.units().for_each(|(f, c)| count(f, c, true))
            }
            Item::Ware(_, bag, _) => bag.units().for_each(|(f, c)| count(f, c, !stove)),
            Item::Dirty if processing => clean += 1,
            Item::Dirty => dirty_out += 1,
        };
        for (s, place) in state.places.iter().enumerate() {
            if let Some(it) = place {
                let stove = lay.stations[s].kind == StationKind::Stove;
                let processing = cook.job == Job::Processing(s as u8);
                item(it, stove, processing);
            }
        }
        if let Some(it) = &cook.hold {
            item(it, false, false);
        }
        let chops: usize = (0..foods)
            .map(|f| usize::from(need_cut[f].saturating_sub(cut[f])))
            .sum();
        let washes = left.len().saturating_sub(clean);
        let mut set = 0usize;
        for (j, stop) in self.stops.iter().enumerate() {
            let due = match *stop {
                Stop::Pick(f) => held[f as usize] < need[f as usize],
                Stop::Board => chops > 0,
                Stop::Stove => self.stove && (0..foods).any(|f| done[f] < need_cooked[f]),
                Stop::Sink => washes > 0,
                Stop::Return => washes > dirty_out,
            };
            if due {
                set |= 1 << j;
            }
        }
        let sets = 1usize << self.stops.len();
        let walk = self.table[cook.cell as usize * sets + set];
        i32::from(cook.at.max(0))
            .saturating_add(walk)
            .saturating_add(chops as i32 * CHOP_TIME)
            .saturating_add(washes as i32 * WASH_TIME)
            .min(FAR)
    }
}
