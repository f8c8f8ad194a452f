//! Robotouille's procedural generator (`randomize_environment` in upstream's
//! `environments/env_generator/procedural_generator.py`), draw for draw: the seeded kitchen
//! an agent is evaluated on is whatever this function returns for the task file and the seed,
//! so every random draw, every branch and every exception must be upstream's.
//!
//! What it does, in the order it draws:
//! 1. distractors: a number of stations below `width·height`, each at a random cell with a
//!    random kind; a number of items up to that, each at the `x` of one random station and the
//!    `y` of another (so often on no station at all), each of a random kind;
//! 2. the task's own objects, in the file's (x, y) order: a random cell for every station,
//!    item and container, and a random direction for every player (the plain mode), or the
//!    whole layout shuffled in groups (a station with its items and the robot beside it) until
//!    every station is reachable (the noisy mode, which upstream's evaluation never uses);
//! 3. stations: a distractor stays where its cell is free and every station stays reachable
//!    from the robot's random cell; a task station replaces a distractor on its cell, or is
//!    added where every station stays reachable, or replaces a random distractor;
//! 4. the robot: only the first player, on the first free cell beside the first station (in
//!    list order) from which every station is reachable, facing that station;
//! 5. items, then containers: on a free station or the robot's cell (the robot then holds
//!    it), a task object displacing a distractor, else on the first free station in list
//!    order; then every item not frozen in place is put at stack level 0.
//!
//! Upstream quirks kept because the kitchens depend on them:
//! - an exception anywhere (no distractor left to replace, a container that meets a
//!   distractor item, which upstream indexes as a list) makes the caller retry with seed+1
//!   ([`super::seeds`]);
//! - reachability for a distractor station is checked from the robot's *random* cell, which
//!   may be a station cell (then only that station counts as reached);
//! - `list.index` finds objects by equal contents, not identity (the same object here, as no
//!   two equal objects can differ in place);
//! - the noisy mode drops containers, keeps frozen items where the robot used to stand, and
//!   may list the robot (and the item it holds) once per station it stands beside, because the
//!   groups share one dictionary: objects live in an arena and lists hold indices so that
//!   this sharing is the same here.
//!
//! Objects are kept as upstream's dictionaries (JSON objects, keys in insertion order), tags
//! (`force_add`, `frozen`) included, so the result is upstream's JSON value for value.

use serde_json::{json, Map, Value};

use super::pyrandom::PyRandom;

/// Upstream's station kinds, in its enum's order (`random.choice(list(Station))`).
const STATIONS: [&str; 5] = ["board", "stove", "table", "fryer", "sink"];
/// Upstream's item kinds, in its enum's order (the release domain's, the same list).
const ITEMS: [&str; 10] = super::world::kitchen::ITEM_KINDS;
/// The player directions upstream draws from, in its order.
const DIRECTIONS: [[i64; 2]; 4] = [[0, 1], [1, 0], [0, -1], [-1, 0]];
/// Tag of an object the generator must place.
const FORCE_ADD: &str = "force_add";
/// Tag of an object placed by the noisy mode, not to be moved again.
const FROZEN: &str = "frozen";
/// Shuffles of the noisy mode before giving up. Upstream loops forever; every task file
/// of the three sets settles within a few dozen.
const MAX_NOISY_SHUFFLES: usize = 100_000;

/// Why a generation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Upstream raises here (the message is its exception): its caller retries with seed+1.
    Raised(String),
    /// Upstream would never return (the noisy mode found no reachable layout).
    NeverReturns,
}

