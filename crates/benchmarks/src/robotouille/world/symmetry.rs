//! Symmetry reduction: stations of one kind, and items of one kind, are interchangeable
//! (every move costs one step, and the goal takes any object of a kind; no Robotouille kind
//! name is part of another), so a state is stored under a canonical labelling.
//!
//! The labelling is computed from descriptions that name no station or item: an item by its
//! kind, flags, whether it is on a station, on an item, held (by which robot) or gone, the
//! positions in the effect list that name it and the waters it was added to; a station by
//! its emptiness, the robots and containers there (robots and containers keep their
//! labels), the effect positions that name it and, for each item on it, the descriptions
//! from the bottom of its stack up to that item. Stations are ordered by description
//! within their kind, then items by where they are under that order. Two objects that tie
//! have equal descriptions everywhere, so swapping them maps the state to itself: two
//! states that a relabelling maps onto each other get the same labelling (up to a digest
//! collision, which only costs reduction), and a labelled state is always equivalent to
//! the original, so merging never joins two different situations.

use super::kitchen::Kitchen;
use super::rules::{Act, EffectKind, Hand, ItemPlace, State, NONE};

/// A relabelling: `stations[old] = new`, `items[old] = new`.
#[derive(Debug, Clone)]
pub struct Relabelling {
    /// New label of each station.
    pub stations: Vec<u8>,
    /// New label of each item.
    pub items: Vec<u8>,
}

impl Relabelling {
    /// The inverse relabelling.
    pub fn inverse(&self) -> Relabelling {
        let inv = |p: &[u8]| {
            let mut out = vec![0u8; p.len()];
            for (old, &new) in p.iter().enumerate() {
                out[new as usize] = old as u8;
            }
            out
        };
        Relabelling {
            stations: inv(&self.stations),
            items: inv(&self.items),
        }
    }

    fn s(&self, s: u8) -> u8 {
        if s == NONE {
            NONE
        } else {
            self.stations[s as usize]
        }
    }

    fn i(&self, i: u8) -> u8 {
        if i == NONE {
            NONE
        } else {
            self.items[i as usize]
        }
    }

    /// `act` relabelled.
    pub fn act(&self, act: Act) -> Act {
        let (s, i) = (|x| self.s(x), |x| self.i(x));
        match act {
            Act::Move(p, a, b) => Act::Move(p, s(a), s(b)),
            Act::Pick(p, x, a) => Act::Pick(p, i(x), s(a)),
            Act::Place(p, x, a) => Act::Place(p, i(x), s(a)),
            Act::PickContainer(p, c, a) => Act::PickContainer(p, c, s(a)),
            Act::PlaceContainer(p, c, a) => Act::PlaceContainer(p, c, s(a)),
            Act::Cook(p, x, a) => Act::Cook(p, i(x), s(a)),
            Act::Cut(p, x, a) => Act::Cut(p, i(x), s(a)),
            Act::Fry(p, x, a) => Act::Fry(p, i(x), s(a)),
            Act::FillPot(p, c, a) => Act::FillPot(p, c, s(a)),
            Act::Boil(p, c, a, m) => Act::Boil(p, c, s(a), m),
            Act::Add(p, x, c, a, m) => Act::Add(p, i(x), c, s(a), m),
            Act::FillBowl(p, b, c, a, m) => Act::FillBowl(p, b, c, s(a), m),
            Act::Stack(p, x, y, a) => Act::Stack(p, i(x), i(y), s(a)),
            Act::Unstack(p, x, y, a) => Act::Unstack(p, i(x), i(y), s(a)),
            Act::Wait => Act::Wait,
        }
    }

