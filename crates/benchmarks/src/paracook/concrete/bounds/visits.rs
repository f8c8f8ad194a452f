//! The team's visits, from any state of a kitchen with one order: what is still to happen
//! needs a cook standing at a station for it, and a cook is at one place at a time.
//!
//! The visits every plan still makes: each unit the dish needs and the kitchen does not
//! hold yet is taken from a dispenser of its food (an empty hand at the dispenser's side;
//! units never vanish, so the units the kitchen holds of a food leave that many fewer);
//! each unit that must be chopped and is not yet chopped (nor being chopped) is chopped by
//! a cook standing at a board for the 4 steps of it; each kind of cookware whose food is not
//! yet cooked and off its stove needs a cook at a stove after the cooking (cooking happens
//! only on a stove, and the contents or the cookware leave it only by an interaction
//! there); while no cook holds a plate and every plate lies on a counter it starts on, a
//! cook takes one there with an empty hand (plates move only in a hand, and none is washed
//! before the first serve); and the dish is served by a cook at the window, the last event
//! of the plan.
//!
//! Each cook does its share of them one after another, from where and when it is next free,
//! walking between them: so its share takes at least the shortest route through those
//! visits from its cell (each leg at least the shortest walk between the two stations'
//! sides, whichever sides it uses) plus the chops' 4 each, and the one who serves ends its
//! route at the window. The plan lasts at least the longest share, whatever the sharing:
//! the bound is the least over every way of sharing the visits out of the longest share.
//! It leaves out everything else (when a unit is ready, hand-offs, what a cook holds), which
//! only makes plans shorter, so it holds under both rule sets. The shortest routes from
//! every cell through every set of visits are computed once per kitchen (Held and Karp's
//! dynamic programme), so a state costs one pass over the ways of sharing.

use super::super::oracle::layout::{Cut, Layout, Start, StationKind, CHOP_TIME, FAR};
use super::super::oracle::model::{Item, Job, State};
use super::Rules;

/// Most visits a kitchen's table covers (2^k sets per cell); past it the rest are left out,
/// which only lowers the bound.
const MAX_VISITS: usize = 11;

/// Most visits shared out between three cooks (3^k ways); past it the rest are left out.
const MAX_THREE: usize = 8;

/// What a visit is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Taking a unit of this food from a dispenser.
    Pick(u8),
    /// Chopping a unit of this food.
    Chop(u8),
    /// Interacting with a stove after cookware for this food (pan: true) has cooked.
    Stove(bool),
    /// Taking a plate from one of the counters the kitchen's plates start on.
    Plate,
    /// Serving the dish.
    Serve,
}

/// The visits of a kitchen with one order, and the shortest routes through them.
#[derive(Debug, Clone)]
pub(super) struct Visits {
    kinds: Vec<Kind>,
    /// Index of the serve.
    serve: usize,
    /// Per cell and set of visits: the shortest route from the cell through them, chops
    /// included (the serve last where it is in the set). `FAR` where there is none.
    table: Vec<i32>,
}