/// The kitchen upstream's `randomize_environment(environment, seed, noisy)` returns for an
/// environment already loaded as upstream loads it (entity lists sorted by (x, y), see
/// [`super::seeds::load_environment`]), or why it raises.
pub fn randomize_environment(
    environment: &Map<String, Value>,
    seed: i64,
    noisy: bool,
) -> Result<Map<String, Value>, Failure> {
    let width = environment
        .get("width")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let height = environment
        .get("height")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut g = Generator {
        rng: PyRandom::new(seed),
        objects: Vec::new(),
        width,
        height,
    };
    let (mut stations, mut items, mut containers, mut players) = g.random_objects()?;
    if noisy {
        let (s, i, _, p) = g.randomize_and_freeze(environment)?;
        stations = [s, stations].concat();
        items = [i, items].concat();
        players = [p, players].concat();
    } else {
        let (s, i, c, p) = g.randomize_and_tag(environment)?;
        stations.extend(s);
        items.extend(i);
        containers.extend(c);
        players.extend(p);
    }
    let stations = g.add_stations(&stations, &players)?;
    let players = g.add_players(&stations, &players)?;
    let mut items = g.add_items(&stations, &players, &items)?;
    let containers = g.add_containers(&stations, &players, &mut items, &containers)?;
    // Upstream empties the four lists of a copy of the environment first: the keys keep
    // their places, and a file without containers gains an empty list at the end.
    let mut out = environment.clone();
    for (field, list) in [
        ("stations", &stations),
        ("items", &items),
        ("containers", &containers),
        ("players", &players),
    ] {
        let values = list
            .iter()
            .map(|&o| Value::Object(g.objects[o].clone()))
            .collect();
        out.insert(field.into(), Value::Array(values));
    }
    Ok(out)
}

/// An object in the arena (an index into [`Generator::objects`]).
type Id = usize;

/// Stations, items, containers and players, in that order.
type Lists = (Vec<Id>, Vec<Id>, Vec<Id>, Vec<Id>);

/// One generation: the random stream and every object made so far.
struct Generator {
    rng: PyRandom,
    objects: Vec<Map<String, Value>>,
    width: i64,
    height: i64,
}

/// The exception Python raises for an impossible draw or lookup.
fn raised(message: &str) -> Failure {
    Failure::Raised(message.into())
}

/// A grid cell of the reachability check: free, visited, or a station and whether the
/// current search has reached it.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Free,
    Visited,
    Station { reached: bool },
}

impl Generator {
    fn new_object(&mut self, object: Map<String, Value>) -> Id {
        self.objects.push(object);
        self.objects.len() - 1
    }

    fn pos(&self, o: Id) -> (i64, i64) {
        let at = |k: &str| self.objects[o].get(k).and_then(Value::as_i64).unwrap_or(0);
        (at("x"), at("y"))
    }

    fn set_pos(&mut self, o: Id, (x, y): (i64, i64)) {
        self.objects[o].insert("x".into(), x.into());
        self.objects[o].insert("y".into(), y.into());
    }

    /// Whether the object has the tag (upstream only ever sets tags to `True`).
    fn tagged(&self, o: Id, tag: &str) -> bool {
        self.objects[o].contains_key(tag)
    }

    fn tag(&mut self, o: Id, tag: &str) {
        self.objects[o].insert(tag.into(), Value::Bool(true));
    }

    /// The first object of `list` at `at`.
    fn at(&self, list: &[Id], at: (i64, i64)) -> Option<Id> {
        list.iter().copied().find(|&o| self.pos(o) == at)
    }

    /// `list.index(o)`: the first object with equal contents.
    fn index(&self, list: &[Id], o: Id) -> Result<usize, Failure> {
        list.iter()
            .position(|&p| self.objects[p] == self.objects[o])
            .ok_or_else(|| raised("ValueError: object is not in list"))
    }

    fn in_bounds(&self, (x, y): (i64, i64)) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    fn randrange(&mut self, stop: i64) -> Result<i64, Failure> {
        self.rng
            .randrange(0, stop)
            .ok_or_else(|| raised(&format!("ValueError: empty range in randrange(0, {stop})")))
    }

