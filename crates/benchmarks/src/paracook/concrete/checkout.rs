//! Reading the concrete kitchens out of a ParaCook checkout: the maps
//! (`data/cook/maps/<category>/seed_<s>/agent_num_<m>.json`), the orders
//! (`data/cook/orders/all_orders.json`, keyed `<category>/seed_<s>/orders_num_<k>` → list of
//! `<category>/<dish>`), the recipes (`config/recipe/<category>.json`), which items are
//! containers (`config/item/station.json`) and the durations (`src/game/const.py`).
//!
//! Every instance the benchmark's run script builds comes out, keyed as the harness keys its
//! results: `<category>/seed_<s>/agent_num_<m>/orders_num_<k>`. Maps that are the same kitchen
//! (the generator retries with a shifted seed, so two seeds can give one map) are marked.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::kitchen::{
    AgentStart, Constants, ContainerKind, Kitchen, KitchenMap, Recipe, RecipeIngredient,
    StationKind, Tile,
};
use makespan_model::input::read_text;
use makespan_model::instance::LoadError;

/// Where the cooking data sits, given a checkout, its `data/cook` folder, or a folder of
/// several benchmarks holding `paracook/`.
pub fn cook_folder(root: &Path) -> Option<PathBuf> {
    [
        root.to_path_buf(),
        root.join("data/cook"),
        root.join("paracook/data/cook"),
        root.join("cook"),
    ]
    .into_iter()
    .find(|p| p.join("maps").is_dir() && p.join("orders/all_orders.json").is_file())
}

/// The checkout root above a `data/cook` folder, where `config/` and `src/` are.
fn checkout_root(cook: &Path) -> PathBuf {
    cook.parent()
        .and_then(Path::parent)
        .map_or_else(|| cook.to_path_buf(), Path::to_path_buf)
}

fn read_json(path: &Path) -> Result<Value, LoadError> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e))
}

/// Reads every concrete instance of the checkout at `root` (or of its `data/cook` folder),
/// in key order.
pub fn read_checkout(root: &Path) -> Result<Vec<Kitchen>, LoadError> {
    let cook = cook_folder(root).ok_or_else(|| {
        LoadError::format(
            root,
            "folder",
            "no ParaCook cooking data here: expected data/cook/maps/ and \
             data/cook/orders/all_orders.json (a ParaCook checkout or its data/cook folder)",
        )
    })?;
    let config = checkout_root(&cook);
    let constants = read_constants(&config.join("src/game/const.py"))?;
    let containers = read_containers(&config.join("config/item/station.json"))?;
    let orders_path = cook.join("orders/all_orders.json");
    let orders = read_orders(&orders_path)?;
    let mut recipes: HashMap<String, Vec<Recipe>> = HashMap::new();
    let mut kitchens = Vec::new();
    let mut first_of_map: HashMap<String, String> = HashMap::new();
    for (map_key, map_path) in map_files(&cook.join("maps"))? {
        let map = read_map(&map_path, &containers)?;
        let (category, seed, agents) = &map_key;
        let map_name = format!("{category}/seed_{seed}/agent_num_{agents}");
        let fingerprint = fingerprint(&map);
        let same = first_of_map
            .entry(fingerprint)
            .or_insert_with(|| map_name.clone());
        let same_map_as = (*same != map_name).then(|| same.clone());
        let prefix = format!("{category}/seed_{seed}/orders_num_");
        for (order_key, dishes) in orders.range(prefix.clone()..) {
            let Some(k) = order_key.strip_prefix(&prefix) else {
                break;
            };
            let Ok(orders_num) = k.parse::<u32>() else {
                continue;
            };
            let (names, wanted) =
                dishes_and_recipes(&config, &orders_path, order_key, dishes, &mut recipes)?;
            kitchens.push(Kitchen {
                key: format!("{map_name}/orders_num_{orders_num}"),
                category: category.clone(),
                seed: *seed,
                orders_num,
                map: map.clone(),
                orders: names,
                recipes: wanted,
                constants,
                same_map_as: same_map_as.clone(),
            });
        }
    }
    kitchens.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(kitchens)
}

