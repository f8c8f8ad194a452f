//! The release domain's rules (`domain/robotouille.json` as `backend/` applies it), written
//! out: the state, the actions with their preconditions, and the step.
//!
//! A step is: the action's immediate effects; then its special effects, each added to the
//! state's ordered effect list unless an equal one is there already (equal means the same
//! kind of effect on the same objects, whatever its progress), and updated as "active";
//! then every effect of the list updated in order as "passive", and a completed effect
//! removed **while the list is being walked**, so the effect after it is skipped for that
//! step (upstream's `State.step`). What each effect does:
//! - cook: while the item lies directly on that stove it is `iscooking`, and a timer ticks
//!   once per passive update; at 4 ticks it is `iscooked` and no longer cooking. Off the
//!   stove the timer pauses and `iscooking` is false, so it can be started on another stove,
//!   which adds a second effect;
//! - fry: the same on a fryer, giving `isfried`;
//! - fill a pot: ticks while the pot stands on that sink; at 4 a water `water<n>` is created
//!   in it (`n` one more than the largest water id so far);
//! - boil: ticks while the pot stands on that stove; at 4 the water `isboiling`;
//! - cut: a counter that only actions move; the third cut makes the item `iscut`. A second
//!   effect of every cut makes the item `isfryable` once it is cut and `isfryableifcut`, and
//!   otherwise sets `isfryable` false at every step: for an item that is not
//!   `isfryableifcut` it stays in the list for good, and it takes part in the skip.
//!
//! The effect that a cook, fry, fill or boil starts ticks once in its own step, so the result
//! holds after the step 3 steps later (cook at step 5: cooked after step 8), or one step
//! later when an effect before it in the list completes in the same step.
//!
//! Derived predicates (as every action of the domain keeps them): `vacant` is "no robot
//! there", `nothing`/`has_item`/`has_container` are the hand, `item_on`/`item_at`/`atop`
//! and `clear` are the stacks. `station_empty` and `container_empty` are kept as upstream
//! keeps them, since picking an item up makes its station "empty" even with a container
//! still on it.

use super::kitchen::{Kitchen, StationKind};

/// No station (a robot that faces none), no object.
pub const NONE: u8 = u8::MAX;

/// `iscuttable`.
pub const F_CUTTABLE: u16 = 1;
/// `iscookable`.
pub const F_COOKABLE: u16 = 1 << 1;
/// `isfryable`.
pub const F_FRYABLE: u16 = 1 << 2;
/// `isfryableifcut`.
pub const F_FRYABLE_IF_CUT: u16 = 1 << 3;
/// `iscut`.
pub const F_CUT: u16 = 1 << 4;
/// `iscooked`.
pub const F_COOKED: u16 = 1 << 5;
/// `iscooking`.
pub const F_COOKING: u16 = 1 << 6;
/// `isfried`.
pub const F_FRIED: u16 = 1 << 7;

/// Item flags with their predicate names, in the order they are listed.
pub const FLAG_NAMES: [(u16, &str); 8] = [
    (F_CUTTABLE, "iscuttable"),
    (F_COOKABLE, "iscookable"),
    (F_FRYABLE, "isfryable"),
    (F_FRYABLE_IF_CUT, "isfryableifcut"),
    (F_CUT, "iscut"),
    (F_COOKED, "iscooked"),
    (F_COOKING, "iscooking"),
    (F_FRIED, "isfried"),
];

/// Ticks of a delayed effect (upstream's default `goal_time`).
pub const DELAY: u8 = 4;
/// Cuts that make an item cut (upstream's default `goal_repetitions`).
pub const CUTS: u8 = 3;

/// What a robot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hand {
    /// `nothing`.
    Nothing,
    /// `has_item`.
    Item(u8),
    /// `has_container`.
    Container(u8),
}

/// A robot: the station it is at (`loc`, or [`NONE`]) and its hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Robot {
    /// The station it is at.
    pub at: u8,
    /// What it holds.
    pub hand: Hand,
}

/// Where an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemPlace {
    /// Directly on a station (`item_on`, `item_at`).
    On(u8),
    /// On another item (`atop`), at a station (`item_at`).
    Atop(u8, u8),
    /// In a robot's hand.
    Held,
    /// Nowhere: added to a soup (or never on a station).
    Nowhere,
}

impl ItemPlace {
    /// The station it is at (`item_at`).
    pub fn station(self) -> Option<u8> {
        match self {
            ItemPlace::On(s) | ItemPlace::Atop(_, s) => Some(s),
            _ => None,
        }
    }
}