impl Visits {
    /// The visits of a team's kitchen with one order; `None` otherwise (one cook, or
    /// several orders, whose searches keep their own estimates). Under the game's own clock
    /// cookware cooks off the stove too, so the stove visits count only under the rules as
    /// stated.
    pub(super) fn new(lay: &Layout, rules: Rules) -> Option<Visits> {
        if lay.agents.len() < 2 || lay.orders.len() != 1 {
            return None;
        }
        let needs = &lay.orders[0].1;
        let mut kinds: Vec<Kind> = vec![Kind::Serve];
        for &(food, _) in needs {
            kinds.push(Kind::Pick(food));
        }
        for &(food, need) in needs {
            if lay.must_chop(food, need) {
                kinds.push(Kind::Chop(food));
            }
        }
        for pan in [true, false] {
            if rules == Rules::Intended
                && needs
                    .iter()
                    .any(|&(f, c)| c == Cut::Cooked && cooks_in(lay, f) == Some(pan))
            {
                kinds.push(Kind::Stove(pan));
            }
        }
        kinds.push(Kind::Plate);
        kinds.truncate(MAX_VISITS);
        let k = kinds.len();
        let cells_of = |kind: Kind| -> Vec<u8> {
            let stations: Vec<usize> = match kind {
                Kind::Pick(f) => lay.dispensers_of(f).collect(),
                Kind::Chop(_) => lay.of_kind(StationKind::Board).collect(),
                Kind::Stove(_) => lay.of_kind(StationKind::Stove).collect(),
                Kind::Plate => lay.plate_counters().collect(),
                Kind::Serve => lay.of_kind(StationKind::Window).collect(),
            };
            stations
                .iter()
                .flat_map(|&s| lay.stations[s].access.iter().copied())
                .collect()
        };
        let cells: Vec<Vec<u8>> = kinds.iter().map(|&v| cells_of(v)).collect();
        let pair = |a: &[u8], b: &[u8]| -> i32 {
            a.iter()
                .flat_map(|&x| b.iter().map(move |&y| lay.dist(x, y)))
                .min()
                .unwrap_or(FAR)
        };
        let leg: Vec<i32> = (0..k * k)
            .map(|ij| pair(&cells[ij / k], &cells[ij % k]))
            .collect();
        let work: Vec<i32> = kinds
            .iter()
            .map(|v| match v {
                Kind::Chop(_) => CHOP_TIME,
                _ => 0,
            })
            .collect();
        let n = lay.cell_count();
        let sets = 1usize << k;
        let mut table = vec![FAR; n * sets];
        let mut dp = vec![FAR; sets * k];
        for c in 0..n {
            dp.fill(FAR);
            for j in 0..k {
                let first = cells[j]
                    .iter()
                    .map(|&a| lay.dist(c as u8, a))
                    .min()
                    .unwrap_or(FAR);
                dp[(1 << j) * k + j] = first.saturating_add(work[j]).min(FAR);
            }
            for set in 1..sets {
                for j in 0..k {
                    let here = dp[set * k + j];
                    // Nothing follows the serve.
                    if here >= FAR || j == 0 {
                        continue;
                    }
                    for next in 0..k {
                        if set & (1 << next) != 0 {
                            continue;
                        }
                        let to = set | (1 << next);
                        let t = here + leg[j * k + next] + work[next];
                        if t < dp[to * k + next] {
                            dp[to * k + next] = t.min(FAR);
                        }
                    }
                }
            }
            let row = &mut table[c * sets..(c + 1) * sets];
            row[0] = 0;
            for set in 1..sets {
                row[set] = if set & 1 != 0 {
                    dp[set * k]
                } else {
                    (0..k).map(|j| dp[set * k + j]).min().unwrap_or(FAR)
                };
            }
        }
        Some(Visits {
            serve: 0,
            kinds,
            table,
        })
    }

