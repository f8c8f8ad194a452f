//! The cooks' trips, from the start: the time all cooks together spend walking, chopping
//! and washing, shared among them.
//!
//! Some trips with something in hand happen in every plan:
//! - each unit a dish needs is taken from a dispenser of its food (the only way a unit comes
//!   into being, into an empty hand); one that must be chopped is carried to a board (a raw
//!   unit reaches a board only from a hand: a plate never gives it back and cookware refuses
//!   it), any other to a counter, where the plate or pot it goes into stands;
//! - each dish reaches the window on one chain of carries, which can be followed by one
//!   thing it holds. Either every dish follows its plate since the plate was last clean (on
//!   a counter at the start or out of a sink): a carry of one plate serves one such chain,
//!   whatever it holds. Or every dish follows one of its units: a chopped one since its
//!   board, or another since its dispenser (that unit's own trip then ends at the window);
//!   contents move only all together (a plate takes all of a container, cookware empties
//!   whole), so whatever rides with that unit ends in its dish. Not a mix of the two: a plate
//!   emptied into another on a counter may serve a later dish, so its carries since it was
//!   clean may have held another dish's unit. The bound is the larger of the two, each dish
//!   following the unit with the longest way to go;
//! - each order past the plates the kitchen has needs a wash: a dirty plate taken at the
//!   return and carried to a sink.
//!
//! A trip may pass through several hands, put down on a counter and taken up from its far
//! side: so each counts at least its distance in the item metric, where crossing a counter
//! that can hold what it carries is free (a stove only where the trip may hold cookware,
//! never a sink: see the metrics in the module above). A hand holds one thing, and what it
//! holds belongs to one trip at a time, so one cook's trips never overlap: between two of
//! them it walks from where the one ended to where the next began. Following each trip's
//! end to the next trip's start along the cooks' walks, and back across the counters where a
//! trip changed hands (free in the item metric), matches every trip's end or cook's start with
//! another trip's start or nothing, one to one, at no more than the plan walks. So the
//! cheapest such matching (an assignment problem) plus the trips' own lengths, the chops'
//! 4 and the washes' 6 is at most the cooks' busy time together, and the plan lasts at least
//! that shared among the cooks. Chops and washes count as time alone, with no place in the
//! matching: the game lets a cook chop with something in hand.
//!
//! Nothing here depends on when cookware cooks, so the bound holds under both rule sets.

use super::super::oracle::layout::{Layout, StationKind, CHOP_TIME, FAR, WASH_TIME};

/// A trip every plan makes, from a cell of `from` to a cell of `to`, something in hand.
struct Trip {
    from: Vec<u8>,
    to: Vec<u8>,
}

/// What each dish's trip to the window follows (see the module docs): every carry on one
/// dish's chain holds that thing and nothing of another trip.
#[derive(Clone, Copy)]
enum Follow {
    /// Each dish's plate, since it was last clean.
    Plates,
    /// One unit of each dish: a chopped one since its board, another since its dispenser.
    Units,
}

/// The trips bound of a kitchen from its start, in item metrics with counters crossed free
/// (`[a * n + b]`): `carry` crossing those that hold anything, `ware` also stoves. Where
/// every dish follows its plate, no trip holds cookware, and `carry` holds for all of them
/// and for the walks back across; where it follows a unit, that unit may ride in cookware.
pub(super) fn trips(lay: &Layout, carry: &[i32], ware: &[i32]) -> i32 {
    following(lay, carry, Follow::Plates).max(following(lay, ware, Follow::Units))
}