/// A water made by filling a pot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meal {
    /// The container it is in (`in`), or [`NONE`].
    pub container: u8,
    /// `isboiling`.
    pub boiling: bool,
    /// Items added to it (`addedto`), a bit per item.
    pub added: u64,
}

/// The kinds of special effect the release domain's actions start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EffectKind {
    /// Cook `a` on stove `b`.
    Cook,
    /// The cut counter of item `a`.
    CutCount,
    /// Item `a` becomes fryable once cut (if `isfryableifcut`).
    CutFry,
    /// Fry `a` on fryer `b`.
    Fry,
    /// Fill pot `a` at sink `b`.
    Fill,
    /// Boil meal `a` in pot `b` on stove `c`.
    Boil,
}

/// One entry of the state's effect list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Effect {
    /// What it does.
    pub kind: EffectKind,
    /// Its objects (see [`EffectKind`]).
    pub a: u8,
    /// Its second object, or [`NONE`].
    pub b: u8,
    /// Its third object, or [`NONE`].
    pub c: u8,
    /// Ticks or cuts so far.
    pub count: u8,
    /// Done, and not yet removed (a completed effect skipped by the walk stays one step).
    pub completed: bool,
}

impl Effect {
    fn new(kind: EffectKind, a: u8, b: u8, c: u8) -> Effect {
        Effect {
            kind,
            a,
            b,
            c,
            count: 0,
            completed: false,
        }
    }

    /// Upstream's equality: the same effect on the same objects, whatever its progress.
    fn same(&self, other: &Effect) -> bool {
        (self.kind, self.a, self.b, self.c) == (other.kind, other.a, other.b, other.c)
    }
}

/// An item's place and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemState {
    /// Where it is.
    pub place: ItemPlace,
    /// Its predicates (`F_*`).
    pub flags: u16,
}

/// A container's place and emptiness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContainerState {
    /// The station it stands on (`container_at`), or [`NONE`] when held.
    pub at: u8,
    /// `container_empty`.
    pub empty: bool,
}

/// A state of the kitchen: everything a later step can depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// The robots.
    pub robots: Vec<Robot>,
    /// The items.
    pub items: Vec<ItemState>,
    /// The containers.
    pub containers: Vec<ContainerState>,
    /// The waters made so far, in order of creation (`water1`, `water2`, …).
    pub meals: Vec<Meal>,
    /// `station_empty`, a bit per station.
    pub station_empty: u64,
    /// The ordered effect list.
    pub effects: Vec<Effect>,
}

/// One grounded action of the release domain (indices into the kitchen's lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Act {
    /// `move(p1, s1, s2)`.
    Move(u8, u8, u8),
    /// `pick-up-item(p1, i1, s1)`.
    Pick(u8, u8, u8),
    /// `place-item(p1, i1, s1)`.
    Place(u8, u8, u8),
    /// `pick-up-container(p1, c1, s1)`.
    PickContainer(u8, u8, u8),
    /// `place-container(p1, c1, s1)`.
    PlaceContainer(u8, u8, u8),
    /// `cook(p1, i1, s1)`.
    Cook(u8, u8, u8),
    /// `cut(p1, i1, s1)`.
    Cut(u8, u8, u8),
    /// `fry(p1, i1, s1)`.
    Fry(u8, u8, u8),
    /// `fill-pot(p1, c1, s1)`.
    FillPot(u8, u8, u8),
    /// `boil-water(p1, c1, s1, m1)`.
    Boil(u8, u8, u8, u8),
    /// `add-to(p1, i1, c1, s1, m1)`.
    Add(u8, u8, u8, u8, u8),
    /// `fill-bowl(p1, c1 bowl, c2 pot, s1, m1)`.
    FillBowl(u8, u8, u8, u8, u8),
    /// `stack(p1, i1, i2, s1)`.
    Stack(u8, u8, u8, u8),
    /// `unstack(p1, i1, i2, s1)`.
    Unstack(u8, u8, u8, u8),
    /// `wait`.
    Wait,
}

impl Act {
    /// The robot that acts, if any.
    pub fn robot(self) -> Option<u8> {
        match self {
            Act::Move(p, ..)
            | Act::Pick(p, ..)
            | Act::Place(p, ..)
            | Act::PickContainer(p, ..)
            | Act::PlaceContainer(p, ..)
            | Act::Cook(p, ..)
            | Act::Cut(p, ..)
            | Act::Fry(p, ..)
            | Act::FillPot(p, ..)
            | Act::Boil(p, ..)
            | Act::Add(p, ..)
            | Act::FillBowl(p, ..)
            | Act::Stack(p, ..)
            | Act::Unstack(p, ..) => Some(p),
            Act::Wait => None,
        }
    }

