//! The search for shortest plans: the kitchen as a [`World`] for `makespan_world::search`
//! (A*), with an admissible lower bound and symmetry reduction over stations.
//!
//! - **Steps.** With one robot a search step is a local action, `Do nothing`, or a move
//!   followed at once by a local action at the new station (2 steps). No plan is lost: a move
//!   followed by a move or by `Do nothing` leaves the same state as `Do nothing` and then
//!   the second move, and the goal never names where the robot is. With several robots
//!   every valid action is a step (one action per global step, any robot, as the release
//!   backend runs them).
//! - **Symmetry.** Stations of one kind and items of one kind are interchangeable, so each
//!   state is stored under a canonical labelling ([`super::symmetry`]). The plan is mapped
//!   back to the kitchen's names by replaying it.
//! - **Bound.** The larger of two admissible bounds: (a) the actions the goal still needs,
//!   per goal variable the cheapest candidate (cuts left, a cook or fry not started, the
//!   pick and put of every station the item must still go to, the move each such carry
//!   needs between stations of different kinds (a held item's too, unless its robot stands
//!   where it goes), the move to an item before its first pick (one per robot with an empty
//!   hand may be saved), with one robot the move back to a cooked or fried item (or the
//!   idle steps beside it), three steps (unstack, move, put) for each item the goal does
//!   not name stacked on an item to pick, with one robot the put-down and pick-up again of a held
//!   item whose stack or add must wait for work that needs the hand (the item below still to be
//!   cut, cooked or carried; no water yet and no fill running), a dish's top lying in place under
//!   another item while a part of that dish has no candidate below it (the top leaves the stack and
//!   comes back: nothing is put under an item), the fill, boil and pour of each soup and the
//!   carries of its pot and bowl, bringing an empty pot to a sink for a water not yet made (a pot
//!   whose fill runs at its sink makes a second water only after a pour and a place, or at another
//!   sink), and a new fill for each water beyond the fills under way), summed because each action
//!   acts on one object and one robot carries one thing at a time, and the larger of that sum with
//!   dishes assigned to tables (the parts of one dish of one kind taking distinct items) and of the
//!   same sum with the variables of one kind taking distinct objects (the goal's grounding is
//!   injective: a finished dish's item serves no second dish); (b) the longest chain of timers
//!   still ahead (a cook, fry, fill or boil takes 4 steps from its action, and the item or pot must
//!   be carried there first and away after).
//! - **Incumbent.** Before A*, a quick plan that proves nothing, the shortest of: the goal
//!   reached part by part (dish by dish, a dish out of quick reach literal by literal, and
//!   literal by literal throughout: `staged`), weighted A* on the whole goal, and beams of
//!   growing width; each is shortened by dropping actions it does not need and replayed
//!   before it is kept. A* then keeps only the states that can still beat it, so a short
//!   incumbent also makes the proof cheaper.
//! - **Caps.** The states kept are capped at what fits in 3.5 GB by a generous estimate
//!   of a state's size (fewer if `Limits::max_states` says so), and a capped search ends
//!   in `Feasible` or `Unknown` with the bound it proved, never in an abort.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use makespan_model::solution::Status;
use makespan_world::{beam, search_below, Limits, Outcome, World};
use rustc_hash::FxHashMap;

use super::goal::{Literal, Obj};
use super::kitchen::{Kitchen, StationKind};
use super::rules::{
    Act, EffectKind, Hand, ItemPlace, State, DELAY, F_COOKED, F_CUT, F_FRIED, F_FRYABLE,
    F_FRYABLE_IF_CUT, NONE,
};
use super::symmetry::Symmetry;

/// A search step: one action, or a move and the action after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move2 {
    /// The first action.
    pub first: Act,
    /// The action right after it, for a move.
    pub then: Option<Act>,
}

/// What the bound needs of each goal variable: the predicates named of it.
#[derive(Debug, Clone, Default)]
struct Needs {
    cut: bool,
    cook: bool,
    fry: bool,
    /// Literals that place it (`item_on`, `item_at`, `atop` as the upper item).
    place: Vec<usize>,
    /// `addedto(it, water)`.
    add: bool,
    /// `container_at(it, table)`.
    container_at: Vec<usize>,
    /// `in(it, bowl)`.
    poured: bool,
    /// `isboiling(it)`.
    boil: bool,
    /// `clear(it)`: the top of its dish.
    clear: bool,
    /// `addedto(_, it)`: the water must be made.
    made: bool,
    /// For the top of a dish (`clear`): the dish's other named variables whose candidates
    /// are items (they all end below it).
    under: Vec<usize>,
}

/// A kitchen to search.
pub struct KitchenWorld<'a> {
    k: &'a Kitchen,
    needs: Vec<Needs>,
    single: bool,
    /// Interchangeable stations and items.
    symmetry: Symmetry,
    /// Per goal variable: the station variable of the dish it is placed in, if any.
    dish: Vec<Option<usize>>,
    /// The station variables that dishes are placed in.
    dish_vars: Vec<usize>,
    /// Per variable: its position in `dish_vars` (`usize::MAX` for the others).
    dish_depth: Vec<usize>,
    /// Per station variable of `dish_vars`: the variables placed in its dish.
    dishes: Vec<Dish>,
    /// Per variable placed in a dish: where its candidates' [`Anchored`] start in the
    /// bound's table (`usize::MAX` for the others), and the table's length.
    anchor_at: Vec<usize>,
    anchored_len: usize,
    /// The named variables whose candidates are all objects, by kind (the matched sum
    /// assigns them distinct objects), and the other named variables.
    matched_kinds: Vec<Vec<usize>>,
    unmatched: Vec<usize>,
    /// Search without the bound (uniform cost), to check the bound against.
    blind: bool,
    /// The items some named goal variable can take, one bit each.
    goal_items: u64,
    /// Whether a goal literal names a robot or where robots stand (a move can change it).
    goal_names_robots: bool,
    /// States generated so far (for speed reports).
    generated: AtomicU64,
}

