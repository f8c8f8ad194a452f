//! A kitchen as the release backend builds it from an environment JSON: the objects with
//! their names, the predicates that hold at the start, and the goal.
//!
//! Names follow upstream's builder: every entity list is sorted by (x, y) (a stable sort),
//! then each object is its kind plus a 1-based counter per kind (`table1`, `bread2`,
//! `robot1`). A robot is at the station it faces ((x, y) plus its direction); an item on a
//! robot's own cell is in its hand (the first such item in list order), else a container
//! there is. A station has `station_empty` only when no item and no container shares its
//! cell, and an item lies on the first station (in list order) of its cell, stacked by
//! `stack-level`.

use serde_json::Value;

use super::goal::Goal;
use super::rules::{
    Hand, ItemPlace, Robot, State, F_COOKABLE, F_COOKED, F_COOKING, F_CUT, F_CUTTABLE, F_FRIED,
    F_FRYABLE, F_FRYABLE_IF_CUT, NONE,
};

/// The kinds of station of the release domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StationKind {
    /// `table`: where dishes are assembled.
    Table,
    /// `stove`: cook, boil.
    Stove,
    /// `board`: cut.
    Board,
    /// `fryer`: fry.
    Fryer,
    /// `sink`: fill a pot.
    Sink,
}

impl StationKind {
    fn of(name: &str) -> Option<StationKind> {
        Some(match name {
            "table" => StationKind::Table,
            "stove" => StationKind::Stove,
            "board" => StationKind::Board,
            "fryer" => StationKind::Fryer,
            "sink" => StationKind::Sink,
            _ => return None,
        })
    }
}

/// The item kinds of the release domain (each has its `is<kind>` predicate).
pub const ITEM_KINDS: [&str; 10] = [
    "bottombun",
    "lettuce",
    "patty",
    "topbun",
    "bread",
    "cheese",
    "tomato",
    "onion",
    "chicken",
    "potato",
];

/// An item: its name, kind, and the predicates it starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemDef {
    /// `bread1`.
    pub name: String,
    /// `bread`.
    pub kind: String,
}

/// A kitchen: its objects (named as upstream names them), the state before the first step,
/// and the goal.
#[derive(Debug, Clone)]
pub struct Kitchen {
    /// Station names and kinds, in upstream's order.
    pub stations: Vec<(String, StationKind)>,
    /// Items, in upstream's order.
    pub items: Vec<ItemDef>,
    /// Containers: name and whether it is a pot (else a bowl).
    pub containers: Vec<(String, bool)>,
    /// Robot names.
    pub robots: Vec<String>,
    /// The state before the first step.
    pub initial: State,
    /// The goal: any injective grounding of the file's goal literals.
    pub goal: Goal,
    /// The goal in words.
    pub goal_description: String,
}

/// One entity of the environment file, with its position in the file's list.
struct Entity<'a> {
    json: &'a Value,
    name: String,
    x: i64,
    y: i64,
}

fn int(v: &Value, key: &str, at: &str) -> Result<i64, String> {
    v.get(key)
        .and_then(Value::as_i64)
        .ok_or_else(|| format!("{at}.{key}: expected an integer"))
}

/// The entities of one field, sorted by (x, y) as upstream sorts them, with their kind
/// names (the counter is added by the caller).
fn entities<'a>(env: &'a Value, field: &str) -> Result<Vec<Entity<'a>>, String> {
    let list = match env.get(field) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(format!("{field}: expected a list")),
    };
    let mut out = Vec::with_capacity(list.len());
    for (k, e) in list.iter().enumerate() {
        let at = format!("{field}[{k}]");
        let name = e
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{at}.name: expected a string"))?;
        out.push(Entity {
            json: e,
            name: name.to_string(),
            x: int(e, "x", &at)?,
            y: int(e, "y", &at)?,
        });
    }
    out.sort_by_key(|e| (e.x, e.y));
    Ok(out)
}