    /// The action as upstream writes it (its language description).
    pub fn text(self, k: &Kitchen) -> String {
        let s = |x: u8| k.stations[x as usize].0.as_str();
        let i = |x: u8| k.items[x as usize].name.as_str();
        let c = |x: u8| k.containers[x as usize].0.as_str();
        let p = |x: u8| k.robots[x as usize].as_str();
        match self {
            Act::Move(r, a, b) => format!("Move {} from {} to {}", p(r), s(a), s(b)),
            Act::Pick(r, x, a) => format!("Pick up {} from {} using {}", i(x), s(a), p(r)),
            Act::Place(r, x, a) => format!("Place {} on {} using {}", i(x), s(a), p(r)),
            Act::PickContainer(r, x, a) => {
                format!("Pick up {} from {} using {}", c(x), s(a), p(r))
            }
            Act::PlaceContainer(r, x, a) => format!("Place {} on {} using {}", c(x), s(a), p(r)),
            Act::Cook(r, x, a) => format!("Cook {} on {} using {}", i(x), s(a), p(r)),
            Act::Cut(r, x, a) => format!("Cut {} on {} using {}", i(x), s(a), p(r)),
            Act::Fry(r, x, a) => format!("Fry {} on {} using {}", i(x), s(a), p(r)),
            Act::FillPot(r, x, a) => {
                format!("Fill {} with water from {} using {}", c(x), s(a), p(r))
            }
            Act::Boil(r, x, a, _) => format!("Boil {}'s contents on {} using {}", c(x), s(a), p(r)),
            Act::Add(r, x, pot, ..) => format!("Add {} into {} using {}", i(x), c(pot), p(r)),
            Act::FillBowl(r, bowl, pot, ..) => {
                format!("Fill {} with {}'s contents using {}", c(bowl), c(pot), p(r))
            }
            Act::Stack(r, x, y, _) => format!("Stack {} on top of {} using {}", i(x), i(y), p(r)),
            Act::Unstack(r, x, y, _) => format!("Unstack {} from {} using {}", i(x), i(y), p(r)),
            Act::Wait => "Do nothing".to_string(),
        }
    }
}

fn bit(s: u8) -> u64 {
    1u64 << s
}

impl State {
    /// The state before the first step.
    pub fn new(
        robots: Vec<Robot>,
        places: Vec<ItemPlace>,
        flags: Vec<u16>,
        container_at: Vec<u8>,
        station_empty: u64,
    ) -> State {
        State {
            robots,
            items: places
                .into_iter()
                .zip(flags)
                .map(|(place, flags)| ItemState { place, flags })
                .collect(),
            containers: container_at
                .into_iter()
                .map(|at| ContainerState { at, empty: true })
                .collect(),
            meals: Vec::new(),
            station_empty,
            effects: Vec::new(),
        }
    }

    /// The item directly on top of `i`, if any.
    pub fn above(&self, i: u8) -> Option<u8> {
        self.items
            .iter()
            .position(|x| matches!(x.place, ItemPlace::Atop(b, _) if b == i))
            .map(|k| k as u8)
    }

    /// The station of the robot holding `hand` (an item or a container), if one does.
    pub fn holder(&self, hand: Hand) -> Option<u8> {
        self.robots.iter().find(|r| r.hand == hand).map(|r| r.at)
    }

    /// `clear(i)`: on a station or an item, with nothing on top.
    pub fn clear(&self, i: u8) -> bool {
        self.items[i as usize].place.station().is_some() && self.above(i).is_none()
    }

    /// `vacant(s)`: no robot there.
    pub fn vacant(&self, s: u8) -> bool {
        self.robots.iter().all(|r| r.at != s)
    }