impl<'a> KitchenWorld<'a> {
    /// The world of a kitchen.
    pub fn new(k: &'a Kitchen) -> KitchenWorld<'a> {
        let mut needs = vec![Needs::default(); k.goal.vars.len()];
        for (l, lit) in k.goal.literals.iter().enumerate() {
            if let ("addedto", [_, w]) = (lit.pred.as_str(), &lit.args[..]) {
                needs[*w].made = true;
            }
            let Some(&v) = lit.args.first() else { continue };
            let n = &mut needs[v];
            match lit.pred.as_str() {
                "iscut" => n.cut = true,
                "iscooked" => n.cook = true,
                "isfried" => n.fry = true,
                "item_on" | "item_at" | "atop" => n.place.push(l),
                "addedto" => n.add = true,
                "container_at" => n.container_at.push(l),
                "in" => n.poured = true,
                "isboiling" => n.boil = true,
                "clear" => n.clear = true,
                _ => {}
            }
        }
        // The dish of each variable: the station its placing literals lead to.
        let mut dish: Vec<Option<usize>> = vec![None; k.goal.vars.len()];
        for _ in 0..=k.goal.vars.len() {
            for lit in &k.goal.literals {
                if let [v, w] = lit.args[..] {
                    match lit.pred.as_str() {
                        "item_on" | "item_at" | "container_at" => dish[v] = Some(w),
                        "atop" if dish[v].is_none() => dish[v] = dish[w],
                        _ => {}
                    }
                }
            }
        }
        for v in 0..needs.len() {
            let Some(t) = dish[v].filter(|_| needs[v].clear) else {
                continue;
            };
            needs[v].under = (0..k.goal.vars.len())
                .filter(|&u| u != v && k.goal.vars[u].used && dish[u] == Some(t))
                .filter(|&u| {
                    k.goal.vars[u]
                        .domain
                        .iter()
                        .all(|o| matches!(o, Obj::Item(_)))
                })
                .collect();
        }
        let mut dish_vars: Vec<usize> = dish.iter().flatten().copied().collect();
        dish_vars.sort_unstable();
        dish_vars.dedup();
        let mut dish_depth = vec![usize::MAX; k.goal.vars.len()];
        for (n, &t) in dish_vars.iter().enumerate() {
            dish_depth[t] = n;
        }
        let mut anchor_at = vec![usize::MAX; k.goal.vars.len()];
        let mut anchored_len = 0;
        for (v, var) in k.goal.vars.iter().enumerate() {
            if var.used && dish[v].is_some() {
                anchor_at[v] = anchored_len;
                anchored_len += var.domain.len();
            }
        }
        let mut matched_kinds: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut unmatched = Vec::new();
        for (v, var) in k.goal.vars.iter().enumerate() {
            if !var.used {
                continue;
            }
            let objects = |o: &Obj| matches!(o, Obj::Item(_) | Obj::Meal(_) | Obj::Container(_));
            if !var.domain.iter().all(objects) || var.domain.is_empty() {
                unmatched.push(v);
                continue;
            }
            match matched_kinds.iter_mut().find(|g| g.0 == var.group) {
                Some(g) => g.1.push(v),
                None => matched_kinds.push((var.group, vec![v])),
            }
        }
        let matched_kinds = matched_kinds.into_iter().map(|(_, g)| g).collect();
        let dishes = dish_vars
            .iter()
            .map(|&t| Dish::new(&k.goal.vars, &dish, t))
            .collect();
        let goal_items = k
            .goal
            .vars
            .iter()
            .filter(|v| v.used)
            .flat_map(|v| &v.domain)
            .fold(0u64, |bits, o| match o {
                Obj::Item(i) => bits | 1 << i,
                _ => bits,
            });
        let goal_names_robots = k.goal.literals.iter().any(|l| {
            matches!(
                l.pred.as_str(),
                "loc" | "vacant" | "nothing" | "has_item" | "has_container" | "isrobot"
            )
        });
        KitchenWorld {
            goal_items,
            goal_names_robots,
            blind: false,
            dish,
            dish_vars,
            dish_depth,
            dishes,
            anchor_at,
            anchored_len,
            matched_kinds,
            unmatched,
            k,
            needs,
            single: k.robots.len() == 1,
            symmetry: Symmetry::new(k),
            generated: AtomicU64::new(0),
        }
    }

    /// The bound at the start.
    pub fn initial_bound(&self) -> i64 {
        self.lower_bound(&self.k.initial)
    }

    /// The cheapest remaining work of variable `v` over its candidates: (actions, chain).
    fn var_cost(&self, state: &State, v: usize, target: Option<u8>) -> (i64, i64) {
        let var = &self.k.goal.vars[v];
        let need = &self.needs[v];
        let mut best: Option<(i64, i64)> = None;
        for &obj in &var.domain {
            let cost = match obj {
                Obj::Item(i) => self.item_cost(state, i, need, target),
                Obj::Container(c) => self.container_cost(state, c, need, target),
                Obj::Meal(m) => self.meal_cost(state, m, need),
                _ => (0, 0),
            };
            best = Some(match best {
                None => cost,
                Some(b) => (b.0.min(cost.0), b.1.min(cost.1)),
            });
        }
        best.unwrap_or((0, 0))
    }

    /// Whether item `i` is at station `s` now with every placing literal of variable `v`
    /// holding there.
    fn placed_at(&self, state: &State, i: u8, v: usize, s: u8) -> bool {
        state.items[i as usize].place.station() == Some(s)
            && self.needs[v]
                .place
                .iter()
                .all(|&l| self.place_now(state, i, &self.k.goal.literals[l], Some(s)))
    }

    /// Whether a placing literal could hold now for item `i` with some candidates, its dish
    /// being at `target` when that is known.
    fn place_now(&self, state: &State, i: u8, lit: &Literal, target: Option<u8>) -> bool {
        let other = &self.k.goal.vars[lit.args.get(1).copied().unwrap_or(0)];
        let place = state.items[i as usize].place;
        let there = |s: u8| target.is_none_or(|t| t == s);
        match lit.pred.as_str() {
            "item_on" => {
                matches!(place, ItemPlace::On(s) if there(s) && other.domain.contains(&Obj::Station(s)))
            }
            "item_at" => place
                .station()
                .is_some_and(|s| there(s) && other.domain.contains(&Obj::Station(s))),
            "atop" => {
                matches!(place, ItemPlace::Atop(b, s) if there(s) && other.domain.contains(&Obj::Item(b)))
            }
            _ => true,
        }
    }

    /// The work of goal object `c` for a variable with needs `need`, its dish being at
    /// `target` when that is known.
    fn object_cost(&self, state: &State, c: Obj, need: &Needs, target: Option<u8>) -> (i64, i64) {
        match c {
            Obj::Item(i) => self.item_cost(state, i, need, target),
            Obj::Container(c) => self.container_cost(state, c, need, target),
            Obj::Meal(m) => self.meal_cost(state, m, need),
            _ => (0, 0),
        }
    }

    /// [`KitchenWorld::object_cost`] of `c` for variable `v` with its dish at the station
    /// `c` is at (or its holder stands at) and anywhere else: the work depends on the
    /// dish's station through nothing else.
    fn anchored(&self, state: &State, c: Obj, v: usize, need: &Needs) -> Anchored {
        let (anchor, on) = match c {
            Obj::Item(i) => {
                let place = state.items[i as usize].place;
                let at = place.station().or_else(|| state.holder(Hand::Item(i)));
                (at.unwrap_or(NONE), place.station())
            }
            Obj::Container(c) => (state.containers[c as usize].at, None),
            _ => (NONE, None),
        };
        // A station no dish can stand on stands for "anywhere else".
        let away = self.object_cost(state, c, need, Some(NONE));
        let here = if anchor == NONE {
            away
        } else {
            self.object_cost(state, c, need, Some(anchor))
        };
        let placed = match c {
            Obj::Item(i) => anchor != NONE && on.is_some() && self.placed_at(state, i, v, anchor),
            _ => false,
        };
        Anchored {
            anchor,
            on,
            here,
            away,
            placed,
        }
    }

    /// Whether held item `i` could meet every placing literal of its variable by being put
    /// down at station `at` (its dish being at `target` when that is known): for `atop`, a
    /// candidate for the item below must lie there already, since nothing else can be put
    /// on the station while the robot holding `i` stands there.
    fn place_here(&self, state: &State, i: u8, need: &Needs, target: Option<u8>, at: u8) -> bool {
        if target.is_some_and(|t| t != at) {
            return false;
        }
        need.place.iter().all(|&l| {
            let lit = &self.k.goal.literals[l];
            let other = &self.k.goal.vars[lit.args.get(1).copied().unwrap_or(0)];
            match lit.pred.as_str() {
                "item_on" | "item_at" => other.domain.contains(&Obj::Station(at)),
                "atop" => other.domain.iter().any(|o| {
                    matches!(o, Obj::Item(b) if *b != i
                        && state.items[*b as usize].place.station() == Some(at))
                }),
                _ => true,
            }
        })
    }

    fn item_cost(&self, state: &State, i: u8, need: &Needs, target: Option<u8>) -> (i64, i64) {
        let it = state.items[i as usize];
        let held = it.place == ItemPlace::Held;
        if it.place == ItemPlace::Nowhere && !held {
            // Added to a soup (or never placed): nothing more can be done with it.
            let placed = need.place.is_empty() && !need.cut && !need.cook && !need.fry;
            return if placed || need.add {
                (0, 0)
            } else {
                (INFEASIBLE, INFEASIBLE)
            };
        }
        let flags = it.flags;
        let station_kind = |s: u8| self.k.stations[s as usize].1;
        // Where the robot holding it stands: a held item reaches a station of another
        // kind only by a move (nothing else can be put on that robot's station meanwhile:
        // one robot stands at a station, and only it can place there).
        let holder = match held {
            true => state.holder(Hand::Item(i)).filter(|&s| s != NONE),
            false => None,
        };
        let on_kind = match it.place {
            ItemPlace::On(s) => Some(station_kind(s)),
            _ => holder.map(station_kind),
        };
        let cut_left = if (need.cut && flags & F_CUT == 0)
            || (need.fry
                && flags & F_FRYABLE == 0
                && flags & F_FRYABLE_IF_CUT != 0
                && flags & F_CUT == 0)
        {
            i64::from(state.cuts_left(i))
        } else {
            0
        };
        // Frying an item that is fryable only once cut waits for its cuts.
        let cut_before_fry = need.fry
            && flags & F_FRYABLE == 0
            && flags & F_FRYABLE_IF_CUT != 0
            && flags & F_CUT == 0;
        let active = |kind: EffectKind| {
            state
                .effects
                .iter()
                .find(|e| {
                    e.kind == kind && e.a == i && !e.completed && it.place == ItemPlace::On(e.b)
                })
                .map(|e| i64::from(DELAY - e.count))
        };
        // Stages: the kinds of station the item must still lie on, in order.
        let mut actions = cut_left;
        let mut stages: Vec<StationKind> = Vec::new();
        if cut_left > 0 {
            stages.push(StationKind::Board);
        }
        let mut timer = 0;
        let mut timer_active = false;
        if need.cook && flags & F_COOKED == 0 {
            match active(EffectKind::Cook) {
                Some(t) => {
                    timer = t;
                    timer_active = true;
                }
                None => {
                    actions += 1;
                    timer = i64::from(DELAY);
                    stages.push(StationKind::Stove);
                }
            }
        }
        if need.fry && flags & F_FRIED == 0 {
            match active(EffectKind::Fry) {
                Some(t) => {
                    timer = timer.max(t);
                    timer_active = true;
                }
                None => {
                    actions += 1;
                    timer = i64::from(DELAY);
                    stages.push(StationKind::Fryer);
                }
            }
        }
        let processing = !stages.is_empty() || timer_active;
        let final_place = !need.place.is_empty()
            && (processing
                || !need
                    .place
                    .iter()
                    .all(|&l| self.place_now(state, i, &self.k.goal.literals[l], target)));
        // The top of a dish lies in place but under something, and some other part of the
        // dish has no candidate below it: that part must still come under it, so it leaves
        // its station in hand and comes back (a pick, a move away, a move back and the
        // stack; with one robot also the put-down and pick-up in between, since its hand
        // must carry that part).
        if !final_place && !processing && self.buried(state, i, need) {
            let n = if self.single { 6 } else { 4 };
            return (n + 1, 0);
        }
        // Carries: to each stage not already under it, then to the dish.
        let mut carries = 0;
        let mut moves = 0;
        let mut current = on_kind;
        let mut first_from_hand = held;
        let mut pre = 0; // steps before the timer's action
        for &stage in &stages {
            if current == Some(stage) && carries == 0 && it.place.station().is_some() {
                continue;
            }
            carries += 1;
            let step = if first_from_hand { 1 } else { 2 };
            let mv = i64::from(current != Some(stage));
            actions += step;
            moves += mv;
            if stage != StationKind::Board || cut_before_fry {
                pre += step + mv;
            }
            first_from_hand = false;
            current = Some(stage);
        }
        let mut post = 0;
        // With one robot, an item it holds whose last action (the stack, the add) must
        // wait for work that needs the robot's hand is put down first and picked up again:
        // two actions on it besides the last, and for an add a move with it to the pot
        // (no pot stands where it was put down: a station holds an item or a container).
        let parked = first_from_hand && holder.is_some() && self.single;
        if final_place && parked && self.waits_for_base(state, i, need) {
            actions += 3;
            post = 3;
        } else if final_place {
            let step = if first_from_hand { 1 } else { 2 };
            let elsewhere = match (target, it.place.station()) {
                (Some(t), Some(s)) => s != t,
                _ => false,
            };
            let mv = match (first_from_hand, holder) {
                (true, Some(at)) => i64::from(!self.place_here(state, i, need, target, at)),
                (true, None) => 0,
                (false, _) => i64::from(
                    processing || elsewhere || current.is_some_and(|k| k != StationKind::Table),
                ),
            };
            actions += step;
            moves += mv;
            post = step + mv;
        } else if need.add && parked && !self.water_ahead(state) {
            actions += 4;
            post = 4;
        } else if need.add {
            let step = if first_from_hand { 1 } else { 2 };
            // The pot stands on another station than the item, unless the two started on
            // one station (a station that holds an item takes no container, and the
            // reverse), and the item has not moved since.
            let shared = carries == 0
                && it
                    .place
                    .station()
                    .is_some_and(|s| state.containers.iter().any(|c| c.at == s));
            let pot_here = |at: u8| {
                (state.containers.iter().enumerate())
                    .any(|(c, cs)| cs.at == at && self.k.containers[c].1)
            };
            let mv = match (first_from_hand, holder) {
                (true, Some(at)) => i64::from(!pot_here(at)),
                (true, None) => 0,
                (false, _) => i64::from(!shared),
            };
            actions += step;
            moves += mv;
            post = step + mv;
        }
        if cut_before_fry {
            pre += cut_left;
        }
        let chain = if timer > 0 { pre + timer + post } else { 0 };
        // The robot must come to the item's station with an empty hand to pick it up the
        // first time (see `lower_bound` for the one pick per robot that may need no move).
        let picked =
            (carries > 0 || final_place || need.add) && !held && it.place.station().is_some();
        // With one robot, an item still to be cooked or fried is picked up again after its
        // timer only once the robot came back to its station (it left) or stayed there
        // idle for the timer's steps: one step no other count holds. (A running timer's
        // return is the move before the pick counted below; other robots could act
        // meanwhile, so not with several.)
        let timer_ahead = stages
            .iter()
            .any(|&s| matches!(s, StationKind::Stove | StationKind::Fryer));
        let comes_back = self.single && timer_ahead && (final_place || need.add);
        // Every item stacked on it that the goal does not name must be taken off first and
        // put down on another station: an unstack, a move and a place.
        let blockers = if picked {
            let mut n = 0;
            let mut above = state.above(i);
            while let Some(j) = above.filter(|&j| self.goal_items & (1 << j) == 0) {
                n += 3;
                above = state.above(j);
            }
            n
        } else {
            0
        };
        (
            actions + moves + i64::from(picked) + i64::from(comes_back) + blockers,
            chain,
        )
    }

    /// Whether item `i`, lying as the top of its dish (`need.clear`), has an item on it
    /// while some other part of the dish has no candidate below it in its stack: the part
    /// can come under `i` only once `i` has left the stack (nothing is put under an item).
    fn buried(&self, state: &State, i: u8, need: &Needs) -> bool {
        if need.under.is_empty() || state.above(i).is_none() {
            return false;
        }
        let mut below = 0u64;
        let mut at = state.items[i as usize].place;
        while let ItemPlace::Atop(b, _) = at {
            below |= 1 << b;
            at = state.items[b as usize].place;
        }
        need.under.iter().any(|&u| {
            !self.k.goal.vars[u]
                .domain
                .iter()
                .any(|o| matches!(o, Obj::Item(b) if below & (1 << b) != 0))
        })
    }

    /// Whether a held item `i` that must go atop another (`need`) can be stacked only after
    /// work that needs the robot's hand: every candidate for the item below still needs
    /// an action (a cut, a cook, a carry: each takes an empty hand or that item in hand),
    /// and none can be done once `i` lies on it (they need it clear), so the robot puts
    /// `i` down before, and picks it up again after.
    fn waits_for_base(&self, state: &State, i: u8, need: &Needs) -> bool {
        need.place.iter().any(|&l| {
            let lit = &self.k.goal.literals[l];
            let Some(&w) = lit.args.get(1).filter(|_| lit.pred == "atop") else {
                return false;
            };
            self.k.goal.vars[w].domain.iter().all(|&o| match o {
                Obj::Item(b) if b != i => self.object_cost(state, o, &self.needs[w], None).0 > 0,
                _ => true,
            })
        })
    }

    /// Whether an item can be added to a water without a hand action first: a water
    /// stands in a pot, or a fill runs (a paused one resumes only once its pot is put
    /// back, and a new fill needs an empty hand).
    fn water_ahead(&self, state: &State) -> bool {
        let in_pot = |c: u8| c != NONE && self.k.containers[c as usize].1;
        state.meals.iter().any(|x| in_pot(x.container))
            || state.effects.iter().any(|e| {
                e.kind == EffectKind::Fill
                    && !e.completed
                    && state.containers[e.a as usize].at == e.b
            })
    }

    fn container_cost(&self, state: &State, c: u8, need: &Needs, target: Option<u8>) -> (i64, i64) {
        if need.container_at.is_empty() {
            return (0, 0);
        }
        let cs = state.containers[c as usize];
        let ok = need.container_at.iter().all(|&l| {
            let lit = &self.k.goal.literals[l];
            let other = &self.k.goal.vars[lit.args.get(1).copied().unwrap_or(0)];
            cs.at != NONE
                && target.is_none_or(|t| t == cs.at)
                && other.domain.contains(&Obj::Station(cs.at))
        });
        if ok {
            return (0, 0);
        }
        let held = state.robots.iter().any(|r| r.hand == Hand::Container(c));
        let n = if held { 1 } else { 3 };
        (n, n)
    }

    fn meal_cost(&self, state: &State, m: u8, need: &Needs) -> (i64, i64) {
        let meal = state.meals.get(m as usize).copied();
        let pour = need.poured
            && meal
                .is_none_or(|x| x.container == NONE || self.k.containers[x.container as usize].1);
        let boil = need.boil && meal.is_none_or(|x| !x.boiling);
        let make = need.made && meal.is_none();
        if !(pour || boil || make) {
            return (0, 0);
        }
        let pot_of = meal.map(|x| x.container);
        let pot_held = |c: u8| state.robots.iter().any(|r| r.hand == Hand::Container(c));
        let mut actions = 0;
        let mut chain = 0;
        let mut pot_on_stove = false;
        let mut pot_in_hand = pot_of.is_some_and(|c| c != NONE && pot_held(c));
        if meal.is_none() {
            // Fill, unless a fill already under way can make this water: each fill makes
            // one water, named in the order they complete, so the `j`-th water still to be
            // made needs a new fill once the `j` fills under way are spoken for (a running
            // one is ready after its ticks left, a paused one once its pot is back).
            let pending = state
                .effects
                .iter()
                .filter(|e| e.kind == EffectKind::Fill && !e.completed);
            let running = pending
                .clone()
                .filter(|e| state.containers[e.a as usize].at == e.b)
                .map(|e| e.count)
                .max();
            let later = (m as usize).saturating_sub(state.meals.len());
            match running {
                Some(count) if later < pending.clone().count() => chain += i64::from(DELAY - count),
                _ if later < pending.count() => chain += 2,
                _ => {
                    // The fill, and bringing an empty pot to a sink unless one stands there
                    // (each fill needs its own: a filled pot empties only when held): a pot
                    // in hand is placed (after a move unless its robot is at a sink); one on
                    // another station is picked up (after a move there, unless an item
                    // shares its station), carried and placed.
                    let is_sink =
                        |s: u8| s != NONE && self.k.stations[s as usize].1 == StationKind::Sink;
                    let fill = (0..self.k.containers.len())
                        .filter(|&c| self.k.containers[c].1 && state.containers[c].empty)
                        .map(|c| {
                            let at = state.containers[c].at;
                            if at == NONE {
                                if state.holder(Hand::Container(c as u8)).is_some_and(is_sink) {
                                    2
                                } else {
                                    3
                                }
                            } else if is_sink(at) {
                                // A fill running at this sink makes only its own water:
                                // another comes from another sink, or once that water
                                // is poured, the pot placed back and filled again.
                                let running = state.effects.iter().any(|e| {
                                    e.kind == EffectKind::Fill
                                        && !e.completed
                                        && usize::from(e.a) == c
                                        && e.b == at
                                });
                                1 + i64::from(running)
                            } else {
                                let shared =
                                    state.items.iter().any(|it| it.place.station() == Some(at));
                                4 + i64::from(!shared)
                            }
                        })
                        .min()
                        .unwrap_or(2);
                    let pot_at_sink = fill == 1;
                    actions += fill;
                    chain += i64::from(DELAY) + if pot_at_sink { 0 } else { 1 };
                }
            }
            pot_in_hand = false;
        } else if let Some(c) = pot_of.filter(|&c| c != NONE) {
            let at = state.containers[c as usize].at;
            pot_on_stove = at != NONE && self.k.stations[at as usize].1 == StationKind::Stove;
        }
        if boil {
            let running = state.effects.iter().find(|e| {
                e.kind == EffectKind::Boil
                    && e.a == m
                    && !e.completed
                    && state.containers[e.b as usize].at == e.c
            });
            match running {
                Some(e) => chain += i64::from(DELAY - e.count),
                None => {
                    actions += 1;
                    if !pot_on_stove {
                        // Carry the pot to a stove: place, and pick and move unless held.
                        let n = if pot_in_hand { 1 } else { 3 };
                        actions += n;
                        chain += n;
                    }
                    chain += i64::from(DELAY);
                }
            }
            pot_in_hand = false;
        }
        if pour {
            let n = if pot_in_hand { 1 } else { 3 };
            actions += n;
            chain += n;
        }
        (actions, chain)
    }
}

/// The variables placed in one dish, as the bound goes through them.
#[derive(Debug, Clone)]
struct Dish {
    /// The named variables placed in it.
    members: Vec<usize>,
    /// Per member: whether all its candidates are items.
    all_items: Vec<bool>,
    /// The members by kind (positions in `members`), with the number of candidates of
    /// that kind (the variables of one kind share their candidates).
    kinds: Vec<(usize, Vec<usize>)>,
}

impl Dish {
    fn new(vars: &[super::goal::Var], dish: &[Option<usize>], t: usize) -> Dish {
        let members: Vec<usize> = (0..vars.len())
            .filter(|&v| vars[v].used && dish[v] == Some(t))
            .collect();
        let mut kinds: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        for (m, &v) in members.iter().enumerate() {
            match kinds.iter_mut().find(|g| g.0 == vars[v].group) {
                Some(g) => g.2.push(m),
                None => kinds.push((vars[v].group, vars[v].domain.len(), vec![m])),
            }
        }
        Dish {
            all_items: (members.iter())
                .map(|&v| vars[v].domain.iter().all(|c| matches!(c, Obj::Item(_))))
                .collect(),
            members,
            kinds: kinds.into_iter().map(|(_, w, g)| (w, g)).collect(),
        }
    }
}

/// A kind's index, how many goal variables of that kind, and its items (one bit each).
type KindCount = (usize, usize, u64);

/// A goal object's work for one variable, with its dish at the object's own station or
/// elsewhere ([`KitchenWorld::anchored`]).
#[derive(Debug, Clone, Copy)]
struct Anchored {
    /// The station it is at or its holder stands at ([`NONE`]: neither).
    anchor: u8,
    /// The station it lies at (not when held).
    on: Option<u8>,
    /// (work, chain) with its dish at `anchor`.
    here: (i64, i64),
    /// (work, chain) with its dish at any other station.
    away: (i64, i64),
    /// Whether it lies at `anchor` with every placing literal holding there.
    placed: bool,
}

/// A cost no plan pays: the state cannot reach the goal (an item the goal needs was
/// added to a soup).
const INFEASIBLE: i64 = 1 << 40;

impl World for KitchenWorld<'_> {
    type State = State;
    type Action = Move2;