/// Names with a 1-based counter per kind, in list order.
fn numbered(list: &[Entity<'_>]) -> Vec<String> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    list.iter()
        .map(|e| {
            let n = seen.entry(e.name.as_str()).or_insert(0);
            *n += 1;
            format!("{}{}", e.name, n)
        })
        .collect()
}

fn index(k: usize, what: &str) -> Result<u8, String> {
    u8::try_from(k)
        .ok()
        .filter(|&v| v != NONE)
        .ok_or_else(|| format!("more than 254 {what}: not a Robotouille kitchen"))
}

impl Kitchen {
    /// Builds the kitchen of an environment JSON (as upstream's generator writes it, before
    /// the builder numbers the names). Errors name the JSON path.
    pub fn from_environment(env: &Value) -> Result<Kitchen, String> {
        let stations = entities(env, "stations")?;
        let items = entities(env, "items")?;
        let containers = entities(env, "containers")?;
        let players = entities(env, "players")?;
        if !entities(env, "meals")?.is_empty() {
            return Err(
                "meals: a kitchen that starts with meals is not one of Robotouille's (every environment file has \"meals\": [])"
                    .into(),
            );
        }
        if players.is_empty() {
            return Err("players: a kitchen needs at least one robot".into());
        }
        let station_names = numbered(&stations);
        let mut station_list = Vec::new();
        for (e, name) in stations.iter().zip(&station_names) {
            let kind = StationKind::of(&e.name).ok_or_else(|| {
                format!(
                    "stations: unknown station kind \"{}\" (table, stove, board, fryer, sink)",
                    e.name
                )
            })?;
            station_list.push((name.clone(), kind));
        }
        if station_list.len() > 64 {
            return Err("stations: more than 64 stations: not a Robotouille kitchen".into());
        }
        let item_names = numbered(&items);
        let mut item_defs = Vec::new();
        let mut flags = Vec::new();
        for (k, (e, name)) in items.iter().zip(&item_names).enumerate() {
            if !ITEM_KINDS.contains(&e.name.as_str()) {
                return Err(format!("items: unknown item kind \"{}\"", e.name));
            }
            let mut f = 0u16;
            if let Some(preds) = e.json.get("predicates") {
                let preds = preds
                    .as_array()
                    .ok_or_else(|| format!("items (sorted)[{k}].predicates: expected a list"))?;
                for p in preds {
                    f |= match p.as_str() {
                        Some("iscuttable") => F_CUTTABLE,
                        Some("iscookable") => F_COOKABLE,
                        Some("isfryable") => F_FRYABLE,
                        Some("isfryableifcut") => F_FRYABLE_IF_CUT,
                        Some("iscut") => F_CUT,
                        Some("iscooked") => F_COOKED,
                        Some("iscooking") => F_COOKING,
                        Some("isfried") => F_FRIED,
                        _ => {
                            return Err(format!(
                                "items: item \"{name}\" has predicate {p}, which is no item predicate of the release domain"
                            ))
                        }
                    };
                }
            }
            flags.push(f);
            item_defs.push(ItemDef {
                name: name.clone(),
                kind: e.name.clone(),
            });
        }
        if item_defs.len() > 64 {
            return Err("items: more than 64 items: not a Robotouille kitchen".into());
        }
        let container_names = numbered(&containers);
        let mut container_list = Vec::new();
        for (e, name) in containers.iter().zip(&container_names) {
            let pot = match e.name.as_str() {
                "pot" => true,
                "bowl" => false,
                other => {
                    return Err(format!(
                        "containers: unknown container kind \"{other}\" (pot, bowl)"
                    ))
                }
            };
            container_list.push((name.clone(), pot));
        }
        index(container_list.len(), "containers")?;
        let robot_names = numbered(&players);
        for e in &players {
            if e.name != "robot" {
                return Err(format!(
                    "players: unknown player kind \"{}\" (robot)",
                    e.name
                ));
            }
        }
        let station_at = |x: i64, y: i64| stations.iter().position(|s| s.x == x && s.y == y);

        // Robots: at the station they face; an item on their cell is in their hand.
        let mut robots = Vec::new();
        let mut held_item = vec![false; items.len()];
        let mut held_container = vec![false; containers.len()];
        for (k, p) in players.iter().enumerate() {
            let dir = p
                .json
                .get("direction")
                .and_then(Value::as_array)
                .filter(|d| d.len() == 2)
                .and_then(|d| Some((d[0].as_i64()?, d[1].as_i64()?)))
                .ok_or_else(|| format!("players (sorted)[{k}].direction: expected [dx, dy]"))?;
            let at = station_at(p.x + dir.0, p.y + dir.1).map_or(NONE, |s| s as u8);
            let mut hand = Hand::Nothing;
            if let Some(i) = items.iter().position(|i| i.x == p.x && i.y == p.y) {
                hand = Hand::Item(i as u8);
                held_item[i] = true;
            } else if let Some(c) = containers.iter().position(|c| c.x == p.x && c.y == p.y) {
                hand = Hand::Container(c as u8);
                held_container[c] = true;
            }
            robots.push(Robot { at, hand });
        }
        // Items: stacks per station by stack level.
        let mut stacks: Vec<Vec<(i64, usize)>> = vec![Vec::new(); stations.len()];
        for (k, e) in items.iter().enumerate() {
            if let Some(s) = station_at(e.x, e.y) {
                let level = e
                    .json
                    .get("stack-level")
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                stacks[s].push((level, k));
                stacks[s].sort_by_key(|&(l, _)| l);
            }
        }
        let mut places = vec![ItemPlace::Nowhere; items.len()];
        for (s, stack) in stacks.iter().enumerate() {
            for (h, &(_, i)) in stack.iter().enumerate() {
                places[i] = if h == 0 {
                    ItemPlace::On(s as u8)
                } else {
                    ItemPlace::Atop(stack[h - 1].1 as u8, s as u8)
                };
            }
        }
        for (i, held) in held_item.iter().enumerate() {
            // An item on a robot's cell is held; upstream still gives it station
            // predicates if a station shared the cell, which no generated kitchen does.
            if *held {
                places[i] = ItemPlace::Held;
            }
        }
        let mut container_at = vec![NONE; containers.len()];
        for (k, c) in containers.iter().enumerate() {
            if !held_container[k] {
                container_at[k] = station_at(c.x, c.y).map_or(NONE, |s| s as u8);
            }
        }
        let mut station_empty = 0u64;
        for (s, st) in stations.iter().enumerate() {
            let busy = items.iter().any(|i| i.x == st.x && i.y == st.y)
                || containers.iter().any(|c| c.x == st.x && c.y == st.y);
            if !busy {
                station_empty |= 1 << s;
            }
        }
        let initial = State::new(robots, places, flags, container_at, station_empty);
        let goal_description = env
            .get("goal_description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mut kitchen = Kitchen {
            stations: station_list,
            items: item_defs,
            containers: container_list,
            robots: robot_names,
            initial,
            goal: Goal::default(),
            goal_description,
        };
        kitchen.goal = Goal::build(env, &kitchen)?;
        Ok(kitchen)
    }

    /// The name of meal `k` (the `k`-th water created, 0-based): upstream names a created
    /// object by its kind and one more than the largest id of its kind so far.
    pub fn meal_name(k: usize) -> String {
        format!("water{}", k + 1)
    }
}