/// The dish names of an order list and their recipes (each once), recipes read through
/// `cache` by category.
fn dishes_and_recipes(
    config: &Path,
    orders_path: &Path,
    order_key: &str,
    dishes: &[String],
    cache: &mut HashMap<String, Vec<Recipe>>,
) -> Result<(Vec<String>, Vec<Recipe>), LoadError> {
    let at = |i: usize| format!("\"{order_key}\"[{i}]");
    let mut names = Vec::new();
    let mut wanted: Vec<Recipe> = Vec::new();
    for (i, order) in dishes.iter().enumerate() {
        let Some((cat, dish)) = order.split_once('/') else {
            return Err(LoadError::format(
                orders_path,
                at(i),
                format!("\"{order}\" is not <category>/<dish>"),
            ));
        };
        if !cache.contains_key(cat) {
            let path = config.join(format!("config/recipe/{cat}.json"));
            cache.insert(cat.to_string(), read_recipes(&path)?);
        }
        let recipe = cache[cat].iter().find(|r| r.name == dish).ok_or_else(|| {
            LoadError::format(
                orders_path,
                at(i),
                format!("config/recipe/{cat}.json has no recipe named \"{dish}\""),
            )
        })?;
        if !wanted.iter().any(|r| r.name == dish) {
            wanted.push(recipe.clone());
        }
        names.push(dish.to_string());
    }
    Ok((names, wanted))
}

/// A kitchen outside the benchmark's grid (an example map, a map of one's own): `map` as a
/// map file holds it, `orders` as `<category>/<dish>`, recipes and constants from the
/// checkout at `root`. `origin` names where the map and orders came from, for errors.
pub fn kitchen_from(
    root: &Path,
    origin: &Path,
    key: &str,
    map: Value,
    orders: &[String],
) -> Result<Kitchen, LoadError> {
    let containers = read_containers(&root.join("config/item/station.json"))?;
    let map = map_from_value(origin, map, &containers)?;
    let (names, recipes) = dishes_and_recipes(root, origin, "orders", orders, &mut HashMap::new())?;
    let category = orders
        .first()
        .and_then(|o| o.split_once('/'))
        .map_or_else(String::new, |(c, _)| c.to_string());
    Ok(Kitchen {
        key: key.to_string(),
        category,
        seed: 0,
        orders_num: names.len() as u32,
        map,
        orders: names,
        recipes,
        constants: read_constants(&root.join("src/game/const.py"))?,
        same_map_as: None,
    })
}

/// The map files under `maps/`, by (category, seed, agents), in that order.
fn map_files(maps: &Path) -> Result<BTreeMap<(String, u64, u32), PathBuf>, LoadError> {
    let list = |dir: &Path| -> Result<Vec<PathBuf>, LoadError> {
        let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        Ok(paths)
    };
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut out = BTreeMap::new();
    for category in list(maps)?.into_iter().filter(|p| p.is_dir()) {
        for seed_dir in list(&category)?.into_iter().filter(|p| p.is_dir()) {
            let Some(seed) =
                name(&seed_dir).and_then(|n| n.strip_prefix("seed_").and_then(|s| s.parse().ok()))
            else {
                continue;
            };
            for file in list(&seed_dir)? {
                let Some(agents) = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(|s| s.strip_prefix("agent_num_"))
                    .and_then(|s| s.parse().ok())
                else {
                    continue;
                };
                if file.extension().is_some_and(|e| e == "json") {
                    out.insert((name(&category).unwrap_or_default(), seed, agents), file);
                }
            }
        }
    }
    Ok(out)
}

