//! One concrete ParaCook instance as plain data: the map (grid, stations, what stands on
//! them, where the cooks start), the orders in serving order, the recipes they name and the
//! game's constants. Everything the simulator needs, serialisable so that an instance file
//! can be replayed without the checkout it came from.
//!
//! Coordinates are the game's: `x` is the column (0 ≤ x < width), `y` the row. Tiles keep the
//! map file's order, which is the order the game registers them in (it decides the order of
//! the world snapshots and which plate return receives dirty plates).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// A cell of the map.
pub type Cell = (i32, i32);

/// One concrete instance, keyed as the harness keys its results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kitchen {
    /// `<category>/seed_<s>/agent_num_<m>/orders_num_<k>`.
    pub key: String,
    /// The dish family (`salad`, `pasta`, …).
    pub category: String,
    /// The generator's seed.
    pub seed: u64,
    /// The number of orders (k).
    pub orders_num: u32,
    /// The map, as the game loads it.
    pub map: KitchenMap,
    /// Dish names in serving order (the game serves first-in first-out).
    pub orders: Vec<String>,
    /// The recipes of the ordered dishes (each once).
    pub recipes: Vec<Recipe>,
    /// The game's durations.
    pub constants: Constants,
    /// The key (without `orders_num`) of the first map of the checkout that is the same
    /// kitchen as this one (same size, stations, items and starts), when it is not this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_map_as: Option<String>,
}

/// The map file: its size, cooks and tiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KitchenMap {
    /// The map's name (all benchmark maps are called `kitchen`).
    pub name: String,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// The cooks in the file's order (the game's tie order at equal times).
    pub agents: Vec<AgentStart>,
    /// Stations and walls in the file's order.
    pub tiles: Vec<Tile>,
    /// The map file as written, which is what the harness shows the model.
    pub source: serde_json::Value,
}

/// A cook and the cell it starts on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentStart {
    /// Its name, the key of its action list (`agent1`, …).
    pub name: String,
    /// Its start cell.
    pub x: i32,
    /// Its start row.
    pub y: i32,
}

/// A station or wall on the map. Every tile blocks walking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// The name actions target; the game renames the second and later `wall` tiles
    /// `wall_1`, `wall_2`, … as it registers them.
    pub name: String,
    /// What the station does.
    pub kind: StationKind,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// What a dispenser gives (raw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provides: Option<String>,
    /// The container standing on it at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<ContainerKind>,
}

impl Tile {
    /// Its cell.
    pub fn cell(&self) -> Cell {
        (self.x, self.y)
    }
}

/// The station kinds of the game, recognised as the game does by a word in the tile's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StationKind {
    /// An obstacle; nothing can be done with it.
    Wall,
    /// A surface.
    Table,
    /// Gives a raw ingredient to an empty hand; otherwise a surface.
    Dispenser,
    /// A surface where a raw ingredient is chopped (exclusive while chopping).
    ChoppingBoard,
    /// Holds a pan or a pot, which cooks there.
    Stove,
    /// Takes a plated dish matching the first open order.
    ServingWindow,
    /// Washes a dirty plate.
    Sink,
    /// Where dirty plates come back after a serve.
    PlateReturn,
    /// Empties a hand or a container (in none of the benchmark's maps).
    Trash,
}

impl StationKind {
    /// The kind of a station tile from its name, in the game's order of tests; `None` for a
    /// name the game does not know.
    pub fn of_station_name(name: &str) -> Option<StationKind> {
        const WORDS: [(&str, StationKind); 8] = [
            ("table", StationKind::Table),
            ("dispenser", StationKind::Dispenser),
            ("chopping_board", StationKind::ChoppingBoard),
            ("stove", StationKind::Stove),
            ("serving_window", StationKind::ServingWindow),
            ("sink", StationKind::Sink),
            ("plate_return", StationKind::PlateReturn),
            ("trash", StationKind::Trash),
        ];
        WORDS
            .iter()
            .find(|(word, _)| name.contains(word))
            .map(|&(_, kind)| kind)
    }
}

/// The containers a map may put on a station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContainerKind {
    /// Takes any ingredients; served at the window.
    Plate,
    /// Cooks chopped meat, chicken, mushroom, tomato, fish or prawn, 24 each.
    Pan,
    /// Boils raw rice or pasta, 16 each.
    Pot,
}