    /// `state` relabelled.
    pub fn state(&self, state: &State) -> State {
        let mut out = state.clone();
        for r in &mut out.robots {
            r.at = self.s(r.at);
            if let Hand::Item(i) = r.hand {
                r.hand = Hand::Item(self.i(i));
            }
        }
        for (old, it) in state.items.iter().enumerate() {
            let mut it = *it;
            it.place = match it.place {
                ItemPlace::On(s) => ItemPlace::On(self.s(s)),
                ItemPlace::Atop(b, s) => ItemPlace::Atop(self.i(b), self.s(s)),
                other => other,
            };
            out.items[self.items[old] as usize] = it;
        }
        for c in &mut out.containers {
            c.at = self.s(c.at);
        }
        for m in &mut out.meals {
            let mut added = 0u64;
            for (old, &new) in self.items.iter().enumerate() {
                if m.added & (1 << old) != 0 {
                    added |= 1 << new;
                }
            }
            m.added = added;
        }
        let mut empty = 0u64;
        for (old, &new) in self.stations.iter().enumerate() {
            if state.station_empty & (1 << old) != 0 {
                empty |= 1 << new;
            }
        }
        out.station_empty = empty;
        for e in &mut out.effects {
            match e.kind {
                EffectKind::Cook | EffectKind::Fry => {
                    e.a = self.i(e.a);
                    e.b = self.s(e.b);
                }
                EffectKind::CutCount | EffectKind::CutFry => e.a = self.i(e.a),
                EffectKind::Fill => e.b = self.s(e.b),
                EffectKind::Boil => e.c = self.s(e.c),
            }
        }
        out
    }
}

/// The groups of interchangeable objects of a kitchen.
#[derive(Debug, Clone)]
pub struct Symmetry {
    /// Stations by kind (labels in increasing order).
    stations: Vec<Vec<u8>>,
    /// Items by kind (labels in increasing order).
    items: Vec<Vec<u8>>,
    /// Each item's kind group.
    item_kind: Vec<u32>,
}

const TAG_EFFECT: u32 = 1 << 24;
const TAG_MEAL: u32 = 2 << 24;
const TAG_ROBOT: u32 = 3 << 24;
const TAG_CONTAINER: u32 = 4 << 24;
const TAG_ITEM: u32 = 5 << 24;
const TAG_PATH: u32 = 6 << 24;

impl Symmetry {
    /// The groups of `k`.
    pub fn new(k: &Kitchen) -> Symmetry {
        let mut stations: Vec<(super::kitchen::StationKind, Vec<u8>)> = Vec::new();
        for (s, (_, kind)) in k.stations.iter().enumerate() {
            match stations.iter_mut().find(|(x, _)| x == kind) {
                Some((_, g)) => g.push(s as u8),
                None => stations.push((*kind, vec![s as u8])),
            }
        }
        let mut kinds: Vec<&str> = Vec::new();
        let mut items: Vec<Vec<u8>> = Vec::new();
        let mut item_kind = Vec::new();
        for (i, def) in k.items.iter().enumerate() {
            let g = match kinds.iter().position(|x| *x == def.kind) {
                Some(g) => g,
                None => {
                    kinds.push(&def.kind);
                    items.push(Vec::new());
                    kinds.len() - 1
                }
            };
            items[g].push(i as u8);
            item_kind.push(g as u32);
        }
        Symmetry {
            stations: stations.into_iter().map(|(_, g)| g).collect(),
            items,
            item_kind,
        }
    }