fn read_orders(path: &Path) -> Result<BTreeMap<String, Vec<String>>, LoadError> {
    let Value::Object(map) = read_json(path)? else {
        return Err(LoadError::format(
            path,
            "top level",
            "the orders file is an object keyed <category>/seed_<s>/orders_num_<k> → list of \"<category>/<dish>\"",
        ));
    };
    let mut out = BTreeMap::new();
    for (key, value) in map {
        let dishes = value
            .as_array()
            .and_then(|list| {
                list.iter()
                    .map(|d| d.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| {
                LoadError::format(
                    path,
                    format!("\"{key}\""),
                    "an order list is a list of \"<category>/<dish>\" strings",
                )
            })?;
        out.insert(key, dishes);
    }
    Ok(out)
}

/// Reads one map file as the game loads it: station kinds from their names, the second and
/// later `wall` obstacles renamed `wall_1`, … , containers placed only for items the item
/// configuration calls containers (the game ignores other items).
fn read_map(path: &Path, containers: &[String]) -> Result<KitchenMap, LoadError> {
    map_from_value(path, read_json(path)?, containers)
}

/// [`read_map`] of a map already read; `path` names it in errors.
fn map_from_value(
    path: &Path,
    source: Value,
    containers: &[String],
) -> Result<KitchenMap, LoadError> {
    let bad = |at: String, msg: &str| LoadError::format(path, at, msg.to_string());
    let int = |v: &Value, at: String| -> Result<i32, LoadError> {
        v.as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| bad(at, "must be a whole number"))
    };
    let string = |v: &Value, at: String| -> Result<String, LoadError> {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| bad(at, "must be a string"))
    };
    let obj = source.as_object().ok_or_else(|| {
        bad(
            "top level".into(),
            "a map is an object with width, height, agents and tiles",
        )
    })?;
    let field = |name: &str| {
        obj.get(name).ok_or_else(|| {
            bad(
                name.into(),
                "is missing; a map has width, height, agents and tiles",
            )
        })
    };
    let width = int(field("width")?, "width".into())?;
    let height = int(field("height")?, "height".into())?;
    let list = |name: &str| -> Result<&Vec<Value>, LoadError> {
        field(name)?
            .as_array()
            .ok_or_else(|| bad(name.into(), "must be a list"))
    };
    let mut agents = Vec::new();
    for (i, a) in list("agents")?.iter().enumerate() {
        let at = |f: &str| format!("agents[{i}].{f}");
        agents.push(AgentStart {
            name: string(a.get("name").unwrap_or(&Value::Null), at("name"))?,
            x: int(a.get("x").unwrap_or(&Value::Null), at("x"))?,
            y: int(a.get("y").unwrap_or(&Value::Null), at("y"))?,
        });
    }
    let mut tiles: Vec<Tile> = Vec::new();
    let mut walls = 0;
    for (i, t) in list("tiles")?.iter().enumerate() {
        let at = |f: &str| format!("tiles[{i}].{f}");
        let name = string(t.get("name").unwrap_or(&Value::Null), at("name"))?;
        let kind_word = string(t.get("type").unwrap_or(&Value::Null), at("type"))?;
        let x = int(t.get("x").unwrap_or(&Value::Null), at("x"))?;
        let y = int(t.get("y").unwrap_or(&Value::Null), at("y"))?;
        let (kind, name) = match kind_word.as_str() {
            "obstacle" => {
                let renamed = if name == "wall" && walls > 0 {
                    format!("wall_{walls}")
                } else {
                    name.clone()
                };
                if name == "wall" {
                    walls += 1;
                }
                (StationKind::Wall, renamed)
            }
            "station" => (
                StationKind::of_station_name(&name).ok_or_else(|| {
                    bad(
                        at("name"),
                        "names no station the game knows (table, dispenser, chopping_board, stove, \
                         serving_window, sink, plate_return, trash)",
                    )
                })?,
                name,
            ),
            _ => continue,
        };
        if tiles.iter().any(|other| other.name == name) {
            return Err(bad(
                at("name"),
                "another tile has this name; the game finds stations by name, so give each its own",
            ));
        }
        let provides = match (kind, t.get("provides")) {
            (StationKind::Dispenser, Some(p)) => Some(string(p, at("provides"))?),
            (StationKind::Dispenser, None) => {
                return Err(bad(
                    at("provides"),
                    "a dispenser names the ingredient it provides",
                ))
            }
            _ => None,
        };
        let item = match (kind, t.get("item")) {
            (StationKind::Wall, _) | (_, None) => None,
            (_, Some(v)) => {
                let item = string(v, at("item"))?;
                if containers.contains(&item) {
                    Some(ContainerKind::of_name(&item).ok_or_else(|| {
                        bad(
                            at("item"),
                            "is a container the game cannot create (plate, pan or pot)",
                        )
                    })?)
                } else {
                    None
                }
            }
        };
        tiles.push(Tile {
            name,
            kind,
            x,
            y,
            provides,
            item,
        });
    }
    let name = obj
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("kitchen")
        .to_string();
    Ok(KitchenMap {
        name,
        width,
        height,
        agents,
        tiles,
        source,
    })
}