    /// The visits still to make from `state`, as a set.
    fn remaining(&self, lay: &Layout, state: &State) -> usize {
        if state.served > 0 {
            return 0;
        }
        let foods = lay.foods.len();
        // Units of each food the kitchen holds, those chopped (or being chopped), and those
        // cooked and off their stoves.
        let mut held = vec![0usize; foods];
        let mut cut = vec![0usize; foods];
        let mut done = vec![0usize; foods];
        let mut count = |f: u8, c: Cut, off_stove: bool| {
            held[f as usize] += 1;
            if c != Cut::Raw {
                cut[f as usize] += 1;
            }
            if c == Cut::Cooked && off_stove {
                done[f as usize] += 1;
            }
        };
        for (s, place) in state.places.iter().enumerate() {
            let stove = lay.stations[s].kind == StationKind::Stove;
            let chopping = state
                .agents
                .iter()
                .any(|a| a.job == Job::Processing(s as u8));
            match place {
                Some(Item::Food(f, c)) => {
                    let c = if chopping && *c == Cut::Raw {
                        Cut::Chopped
                    } else {
                        *c
                    };
                    count(*f, c, true)
                }
                Some(Item::Plate(bag)) => bag.units().for_each(|(f, c)| count(f, c, true)),
                Some(Item::Ware(_, bag, _)) => bag.units().for_each(|(f, c)| count(f, c, !stove)),
                _ => {}
            }
        }
        for a in &state.agents {
            match a.hold {
                Some(Item::Food(f, c)) => count(f, c, true),
                Some(Item::Plate(bag)) | Some(Item::Ware(_, bag, _)) => {
                    bag.units().for_each(|(f, c)| count(f, c, true))
                }
                _ => {}
            }
        }
        let needs = &lay.orders[0].1;
        let mut need_cooked = vec![[0usize; 2]; foods];
        for &(f, c) in needs {
            if let (Cut::Cooked, Some(pan)) = (c, cooks_in(lay, f)) {
                need_cooked[f as usize][usize::from(pan)] += 1;
            }
        }
        // The dish reaches the window on a plate a cook holds, and plates only move in a
        // cook's hand (no plate is washed before the first serve): with none in a hand and
        // all on the counters they start on, a cook must still take one there.
        let plate = state
            .agents
            .iter()
            .all(|a| !matches!(a.hold, Some(Item::Plate(_))))
            && state.places.iter().enumerate().all(|(s, p)| {
                !matches!(p, Some(Item::Plate(_)) | Some(Item::Dirty))
                    || lay.stations[s].start == Some(Start::Plate)
            });
        let mut set = 1 << self.serve;
        for (j, kind) in self.kinds.iter().enumerate() {
            let wanted = match *kind {
                Kind::Pick(f) => take(&mut held[f as usize]),
                Kind::Chop(f) => take(&mut cut[f as usize]),
                Kind::Stove(pan) => (0..foods).any(|f| {
                    need_cooked[f][usize::from(pan)] > 0
                        && done[f] < need_cooked[f][usize::from(pan)]
                }),
                Kind::Plate => plate,
                Kind::Serve => true,
            };
            if wanted {
                set |= 1 << j;
            }
        }
        set
    }

    /// The least, over every way of sharing the remaining visits among the cooks, of the
    /// longest share: when the last of them can be done at the soonest.
    pub(super) fn bound(&self, lay: &Layout, state: &State) -> i32 {
        let mut left = self.remaining(lay, state);
        if left == 0 {
            return 0;
        }
        let sets = 1usize << self.kinds.len();
        let cooks: Vec<(i32, usize)> = state
            .agents
            .iter()
            .map(|a| (i32::from(a.at.max(0)), a.cell as usize * sets))
            .collect();
        // A cook without visits delays nothing, however long its action still runs.
        let share = |i: usize, set: usize| -> i32 {
            let (t, row) = cooks[i];
            if set == 0 {
                0
            } else {
                t.saturating_add(self.table[row + set])
            }
        };
        let mut best = FAR;
        match cooks.len() {
            2 => {
                let mut a = left;
                loop {
                    best = best.min(share(0, a).max(share(1, left & !a)));
                    if a == 0 {
                        break;
                    }
                    a = (a - 1) & left;
                }
            }
            3 => {
                while left.count_ones() as usize > MAX_THREE {
                    // Leave out the highest visit that is not the serve.
                    let top = usize::BITS - 1 - left.leading_zeros();
                    left &= !(1 << top);
                }
                let mut a = left;
                loop {
                    let first = share(0, a);
                    if first < best {
                        let rest = left & !a;
                        let mut b = rest;
                        loop {
                            let t = first.max(share(1, b)).max(share(2, rest & !b));
                            best = best.min(t);
                            if b == 0 {
                                break;
                            }
                            b = (b - 1) & rest;
                        }
                    }
                    if a == 0 {
                        break;
                    }
                    a = (a - 1) & left;
                }
            }
            _ => return 0,
        }
        best.min(FAR)
    }
}

/// The cookware a food cooks in: a pan (true), a pot (false), none.
fn cooks_in(lay: &Layout, food: u8) -> Option<bool> {
    if lay.pan_food(food) {
        Some(true)
    } else if lay.pot_food(food) {
        Some(false)
    } else {
        None
    }
}

/// Takes one from a count; true when there was none to take (a visit is still needed).
fn take(count: &mut usize) -> bool {
    if *count > 0 {
        *count -= 1;
        false
    } else {
        true
    }
}