    fn initial(&self) -> State {
        self.symmetry.canonical(&self.k.initial).0
    }

    fn is_goal(&self, state: &State) -> bool {
        self.k.goal.reached(self.k, state)
    }

    fn successors(&self, state: &State, out: &mut Vec<(Move2, i64, State)>) {
        if self.single {
            self.fused_successors(state, out, false);
            return;
        }
        self.generated.fetch_add(1, Ordering::Relaxed);
        let mut acts = Vec::new();
        state.valid_actions(self.k, &mut acts);
        for act in acts {
            let mut next = state.clone();
            next.step(act);
            out.push((
                Move2 {
                    first: act,
                    then: None,
                },
                1,
                self.symmetry.canonical(&next).0,
            ));
        }
    }

    fn lower_bound(&self, state: &State) -> i64 {
        if self.blind {
            return 0;
        }
        if self.dead(state) {
            return INFEASIBLE;
        }
        let vars = &self.k.goal.vars;
        let mut total = 0;
        let mut chain = 0;
        // Variables whose place does not depend on a station of the goal.
        for (v, var) in vars.iter().enumerate() {
            if var.used && self.dish[v].is_none() {
                let (a, c) = self.var_cost(state, v, None);
                total += a;
                chain = chain.max(c);
            }
        }
        // Per station variable and candidate station: the work of the dishes placed there.
        let mut work: Vec<Vec<i64>> = Vec::with_capacity(self.dish_vars.len());
        let mut rows: Vec<i64> = Vec::new();
        // An object's work depends on the dish's station only through whether it is the
        // one the object is at (or its holder stands at): computed twice per object, not
        // once per station, and once for both sums.
        let mut table: Vec<Anchored> = Vec::with_capacity(self.anchored_len);
        for (v, var) in vars.iter().enumerate() {
            if self.anchor_at[v] != usize::MAX {
                let need = &self.needs[v];
                table.extend(var.domain.iter().map(|&c| self.anchored(state, c, v, need)));
            }
        }
        for (&t, dish) in self.dish_vars.iter().zip(&self.dishes) {
            let candidates = &vars[t].domain;
            let mut per = vec![0i64; candidates.len()];
            let members = &dish.members;
            let costs: Vec<&[Anchored]> = (members.iter())
                .map(|&v| &table[self.anchor_at[v]..self.anchor_at[v] + vars[v].domain.len()])
                .collect();
            let mut chains = vec![i64::MAX; members.len()];
            // The stations some object is anchored at: every other candidate station gives
            // the same sum (the work depends on the station only through them).
            let anchors = (costs.iter().flat_map(|row| row.iter()))
                .filter(|a| a.anchor != NONE)
                .fold(0u64, |b, a| b | 1 << a.anchor);
            let mut elsewhere: Option<i64> = None;
            for (n, obj) in candidates.iter().enumerate() {
                let target = match *obj {
                    Obj::Station(s) => Some(s),
                    _ => None,
                };
                let plain = target.is_some_and(|s| anchors & 1 << s == 0);
                if let Some(sum) = elsewhere.filter(|_| plain) {
                    per[n] = sum;
                    continue;
                }
                // Variables that must still be brought to `s`: no candidate is there now.
                let arrives = |m: usize| {
                    target.is_some_and(|s| {
                        dish.all_items[m] && !costs[m].iter().any(|a| a.placed && a.anchor == s)
                    })
                };
                let arriving: u64 = (0..members.len())
                    .filter(|&m| arrives(m))
                    .fold(0, |b, m| b | 1 << m);
                // Per kind, each member's work with each of its candidates; the members
                // of one kind take distinct objects.
                for (m, &v) in members.iter().enumerate() {
                    if costs[m].is_empty() {
                        chains[m] = 0;
                    }
                    for (a, &c) in costs[m].iter().zip(&vars[v].domain) {
                        let ch = match target {
                            None => self.object_cost(state, c, &self.needs[v], None).1,
                            Some(s) if s == a.anchor => a.here.1,
                            Some(_) => a.away.1,
                        };
                        chains[m] = chains[m].min(ch);
                    }
                }
                let mut sum = 0i64;
                for (width, group) in &dish.kinds {
                    rows.clear();
                    for &m in group {
                        let v = members[m];
                        // The top of the dish lies there now, and another part must go
                        // under it: it leaves and comes back (two carries, a move with it
                        // each way, a move to it before each pick; with several robots
                        // the one holding it may step aside and back instead: a pick,
                        // two moves and the stack, after a move to it).
                        let top_must_leave = self.needs[v].clear && arriving & !(1 << m) != 0;
                        for (a, &c) in costs[m].iter().zip(&vars[v].domain) {
                            let work = match target {
                                None => match c {
                                    Obj::Item(_) | Obj::Container(_) | Obj::Meal(_) => {
                                        self.object_cost(state, c, &self.needs[v], None).0
                                    }
                                    _ => 0,
                                },
                                Some(s) if s == a.anchor => a.here.0,
                                Some(_) => a.away.0,
                            };
                            let on_it = target.is_some() && a.on == target;
                            rows.push(if top_must_leave && on_it {
                                work.max(if self.single { 8 } else { 5 })
                            } else {
                                work
                            });
                        }
                    }
                    sum = sum.saturating_add(cheapest_distinct(&rows, *width, 0, 0));
                }
                per[n] = sum.min(INFEASIBLE);
                if plain {
                    elsewhere = Some(per[n]);
                }
            }
            chain = chain.max(chains.into_iter().max().unwrap_or(0));
            work.push(per);
        }
        let unmatched: i64 = (self.unmatched.iter())
            .map(|&v| self.var_cost(state, v, None).0)
            .sum();
        let leaf =
            |stations: &[(usize, Obj)]| self.matched(state, &table, Some(stations), unmatched);
        let total = self
            .cheapest_assignment(&work, total, &leaf)
            .max(self.matched(state, &table, None, unmatched));
        // Each robot with an empty hand may make its first pick where it stands, without a
        // move (a robot that holds something must put it down first, and then the only
        // thing it can pick up where it stands is what it put down).
        let free = state
            .robots
            .iter()
            .filter(|r| r.hand == Hand::Nothing)
            .count();
        let total = total - free as i64;
        total.max(chain).clamp(0, INFEASIBLE)
    }
}

