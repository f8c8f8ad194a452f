//! Robotouille's native environment files (`asynchronous/*.json`), read directly:
//! the stations, objects and robot start under the simulator's names, and the operations
//! the goal literals demand. This is the part of the task graph that follows from the file
//! alone; the recipe structure (which bread is the bottom, the order of assembly) needs the
//! environment's domain rules and is taken from `task_graphs.json` (see the module docs of
//! [`super`] for every rule the importer encodes). Tests check both agree on all 10 tasks.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Deserialize;

use makespan_model::instance::LoadError;

#[derive(Deserialize)]
struct File {
    stations: Vec<Placed>,
    #[serde(default)]
    items: Vec<Placed>,
    #[serde(default)]
    containers: Vec<Placed>,
    players: Vec<Player>,
    goal: Vec<Literal>,
}

#[derive(Deserialize)]
struct Placed {
    name: String,
    x: i64,
    y: i64,
    #[serde(default, rename = "stack-level")]
    stack_level: i64,
}

#[derive(Deserialize)]
struct Player {
    x: i64,
    y: i64,
    direction: (i64, i64),
}

#[derive(Deserialize)]
struct Literal {
    predicate: String,
}

/// What a native file says about its task, under the simulator's object names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeTask {
    /// Station names: kind + 1-based counter per kind in order of position (`table1`).
    pub stations: Vec<String>,
    /// (object name, kind `item`/`container`, initial station), bottom to top per station;
    /// objects are named kind + counter in order of position, like stations.
    pub objects: Vec<(String, String, String)>,
    /// The station the robot faces at the start.
    pub robot_start: String,
    /// Unit operations the goal demands, by task-graph kind: `cook`, `fry`, `cut` (3 per
    /// cut item), `boil` and `fill` (one each per boiling pot), `add`, `fill_bowl`.
    pub operations: BTreeMap<String, usize>,
}

/// Reads one native environment file.
pub fn read_native(path: &Path, text: &str) -> Result<NativeTask, LoadError> {
    let file: File = serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let mut counter: HashMap<String, usize> = HashMap::new();
    let mut name = |kind: &str| {
        let n = counter.entry(kind.to_string()).or_insert(0);
        *n += 1;
        format!("{kind}{n}")
    };
    // Numbered in order of position (x, then y), as the simulator does (upstream
    // `environments/env_generator/builder.py`: `load_environment` and `build_objects` sort
    // stations and items by (x, y) before numbering) and `task_graphs.json` does. In file
    // order the soup tasks' tables would get other numbers.
    let mut by_position: Vec<&Placed> = file.stations.iter().collect();
    by_position.sort_by_key(|s| (s.x, s.y));
    let stations: Vec<(String, i64, i64)> = by_position
        .iter()
        .map(|s| (name(&s.name), s.x, s.y))
        .collect();
    let at = |x: i64, y: i64, what: &str| {
        stations
            .iter()
            .find(|s| s.1 == x && s.2 == y)
            .map(|s| s.0.clone())
            .ok_or_else(|| {
                LoadError::format(path, what.to_string(), format!("no station at ({x}, {y})"))
            })
    };
    let mut objects = Vec::new();
    for (list, kind) in [(&file.items, "item"), (&file.containers, "container")] {
        // The simulator numbers items in order of position too (a stable sort, so items
        // stacked on one station keep their file order): task 9's onions are numbered
        // differently in file order.
        let mut by_position: Vec<&Placed> = list.iter().collect();
        by_position.sort_by_key(|o| (o.x, o.y));
        for o in by_position {
            let station = at(o.x, o.y, &format!("{kind} {}", o.name))?;
            objects.push((name(&o.name), kind.to_string(), station, o.stack_level));
        }
    }
    // Bottom to top per station, stations in the order their first object appears.
    let first: Vec<String> = objects.iter().map(|o| o.2.clone()).collect();
    objects.sort_by_key(|o| (first.iter().position(|s| *s == o.2), o.3));
    let player = file
        .players
        .first()
        .ok_or_else(|| LoadError::format(path, "players", "no player"))?;
    let robot_start = at(
        player.x + player.direction.0,
        player.y + player.direction.1,
        "players[0]",
    )?;
    let mut operations = BTreeMap::new();
    for literal in &file.goal {
        let (kind, count): (&[&str], usize) = match literal.predicate.as_str() {
            "iscooked" => (&["cook"], 1),
            "isfried" => (&["fry"], 1),
            "iscut" => (&["cut"], 3),
            "isboiling" => (&["boil", "fill"], 1),
            "addedto" => (&["add"], 1),
            "in" => (&["fill_bowl"], 1),
            _ => (&[], 0),
        };
        for k in kind {
            *operations.entry(k.to_string()).or_insert(0) += count;
        }
    }
    Ok(NativeTask {
        stations: stations.into_iter().map(|s| s.0).collect(),
        objects: objects.into_iter().map(|o| (o.0, o.1, o.2)).collect(),
        robot_start,
        operations,
    })
}
