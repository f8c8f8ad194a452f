//! The agents' routes: every unit an order needs must first be taken from a dispenser, every
//! unit that must be chopped must be chopped by an agent standing at a board for the whole
//! chop, and the first dish needs a plate taken from a table. Each of those is a visit of
//! one agent, and an agent walks between its visits.
//!
//! The relaxation: visits cost no time but a chop's 4, an agent walks from one visit to the
//! next at least the shortest walk between the two stations' sides, a unit reaches a board no
//! sooner than its shortest carry from the dispenser it came from (item metric: hand-offs
//! across counters are free in a team), two chops on one board do not overlap, and after its
//! visit each unit still needs its chain's rest (the same costs as the unit chains). What it
//! leaves out (hands hold one item, cookware, plates beyond the first, washing) only makes
//! plans shorter, so the shortest relaxed time is a lower bound in both rule sets (the
//! chains' rests leave out cooking under the game's clock).
//!
//! It is solved exactly by depth-first branch and bound. The visits are enumerated in the
//! order of their earliest start times: the earliest-start schedule of any fixed choice of
//! who visits what in which order is a longest path over those orders, so its times sorted
//! (ties in precedence order) are an enumeration in which every step starts no earlier than
//! the one before and the computed times are exactly that schedule's. Only such
//! enumerations are searched; units of one food in one state are interchangeable, so they
//! are taken in a fixed order. Past a node cap the argument gives nothing.
//!
//! With one cook, the cook also does everything after the chops, so three more kinds of
//! visit join its route, each a moment the cook must stand at a station:
//! - **into cookware on a stove**, per dish and cookware kind (under the rules as stated
//!   only: the game's clock also cooks off the stove): the first moment a unit of
//!   the dish is in that cookware on a stove is an `Interact` at a stove (the unit put into
//!   cookware there, or the cookware put there), after that unit is chopped (pan) or taken
//!   (pot) and carried there. Several pans for one dish only add visits;
//! - **out of cookware on a stove**: cookware cooks only on a stove, so once a unit has
//!   cooked its full 24 or 16 (no sooner than that after it went in) the cookware stands on
//!   a stove, and its contents reach a plate only by an `Interact` there (the plate brought
//!   to it, or the cookware taken off);
//! - **serves**, one per order in order at a window, each after every unit of its dish can be
//!   there (its chain) and after its cookware was emptied.
//!
//! So the walks back and forth between the window, the stoves and the dispensers that a
//! lone cook makes one after another count in full, where the chains let them overlap. The
//! value is then the last serve (never less than any visit plus its chain's rest).

use super::super::oracle::layout::{Cut, Layout, StationKind, CHOP_TIME, FAR};
use super::Estimator;

/// Nodes the search may visit before it gives up (and the argument gives 0).
const NODE_CAP: usize = 400_000;

/// One unit an order needs.
struct Unit {
    /// Units before it of the same food and state (taken in that order).
    twin_of: Option<usize>,
    /// Per dispenser that gives it: the station and the rest of its chain from there.
    picks: Vec<(usize, i32)>,
    /// Per board, when it must be chopped: the station and its rest after the chop.
    chops: Vec<(usize, i32)>,
    /// Its order.
    order: usize,
    /// Its cooking group (one cook only): a dish's units for one kind of cookware.
    group: Option<usize>,
}

/// A dish's units for one kind of cookware, with one cook: they go into cookware on a stove
/// and come out of it there after one unit's cooking at least.
struct Group {
    order: usize,
    /// One unit's cooking time in this cookware (0 under the game's clock).
    lag: i32,
    /// A pan: its units are ready once chopped (a pot's once taken).
    pan: bool,
}

struct Search<'a> {
    lay: &'a Layout,
    units: Vec<Unit>,
    /// Plate tables and the rest from each to a window.
    plates: Vec<(usize, i32)>,
    /// Shortest walk between two stations' sides, `[s * stations + t]`.
    walk: Vec<i32>,
    /// Shortest walk from each agent's start to each station's sides.
    from_start: Vec<Vec<i32>>,
    /// Shortest item carry between two stations' sides.
    carry: Vec<i32>,
    /// Cooking groups (empty with a team).
    groups: Vec<Group>,
    /// Stoves and the walk from each to a window.
    stoves: Vec<(usize, i32)>,
    /// Windows (with a team: none, serves are left to the chains).
    windows: Vec<usize>,
    /// Orders.
    orders: usize,
    best: i32,
    nodes: usize,
}