/// The names the item configuration calls containers.
fn read_containers(path: &Path) -> Result<Vec<String>, LoadError> {
    if !path.is_file() {
        return Ok(["plate", "pan", "pot"].map(str::to_string).to_vec());
    }
    let entries = read_json(path)?;
    let list = entries.as_array().ok_or_else(|| {
        LoadError::format(
            path,
            "top level",
            "the item configuration is a list of {name, type}",
        )
    })?;
    Ok(list
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str) == Some("container"))
        .filter_map(|e| e.get("name").and_then(Value::as_str).map(str::to_string))
        .collect())
}

/// The recipes of one category file.
fn read_recipes(path: &Path) -> Result<Vec<Recipe>, LoadError> {
    let entries = read_json(path)?;
    let list = entries.as_array().ok_or_else(|| {
        LoadError::format(
            path,
            "top level",
            "a recipe file is a list of {name, recipe, ingredients}",
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let at = |f: &str| format!("[{i}].{f}");
            let text = |v: Option<&Value>, f: &str| {
                v.and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| LoadError::format(path, at(f), "must be a string"))
            };
            let ingredients = r
                .get("ingredients")
                .and_then(Value::as_array)
                .ok_or_else(|| LoadError::format(path, at("ingredients"), "must be a list"))?
                .iter()
                .enumerate()
                .map(|(j, ing)| {
                    let f = |name: &str| format!("ingredients[{j}].{name}");
                    Ok(RecipeIngredient {
                        item: text(ing.get("item"), &f("item"))?,
                        state: text(ing.get("state"), &f("state"))?,
                        cookware: ing
                            .get("cookware")
                            .and_then(Value::as_str)
                            .map(str::to_string),
                    })
                })
                .collect::<Result<Vec<_>, LoadError>>()?;
            Ok(Recipe {
                name: text(r.get("name"), "name")?,
                text: text(r.get("recipe"), "recipe")?,
                ingredients,
            })
        })
        .collect()
}

/// The durations of `const.py` (`NAME = number` lines); the game's values where the file is
/// absent (a copied `data/cook` folder on its own).
fn read_constants(path: &Path) -> Result<Constants, LoadError> {
    let mut c = Constants::default();
    if !path.is_file() {
        return Ok(c);
    }
    let text = read_text(path)?;
    for (n, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        let Some((name, value)) = code.split_once('=') else {
            continue;
        };
        let slot = match name.trim() {
            "MOVE_TIME" => &mut c.move_time,
            "INTERACT_TIME" => &mut c.interact_time,
            "PROCESS_CUT_TIME" => &mut c.cut_time,
            "PROCESS_POT_COOK_TIME" => &mut c.pot_cook_time,
            "PROCESS_PAN_COOK_TIME" => &mut c.pan_cook_time,
            "PROCESS_WASH_PLATE_TIME" => &mut c.wash_time,
            "RETURN_DIRTY_PLATE_TIME" => &mut c.return_time,
            _ => continue,
        };
        *slot = value.trim().parse().map_err(|_| {
            LoadError::format(
                path,
                format!("line {}", n + 1),
                format!("{} must be a whole number of steps", name.trim()),
            )
        })?;
    }
    Ok(c)
}

/// What makes two maps the same kitchen: size, starts and tiles (not the map's name).
fn fingerprint(map: &KitchenMap) -> String {
    serde_json::to_string(&(map.width, map.height, &map.agents, &map.tiles)).unwrap_or_default()
}
