//! The kitchen as the planner sees it: floor cells numbered densely, walking distances
//! between every two of them, the stations with the floor cells an agent can work them
//! from, the ingredients as small numbers, and the orders as multisets of `item:state`.
//!
//! Why a planner's own view: the search copies states millions of times, so everything a
//! state holds is a small integer (a cell, a station, an ingredient), and every distance the
//! search asks for is a table lookup. The simulator's kitchen is the source; this view
//! holds nothing that it does not.

use std::collections::VecDeque;

/// Walking time between two cells that cannot reach each other.
pub const FAR: i32 = 1 << 20;

/// What a station does; the upstream game tells them apart by name the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StationKind {
    /// A counter: holds one item.
    Table,
    /// Gives a fresh raw ingredient to an empty hand when its top is free; otherwise a counter.
    Dispenser,
    /// A counter on which a raw ingredient is chopped (`Process`, 4), locked while chopping.
    Board,
    /// Holds only cookware; cookware on it cooks.
    Stove,
    /// Takes a plate that matches the first order.
    Window,
    /// Takes a dirty plate, washes it (`Process`, 6), gives the clean plate back.
    Sink,
    /// Where dirty plates come back, one per served dish, 10 after serving.
    Return,
}

/// An ingredient's state; a recipe asks for one per unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cut {
    /// As it comes out of the dispenser.
    Raw,
    /// After a board.
    Chopped,
    /// After a pan (chopped first) or a pot (raw).
    Cooked,
}

impl Cut {
    /// The state as the game writes it.
    pub fn word(self) -> &'static str {
        match self {
            Cut::Raw => "raw",
            Cut::Chopped => "chopped",
            Cut::Cooked => "cooked",
        }
    }

    /// The state from the game's word.
    pub fn from_word(word: &str) -> Option<Cut> {
        match word {
            "raw" => Some(Cut::Raw),
            "chopped" => Some(Cut::Chopped),
            "cooked" => Some(Cut::Cooked),
            _ => None,
        }
    }
}

/// The cookware a station starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ware {
    /// Fries chopped meat, chicken, mushroom, tomato, fish, prawn: 24 per item.
    Pan,
    /// Boils raw rice or pasta: 16 per item.
    Pot,
}

/// Ingredients a pan takes (chopped), in the game's words.
pub const PAN_FOODS: [&str; 6] = ["meat", "chicken", "mushroom", "tomato", "fish", "prawn"];
/// Ingredients a pot takes (raw), in the game's words.
pub const POT_FOODS: [&str; 2] = ["rice", "pasta"];
/// Cooking time of one item in a pan.
pub const PAN_TIME: i32 = 24;
/// Cooking time of one item in a pot.
pub const POT_TIME: i32 = 16;
/// Chopping time.
pub const CHOP_TIME: i32 = 4;
/// Washing time.
pub const WASH_TIME: i32 = 6;
/// From a serve to its dirty plate at the return.
pub const RETURN_TIME: i32 = 10;

/// What a station holds at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A clean empty plate.
    Plate,
    /// Empty cookware.
    Ware(Ware),
}

/// A station of the map as the planner's input names it.
#[derive(Debug, Clone)]
pub struct StationSpec {
    /// Its name, the target of `Interact`/`Process`.
    pub name: String,
    /// What it does.
    pub kind: StationKind,
    /// Its tile.
    pub x: i32,
    /// Its tile.
    pub y: i32,
    /// A dispenser's ingredient.
    pub provides: Option<String>,
    /// What it holds at the start.
    pub start: Option<Start>,
}

/// One station in the planner's view.
#[derive(Debug, Clone)]
pub struct Station {
    /// Its name.
    pub name: String,
    /// What it does.
    pub kind: StationKind,
    /// Its tile.
    pub pos: (i32, i32),
    /// The floor cells (numbers) next to it, from which it can be worked.
    pub access: Vec<u8>,
    /// A dispenser's ingredient (number).
    pub provides: Option<u8>,
    /// What it holds at the start.
    pub start: Option<Start>,
}

/// A unit a recipe asks for: an ingredient in a state.
pub type Need = (u8, Cut);