impl KitchenWorld<'_> {
    /// Every robot's local actions and `Do nothing`, and each move of a robot followed at
    /// once by a local action of that robot at its new station (see the module docs: with
    /// one robot no plan is lost). With several robots each move alone is a step too (a
    /// robot may step aside to let another in), so the fused steps only shorten the quick
    /// searches' way to a plan.
    ///
    /// With `quick`, steps that only shuffle what the goal does not name are left out
    /// ([`KitchenWorld::aimless`]): no plan is lost that matters for a quick plan, and the
    /// bound, which such steps do not change, no longer leads the quick searches astray.
    fn fused_successors(&self, state: &State, out: &mut Vec<(Move2, i64, State)>, quick: bool) {
        self.generated.fetch_add(1, Ordering::Relaxed);
        let mut acts = Vec::new();
        let mut push = |first: Act, then: Option<Act>, next: State, cost: i64| {
            out.push((
                Move2 { first, then },
                cost,
                self.symmetry.canonical(&next).0,
            ));
        };
        for p in 0..state.robots.len() as u8 {
            state.local_actions(self.k, p, &mut acts);
        }
        if quick {
            acts.retain(|&a| !self.aimless(state, a));
        }
        acts.push(Act::Wait);
        for act in acts.drain(..) {
            let mut next = state.clone();
            next.step(act);
            push(act, None, next, 1);
        }
        // A goal that names no robot holds after a move exactly when it held before it.
        let goal_after_move = (!self.goal_names_robots).then(|| self.k.goal.reached(self.k, state));
        for p in 0..state.robots.len() as u8 {
            let at = state.robots[p as usize].at;
            if at == NONE {
                continue;
            }
            for s in 0..self.k.stations.len() as u8 {
                if s == at || !state.vacant(s) {
                    continue;
                }
                let mv = Act::Move(p, at, s);
                let mut moved = state.clone();
                moved.step(mv);
                if !self.single {
                    // A robot may step aside only to let another in.
                    push(mv, None, moved.clone(), 1);
                }
                if goal_after_move.unwrap_or_else(|| self.k.goal.reached(self.k, &moved)) {
                    // The goal holds after the move alone: a wait does the same.
                    continue;
                }
                moved.local_actions(self.k, p, &mut acts);
                if quick {
                    acts.retain(|&a| !self.aimless(&moved, a));
                }
                for act in acts.drain(..) {
                    let mut next = moved.clone();
                    next.step(act);
                    push(mv, Some(act), next, 2);
                }
            }
        }
    }

    /// Whether no plan can reach the goal from `state` any more, by two tests that only
    /// look at what can never be undone: an item added to a soup is gone (with the flags it
    /// had), and a soup poured into a bowl takes no more adds. (a) Some kind has fewer items
    /// that can still serve its named variables than there are such variables (they take
    /// distinct items); (b) for some soup variable, every candidate soup has been poured and
    /// holds fewer items of some kind than the goal adds to it. Quick searches drop such states,
    /// which otherwise look cheap (pouring early saves the steps the adds would take).
    fn dead(&self, state: &State) -> bool {
        let vars = &self.k.goal.vars;
        // Per kind: its named variables and the items that can still serve them.
        let mut groups: Vec<KindCount> = Vec::new();
        for (v, var) in vars.iter().enumerate() {
            if !var.used {
                continue;
            }
            let need = &self.needs[v];
            let mut alive = 0u64;
            let mut items = false;
            for obj in &var.domain {
                if let Obj::Item(i) = *obj {
                    items = true;
                    if !self.item_gone(state, i, need) {
                        alive |= 1 << i;
                    }
                }
            }
            if !items {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == var.group) {
                Some(g) => {
                    g.1 += 1;
                    g.2 |= alive;
                }
                None => groups.push((var.group, 1, alive)),
            }
        }
        if groups
            .iter()
            .any(|&(_, n, alive)| (alive.count_ones() as usize) < n)
        {
            return true;
        }
        // Per soup variable: the variables added to it, by kind.
        let mut soups: Vec<(usize, Vec<KindCount>)> = Vec::new();
        for lit in &self.k.goal.literals {
            let [v, w] = lit.args[..] else { continue };
            if lit.pred != "addedto" {
                continue;
            }
            let items = vars[v].domain.iter().fold(0u64, |a, o| match o {
                Obj::Item(i) => a | 1 << i,
                _ => a,
            });
            let at = match soups.iter().position(|s| s.0 == w) {
                Some(at) => at,
                None => {
                    soups.push((w, Vec::new()));
                    soups.len() - 1
                }
            };
            let kinds = &mut soups[at].1;
            match kinds.iter_mut().find(|k| k.0 == vars[v].group) {
                Some(k) => k.1 += 1,
                None => kinds.push((vars[v].group, 1, items)),
            }
        }
        soups.iter().any(|(w, kinds)| {
            !vars[*w].domain.iter().any(|o| {
                let Obj::Meal(m) = *o else { return false };
                match state.meals.get(m as usize) {
                    None => true,
                    Some(meal) => {
                        let in_pot =
                            meal.container != NONE && self.k.containers[meal.container as usize].1;
                        in_pot
                            || kinds.iter().all(|&(_, n, items)| {
                                (meal.added & items).count_ones() as usize >= n
                            })
                    }
                }
            })
        })
    }

    /// Whether item `i` is gone for good for a variable with needs `need`: added to a soup
    /// while the variable needs it placed, or lacking a state it can no longer get.
    fn item_gone(&self, state: &State, i: u8, need: &Needs) -> bool {
        let it = state.items[i as usize];
        if it.place != ItemPlace::Nowhere {
            return false;
        }
        let f = it.flags;
        !need.add
            || !need.place.is_empty()
            || (need.cut && f & F_CUT == 0)
            || (need.cook && f & F_COOKED == 0)
            || (need.fry && f & F_FRIED == 0)
    }

    /// Whether `act` only shuffles what the goal does not name: picking up an item that no
    /// goal variable can take from a table (where it blocks nothing the goal needs), or
    /// stacking anything on such an item.
    fn aimless(&self, state: &State, act: Act) -> bool {
        let named = |i: u8| self.goal_items & (1 << i) != 0;
        match act {
            Act::Pick(_, i, s) => {
                !named(i)
                    && self.k.stations[s as usize].1 == StationKind::Table
                    && state
                        .items
                        .iter()
                        .all(|o| !matches!(o.place, ItemPlace::Atop(b, _) if b == i))
            }
            Act::Stack(_, _, below, _) => !named(below),
            _ => false,
        }
    }

    /// The work of every named variable when the variables of one kind take distinct
    /// objects (the goal's grounding is injective), `unmatched` for the others: another
    /// admissible sum, higher than the dishes' where two dishes would otherwise both count
    /// the one item that is already done. Each item's work is at the station `stations`
    /// gives its dish (the dish variables' stations in the order of `dish_vars`), or at
    /// the cheapest station its dish may stand on.
    fn matched(
        &self,
        state: &State,
        table: &[Anchored],
        stations: Option<&[(usize, Obj)]>,
        unmatched: i64,
    ) -> i64 {
        let vars = &self.k.goal.vars;
        let mut total = unmatched;
        let mut flat: Vec<i64> = Vec::new();
        for members in &self.matched_kinds {
            flat.clear();
            for &v in members {
                let need = &self.needs[v];
                for (n, &o) in vars[v].domain.iter().enumerate() {
                    let Some(t) = self.dish[v] else {
                        flat.push(self.object_cost(state, o, need, None).0);
                        continue;
                    };
                    // At its dish's station (see `anchored`).
                    let a = table[self.anchor_at[v] + n];
                    let at = |target: Obj| match target {
                        Obj::Station(s) if s == a.anchor => a.here.0,
                        Obj::Station(_) => a.away.0,
                        _ => self.object_cost(state, o, need, None).0,
                    };
                    let cost = match stations {
                        Some(fixed) => at(fixed[self.dish_depth[t]].1),
                        None => (vars[t].domain.iter().map(|&target| at(target)))
                            .min()
                            .unwrap_or(INFEASIBLE),
                    };
                    flat.push(cost);
                }
            }
            let width = vars[members[0]].domain.len();
            total += cheapest_distinct(&flat, width, 0, 0);
        }
        total.min(INFEASIBLE)
    }

    /// The least bound over assignments of distinct stations (within a kind) to the
    /// station variables: per assignment the larger of `offset` plus the dishes' work
    /// there and `leaf` of it (the same work with objects distinct across dishes, see
    /// [`KitchenWorld::matched`]); both hold once the dishes' stations are known, so their
    /// larger one does, and the least over assignments covers the one a plan ends with.
    fn cheapest_assignment(&self, work: &[Vec<i64>], offset: i64, leaf: &Leaf<'_>) -> i64 {
        // Each variable's candidates cheapest first, and the least work of the variables
        // after each depth, to cut branches that cannot beat the best bound found.
        let order: Vec<Vec<usize>> = (work.iter())
            .map(|w| {
                let mut o: Vec<usize> = (0..w.len()).collect();
                o.sort_by_key(|&n| w[n]);
                o
            })
            .collect();
        let mut rest = vec![offset; work.len() + 1];
        for d in (0..work.len()).rev() {
            let least = work[d].iter().copied().min().unwrap_or(INFEASIBLE);
            rest[d] = rest[d + 1].saturating_add(least);
        }
        let mut best = INFEASIBLE;
        let mut search = Assignment {
            work,
            order: &order,
            rest: &rest,
            leaf,
            taken: Vec::new(),
            best: &mut best,
        };
        self.assign(&mut search, 0, offset);
        best
    }

    /// [`KitchenWorld::cheapest_assignment`] from `depth` on, `sum` so far (the offset
    /// included); improves the best bound.
    fn assign(&self, a: &mut Assignment<'_>, depth: usize, sum: i64) {
        if depth == self.dish_vars.len() {
            let value = sum.max((a.leaf)(&a.taken));
            *a.best = (*a.best).min(value);
            return;
        }
        let var = &self.k.goal.vars[self.dish_vars[depth]];
        for &n in &a.order[depth] {
            let here = sum.saturating_add(a.work[depth][n]);
            if here.saturating_add(a.rest[depth + 1] - a.rest[self.dish_vars.len()]) >= *a.best {
                break; // the candidates after it cost no less
            }
            let obj = var.domain[n];
            if a.taken.iter().any(|(g, o)| *g == var.group && *o == obj) {
                continue;
            }
            a.taken.push((var.group, obj));
            self.assign(a, depth + 1, here);
            a.taken.pop();
        }
    }
}