/// Where things stand in one branch.
#[derive(Clone)]
struct Node {
    /// Per agent: when it is free and the station it is at (`None`: its start cell).
    agents: Vec<(i32, Option<usize>)>,
    /// Per unit: when and where it was taken.
    picked: Vec<Option<(i32, usize)>>,
    /// Per unit: when and where its chop ended.
    chopped: Vec<Option<(i32, usize)>>,
    /// Per unit: its latest visit plus its chain's rest from there.
    ready: Vec<i32>,
    /// Per group: when it went into cookware on a stove, and when it came out.
    cook_in: Vec<Option<i32>>,
    cook_out: Vec<Option<i32>>,
    /// Orders served.
    served: usize,
    plate: bool,
    /// When each station (a board) is next free.
    free: Vec<i32>,
    /// The latest start so far: every next visit starts no earlier.
    last: i32,
    /// The largest visit time plus rest so far.
    value: i32,
}

impl Estimator {
    /// The route argument from the start of a kitchen: `None` when the search passes its cap
    /// (with one cook, first with the cookware and serve visits, then, past the cap, without).
    pub(super) fn route(&self, lay: &Layout) -> Option<i32> {
        let alone = lay.agents.len() == 1;
        self.route_with(lay, alone)
            .or_else(|| alone.then(|| self.route_with(lay, false)).flatten())
    }

    /// The route argument, with the one cook's cookware and serve visits when `alone`.
    fn route_with(&self, lay: &Layout, alone: bool) -> Option<i32> {
        let s_n = lay.stations.len();
        let cells = |s: usize| &lay.stations[s].access;
        let min_over = |s: usize, cost: &[i32]| {
            cells(s)
                .iter()
                .map(|&c| cost[c as usize])
                .min()
                .unwrap_or(FAR)
        };
        let mut units: Vec<Unit> = Vec::new();
        let mut kinds: Vec<(u8, Cut, usize)> = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        for (order, (_, needs)) in lay.orders.iter().enumerate() {
            for &(food, need) in needs {
                let raw = self.cost(lay, food, need, Cut::Raw)?;
                let picks = lay
                    .dispensers_of(food)
                    .map(|d| (d, min_over(d, raw)))
                    .collect();
                let chop = lay.must_chop(food, need);
                let chops = match self.cost(lay, food, need, Cut::Chopped) {
                    Some(after) if chop => lay
                        .of_kind(StationKind::Board)
                        .map(|b| (b, min_over(b, after)))
                        .collect(),
                    _ => Vec::new(),
                };
                let twin_of = kinds
                    .iter()
                    .rev()
                    .find(|k| k.0 == food && k.1 == need)
                    .map(|k| k.2);
                kinds.push((food, need, units.len()));
                let (pan, pot) = (lay.pan_food(food), lay.pot_food(food));
                let lag = if pan { self.pan_lag } else { self.pot_lag };
                // Under the game's clock cookware may cook off the stove: no stove visits.
                let group =
                    (alone && need == Cut::Cooked && (pan || pot) && lag > 0).then(|| match groups
                        .iter()
                        .position(|g| g.order == order && g.pan == pan)
                    {
                        Some(g) => g,
                        None => {
                            groups.push(Group { order, lag, pan });
                            groups.len() - 1
                        }
                    });
                units.push(Unit {
                    twin_of,
                    picks,
                    chops,
                    order,
                    group,
                });
            }
        }
        if units.is_empty() {
            return None;
        }
        let plates: Vec<(usize, i32)> = lay
            .plate_counters()
            .map(|s| (s, min_over(s, self.to_window(false))))
            .collect();
        let pair = |s: usize, t: usize, d: &dyn Fn(u8, u8) -> i32| {
            cells(s)
                .iter()
                .flat_map(|&a| cells(t).iter().map(move |&b| (a, b)))
                .map(|(a, b)| d(a, b))
                .min()
                .unwrap_or(FAR)
        };
        let mut walk = vec![FAR; s_n * s_n];
        let mut carry = vec![FAR; s_n * s_n];
        for s in 0..s_n {
            for t in 0..s_n {
                walk[s * s_n + t] = pair(s, t, &|a, b| lay.dist(a, b));
                carry[s * s_n + t] = pair(s, t, &|a, b| self.item_dist(a, b));
            }
        }
        let from_start = lay
            .agents
            .iter()
            .map(|&(_, cell)| {
                (0..s_n)
                    .map(|s| {
                        cells(s)
                            .iter()
                            .map(|&c| lay.dist(cell, c))
                            .min()
                            .unwrap_or(FAR)
                    })
                    .collect()
            })
            .collect();
        let n = units.len();
        let stoves = lay
            .of_kind(StationKind::Stove)
            .map(|s| (s, min_over(s, self.to_window(true))))
            .collect();
        let windows = if alone {
            lay.of_kind(StationKind::Window).collect()
        } else {
            Vec::new()
        };
        let g_n = groups.len();
        let mut search = Search {
            lay,
            units,
            plates,
            walk,
            from_start,
            carry,
            groups,
            stoves,
            orders: if windows.is_empty() {
                0
            } else {
                lay.orders.len()
            },
            windows,
            best: FAR,
            nodes: 0,
        };
        let root = Node {
            agents: vec![(0, None); lay.agents.len()],
            picked: vec![None; n],
            chopped: vec![None; n],
            ready: vec![0; n],
            cook_in: vec![None; g_n],
            cook_out: vec![None; g_n],
            served: 0,
            plate: search.plates.is_empty(),
            free: vec![0; s_n],
            last: 0,
            value: 0,
        };
        search.dfs(&root);
        (search.nodes <= NODE_CAP && search.best < FAR).then_some(search.best)
    }
}