impl ContainerKind {
    /// The game's name of the container.
    pub fn name(self) -> &'static str {
        match self {
            ContainerKind::Plate => "plate",
            ContainerKind::Pan => "pan",
            ContainerKind::Pot => "pot",
        }
    }

    /// The container called `name`.
    pub fn of_name(name: &str) -> Option<ContainerKind> {
        match name {
            "plate" => Some(ContainerKind::Plate),
            "pan" => Some(ContainerKind::Pan),
            "pot" => Some(ContainerKind::Pot),
            _ => None,
        }
    }
}

/// A dish: its text (shown to the model) and the `item:state` multiset served on a plate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipe {
    /// The dish name (`pasta_tomato`).
    pub name: String,
    /// The recipe sentence.
    pub text: String,
    /// The ingredients, one entry per unit.
    pub ingredients: Vec<RecipeIngredient>,
}

/// One ingredient unit of a dish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipeIngredient {
    /// The ingredient (`tomato`).
    pub item: String,
    /// The state it must be served in (`raw`, `chopped`, `cooked`).
    pub state: String,
    /// The cookware it is cooked in, when the recipe says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cookware: Option<String>,
}

/// The game's durations, in steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constants {
    /// One cell of walking.
    pub move_time: i64,
    /// An interaction (pick up, put down, serve).
    pub interact_time: i64,
    /// Chopping on a board.
    pub cut_time: i64,
    /// One unit in a pot.
    pub pot_cook_time: i64,
    /// One unit in a pan.
    pub pan_cook_time: i64,
    /// Washing a plate.
    pub wash_time: i64,
    /// From a serve to its dirty plate at the plate return.
    pub return_time: i64,
}

impl Default for Constants {
    /// The values of ParaCook's `src/game/const.py`.
    fn default() -> Self {
        Constants {
            move_time: 1,
            interact_time: 0,
            cut_time: 4,
            pot_cook_time: 16,
            pan_cook_time: 24,
            wash_time: 6,
            return_time: 10,
        }
    }
}

impl KitchenMap {
    /// Whether a cook may stand on `cell`: inside the map and no station or wall there
    /// (cooks and items do not block).
    pub fn walkable(&self, cell: Cell) -> bool {
        let (x, y) = cell;
        (0..self.width).contains(&x)
            && (0..self.height).contains(&y)
            && !self.tiles.iter().any(|t| t.cell() == cell)
    }

    /// The tile called `name` (the first registered under it).
    pub fn tile(&self, name: &str) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.name == name)
    }

    /// The tile on `cell`.
    pub fn tile_at(&self, cell: Cell) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.cell() == cell)
    }

    /// The walkable cells 4-adjacent to `cell`, from which a station there can be used.
    pub fn access_cells(&self, cell: Cell) -> Vec<Cell> {
        neighbours(cell)
            .into_iter()
            .filter(|&c| self.walkable(c))
            .collect()
    }

    /// Walking distance from `from` to `to` as the game measures it (breadth-first over
    /// walkable 4-neighbours; the start need not be walkable), or `None` when `to` is not
    /// walkable or not reachable. Zero when they are the same cell, walkable or not.
    pub fn distance(&self, from: Cell, to: Cell) -> Option<i64> {
        if from == to {
            return Some(0);
        }
        if !self.walkable(to) {
            return None;
        }
        self.distances_from(from).get(&to).copied()
    }

    /// Walking distances from `from` to every reachable walkable cell (`from` itself at 0).
    pub fn distances_from(&self, from: Cell) -> std::collections::HashMap<Cell, i64> {
        let mut dist = std::collections::HashMap::from([(from, 0)]);
        let mut queue = VecDeque::from([from]);
        while let Some(cell) = queue.pop_front() {
            let d = dist[&cell];
            for next in neighbours(cell) {
                if self.walkable(next) && !dist.contains_key(&next) {
                    dist.insert(next, d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }
}

/// The four neighbours of a cell in the game's search order (up, down, left, right).
pub fn neighbours((x, y): Cell) -> [Cell; 4] {
    [(x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)]
}

/// Whether two cells are 4-adjacent (where a cook must stand to use a station).
pub fn adjacent(a: Cell, b: Cell) -> bool {
    (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1
}

impl Kitchen {
    /// The number of cooks.
    pub fn agents(&self) -> usize {
        self.map.agents.len()
    }

    /// The recipe of dish `name`.
    pub fn recipe(&self, name: &str) -> Option<&Recipe> {
        self.recipes.iter().find(|r| r.name == name)
    }
}