/// The bound once the dish variables' stations (with their groups) are chosen.
type Leaf<'a> = dyn Fn(&[(usize, Obj)]) -> i64 + 'a;

/// The state of [`KitchenWorld::cheapest_assignment`]'s search.
struct Assignment<'a> {
    work: &'a [Vec<i64>],
    order: &'a [Vec<usize>],
    /// Per depth: the least work of the variables from there on, plus the offset.
    rest: &'a [i64],
    leaf: &'a Leaf<'a>,
    /// The stations chosen so far, with their variables' groups.
    taken: Vec<(usize, Obj)>,
    best: &'a mut i64,
}

/// The least sum of `costs[row * width + column]` over the rows from `row` on taking
/// distinct columns not in `taken` (a bit per column; rows are the variables of one kind,
/// columns its objects: a handful of each, at most 64).
fn cheapest_distinct(costs: &[i64], width: usize, row: usize, taken: u64) -> i64 {
    if width == 0 {
        return 0;
    }
    let Some(line) = costs.get(row * width..(row + 1) * width) else {
        return 0;
    };
    let mut best = INFEASIBLE;
    for (column, &cost) in line.iter().enumerate() {
        if cost >= best || taken & (1 << column) != 0 {
            continue;
        }
        let rest = cheapest_distinct(costs, width, row + 1, taken | 1 << column);
        best = best.min(cost.saturating_add(rest));
    }
    best
}