/// The planner's view of one kitchen with its orders.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Map width.
    pub width: i32,
    /// Map height.
    pub height: i32,
    /// Floor cells by number: their coordinates.
    pub cells: Vec<(i32, i32)>,
    /// Walking time between cells (`FAR` when unreachable), `dist[a * n + b]`.
    dist: Vec<i32>,
    /// Stations, walls left out.
    pub stations: Vec<Station>,
    /// Ingredient names by number.
    pub foods: Vec<String>,
    /// Per ingredient: whether a pan takes it, whether a pot does (the searches ask in
    /// every state, so the names are compared once).
    cookware: Vec<(bool, bool)>,
    /// Agents' names and start cells, in the game's order.
    pub agents: Vec<(String, u8)>,
    /// The orders in serving order: dish name and the units it needs (sorted).
    pub orders: Vec<(String, Vec<Need>)>,
}

impl Layout {
    /// The view of a map: `walls` are obstacle tiles, `agents` names and start tiles, `orders`
    /// each a dish name and its `(ingredient, state)` list.
    pub fn new(
        width: i32,
        height: i32,
        specs: &[StationSpec],
        walls: &[(i32, i32)],
        agents: &[(String, i32, i32)],
        orders: &[(String, Vec<(String, String)>)],
    ) -> Result<Layout, String> {
        let blocked =
            |x: i32, y: i32| walls.contains(&(x, y)) || specs.iter().any(|s| (s.x, s.y) == (x, y));
        let mut number = vec![u8::MAX; (width * height).max(0) as usize];
        let mut cells = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if !blocked(x, y) {
                    if cells.len() >= u8::MAX as usize {
                        return Err("the map has more than 254 floor cells".into());
                    }
                    number[(y * width + x) as usize] = cells.len() as u8;
                    cells.push((x, y));
                }
            }
        }
        let at = |x: i32, y: i32| -> Option<u8> {
            if x < 0 || y < 0 || x >= width || y >= height {
                return None;
            }
            let n = number[(y * width + x) as usize];
            (n != u8::MAX).then_some(n)
        };
        let n = cells.len();
        let mut dist = vec![FAR; n * n];
        for from in 0..n {
            let mut queue = VecDeque::from([from]);
            dist[from * n + from] = 0;
            while let Some(c) = queue.pop_front() {
                let (x, y) = cells[c];
                for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                    if let Some(next) = at(x + dx, y + dy) {
                        let next = next as usize;
                        if dist[from * n + next] == FAR {
                            dist[from * n + next] = dist[from * n + c] + 1;
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
        let mut foods: Vec<String> = Vec::new();
        let mut food = |name: &str| -> u8 {
            match foods.iter().position(|f| f == name) {
                Some(i) => i as u8,
                None => {
                    foods.push(name.to_string());
                    (foods.len() - 1) as u8
                }
            }
        };
        let mut stations = Vec::new();
        for s in specs {
            let access = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                .iter()
                .filter_map(|(dx, dy)| at(s.x + dx, s.y + dy))
                .collect();
            stations.push(Station {
                name: s.name.clone(),
                kind: s.kind,
                pos: (s.x, s.y),
                access,
                provides: s.provides.as_deref().map(&mut food),
                start: s.start,
            });
        }
        let mut agent_cells = Vec::new();
        for (name, x, y) in agents {
            let cell = at(*x, *y)
                .ok_or_else(|| format!("agent {name} starts off the floor at ({x}, {y})"))?;
            agent_cells.push((name.clone(), cell));
        }
        let mut dishes = Vec::new();
        for (dish, units) in orders {
            let mut needs = Vec::new();
            for (item, state) in units {
                let cut = Cut::from_word(state)
                    .ok_or_else(|| format!("dish {dish}: unknown state `{state}` of {item}"))?;
                needs.push((food(item), cut));
            }
            needs.sort();
            dishes.push((dish.clone(), needs));
        }
        let cookware = foods
            .iter()
            .map(|f| {
                (
                    PAN_FOODS.contains(&f.as_str()),
                    POT_FOODS.contains(&f.as_str()),
                )
            })
            .collect();
        Ok(Layout {
            width,
            height,
            cells,
            dist,
            stations,
            foods,
            cookware,
            agents: agent_cells,
            orders: dishes,
        })
    }

    /// Walking time between two cells.
    pub fn dist(&self, a: u8, b: u8) -> i32 {
        self.dist[a as usize * self.cells.len() + b as usize]
    }

    /// How many floor cells there are.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Whether a pan takes this ingredient (chopped).
    pub fn pan_food(&self, food: u8) -> bool {
        self.cookware[food as usize].0
    }

    /// Whether a pot takes this ingredient (raw).
    pub fn pot_food(&self, food: u8) -> bool {
        self.cookware[food as usize].1
    }

    /// Whether a unit of `food` that must be `need` at the window must be chopped on its way:
    /// a chopped one, and a cooked one a pan takes (pans take only chopped food).
    pub fn must_chop(&self, food: u8, need: Cut) -> bool {
        need == Cut::Chopped || (need == Cut::Cooked && self.pan_food(food))
    }

    /// The counters a plate starts on, by index.
    pub fn plate_counters(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.stations.len()).filter(|&s| self.stations[s].start == Some(Start::Plate))
    }

    /// Stations of a kind, by index.
    pub fn of_kind(&self, kind: StationKind) -> impl Iterator<Item = usize> + '_ {
        (0..self.stations.len()).filter(move |&s| self.stations[s].kind == kind)
    }

    /// The floor cells from which a station of one of `kinds` can be worked, each once, in
    /// order: where a bound's leg to or from such a station may start or end.
    pub fn sides_of(&self, kinds: &[StationKind]) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .stations
            .iter()
            .filter(|s| kinds.contains(&s.kind))
            .flat_map(|s| s.access.iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The dispensers of an ingredient.
    pub fn dispensers_of(&self, food: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.stations.len()).filter(move |&s| self.stations[s].provides == Some(food))
    }
}