/// A visit a branch may add next.
#[derive(Clone, Copy)]
enum Visit {
    Pick(usize),
    Chop(usize),
    Plate,
    /// A group into cookware on a stove.
    CookIn(usize),
    /// A group out of its cookware on a stove.
    CookOut(usize),
    /// The next order served.
    Serve,
}

impl Search<'_> {
    fn walk_to(&self, node: &Node, agent: usize, s: usize) -> i32 {
        let (t, at) = node.agents[agent];
        t + match at {
            None => self.from_start[agent][s],
            Some(a) => self.walk[a * self.lay.stations.len() + s],
        }
    }

    /// Every visit that can come next, with its agent, station, start and value.
    fn options(&self, node: &Node, out: &mut Vec<(Visit, usize, usize, i32, i32)>) {
        out.clear();
        let s_n = self.lay.stations.len();
        for (u, unit) in self.units.iter().enumerate() {
            match node.picked[u] {
                None => {
                    if unit.twin_of.is_some_and(|v| node.picked[v].is_none()) {
                        continue;
                    }
                    for a in 0..node.agents.len() {
                        for &(d, rest) in &unit.picks {
                            let start = self.walk_to(node, a, d).max(node.last);
                            out.push((Visit::Pick(u), a, d, start, start.saturating_add(rest)));
                        }
                    }
                }
                Some((t, d)) if node.chopped[u].is_none() && !unit.chops.is_empty() => {
                    for a in 0..node.agents.len() {
                        for &(b, rest) in &unit.chops {
                            let start = self
                                .walk_to(node, a, b)
                                .max(t.saturating_add(self.carry[d * s_n + b]))
                                .max(node.free[b])
                                .max(node.last);
                            let end = start + CHOP_TIME;
                            out.push((Visit::Chop(u), a, b, start, end.saturating_add(rest)));
                        }
                    }
                }
                _ => {}
            }
        }
        if !node.plate {
            for a in 0..node.agents.len() {
                for &(p, rest) in &self.plates {
                    let start = self.walk_to(node, a, p).max(node.last);
                    out.push((Visit::Plate, a, p, start, start.saturating_add(rest)));
                }
            }
        }
        // One cook: its cookware and serves (agent 0).
        for (g, group) in self.groups.iter().enumerate() {
            match (node.cook_in[g], node.cook_out[g]) {
                (None, _) => {
                    // Ready units of the group: where and when each can set off to a stove.
                    let ready: Vec<(i32, usize)> = (0..self.units.len())
                        .filter(|&u| self.units[u].group == Some(g))
                        .filter_map(|u| {
                            if group.pan {
                                node.chopped[u]
                            } else {
                                node.picked[u]
                            }
                        })
                        .collect();
                    if ready.is_empty() {
                        continue;
                    }
                    for &(s, to_window) in &self.stoves {
                        let arrive = ready
                            .iter()
                            .map(|&(t, at)| t.saturating_add(self.carry[at * s_n + s]))
                            .min()
                            .unwrap_or(FAR);
                        let start = self.walk_to(node, 0, s).max(arrive).max(node.last);
                        let value = start.saturating_add(group.lag).saturating_add(to_window);
                        out.push((Visit::CookIn(g), 0, s, start, value));
                    }
                }
                (Some(t), None) => {
                    for &(s, to_window) in &self.stoves {
                        let start = self
                            .walk_to(node, 0, s)
                            .max(t.saturating_add(group.lag))
                            .max(node.last);
                        out.push((
                            Visit::CookOut(g),
                            0,
                            s,
                            start,
                            start.saturating_add(to_window),
                        ));
                    }
                }
                _ => {}
            }
        }
        if node.served < self.orders {
            let j = node.served;
            let mut release = 0;
            for (u, unit) in self.units.iter().enumerate() {
                if unit.order != j {
                    continue;
                }
                let done = node.picked[u].is_some()
                    && (unit.chops.is_empty() || node.chopped[u].is_some())
                    && unit.group.is_none_or(|g| node.cook_out[g].is_some());
                if !done {
                    return;
                }
                release = release.max(node.ready[u]);
            }
            for &w in &self.windows {
                let start = self.walk_to(node, 0, w).max(release).max(node.last);
                out.push((Visit::Serve, 0, w, start, start));
            }
        }
    }

    fn dfs(&mut self, node: &Node) {
        self.nodes += 1;
        if self.nodes > NODE_CAP {
            return;
        }
        let mut options = Vec::new();
        self.options(node, &mut options);
        if options.is_empty() {
            self.best = self.best.min(node.value);
            return;
        }
        // Every visit still due ends no sooner than its best option: a bound for the branch.
        let mut floor = node.value;
        for (u, _) in self.units.iter().enumerate() {
            let due = |v: &Visit| matches!(*v, Visit::Pick(x) | Visit::Chop(x) if x == u);
            if let Some(low) = options.iter().filter(|o| due(&o.0)).map(|o| o.4).min() {
                floor = floor.max(low);
            }
        }
        if let Some(low) = options
            .iter()
            .filter(|o| matches!(o.0, Visit::Plate))
            .map(|o| o.4)
            .min()
        {
            floor = floor.max(low);
        }
        for g in 0..self.groups.len() {
            let due = |v: &Visit| matches!(*v, Visit::CookIn(x) | Visit::CookOut(x) if x == g);
            if let Some(low) = options.iter().filter(|o| due(&o.0)).map(|o| o.4).min() {
                floor = floor.max(low);
            }
        }
        if let Some(low) = options
            .iter()
            .filter(|o| matches!(o.0, Visit::Serve))
            .map(|o| o.4)
            .min()
        {
            floor = floor.max(low);
        }
        // One cook chops every unit still to chop itself.
        if self.orders > 0 {
            let chops = (0..self.units.len())
                .filter(|&u| !self.units[u].chops.is_empty() && node.chopped[u].is_none())
                .count() as i32;
            floor = floor.max(node.agents[0].0.max(node.last) + chops * CHOP_TIME);
        }
        if floor >= self.best {
            return;
        }
        options.sort_by_key(|o| (o.4, o.3));
        for &(visit, a, s, start, value) in &options {
            if value.max(node.value) >= self.best {
                continue;
            }
            let mut next = node.clone();
            next.last = start;
            next.value = node.value.max(value);
            match visit {
                Visit::Pick(u) => {
                    next.picked[u] = Some((start, s));
                    next.ready[u] = value;
                    next.agents[a] = (start, Some(s));
                }
                Visit::Chop(u) => {
                    next.chopped[u] = Some((start + CHOP_TIME, s));
                    next.ready[u] = value;
                    next.free[s] = start + CHOP_TIME;
                    next.agents[a] = (start + CHOP_TIME, Some(s));
                }
                Visit::Plate => {
                    next.plate = true;
                    next.agents[a] = (start, Some(s));
                }
                Visit::CookIn(g) => {
                    next.cook_in[g] = Some(start);
                    next.agents[a] = (start, Some(s));
                }
                Visit::CookOut(g) => {
                    next.cook_out[g] = Some(start);
                    for (u, unit) in self.units.iter().enumerate() {
                        if unit.group == Some(g) {
                            next.ready[u] = next.ready[u].max(value);
                        }
                    }
                    next.agents[a] = (start, Some(s));
                }
                Visit::Serve => {
                    next.served += 1;
                    next.agents[a] = (start, Some(s));
                }
            }
            self.dfs(&next);
            if self.nodes > NODE_CAP {
                return;
            }
        }
    }
}