/// The share of the time limit the searches that find the incumbent may take (the first
/// beam runs to its end whatever the time when no plan is known yet), and at most
/// [`INCUMBENT_MOST`]; short, since the exact search, not the incumbent, closes the proofs.
const INCUMBENT_SHARE: f64 = 0.15;

/// The most time the incumbent searches take whatever the limit: a longer limit is for the
/// exact search. Without it the wider beams grow with the limit, and a kitchen that A*
/// proves in half a second waits seconds for them.
const INCUMBENT_MOST: Duration = Duration::from_millis(1500);

/// The widest beam tried for the incumbent.
const MAX_WIDTH: usize = 4096;

/// Memory one search may use: the search keeps every distinct state once (the key of its
/// node) plus a queue entry.
const MEMORY: usize = 3_500_000_000;

/// The most states a search of `k` keeps within [`MEMORY`], from a generous estimate of a
/// state's size (its lists on the heap, sixteen effects, four waters, allocator overhead).
fn max_states(k: &Kitchen) -> usize {
    use std::mem::size_of;
    let s = &k.initial;
    let heap = s.robots.len() * size_of::<super::rules::Robot>()
        + s.items.len() * size_of::<super::rules::ItemState>()
        + s.containers.len() * size_of::<super::rules::ContainerState>()
        + 4 * size_of::<super::rules::Meal>()
        + 16 * size_of::<super::rules::Effect>()
        + 5 * 32;
    let per_state = size_of::<State>() + heap + 128;
    MEMORY / per_state
}