    /// The canonical labelling of `state`.
    ///
    /// Descriptions are compared by 64-bit digests. Any relabelling maps a state to an
    /// equivalent one, so a digest collision can only make two equivalent states look
    /// different (less reduction), never merge two that differ.
    pub fn canonical(&self, state: &State) -> (State, Relabelling) {
        let n_items = state.items.len();
        // Each object's tags are mixed in the same order as a walk over each list per
        // object would (robots, then effects, then waters), one walk per list.
        let mut desc = [0u64; 64];
        for (i, it) in state.items.iter().enumerate() {
            let mut h = mix(0x9e37, u64::from(self.item_kind[i]));
            h = mix(h, u64::from(it.flags));
            desc[i] = mix(
                h,
                match it.place {
                    ItemPlace::On(_) => 1,
                    ItemPlace::Atop(..) => 2,
                    ItemPlace::Held => 3,
                    ItemPlace::Nowhere => 4,
                },
            );
        }
        for (p, r) in state.robots.iter().enumerate() {
            if let Hand::Item(i) = r.hand {
                desc[i as usize] = mix(desc[i as usize], u64::from(TAG_ROBOT) | p as u64);
            }
        }
        for (e, eff) in state.effects.iter().enumerate() {
            let names_item = matches!(
                eff.kind,
                EffectKind::Cook | EffectKind::Fry | EffectKind::CutCount | EffectKind::CutFry
            );
            if names_item && (eff.a as usize) < n_items {
                let i = eff.a as usize;
                desc[i] = mix(desc[i], u64::from(TAG_EFFECT) | e as u64);
            }
        }
        for (m, meal) in state.meals.iter().enumerate() {
            let mut added = meal.added;
            while added != 0 {
                let i = added.trailing_zeros() as usize;
                added &= added - 1;
                if i < n_items {
                    desc[i] = mix(desc[i], u64::from(TAG_MEAL) | m as u64);
                }
            }
        }
        // Each placed item's path: its stack from the bottom up to it.
        let mut path = [0u64; 64];
        for (i, slot) in path.iter_mut().enumerate().take(n_items) {
            if state.items[i].place.station().is_none() {
                continue;
            }
            let mut chain = [0u8; 64];
            let mut len = 0;
            let mut at = i;
            loop {
                chain[len] = at as u8;
                len += 1;
                match state.items[at].place {
                    ItemPlace::Atop(b, _) if len < n_items => at = b as usize,
                    _ => break,
                }
            }
            let mut h = u64::from(TAG_PATH);
            for &x in chain[..len].iter().rev() {
                h = mix(h, desc[x as usize]);
            }
            *slot = h;
        }
        let total_stations = self.stations.iter().map(Vec::len).sum::<usize>();
        let mut station_desc = [0u64; 64];
        for (s, h) in station_desc.iter_mut().enumerate().take(total_stations) {
            *h = mix(0x51, u64::from(state.station_empty & (1 << s) != 0));
        }
        let tag = |desc: &mut [u64; 64], s: u8, x: u64| {
            if (s as usize) < total_stations {
                desc[s as usize] = mix(desc[s as usize], x);
            }
        };
        for (p, r) in state.robots.iter().enumerate() {
            tag(&mut station_desc, r.at, u64::from(TAG_ROBOT) | p as u64);
        }
        for (c, cs) in state.containers.iter().enumerate() {
            tag(
                &mut station_desc,
                cs.at,
                u64::from(TAG_CONTAINER) | c as u64,
            );
        }
        for (e, eff) in state.effects.iter().enumerate() {
            let at = match eff.kind {
                EffectKind::Cook | EffectKind::Fry | EffectKind::Fill => eff.b,
                EffectKind::Boil => eff.c,
                _ => continue,
            };
            tag(&mut station_desc, at, u64::from(TAG_EFFECT) | e as u64);
        }
        // The items there, in any order.
        let mut items_here = [0u64; 64];
        for (it, p) in state.items.iter().zip(&path) {
            if let Some(s) = it.place.station() {
                let sum = &mut items_here[s as usize];
                *sum = sum.wrapping_add(mix(u64::from(TAG_ITEM), *p));
            }
        }
        for (h, here) in station_desc.iter_mut().zip(items_here).take(total_stations) {
            *h = mix(*h, here);
        }
        let mut stations = vec![0u8; total_stations];
        for group in &self.stations {
            let mut order: Vec<u8> = group.clone();
            order.sort_by_key(|&s| station_desc[s as usize]);
            for (slot, s) in group.iter().zip(order) {
                stations[s as usize] = *slot;
            }
        }
        // Items ordered by where they are under the new station labels.
        let key = |i: usize| -> (u64, u64) {
            match state.items[i].place.station() {
                Some(s) => (u64::from(stations[s as usize]), path[i]),
                None => (u64::MAX, desc[i]),
            }
        };
        let mut items = vec![0u8; n_items];
        for group in &self.items {
            if group.len() == 1 {
                items[group[0] as usize] = group[0];
                continue;
            }
            let mut order: Vec<u8> = group.clone();
            order.sort_by_key(|&i| key(i as usize));
            for (slot, i) in group.iter().zip(order) {
                items[i as usize] = *slot;
            }
        }
        let relabel = Relabelling { stations, items };
        (relabel.state(state), relabel)
    }
}

/// One step of a 64-bit digest (the multiply-xorshift of SplitMix64).
fn mix(h: u64, x: u64) -> u64 {
    let mut z = h.rotate_left(5) ^ x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