    fn choice<T: Clone>(&mut self, seq: &[T]) -> Result<T, Failure> {
        self.rng
            .choice(seq)
            .cloned()
            .ok_or_else(|| raised("IndexError: Cannot choose from an empty sequence"))
    }

    /// `_generate_random_objects`: distractor stations, then distractor items.
    fn random_objects(&mut self) -> Result<Lists, Failure> {
        let count = self.randrange(self.width * self.height)?;
        let mut stations = Vec::new();
        for _ in 0..count {
            let x = self.randrange(self.width)?;
            let y = self.randrange(self.height)?;
            let station = json!({"name": "station", "x": x, "y": y});
            stations.push(self.new_object(into_map(station)));
        }
        for &s in &stations {
            let kind = self.choice(&STATIONS)?;
            self.objects[s].insert("name".into(), kind.into());
        }
        let count = self.randrange(stations.len() as i64 + 1)?;
        let mut items = Vec::new();
        for _ in 0..count {
            let sx = self.choice(&stations)?;
            let sy = self.choice(&stations)?;
            let (x, y) = (self.pos(sx).0, self.pos(sy).1);
            let item = json!({"name": "item", "x": x, "y": y, "stack-level": 0});
            items.push(self.new_object(into_map(item)));
        }
        for &i in &items {
            let kind = self.choice(&ITEMS)?;
            self.objects[i].insert("name".into(), kind.into());
            let predicate = match kind {
                "patty" | "chicken" => Some("iscookable"),
                "lettuce" | "onion" | "tomato" => Some("iscuttable"),
                _ => None,
            };
            if let Some(p) = predicate {
                self.objects[i].insert("predicates".into(), json!([p]));
            }
        }
        Ok((stations, items, Vec::new(), Vec::new()))
    }