/// What a search of a kitchen established.
#[derive(Debug, Clone)]
pub struct KitchenSolution {
    /// `Optimal`, `Feasible`, `Infeasible` or `Error` (no plan within the limits).
    pub status: Status,
    /// The plan, as the kitchen's actions in order.
    pub plan: Vec<Act>,
    /// The proven lower bound.
    pub bound: i64,
    /// States expanded by the search.
    pub states: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Searches a kitchen for a shortest plan within `limits`; the plan is in the kitchen's
/// own station names and has been replayed to the goal.
pub fn solve_kitchen(k: &Kitchen, limits: &Limits) -> Result<KitchenSolution, String> {
    solve_with(k, limits, false)
}

/// [`solve_kitchen`] without the lower bound: a uniform-cost search, slower, whose optimum
/// checks the bound's (a bound that overestimates would make the two differ).
pub fn solve_kitchen_blind(k: &Kitchen, limits: &Limits) -> Result<KitchenSolution, String> {
    solve_with(k, limits, true)
}

fn solve_with(k: &Kitchen, limits: &Limits, blind: bool) -> Result<KitchenSolution, String> {
    let started = Instant::now();
    let mut world = KitchenWorld::new(k);
    world.blind = blind;
    let limits = Limits {
        max_states: limits.max_states.min(max_states(k)),
        ..limits.clone()
    };
    // A quick incumbent first: the goal reached part by part (dish by dish, literal by
    // literal), weighted A* (twice the bound), then beams of growing width
    // for a shorter plan (the first beam runs whatever the time if A* found none, so that
    // no instance ends without a plan); then A* looks only for plans shorter than the
    // incumbent, keeping only states that may beat it. Which of the two finds the better
    // plan differs by kitchen (the beam on one robot's long recipes, weighted A* with
    // several robots), so both run.
    let mut incumbent: Option<Vec<Act>> = None;
    if !blind {
        let share = limits
            .time
            .map(|t| t.mul_f64(INCUMBENT_SHARE).min(INCUMBENT_MOST));
        let weighted = Limits {
            max_states: limits.max_states / 5,
            time: share.map(|t| t / 2),
            known_bound: 0,
            ..limits.clone()
        };
        let weighted_world = Quick {
            world: &world,
            weight: 2,
            whole: None,
        };
        let mut keep = |plan: Vec<Act>| {
            if incumbent.as_ref().is_none_or(|p| plan.len() < p.len()) {
                incumbent = Some(plan);
            }
        };
        for parts in [goal_parts(k), literal_stages(k)] {
            if let Some(plan) = staged(k, &world, &weighted, &parts) {
                keep(shorten(k, plan, polish(&limits)));
            }
        }
        if let Outcome::Optimal(plan) | Outcome::Feasible { plan, .. } =
            search_below(&weighted_world, &weighted, INFEASIBLE)
        {
            keep(shorten(
                k,
                real_plan(&world, k, &plan.steps)?,
                polish(&limits),
            ));
        }
        let mut width = 16;
        while width <= MAX_WIDTH {
            let upper = incumbent.as_ref().map_or(INFEASIBLE, |p| p.len() as i64);
            if upper <= limits.known_bound.max(world.initial_bound()) {
                break; // the incumbent meets a bound: nothing shorter exists
            }
            let quick = Limits {
                time: if incumbent.is_none() {
                    limits.time
                } else {
                    share.map(|t| t.saturating_sub(started.elapsed()))
                },
                max_states: limits.max_states / 4,
                ..limits.clone()
            };
            let quick_world = Quick {
                world: &world,
                weight: 1,
                whole: None,
            };
            if let Some(plan) = beam(&quick_world, width, 2, &quick, upper) {
                incumbent = Some(shorten(
                    k,
                    real_plan(&world, k, &plan.steps)?,
                    polish(&limits),
                ));
            }
            // Without a plan yet, wider beams run whatever the time: a kitchen must not end
            // without one.
            if (incumbent.is_some() && share.is_some_and(|t| started.elapsed() >= t))
                || limits.cancel.as_ref().is_some_and(|c| c())
            {
                break;
            }
            width *= 4;
        }
    }
    let upper = incumbent.as_ref().map_or(INFEASIBLE, |p| p.len() as i64);
    let exact = Limits {
        time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
        ..limits.clone()
    };
    let (status, plan, bound) = match search_below(&world, &exact, upper) {
        Outcome::Optimal(plan) => {
            let cost = plan.cost;
            (Status::Optimal, real_plan(&world, k, &plan.steps)?, cost)
        }
        Outcome::Feasible { plan, bound } => {
            (Status::Feasible, real_plan(&world, k, &plan.steps)?, bound)
        }
        // Nothing shorter than the incumbent: it is optimal (or, with none, no plan exists).
        Outcome::Infeasible => match incumbent {
            Some(quick) => (Status::Optimal, quick, upper),
            None => (Status::Infeasible, Vec::new(), 0),
        },
        Outcome::Unknown { bound } => match incumbent {
            Some(quick) => (Status::Feasible, quick, bound),
            None => (Status::Error, Vec::new(), bound),
        },
    };
    // A plan that meets the proven bound is optimal.
    let status = if status == Status::Feasible && plan.len() as i64 <= bound {
        Status::Optimal
    } else {
        status
    };
    Ok(KitchenSolution {
        status,
        plan,
        bound,
        states: world.generated.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A plan reached part by part: `parts` numbers each goal literal's part (see
/// [`goal_parts`] and [`literal_stages`]), and from where the plan so far ends a quick
/// search reaches the goal of the first part, then of the first two, and so on, each
/// search as short as one part. A part not reached within its share of the time is
/// reached literal by literal instead, in the order of [`literal_stages`] (a soup's
/// part at once is often out of a quick search's reach, its literals one by one are
/// not). Proves nothing; `None` when a literal is not reached either.
fn staged(
    k: &Kitchen,
    whole: &KitchenWorld<'_>,
    limits: &Limits,
    parts: &[usize],
) -> Option<Vec<Act>> {
    let last = *parts.iter().max()?;
    if last == 0 {
        return None; // one part: the whole search has run already
    }
    let started = Instant::now();
    let order = literal_stages(k);
    let mut state = k.initial.clone();
    let mut plan = Vec::new();
    for part in 0..=last {
        // Each part left gets an equal share of the time left.
        let share = |left: usize| Limits {
            time: limits
                .time
                .map(|t| t.saturating_sub(started.elapsed()) / left.max(1) as u32),
            known_bound: 0,
            ..limits.clone()
        };
        // The part at once may take half its share: the rest is for its literals.
        let left = last + 1 - part;
        if let Some(acts) = reach(k, whole, &state, &share(2 * left), |l| parts[l] <= part) {
            for act in acts {
                state.step(act);
                plan.push(act);
            }
            continue;
        }
        let mut mine: Vec<usize> = (0..parts.len()).filter(|&l| parts[l] == part).collect();
        if mine.len() < 2 {
            return None;
        }
        mine.sort_by_key(|&l| order[l]);
        for n in 1..=mine.len() {
            let kept = &mine[..n];
            let goal = |l: usize| parts[l] < part || kept.contains(&l);
            let acts = reach(k, whole, &state, &share(left + mine.len() - n), goal)?;
            for act in acts {
                state.step(act);
                plan.push(act);
            }
        }
    }
    k.goal.reached(k, &state).then_some(plan)
}

/// A quick plan from `state` to the goal literals `keep` selects: weighted A*, else a
/// beam of 64, within `limits`; the actions in the kitchen's names.
fn reach(
    k: &Kitchen,
    whole: &KitchenWorld<'_>,
    state: &State,
    limits: &Limits,
    keep: impl Fn(usize) -> bool,
) -> Option<Vec<Act>> {
    let sub = Kitchen {
        initial: state.clone(),
        goal: k.goal.part(keep),
        ..k.clone()
    };
    let world = KitchenWorld::new(&sub);
    let quick = Quick {
        world: &world,
        weight: 2,
        whole: Some(whole),
    };
    let steps = match search_below(&quick, limits, INFEASIBLE) {
        Outcome::Optimal(p) | Outcome::Feasible { plan: p, .. } => p.steps,
        _ => {
            let quick = Quick {
                world: &world,
                weight: 1,
                whole: Some(whole),
            };
            beam(&quick, 64, 2, limits, INFEASIBLE)?.steps
        }
    };
    real_plan(&world, &sub, &steps).ok()
}

/// The part of each goal literal: literals that share a variable (directly or through
/// others) are in one part, numbered in the order of their first literal.
fn goal_parts(k: &Kitchen) -> Vec<usize> {
    let literals = &k.goal.literals;
    let mut part: Vec<usize> = (0..literals.len()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for a in 0..literals.len() {
            for b in a + 1..literals.len() {
                let shared = literals[a]
                    .args
                    .iter()
                    .any(|v| literals[b].args.contains(v));
                if shared && part[a] != part[b] {
                    let low = part[a].min(part[b]);
                    part[a] = low;
                    part[b] = low;
                    changed = true;
                }
            }
        }
    }
    let mut firsts: Vec<usize> = part.clone();
    firsts.sort_unstable();
    firsts.dedup();
    part.iter()
        .map(|p| firsts.iter().position(|f| f == p).unwrap_or(0))
        .collect()
}

/// One part per goal literal, dish by dish ([`goal_parts`]), and within a dish in the
/// order a kitchen reaches them: an item's cut, cook or fry just before it is placed, the
/// bottom of a stack before what lies on it, a soup's adds before its boil, its pour and
/// its bowl on the table, `clear` last.
fn literal_stages(k: &Kitchen) -> Vec<usize> {
    let literals = &k.goal.literals;
    // The height of each variable in its stack: 0 on a station, one more atop an item.
    let mut level: Vec<Option<usize>> = vec![None; k.goal.vars.len()];
    for _ in 0..=literals.len() {
        for lit in literals {
            match (lit.pred.as_str(), &lit.args[..]) {
                ("item_on" | "item_at", [v, _]) => level[*v] = Some(0),
                ("atop", [v, w]) => {
                    if let Some(l) = level[*w] {
                        level[*v] = Some(l + 1);
                    }
                }
                _ => {}
            }
        }
    }
    let rank = |l: usize| -> usize {
        let lit = &literals[l];
        let height = level[lit.args[0]].unwrap_or(0);
        match lit.pred.as_str() {
            "iscut" | "iscooked" | "isfried" => 2 * height,
            "item_on" | "item_at" | "atop" | "addedto" => 2 * height + 1,
            "isboiling" => 1000,
            "in" => 1001,
            "container_at" => 1002,
            _ => 1003,
        }
    };
    let dish = goal_parts(k);
    let mut order: Vec<usize> = (0..literals.len()).collect();
    order.sort_by_key(|&l| (dish[l], rank(l), l));
    let mut parts = vec![0; literals.len()];
    for (n, &l) in order.iter().enumerate() {
        parts[l] = n;
    }
    parts
}

/// The share of the time limit that shortening one quick plan may take, and at most
/// [`POLISH_MOST`] (as [`INCUMBENT_MOST`], a longer limit is for the exact search).
const POLISH_SHARE: f64 = 0.1;

/// The most time shortening one quick plan takes whatever the limit.
const POLISH_MOST: Duration = Duration::from_secs(1);

/// When shortening a quick plan found now must stop.
fn polish(limits: &Limits) -> Instant {
    let budget = limits
        .time
        .map_or(POLISH_MOST, |t| t.mul_f64(POLISH_SHARE).min(POLISH_MOST));
    Instant::now() + budget
}

/// A quick plan made shorter by dropping actions it does not need (greedy justified action
/// elimination): an action is dropped, with every later action that can then no longer be
/// taken, whenever what is left still reaches the goal. Quick plans wander (they fetch what
/// they put down, shuffle a stack and build it again); this takes most of that out, and the
/// shorter plan lets the exact search keep fewer states. Stops at `deadline` with what it has.
fn shorten(k: &Kitchen, plan: Vec<Act>, deadline: Instant) -> Vec<Act> {
    let mut plan = without_loops(k, &plan);
    let mut at = 0;
    while at < plan.len() && Instant::now() < deadline {
        match without(k, &plan, at) {
            Some(shorter) => plan = shorter,
            None => at += 1,
        }
    }
    plan
}

/// `plan` without its loops: where a state comes again, the steps between are dropped;
/// and cut at the first step that reaches the goal. One pass, so that long wandering plans
/// lose their circles before the slower elimination.
fn without_loops(k: &Kitchen, plan: &[Act]) -> Vec<Act> {
    let mut state = k.initial.clone();
    let mut met: FxHashMap<State, usize> = FxHashMap::default();
    met.insert(state.clone(), 0);
    let mut kept = Vec::with_capacity(plan.len());
    for &act in plan {
        state.step(act);
        kept.push(act);
        if k.goal.reached(k, &state) {
            break;
        }
        match met.get(&state) {
            Some(&first) => {
                kept.truncate(first);
                met.retain(|_, at| *at <= first);
            }
            None => {
                met.insert(state.clone(), kept.len());
            }
        }
    }
    kept
}

/// `plan` without its action `drop` and the later actions that are then refused, if that
/// still reaches the goal (cut at the first step that does).
fn without(k: &Kitchen, plan: &[Act], drop: usize) -> Option<Vec<Act>> {
    let mut state = k.initial.clone();
    let mut kept = Vec::with_capacity(plan.len());
    for (j, &act) in plan.iter().enumerate() {
        if j == drop || (j > drop && state.check(k, act).is_err()) {
            continue;
        }
        state.step(act);
        kept.push(act);
        if k.goal.reached(k, &state) {
            return (kept.len() < plan.len()).then_some(kept);
        }
    }
    None
}

/// A search step list mapped back from canonical labels to the kitchen's, by replaying it
/// from the real start; it must reach the goal at its last action.
fn real_plan(
    world: &KitchenWorld<'_>,
    k: &Kitchen,
    steps: &[makespan_world::Step<Move2>],
) -> Result<Vec<Act>, String> {
    let mut real = k.initial.clone();
    let mut plan = Vec::new();
    for step in steps {
        // Both actions of a step are in the labels of the state the step starts from.
        let back = world.symmetry.canonical(&real).1.inverse();
        for act in std::iter::once(step.action.first).chain(step.action.then) {
            let act = back.act(act);
            real.check(k, act)
                .map_err(|e| format!("the search's plan does not replay: {} ({e})", act.text(k)))?;
            real.step(act);
            plan.push(act);
        }
    }
    if !k.goal.reached(k, &real) {
        return Err("the search's plan does not reach the goal when replayed".into());
    }
    Ok(plan)
}

/// The kitchen for the quick searches, which prove nothing: every move fused with the
/// moving robot's next action, whatever the number of robots, and the bound multiplied by
/// `weight` (weighted A*; 1 for the beams, which weigh it themselves).
struct Quick<'a, 'k> {
    world: &'a KitchenWorld<'k>,
    weight: i64,
    /// The whole kitchen's world when `world` has only part of the goal: states from which
    /// the whole goal is out of reach are dropped (an item a later dish needs went into a
    /// soup).
    whole: Option<&'a KitchenWorld<'k>>,
}

impl World for Quick<'_, '_> {
    type State = State;
    type Action = Move2;

    fn initial(&self) -> State {
        self.world.initial()
    }

    fn is_goal(&self, state: &State) -> bool {
        self.world.is_goal(state)
    }

    fn successors(&self, state: &State, out: &mut Vec<(Move2, i64, State)>) {
        self.world.fused_successors(state, out, true);
    }

    fn lower_bound(&self, state: &State) -> i64 {
        if self.whole.is_some_and(|w| w.dead(state)) {
            return INFEASIBLE;
        }
        let h = self.world.lower_bound(state);
        if h >= INFEASIBLE {
            h
        } else {
            self.weight * h
        }
    }
}