impl Layout {
    /// The planner's view of a kitchen; an error names what the planner does not model.
    pub fn of_kitchen(kitchen: &crate::paracook::concrete::Kitchen) -> Result<Layout, String> {
        use crate::paracook::concrete::kitchen::{Constants, ContainerKind, StationKind as Tile};
        if kitchen.constants != Constants::default() {
            return Err(format!(
                "{}: the planner knows the game's own durations only (chop 4, pan 24, pot 16, wash 6, return 10, walk 1, interact 0)",
                kitchen.key
            ));
        }
        let mut specs = Vec::new();
        let mut walls = Vec::new();
        for t in &kitchen.map.tiles {
            let kind = match t.kind {
                Tile::Wall => None,
                Tile::Table => Some(StationKind::Table),
                Tile::Dispenser => Some(StationKind::Dispenser),
                Tile::ChoppingBoard => Some(StationKind::Board),
                Tile::Stove => Some(StationKind::Stove),
                Tile::ServingWindow => Some(StationKind::Window),
                Tile::Sink => Some(StationKind::Sink),
                Tile::PlateReturn => Some(StationKind::Return),
                Tile::Trash => {
                    return Err(format!(
                        "{}: the planner does not model a trash bin ({})",
                        kitchen.key, t.name
                    ))
                }
            };
            let Some(kind) = kind else {
                walls.push((t.x, t.y));
                continue;
            };
            let start = t.item.map(|c| match c {
                ContainerKind::Plate => Start::Plate,
                ContainerKind::Pan => Start::Ware(Ware::Pan),
                ContainerKind::Pot => Start::Ware(Ware::Pot),
            });
            specs.push(StationSpec {
                name: t.name.clone(),
                kind,
                x: t.x,
                y: t.y,
                provides: t.provides.clone(),
                start,
            });
        }
        let agents: Vec<(String, i32, i32)> = kitchen
            .map
            .agents
            .iter()
            .map(|a| (a.name.clone(), a.x, a.y))
            .collect();
        let mut orders = Vec::new();
        for dish in &kitchen.orders {
            let recipe = kitchen
                .recipe(dish)
                .ok_or_else(|| format!("{}: no recipe for the order {dish}", kitchen.key))?;
            let units = recipe
                .ingredients
                .iter()
                .map(|i| (i.item.clone(), i.state.clone()))
                .collect();
            orders.push((dish.clone(), units));
        }
        Layout::new(
            kitchen.map.width,
            kitchen.map.height,
            &specs,
            &walls,
            &agents,
            &orders,
        )
        .map_err(|e| format!("{}: {e}", kitchen.key))
    }

    /// The same kitchen with only agent `i` (the others stand idle): a plan for it is a plan
    /// for the whole team.
    pub fn alone(&self, i: usize) -> Layout {
        self.team(&[i])
    }

    /// The same kitchen with only its first `j` orders.
    pub fn first_orders(&self, j: usize) -> Layout {
        Layout {
            orders: self.orders[..j].to_vec(),
            ..self.clone()
        }
    }

    /// The same kitchen with only the agents `cooks` (in that order; the others stand idle):
    /// a plan for it is a plan for the whole team.
    pub fn team(&self, cooks: &[usize]) -> Layout {
        Layout {
            agents: cooks.iter().map(|&i| self.agents[i].clone()).collect(),
            ..self.clone()
        }
    }
}