    /// The meals in container `c` (`in`).
    pub fn meals_in(&self, c: u8) -> impl Iterator<Item = u8> + '_ {
        self.meals
            .iter()
            .enumerate()
            .filter(move |(_, m)| m.container == c)
            .map(|(k, _)| k as u8)
    }

    /// Whether `act` may be taken: `Err` names the first precondition (in the domain's
    /// order) that does not hold, in the game's words.
    pub fn check(&self, k: &Kitchen, act: Act) -> Result<(), String> {
        let sn = |x: u8| k.stations[x as usize].0.clone();
        let inm = |x: u8| k.items[x as usize].name.clone();
        let cn = |x: u8| k.containers[x as usize].0.clone();
        let pn = |x: u8| k.robots[x as usize].clone();
        let kind = |s: u8| k.stations[s as usize].1;
        let loc = |p: u8, s: u8| -> Result<(), String> {
            let at = self.robots[p as usize].at;
            if at == s {
                Ok(())
            } else if at == NONE {
                Err(format!("{} is at no station", pn(p)))
            } else {
                Err(format!("{} is at {}, not at {}", pn(p), sn(at), sn(s)))
            }
        };
        let nothing = |p: u8| -> Result<(), String> {
            match self.robots[p as usize].hand {
                Hand::Nothing => Ok(()),
                Hand::Item(i) => Err(format!(
                    "{}'s hand is not empty: it holds {}",
                    pn(p),
                    inm(i)
                )),
                Hand::Container(c) => {
                    Err(format!("{}'s hand is not empty: it holds {}", pn(p), cn(c)))
                }
            }
        };
        let has_item = |p: u8, i: u8| -> Result<(), String> {
            if self.robots[p as usize].hand == Hand::Item(i) {
                Ok(())
            } else {
                Err(format!("{} is not holding {}", pn(p), inm(i)))
            }
        };
        let has_container = |p: u8, c: u8| -> Result<(), String> {
            if self.robots[p as usize].hand == Hand::Container(c) {
                Ok(())
            } else {
                Err(format!("{} is not holding {}", pn(p), cn(c)))
            }
        };
        let item_on = |i: u8, s: u8| -> Result<(), String> {
            match self.items[i as usize].place {
                ItemPlace::On(x) if x == s => Ok(()),
                ItemPlace::Atop(b, x) if x == s => Err(format!(
                    "{} is not directly on {}: it lies on {}",
                    inm(i),
                    sn(s),
                    inm(b)
                )),
                ItemPlace::On(x) | ItemPlace::Atop(_, x) => {
                    Err(format!("{} is at {}, not on {}", inm(i), sn(x), sn(s)))
                }
                ItemPlace::Held => Err(format!("{} is held, not on {}", inm(i), sn(s))),
                ItemPlace::Nowhere => Err(format!("{} is not on {}", inm(i), sn(s))),
            }
        };
        let item_at = |i: u8, s: u8| -> Result<(), String> {
            match self.items[i as usize].place.station() {
                Some(x) if x == s => Ok(()),
                Some(x) => Err(format!("{} is at {}, not at {}", inm(i), sn(x), sn(s))),
                None => Err(format!("{} is not at {}", inm(i), sn(s))),
            }
        };
        let clear = |i: u8| -> Result<(), String> {
            if self.clear(i) {
                Ok(())
            } else if let Some(a) = self.above(i) {
                Err(format!(
                    "{} is not clear: {} is on top of it",
                    inm(i),
                    inm(a)
                ))
            } else {
                Err(format!("{} is not clear: it lies on no station", inm(i)))
            }
        };
        let station_empty = |s: u8| -> Result<(), String> {
            if self.station_empty & bit(s) != 0 {
                Ok(())
            } else {
                Err(format!("{} is occupied: it has something on it", sn(s)))
            }
        };
        let is_kind = |s: u8, want: StationKind, what: &str| -> Result<(), String> {
            if kind(s) == want {
                Ok(())
            } else {
                Err(format!("{} is not a {what}", sn(s)))
            }
        };
        let container_at = |c: u8, s: u8| -> Result<(), String> {
            let at = self.containers[c as usize].at;
            if at == s {
                Ok(())
            } else if at == NONE {
                Err(format!("{} is not at {}: it is held", cn(c), sn(s)))
            } else {
                Err(format!("{} is at {}, not at {}", cn(c), sn(at), sn(s)))
            }
        };
        let flag = |i: u8, f: u16| self.items[i as usize].flags & f != 0;
        let pot = |c: u8| -> Result<(), String> {
            if k.containers[c as usize].1 {
                Ok(())
            } else {
                Err(format!("{} is not a pot", cn(c)))
            }
        };
        let meal_in = |m: u8, c: u8| -> Result<(), String> {
            if self.meals.get(m as usize).is_some_and(|x| x.container == c) {
                return Ok(());
            }
            Err(self.no_water(k, c))
        };
        match act {
            Act::Move(p, s1, s2) => {
                if s1 == s2 {
                    return Err(format!("{} is already at {}", pn(p), sn(s1)));
                }
                loc(p, s1)?;
                if let Some(r) = self.robots.iter().position(|r| r.at == s2) {
                    return Err(format!("{} is occupied by {}", sn(s2), pn(r as u8)));
                }
                Ok(())
            }
            Act::Pick(p, i, s) => {
                nothing(p)?;
                item_on(i, s)?;
                loc(p, s)?;
                clear(i)
            }
            Act::Place(p, i, s) => {
                has_item(p, i)?;
                loc(p, s)?;
                station_empty(s)
            }
            Act::PickContainer(p, c, s) => {
                nothing(p)?;
                container_at(c, s)?;
                loc(p, s)
            }
            Act::PlaceContainer(p, c, s) => {
                has_container(p, c)?;
                loc(p, s)?;
                station_empty(s)
            }
            Act::Cook(p, i, s) => {
                is_kind(s, StationKind::Stove, "stove")?;
                if !flag(i, F_COOKABLE) {
                    return Err(format!("{} cannot be cooked on a stove", inm(i)));
                }
                if flag(i, F_COOKING) {
                    return Err(self.already(k, i, EffectKind::Cook, "cooking", "cooked"));
                }
                item_on(i, s)?;
                loc(p, s)?;
                clear(i)?;
                nothing(p)
            }
            Act::Cut(p, i, s) => {
                is_kind(s, StationKind::Board, "cutting board")?;
                if !flag(i, F_CUTTABLE) {
                    return Err(format!("{} cannot be cut on a cutting board", inm(i)));
                }
                item_on(i, s)?;
                loc(p, s)?;
                clear(i)?;
                nothing(p)
            }
            Act::Fry(p, i, s) => {
                is_kind(s, StationKind::Fryer, "fryer")?;
                if !flag(i, F_FRYABLE) {
                    if flag(i, F_FRYABLE_IF_CUT) && !flag(i, F_CUT) {
                        return Err(format!(
                            "{} cannot be fried yet: it is not cut yet ({} more cut(s) on a cutting board)",
                            inm(i),
                            self.cuts_left(i)
                        ));
                    }
                    return Err(format!("{} cannot be fried in a fryer", inm(i)));
                }
                item_on(i, s)?;
                loc(p, s)?;
                clear(i)?;
                nothing(p)
            }
            Act::FillPot(p, c, s) => {
                pot(c)?;
                is_kind(s, StationKind::Sink, "sink")?;
                loc(p, s)?;
                container_at(c, s)?;
                if !self.containers[c as usize].empty {
                    return Err(format!(
                        "{} is not empty: it has something inside it",
                        cn(c)
                    ));
                }
                nothing(p)
            }
            Act::Boil(p, c, s, m) => {
                pot(c)?;
                meal_in(m, c)?;
                is_kind(s, StationKind::Stove, "stove")?;
                container_at(c, s)?;
                loc(p, s)?;
                nothing(p)
            }
            Act::Add(p, i, c, s, m) => {
                pot(c)?;
                if self
                    .meals
                    .get(m as usize)
                    .is_some_and(|x| x.added & (1 << i) != 0)
                {
                    return Err(format!(
                        "{} is already added to {}",
                        inm(i),
                        Kitchen::meal_name(m as usize)
                    ));
                }
                meal_in(m, c)?;
                loc(p, s)?;
                container_at(c, s)?;
                has_item(p, i)
            }
            Act::FillBowl(p, bowl, c2, s, m) => {
                if k.containers[bowl as usize].1 {
                    return Err(format!("{} is not a bowl", cn(bowl)));
                }
                pot(c2)?;
                container_at(bowl, s)?;
                meal_in(m, c2)?;
                loc(p, s)?;
                if !self.containers[bowl as usize].empty {
                    return Err(format!(
                        "{} is not empty: it has something inside it",
                        cn(bowl)
                    ));
                }
                has_container(p, c2)
            }
            Act::Stack(p, i1, i2, s) => {
                if i1 == i2 {
                    return Err(format!("{} cannot be stacked on itself", inm(i1)));
                }
                has_item(p, i1)?;
                clear(i2)?;
                loc(p, s)?;
                item_at(i2, s)
            }
            Act::Unstack(p, i1, i2, s) => {
                if i1 == i2 {
                    return Err(format!("{} cannot lie on itself", inm(i1)));
                }
                nothing(p)?;
                clear(i1)?;
                match self.items[i1 as usize].place {
                    ItemPlace::Atop(b, _) if b == i2 => {}
                    _ => return Err(format!("{} is not directly on top of {}", inm(i1), inm(i2))),
                }
                loc(p, s)?;
                item_at(i1, s)?;
                item_at(i2, s)
            }
            Act::Wait => Ok(()),
        }
    }

    /// Why container `c` has no water: filling and when it is ready, or not filled.
    fn no_water(&self, k: &Kitchen, c: u8) -> String {
        let name = &k.containers[c as usize].0;
        match self
            .effects
            .iter()
            .find(|e| e.kind == EffectKind::Fill && e.a == c && !e.completed)
        {
            Some(e) if self.containers[c as usize].at == e.b => format!(
                "{name} has no water yet: the result is not ready for {} more step(s) (filling at {})",
                DELAY - e.count,
                k.stations[e.b as usize].0
            ),
            Some(e) => format!(
                "{name} has no water yet: filling is paused while {name} is away from {}",
                k.stations[e.b as usize].0
            ),
            None => format!("{name} has no water in it (fill it at a sink first)"),
        }
    }

    /// Why item `i` is already cooking: when the result is ready.
    fn already(&self, k: &Kitchen, i: u8, kind: EffectKind, doing: &str, done: &str) -> String {
        let name = &k.items[i as usize].name;
        match self
            .effects
            .iter()
            .find(|e| e.kind == kind && e.a == i && !e.completed && self.items[i as usize].place == ItemPlace::On(e.b))
        {
            Some(e) => format!(
                "{name} is already {doing}: the result is not ready for {} more step(s) ({done} after that)",
                DELAY - e.count
            ),
            None => format!("{name} is already {doing}"),
        }
    }

    /// Cuts still needed before item `i` is cut.
    pub fn cuts_left(&self, i: u8) -> u8 {
        if self.items[i as usize].flags & F_CUT != 0 {
            return 0;
        }
        let done = self
            .effects
            .iter()
            .find(|e| e.kind == EffectKind::CutCount && e.a == i && !e.completed)
            .map_or(0, |e| e.count);
        CUTS - done
    }

    /// Takes a step with `act`, which must be valid ([`State::check`]).
    pub fn step(&mut self, act: Act) {
        match act {
            Act::Move(p, _, s2) => self.robots[p as usize].at = s2,
            Act::Pick(p, i, s) => {
                self.robots[p as usize].hand = Hand::Item(i);
                self.items[i as usize].place = ItemPlace::Held;
                self.station_empty |= bit(s);
            }
            Act::Place(p, i, s) => {
                self.robots[p as usize].hand = Hand::Nothing;
                self.items[i as usize].place = ItemPlace::On(s);
                self.station_empty &= !bit(s);
            }
            Act::PickContainer(p, c, s) => {
                self.robots[p as usize].hand = Hand::Container(c);
                self.containers[c as usize].at = NONE;
                self.station_empty |= bit(s);
            }
            Act::PlaceContainer(p, c, s) => {
                self.robots[p as usize].hand = Hand::Nothing;
                self.containers[c as usize].at = s;
                self.station_empty &= !bit(s);
            }
            Act::Cook(_, i, s) => self.start(Effect::new(EffectKind::Cook, i, s, NONE)),
            Act::Cut(_, i, _) => {
                self.start(Effect::new(EffectKind::CutCount, i, NONE, NONE));
                self.start(Effect::new(EffectKind::CutFry, i, NONE, NONE));
            }
            Act::Fry(_, i, s) => self.start(Effect::new(EffectKind::Fry, i, s, NONE)),
            Act::FillPot(_, c, s) => self.start(Effect::new(EffectKind::Fill, c, s, NONE)),
            Act::Boil(_, c, s, m) => self.start(Effect::new(EffectKind::Boil, m, c, s)),
            Act::Add(p, i, _, _, m) => {
                self.meals[m as usize].added |= 1 << i;
                self.robots[p as usize].hand = Hand::Nothing;
                self.items[i as usize].place = ItemPlace::Nowhere;
            }
            Act::FillBowl(_, bowl, pot, _, m) => {
                self.meals[m as usize].container = bowl;
                self.containers[bowl as usize].empty = false;
                self.containers[pot as usize].empty = true;
            }
            Act::Stack(p, i1, i2, s) => {
                self.robots[p as usize].hand = Hand::Nothing;
                self.items[i1 as usize].place = ItemPlace::Atop(i2, s);
            }
            Act::Unstack(p, i1, _, _) => {
                self.robots[p as usize].hand = Hand::Item(i1);
                self.items[i1 as usize].place = ItemPlace::Held;
            }
            Act::Wait => {}
        }
        // The passive walk, removing completed effects as upstream's loop does (the
        // effect after a removed one is skipped).
        let mut k = 0;
        while k < self.effects.len() {
            self.update(k, false);
            if self.effects[k].completed {
                self.effects.remove(k);
            }
            k += 1;
        }
    }

    /// An action's special effect: the equal one in the list, or a new one at its end,
    /// updated as active.
    fn start(&mut self, effect: Effect) {
        let k = match self.effects.iter().position(|e| e.same(&effect)) {
            Some(k) => k,
            None => {
                self.effects.push(effect);
                self.effects.len() - 1
            }
        };
        self.update(k, true);
    }

    /// Upstream's `update` of effect `k`.
    fn update(&mut self, k: usize, active: bool) {
        let mut e = self.effects[k];
        if e.completed {
            return;
        }
        match e.kind {
            EffectKind::Cook => {
                let item = &mut self.items[e.a as usize];
                if item.place != ItemPlace::On(e.b) {
                    item.flags &= !F_COOKING;
                    return;
                }
                item.flags |= F_COOKING;
                if !active {
                    e.count += 1;
                    if e.count == DELAY {
                        item.flags = (item.flags | F_COOKED) & !F_COOKING;
                        e.completed = true;
                    }
                }
            }
            EffectKind::Fry => {
                let item = &mut self.items[e.a as usize];
                if item.place != ItemPlace::On(e.b) {
                    return;
                }
                if !active {
                    e.count += 1;
                    if e.count == DELAY {
                        item.flags |= F_FRIED;
                        e.completed = true;
                    }
                }
            }
            EffectKind::Fill => {
                if self.containers[e.a as usize].at != e.b {
                    return;
                }
                if !active {
                    e.count += 1;
                    if e.count == DELAY {
                        self.meals.push(Meal {
                            container: e.a,
                            boiling: false,
                            added: 0,
                        });
                        self.containers[e.a as usize].empty = false;
                        e.completed = true;
                    }
                }
            }
            EffectKind::Boil => {
                if self.containers[e.b as usize].at != e.c {
                    return;
                }
                if !active {
                    e.count += 1;
                    if e.count == DELAY {
                        self.meals[e.a as usize].boiling = true;
                        e.completed = true;
                    }
                }
            }
            EffectKind::CutCount => {
                if !active {
                    return;
                }
                e.count += 1;
                if e.count == CUTS {
                    self.items[e.a as usize].flags |= F_CUT;
                    e.completed = true;
                }
            }
            EffectKind::CutFry => {
                let item = &mut self.items[e.a as usize];
                let want = F_FRYABLE_IF_CUT | F_CUT;
                if item.flags & want != want {
                    item.flags &= !F_FRYABLE;
                    return;
                }
                item.flags |= F_FRYABLE;
                e.completed = true;
            }
        }
        self.effects[k] = e;
    }

    /// Every valid action, robot by robot (moves, then actions at its station), then `wait`.
    pub fn valid_actions(&self, k: &Kitchen, out: &mut Vec<Act>) {
        for p in 0..self.robots.len() as u8 {
            let at = self.robots[p as usize].at;
            if at == NONE {
                continue;
            }
            for s in 0..k.stations.len() as u8 {
                if s != at && self.vacant(s) {
                    out.push(Act::Move(p, at, s));
                }
            }
            self.local_actions(k, p, out);
        }
        out.push(Act::Wait);
    }

    /// Every valid action of robot `p` at its station other than a move.
    pub fn local_actions(&self, k: &Kitchen, p: u8, out: &mut Vec<Act>) {
        let robot = self.robots[p as usize];
        let s = robot.at;
        if s == NONE {
            return;
        }
        let kind = k.stations[s as usize].1;
        match robot.hand {
            Hand::Nothing => {
                for (i, item) in self.items.iter().enumerate() {
                    let i = i as u8;
                    match item.place {
                        ItemPlace::On(x) if x == s && self.clear(i) => {
                            out.push(Act::Pick(p, i, s));
                            let f = item.flags;
                            match kind {
                                StationKind::Stove if f & F_COOKABLE != 0 && f & F_COOKING == 0 => {
                                    out.push(Act::Cook(p, i, s))
                                }
                                StationKind::Board if f & F_CUTTABLE != 0 => {
                                    out.push(Act::Cut(p, i, s))
                                }
                                StationKind::Fryer if f & F_FRYABLE != 0 => {
                                    out.push(Act::Fry(p, i, s))
                                }
                                _ => {}
                            }
                        }
                        ItemPlace::Atop(b, x)
                            if x == s
                                && self.clear(i)
                                && self.items[b as usize].place.station() == Some(s) =>
                        {
                            out.push(Act::Unstack(p, i, b, s));
                        }
                        _ => {}
                    }
                }
                for (c, cs) in self.containers.iter().enumerate() {
                    let c = c as u8;
                    if cs.at != s {
                        continue;
                    }
                    out.push(Act::PickContainer(p, c, s));
                    if k.containers[c as usize].1 {
                        if kind == StationKind::Sink && cs.empty {
                            out.push(Act::FillPot(p, c, s));
                        }
                        if kind == StationKind::Stove {
                            for m in self.meals_in(c) {
                                out.push(Act::Boil(p, c, s, m));
                            }
                        }
                    }
                }
            }
            Hand::Item(i) => {
                if self.station_empty & bit(s) != 0 {
                    out.push(Act::Place(p, i, s));
                }
                for (j, other) in self.items.iter().enumerate() {
                    let j = j as u8;
                    if j != i && other.place.station() == Some(s) && self.clear(j) {
                        out.push(Act::Stack(p, i, j, s));
                    }
                }
                for (c, cs) in self.containers.iter().enumerate() {
                    let c = c as u8;
                    if cs.at == s && k.containers[c as usize].1 {
                        for m in self.meals_in(c) {
                            if self.meals[m as usize].added & (1 << i) == 0 {
                                out.push(Act::Add(p, i, c, s, m));
                            }
                        }
                    }
                }
            }
            Hand::Container(c) => {
                if self.station_empty & bit(s) != 0 {
                    out.push(Act::PlaceContainer(p, c, s));
                }
                if k.containers[c as usize].1 {
                    for (b, bs) in self.containers.iter().enumerate() {
                        let b = b as u8;
                        if bs.at == s && !k.containers[b as usize].1 && bs.empty {
                            for m in self.meals_in(c) {
                                out.push(Act::FillBowl(p, b, c, s, m));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every true predicate, as `name arg1 arg2` (the form the differential tests compare).
    pub fn predicates(&self, k: &Kitchen) -> Vec<String> {
        let mut out = Vec::new();
        for (s, (name, kind)) in k.stations.iter().enumerate() {
            let what = match kind {
                StationKind::Table => "istable",
                StationKind::Stove => "isstove",
                StationKind::Board => "isboard",
                StationKind::Fryer => "isfryer",
                StationKind::Sink => "issink",
            };
            out.push(format!("{what} {name}"));
            if self.vacant(s as u8) {
                out.push(format!("vacant {name}"));
            }
            if self.station_empty & bit(s as u8) != 0 {
                out.push(format!("station_empty {name}"));
            }
        }
        for (p, r) in self.robots.iter().enumerate() {
            let name = &k.robots[p];
            out.push(format!("isrobot {name}"));
            if r.at != NONE {
                out.push(format!("loc {name} {}", k.stations[r.at as usize].0));
            }
            match r.hand {
                Hand::Nothing => out.push(format!("nothing {name}")),
                Hand::Item(i) => out.push(format!("has_item {name} {}", k.items[i as usize].name)),
                Hand::Container(c) => out.push(format!(
                    "has_container {name} {}",
                    k.containers[c as usize].0
                )),
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            let def = &k.items[i];
            out.push(format!("is{} {}", def.kind, def.name));
            for (f, what) in FLAG_NAMES {
                if item.flags & f != 0 {
                    out.push(format!("{what} {}", def.name));
                }
            }
            match item.place {
                ItemPlace::On(s) => {
                    out.push(format!("item_on {} {}", def.name, k.stations[s as usize].0))
                }
                ItemPlace::Atop(b, _) => {
                    out.push(format!("atop {} {}", def.name, k.items[b as usize].name))
                }
                _ => {}
            }
            if let Some(s) = item.place.station() {
                out.push(format!("item_at {} {}", def.name, k.stations[s as usize].0));
            }
            if self.clear(i as u8) {
                out.push(format!("clear {}", def.name));
            }
        }
        for (c, cs) in self.containers.iter().enumerate() {
            let (name, pot) = &k.containers[c];
            out.push(format!("{} {name}", if *pot { "ispot" } else { "isbowl" }));
            if cs.at != NONE {
                out.push(format!(
                    "container_at {name} {}",
                    k.stations[cs.at as usize].0
                ));
            }
            if cs.empty {
                out.push(format!("container_empty {name}"));
            }
        }
        for (m, meal) in self.meals.iter().enumerate() {
            let name = Kitchen::meal_name(m);
            out.push(format!("iswater {name}"));
            if meal.boiling {
                out.push(format!("isboiling {name}"));
            }
            if meal.container != NONE {
                out.push(format!(
                    "in {name} {}",
                    k.containers[meal.container as usize].0
                ));
            }
            for (i, def) in k.items.iter().enumerate() {
                if meal.added & (1 << i) != 0 {
                    out.push(format!("addedto {} {name}", def.name));
                }
            }
        }
        out.sort();
        out
    }
}