    /// Copies of the environment's objects of one field, in its order.
    fn copies(&mut self, environment: &Map<String, Value>, field: &str) -> Vec<Id> {
        let list: Vec<Map<String, Value>> = environment
            .get(field)
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(|v| v.as_object().cloned()).collect())
            .unwrap_or_default();
        list.into_iter().map(|o| self.new_object(o)).collect()
    }

    /// `_randomize_and_tag_objects` (the plain mode): every object of the task at a random
    /// cell, every player facing a random way, all tagged to be placed.
    fn randomize_and_tag(&mut self, environment: &Map<String, Value>) -> Result<Lists, Failure> {
        let mut out: [Vec<Id>; 4] = Default::default();
        for (k, field) in ["stations", "items", "containers", "players"]
            .iter()
            .enumerate()
        {
            for o in self.copies(environment, field) {
                let x = self.randrange(self.width)?;
                let y = self.randrange(self.height)?;
                self.set_pos(o, (x, y));
                if *field == "players" {
                    let d = self.choice(&DIRECTIONS)?;
                    self.objects[o].insert("direction".into(), json!(d));
                }
                self.tag(o, FORCE_ADD);
                out[k].push(o);
            }
        }
        let [s, i, c, p] = out;
        Ok((s, i, c, p))
    }

    /// `_randomize_and_freeze_objects` (the noisy mode): the layout reshuffled in groups (a
    /// station, its items, the first player beside it and the item that player holds) until
    /// every group finds cells and every station is reachable. The groups share the
    /// dictionaries of the objects, as upstream's do.
    fn randomize_and_freeze(&mut self, environment: &Map<String, Value>) -> Result<Lists, Failure> {
        // No containers: upstream's noisy mode leaves them out.
        let all_stations = self.copies(environment, "stations");
        let all_items = self.copies(environment, "items");
        let all_players = self.copies(environment, "players");
        // `_group_objects`, on the original positions.
        let mut groups = Vec::new();
        for &s in &all_stations {
            let (x, y) = self.pos(s);
            let beside = [(x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)];
            let player = all_players
                .iter()
                .copied()
                .find(|&p| beside.contains(&self.pos(p)));
            let station_items: Vec<Id> = all_items
                .iter()
                .copied()
                .filter(|&i| self.pos(i) == (x, y))
                .collect();
            let held = player.and_then(|p| self.at(&all_items, self.pos(p)));
            groups.push((s, station_items, player, held));
        }
        let cells: Vec<(i64, i64)> = (0..self.width)
            .flat_map(|x| (0..self.height).map(move |y| (x, y)))
            .collect();
        for _ in 0..MAX_NOISY_SHUFFLES {
            let (mut stations, mut items, mut players) = (Vec::new(), Vec::new(), Vec::new());
            let mut free = cells.clone();
            self.rng.shuffle(&mut free);
            for (station, station_items, player, held) in &groups {
                let (x, y) = free
                    .pop()
                    .ok_or_else(|| raised("IndexError: pop from empty list"))?;
                let mut spots = vec![(x, y)];
                if player.is_some() {
                    spots.extend([(x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)]);
                }
                let taken: Vec<(i64, i64)> = stations
                    .iter()
                    .chain(&players)
                    .map(|&o| self.pos(o))
                    .collect();
                let valid: Vec<(i64, i64)> = spots
                    .into_iter()
                    .filter(|&c| self.in_bounds(c) && !taken.contains(&c))
                    .collect();
                if !valid.contains(&(x, y)) || (player.is_some() && valid.len() == 1) {
                    break;
                }
                self.set_pos(*station, (x, y));
                self.tag(*station, FROZEN);
                self.tag(*station, FORCE_ADD);
                stations.push(*station);
                for &i in station_items {
                    self.set_pos(i, (x, y));
                    self.tag(i, FROZEN);
                    self.tag(i, FORCE_ADD);
                    items.push(i);
                }
                if let Some(p) = *player {
                    let (px, py) = self.choice(&valid[1..])?;
                    self.set_pos(p, (px, py));
                    self.objects[p].insert("direction".into(), json!([x - px, y - py]));
                    self.tag(p, FROZEN);
                    self.tag(p, FORCE_ADD);
                    players.push(p);
                    if let Some(i) = *held {
                        self.set_pos(i, (px, py));
                        self.tag(i, FROZEN);
                        self.tag(i, FORCE_ADD);
                        items.push(i);
                    }
                }
            }
            let filled = stations.len() == groups.len();
            if self.reachable(&stations, &players) && filled {
                return Ok((stations, items, Vec::new(), players));
            }
        }
        Err(Failure::NeverReturns)
    }

    /// `_are_stations_reachable`: from the first player's cell if there is a player, else
    /// from any free cell, a 4-neighbour search over free cells reaches every station.
    fn reachable(&self, stations: &[Id], players: &[Id]) -> bool {
        let (w, h) = (self.width, self.height);
        let mut grid = vec![vec![Cell::Free; w.max(0) as usize]; h.max(0) as usize];
        for &s in stations {
            let (x, y) = self.pos(s);
            // Origin at the bottom left, as upstream draws it.
            if let Some(cell) = usize::try_from(h - y - 1)
                .ok()
                .and_then(|row| grid.get_mut(row))
                .and_then(|r| r.get_mut(x as usize))
            {
                *cell = Cell::Station { reached: false };
            }
        }
        let search = |grid: &mut Vec<Vec<Cell>>, start: (i64, i64)| -> usize {
            let mut queue = std::collections::VecDeque::from([start]);
            let mut reached = 0;
            while let Some((x, y)) = queue.pop_front() {
                if x < 0 || x >= w || y < 0 || y >= h {
                    continue;
                }
                let cell = &mut grid[y as usize][x as usize];
                match *cell {
                    Cell::Free => {
                        *cell = Cell::Visited;
                        queue.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
                    }
                    Cell::Station { reached: false } => {
                        *cell = Cell::Station { reached: true };
                        reached += 1;
                    }
                    _ => {}
                }
            }
            for cell in grid.iter_mut().flatten() {
                if let Cell::Station { reached } = cell {
                    *reached = false;
                }
            }
            reached
        };
        if let Some(&p) = players.first() {
            let (x, y) = self.pos(p);
            return search(&mut grid, (x, h - y - 1)) == stations.len();
        }
        loop {
            let free = (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .find(|&(x, y)| grid[y as usize][x as usize] == Cell::Free);
            let Some(start) = free else {
                return false;
            };
            if search(&mut grid, start) == stations.len() {
                return true;
            }
        }
    }

    /// `_randomly_add_stations`.
    fn add_stations(&mut self, stations: &[Id], players: &[Id]) -> Result<Vec<Id>, Failure> {
        let mut placed: Vec<Id> = Vec::new();
        let frozen: Vec<Id> = players
            .iter()
            .copied()
            .filter(|&p| self.tagged(p, FROZEN))
            .collect();
        for &s in stations {
            let conflict = self.at(&[placed.as_slice(), &frozen].concat(), self.pos(s));
            if self.tagged(s, FORCE_ADD) {
                let mut added = false;
                match conflict {
                    Some(c) if !self.tagged(c, FORCE_ADD) => {
                        let k = self.index(&placed, c)?;
                        self.set_pos(s, self.pos(c));
                        placed[k] = s;
                        added = true;
                    }
                    Some(_) => {}
                    None => {
                        // Checked with the players placed so far, which are none yet.
                        if self.reachable(&[placed.as_slice(), &[s]].concat(), &[]) {
                            placed.push(s);
                            added = true;
                        }
                    }
                }
                if !added {
                    let replaceable: Vec<Id> = placed
                        .iter()
                        .copied()
                        .filter(|&o| !self.tagged(o, FORCE_ADD))
                        .collect();
                    if replaceable.is_empty() {
                        return Err(raised("AssertionError: No replaceable stations found"));
                    }
                    let r = self.choice(&replaceable)?;
                    let k = self.index(&placed, r)?;
                    self.set_pos(s, self.pos(r));
                    placed[k] = s;
                }
            } else if conflict.is_none()
                && self.reachable(&[placed.as_slice(), &[s]].concat(), players)
            {
                placed.push(s);
            }
        }
        Ok(placed)
    }

    /// `_randomly_add_players`: a copy of the first player only, beside the first station
    /// from which every station is reachable; none if there is no such place.
    fn add_players(&mut self, stations: &[Id], players: &[Id]) -> Result<Vec<Id>, Failure> {
        let first = *players
            .first()
            .ok_or_else(|| raised("IndexError: list index out of range"))?;
        let player = self.new_object(self.objects[first].clone());
        for &s in stations {
            let (x, y) = self.pos(s);
            for spot in [(x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)] {
                if !self.in_bounds(spot) || self.at(stations, spot).is_some() {
                    continue;
                }
                self.set_pos(player, spot);
                self.objects[player].insert("direction".into(), json!([x - spot.0, y - spot.1]));
                if self.reachable(stations, &[player]) {
                    return Ok(vec![player]);
                }
            }
        }
        Ok(Vec::new())
    }

    /// `_randomly_add_items`, then every item not frozen at stack level 0.
    fn add_items(
        &mut self,
        stations: &[Id],
        players: &[Id],
        items: &[Id],
    ) -> Result<Vec<Id>, Failure> {
        let candidates = [stations, players].concat();
        let mut placed: Vec<Id> = Vec::new();
        for &item in items {
            let here = self.pos(item);
            let matched = self.at(&candidates, here);
            let conflict = self.at(&placed, here);
            let allowed = |g: &Self, m: Id| g.tagged(item, FROZEN) || !g.tagged(m, FROZEN);
            if matched.is_some_and(|m| allowed(self, m)) && conflict.is_none() {
                placed.push(item);
            } else if self.tagged(item, FORCE_ADD) {
                if self.tagged(item, FROZEN) {
                    placed.push(item);
                } else if let Some(c) =
                    conflict.filter(|&c| matched.is_some() && !self.tagged(c, FORCE_ADD))
                {
                    let k = self.index(&placed, c)?;
                    self.set_pos(item, self.pos(c));
                    placed[k] = item;
                } else {
                    let mut added = false;
                    for &candidate in &candidates {
                        let spot = self.pos(candidate);
                        match self.at(&placed, spot) {
                            None if !self.tagged(candidate, FROZEN) => {
                                self.set_pos(item, spot);
                                placed.push(item);
                                added = true;
                            }
                            None => return Err(raised("IndexError: list index out of range")),
                            Some(o) if !self.tagged(o, FORCE_ADD) => {
                                let k = self.index(&placed, o)?;
                                self.set_pos(item, spot);
                                placed[k] = item;
                                added = true;
                            }
                            Some(_) => {}
                        }
                        if added {
                            break;
                        }
                    }
                    if !added {
                        return Err(raised("AssertionError: Item force add failed"));
                    }
                }
            }
        }
        for &item in &placed {
            if !self.tagged(item, FROZEN) {
                self.objects[item].insert("stack-level".into(), 0.into());
            }
        }
        Ok(placed)
    }

    /// `_randomly_add_containers`; a container may take a distractor item's place (the item
    /// is removed).
    fn add_containers(
        &mut self,
        stations: &[Id],
        players: &[Id],
        items: &mut Vec<Id>,
        containers: &[Id],
    ) -> Result<Vec<Id>, Failure> {
        let candidates = [stations, players].concat();
        let mut placed: Vec<Id> = Vec::new();
        for &container in containers {
            let here = self.pos(container);
            let matched = self.at(&candidates, here);
            let item = self.at(items, here);
            let other = self.at(&placed, here);
            let allowed = |g: &Self, m: Id| g.tagged(container, FROZEN) || !g.tagged(m, FROZEN);
            if matched.is_some_and(|m| allowed(self, m)) && item.is_none() && other.is_none() {
                placed.push(container);
            } else if self.tagged(container, FORCE_ADD) {
                if self.tagged(container, FROZEN) {
                    placed.push(container);
                } else if matched.is_some() && item.is_some_and(|i| !self.tagged(i, FORCE_ADD)) {
                    // Upstream reads the popped item as a list (`item[0]["x"]`).
                    return Err(raised("KeyError: 0"));
                } else if matched.is_some() && other.is_some_and(|o| !self.tagged(o, FORCE_ADD)) {
                    let o = other.unwrap_or(container);
                    let k = self.index(&placed, o)?;
                    self.set_pos(container, self.pos(o));
                    placed[k] = container;
                } else {
                    let mut added = false;
                    for &candidate in &candidates {
                        let spot = self.pos(candidate);
                        let other = self.at(&placed, spot);
                        let item = self.at(items, spot);
                        if other.is_none() && item.is_none() && !self.tagged(candidate, FROZEN) {
                            self.set_pos(container, spot);
                            placed.push(container);
                            added = true;
                        } else if let Some(o) = other.filter(|&o| !self.tagged(o, FORCE_ADD)) {
                            let k = self.index(&placed, o)?;
                            self.set_pos(container, spot);
                            placed[k] = container;
                            added = true;
                        } else if let Some(i) = item.filter(|&i| !self.tagged(i, FORCE_ADD)) {
                            let k = self.index(items, i)?;
                            items.remove(k);
                            self.set_pos(container, spot);
                            placed.push(container);
                            added = true;
                        }
                        if added {
                            break;
                        }
                    }
                    if !added {
                        return Err(raised("AssertionError: Container force add failed"));
                    }
                }
            }
        }
        Ok(placed)
    }
}

/// The object of a `json!` literal.
fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}