/// The trips bound with each dish's trip to the window following `follow`.
fn following(lay: &Layout, item: &[i32], follow: Follow) -> i32 {
    let n = lay.cell_count();
    let cells = |kinds: &[StationKind]| lay.sides_of(kinds);
    let boards = cells(&[StationKind::Board]);
    let counters = cells(&[
        StationKind::Table,
        StationKind::Dispenser,
        StationKind::Board,
        StationKind::Stove,
    ]);
    let sinks = cells(&[StationKind::Sink]);
    let windows = cells(&[StationKind::Window]);
    let returns = cells(&[StationKind::Return]);
    let plates = lay.plate_counters().count();
    let mut plates_from: Vec<u8> = lay
        .plate_counters()
        .flat_map(|s| lay.stations[s].access.iter().copied())
        .chain(sinks.iter().copied())
        .collect();
    plates_from.sort_unstable();
    plates_from.dedup();

    let leg = |a: &[u8], b: &[u8]| -> i64 {
        a.iter()
            .flat_map(|&x| b.iter().map(move |&y| item[x as usize * n + y as usize]))
            .min()
            .map_or(i64::from(FAR), i64::from)
    };
    let mut trips: Vec<Trip> = Vec::new();
    let mut work: i64 = 0;
    for (_, needs) in &lay.orders {
        // Following units: the one whose chain to the window is longest (a chopped one: its
        // chain from the board, a trip of its own; another: its own trip, to the window).
        let mut longest: Option<(i64, Option<usize>)> = None;
        for &(food, need) in needs {
            let from: Vec<u8> = lay
                .dispensers_of(food)
                .flat_map(|d| lay.stations[d].access.iter().copied())
                .collect();
            let chop = lay.must_chop(food, need);
            let candidate = if chop {
                work += i64::from(CHOP_TIME);
                (leg(&boards, &windows), None)
            } else {
                (leg(&from, &windows), Some(trips.len()))
            };
            if longest.is_none_or(|(l, _)| candidate.0 > l) {
                longest = Some(candidate);
            }
            let to = if chop { &boards } else { &counters };
            trips.push(Trip {
                from,
                to: to.clone(),
            });
        }
        match (follow, longest) {
            (Follow::Plates, _) => trips.push(Trip {
                from: plates_from.clone(),
                to: windows.clone(),
            }),
            (Follow::Units, Some((_, None))) => trips.push(Trip {
                from: boards.clone(),
                to: windows.clone(),
            }),
            (Follow::Units, Some((_, Some(k)))) => trips[k].to = windows.clone(),
            (Follow::Units, None) => {}
        }
    }
    for _ in plates..lay.orders.len() {
        work += i64::from(WASH_TIME);
        trips.push(Trip {
            from: returns.clone(),
            to: sinks.clone(),
        });
    }

    for t in &trips {
        work += leg(&t.from, &t.to);
    }
    // Rows: the trips' ends, then the cooks' starts; columns: the trips' starts, then the
    // cooks' last ends (nothing follows), at no cost.
    let (k, m) = (trips.len(), lay.agents.len());
    let starts: Vec<Vec<u8>> = lay.agents.iter().map(|&(_, c)| vec![c]).collect();
    let cost: Vec<Vec<i64>> = trips
        .iter()
        .map(|t| &t.to)
        .chain(&starts)
        .map(|end| {
            trips
                .iter()
                .map(|next| leg(end, &next.from))
                .chain(std::iter::repeat_n(0, m))
                .collect()
        })
        .collect();
    debug_assert_eq!(cost.len(), k + m);
    let total = work + assignment(&cost);
    let m = m.max(1) as i64;
    ((total + m - 1) / m).min(i64::from(FAR)) as i32
}

/// The least total cost of matching every row of the square matrix `cost` to its own column
/// (the Hungarian method with potentials, `O(n³)`; no crate the project uses solves the
/// assignment problem, and a linear programme per prefix would be heavier).
fn assignment(cost: &[Vec<i64>]) -> i64 {
    let n = cost.len();
    let inf = i64::MAX / 4;
    // Potentials of rows and columns, 1-based; `owner[j]` is the row matched to column `j`.
    let (mut u, mut v) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    let mut owner = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for row in 1..=n {
        owner[0] = row;
        let mut j0 = 0;
        let mut slack = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = owner[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let reduced = cost[i0 - 1][j - 1] - u[i0] - v[j];
                    if reduced < slack[j] {
                        slack[j] = reduced;
                        way[j] = j0;
                    }
                    if slack[j] < delta {
                        delta = slack[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[owner[j]] += delta;
                    v[j] -= delta;
                } else {
                    slack[j] -= delta;
                }
            }
            j0 = j1;
            if owner[j0] == 0 {
                break;
            }
        }
        while j0 != 0 {
            let j1 = way[j0];
            owner[j0] = owner[j1];
            j0 = j1;
        }
    }
    (1..=n).map(|j| cost[owner[j] - 1][j - 1]).sum()
}

#[cfg(test)]
mod tests {
    use super::assignment;
    use proptest::prelude::*;

    /// The cheapest of all `n!` matchings.
    fn brute(cost: &[Vec<i64>]) -> i64 {
        fn go(cost: &[Vec<i64>], row: usize, used: &mut Vec<bool>) -> i64 {
            if row == cost.len() {
                return 0;
            }
            let mut best = i64::MAX;
            for j in 0..cost.len() {
                if !used[j] {
                    used[j] = true;
                    best = best.min(cost[row][j] + go(cost, row + 1, used));
                    used[j] = false;
                }
            }
            best
        }
        go(cost, 0, &mut vec![false; cost.len()])
    }

    proptest! {
        #[test]
        fn the_hungarian_method_finds_the_cheapest_matching(
            cost in (1usize..=6).prop_flat_map(|n| {
                prop::collection::vec(prop::collection::vec(0i64..20, n), n)
            })
        ) {
            prop_assert_eq!(assignment(&cost), brute(&cost));
        }
    }
}
