//! Seeded kitchens as upstream's harness builds them: an environment file loaded and
//! checked ([`load_environment`]), generated for a seed with upstream's retries
//! ([`seeded`]), and its objects named as the simulator names them ([`named_objects`]).
//!
//! Upstream's call chain (`robotouille_env.create_robotouille_env`):
//! 1. `builder.load_environment` sorts every entity list by (x, y), stably;
//! 2. `_procedurally_generate` calls `randomize_environment(env, seed, noisy)` and on any
//!    exception tries again with `seed + 1`, for ever: the kitchen an agent is evaluated on
//!    under "seed 42" may be the one of seed 43 or 46, and the instance records which;
//! 3. `builder.build_objects` sorts again by (x, y) and names each object by its kind and a
//!    1-based counter per kind (`table1`, `bread2`, `robot1`).
//!
//! A file upstream would load with an unseeded random choice (a wildcard name such as
//! `"station"`) is refused: its kitchen is not a function of the seed.

use std::path::Path;

use serde_json::{Map, Value};

use makespan_model::instance::LoadError;

use super::generator::{randomize_environment, Failure};

/// Seeds tried after the given one before giving up (upstream tries for ever; the
/// evaluated tasks need at most 4).
pub const MAX_RETRIES: i64 = 1000;

/// The entity lists of an environment, in upstream's order.
const ENTITY_FIELDS: [&str; 5] = ["stations", "items", "players", "containers", "meals"];

/// The kinds upstream knows for each entity list (`object_enums.py`), and the wildcard name
/// it would replace at random.
const KINDS: [(&str, &[&str], &str); 5] = [
    (
        "stations",
        &["board", "stove", "table", "fryer", "sink"],
        "station",
    ),
    ("items", &super::world::kitchen::ITEM_KINDS, "item"),
    ("players", &["robot"], "player"),
    ("containers", &["pot", "bowl"], "container"),
    ("meals", &["water", "boiling_water", "soup"], "meal"),
];

/// A kitchen generated for a seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Seeded {
    /// The environment `randomize_environment` returned (objects not yet named).
    pub environment: Map<String, Value>,
    /// The seed asked for.
    pub seed: i64,
    /// The seed whose generation succeeded (`seed + k` after `k` exceptions).
    pub effective_seed: i64,
    /// Each seed that raised, with upstream's exception.
    pub failures: Vec<(i64, String)>,
}

/// Reads an environment file as upstream loads it: checked (every error names the file and
/// the JSON path), then every entity list sorted by (x, y), keeping file order on ties.
pub fn load_environment(path: &Path, text: &str) -> Result<Map<String, Value>, LoadError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let Value::Object(mut environment) = value else {
        return Err(LoadError::format(
            path,
            "top level",
            "is not a JSON object; a Robotouille environment has width, height, stations, players and goal",
        ));
    };
    check(path, &environment)?;
    for field in ENTITY_FIELDS {
        if let Some(Value::Array(list)) = environment.get_mut(field) {
            list.sort_by_key(position);
        }
    }
    Ok(environment)
}

/// The (x, y) of a checked entity.
fn position(entity: &Value) -> (i64, i64) {
    let at = |k: &str| entity.get(k).and_then(Value::as_i64).unwrap_or(0);
    (at("x"), at("y"))
}

/// Everything the generator and the simulator read, with the fix for each problem.
fn check(path: &Path, environment: &Map<String, Value>) -> Result<(), LoadError> {
    let bad = |at: String, message: String| Err(LoadError::format(path, at, message));
    for key in ["width", "height"] {
        match environment.get(key).and_then(Value::as_i64) {
            Some(n) if n >= 1 => {}
            _ => {
                return bad(
                    key.into(),
                    "must be a whole number of cells, at least 1".into(),
                )
            }
        }
    }
    for (field, kinds, wildcard) in KINDS {
        let list = match environment.get(field) {
            None if field == "stations" || field == "players" => {
                return bad(
                    field.into(),
                    format!("is missing; a kitchen needs a list of {field}"),
                )
            }
            None => continue,
            Some(Value::Array(list)) => list,
            Some(_) => return bad(field.into(), "must be a list of objects".into()),
        };
        if field == "players" && list.is_empty() {
            return bad(field.into(), "is empty; a kitchen needs a robot".into());
        }
        for (k, entity) in list.iter().enumerate() {
            let at = |key: &str| format!("{field}[{k}].{key}");
            let Some(object) = entity.as_object() else {
                return bad(format!("{field}[{k}]"), "must be an object".into());
            };
            match object.get("name").and_then(Value::as_str) {
                Some(name) if name == wildcard => return bad(
                    at("name"),
                    format!("is the wildcard \"{name}\", which upstream replaces by an unseeded random choice, so the kitchen cannot be reproduced; name one of {}", kinds.join(", ")),
                ),
                Some(name) if kinds.contains(&name) => {}
                Some(name) => return bad(at("name"), format!("\"{name}\" is not one of {}", kinds.join(", "))),
                None => return bad(at("name"), "must be a string".into()),
            }
            for key in ["x", "y"] {
                if object.get(key).and_then(Value::as_i64).is_none() {
                    return bad(at(key), "must be a whole number".into());
                }
            }
            if field == "items" && object.get("stack-level").and_then(Value::as_i64).is_none() {
                return bad(
                    at("stack-level"),
                    "must be a whole number (0 on the station, 1 on the item below, …)".into(),
                );
            }
            if field == "players" {
                let direction = object.get("direction").and_then(Value::as_array);
                let ok = direction
                    .is_some_and(|d| d.len() == 2 && d.iter().all(|v| v.as_i64().is_some()));
                if !ok {
                    return bad(
                        at("direction"),
                        "must be [dx, dy], the offset of the station the robot faces".into(),
                    );
                }
            }
            if let Some(p) = object.get("predicates") {
                let ok = p.as_array().is_some_and(|l| l.iter().all(Value::is_string));
                if !ok {
                    return bad(at("predicates"), "must be a list of strings".into());
                }
            }
        }
    }
    let Some(goal) = environment.get("goal").and_then(Value::as_array) else {
        return bad(
            "goal".into(),
            "must be a list of {predicate, args, ids} literals".into(),
        );
    };
    for (k, literal) in goal.iter().enumerate() {
        let at = |key: &str| format!("goal[{k}].{key}");
        if literal.get("predicate").and_then(Value::as_str).is_none() {
            return bad(at("predicate"), "must be a string".into());
        }
        let args = literal.get("args").and_then(Value::as_array);
        let Some(args) = args.filter(|a| a.iter().all(Value::is_string)) else {
            return bad(at("args"), "must be a list of kind names".into());
        };
        let ids = literal.get("ids").and_then(Value::as_array);
        let Some(ids) = ids.filter(|i| i.iter().all(|v| v.is_i64() || v.is_string())) else {
            return bad(at("ids"), "must be a list of ids (numbers or names)".into());
        };
        if ids.len() != args.len() {
            return bad(
                at("ids"),
                format!(
                    "has {} ids for {} args; give one id per arg",
                    ids.len(),
                    args.len()
                ),
            );
        }
    }
    Ok(())
}

/// The kitchen upstream's harness evaluates for `seed` (noisy: upstream's `noisy_randomization`,
/// off in every configuration it ships): generated from the loaded environment, with seed+1
/// after every exception as upstream retries.
pub fn seeded(
    path: &Path,
    environment: &Map<String, Value>,
    seed: i64,
    noisy: bool,
) -> Result<Seeded, LoadError> {
    let mut failures = Vec::new();
    for k in 0..=MAX_RETRIES {
        let Some(effective_seed) = seed.checked_add(k) else {
            break;
        };
        match randomize_environment(environment, effective_seed, noisy) {
            Ok(environment) => {
                return Ok(Seeded {
                    environment,
                    seed,
                    effective_seed,
                    failures,
                })
            }
            Err(Failure::Raised(why)) => failures.push((effective_seed, why)),
            Err(Failure::NeverReturns) => {
                return Err(LoadError::format(
                    path,
                    format!("seed {effective_seed}"),
                    "upstream's noisy generator never returns for this seed (no layout of the groups leaves every station reachable); use the plain generator",
                ))
            }
        }
    }
    Err(LoadError::format(
        path,
        format!("seed {seed}"),
        format!(
            "the generator raises for every seed from {seed} on ({} tried; the last: {}); check that the kitchen fits its grid",
            failures.len(),
            failures.last().map_or("none", |f| f.1.as_str())
        ),
    ))
}

/// The environment with every object named as the simulator names it (`build_objects`):
/// each entity list sorted by (x, y), stably, and each `name` become the kind plus a
/// 1-based counter per kind (`table1`, `table2`, `stove1`).
pub fn named_objects(environment: &Map<String, Value>) -> Map<String, Value> {
    let mut named = environment.clone();
    for field in ENTITY_FIELDS {
        let Some(Value::Array(list)) = named.get_mut(field) else {
            continue;
        };
        list.sort_by_key(position);
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        for entity in list.iter_mut() {
            let Some(object) = entity.as_object_mut() else {
                continue;
            };
            let kind = object
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let n = seen.entry(kind.clone()).or_insert(0);
            *n += 1;
            object.insert("name".into(), format!("{kind}{n}").into());
        }
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kitchen() -> String {
        serde_json::json!({
            "width": 3, "height": 3,
            "stations": [{"name": "table", "x": 2, "y": 1}, {"name": "table", "x": 0, "y": 1}, {"name": "stove", "x": 1, "y": 2}],
            "items": [{"name": "bread", "x": 0, "y": 1, "stack-level": 0}],
            "players": [{"name": "robot", "x": 0, "y": 0, "direction": [0, 1]}],
            "goal": [{"predicate": "item_on", "args": ["bread", "table"], "ids": [1, 2]}]
        })
        .to_string()
    }

    #[test]
    fn loading_sorts_by_position_and_naming_counts_per_kind() {
        let env = load_environment(Path::new("k.json"), &kitchen()).unwrap();
        let xs: Vec<i64> = env["stations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["x"].as_i64().unwrap())
            .collect();
        assert_eq!(xs, [0, 1, 2]);
        let named = named_objects(&env);
        let names: Vec<&str> = named["stations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["table1", "stove1", "table2"]);
        assert_eq!(named["players"][0]["name"], "robot1");
    }

    #[test]
    fn a_bad_file_is_refused_at_its_json_path() {
        let cases = [
            (r#"{"width": 0}"#, "width"),
            (
                &kitchen().replace(r#""name":"stove""#, r#""name":"station""#),
                "stations[2].name",
            ),
            (
                &kitchen().replace(r#""y":2"#, r#""y":"2""#),
                "stations[2].y",
            ),
            (
                &kitchen().replace(r#""stack-level":0"#, r#""stack-level":null"#),
                "items[0].stack-level",
            ),
            (
                &kitchen().replace(r#""direction":[0,1]"#, r#""direction":[0]"#),
                "players[0].direction",
            ),
            (
                &kitchen().replace(r#""ids":[1,2]"#, r#""ids":[1]"#),
                "goal[0].ids",
            ),
        ];
        for (text, at) in cases {
            let err = load_environment(Path::new("k.json"), text)
                .unwrap_err()
                .to_string();
            assert!(err.contains("k.json") && err.contains(at), "{at}: {err}");
        }
    }

    #[test]
    fn a_seed_that_raises_is_retried_with_the_next_and_recorded() {
        // One cell: the generator draws no distractor, and the task's two stations cannot
        // both be placed without one to replace, so every seed raises.
        let text = kitchen().replace(r#""width":3,"height":3"#, r#""width":1,"height":1"#);
        let env = load_environment(Path::new("k.json"), &text).unwrap();
        let err = seeded(Path::new("k.json"), &env, 42, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("raises for every seed from 42"), "{err}");
        // On a roomy grid some seed succeeds; the seeds before it are recorded.
        let env = load_environment(Path::new("k.json"), &kitchen()).unwrap();
        for seed in 0..20 {
            let s = seeded(Path::new("k.json"), &env, seed, false).unwrap();
            assert_eq!(s.effective_seed, seed + s.failures.len() as i64);
            for (k, (failed, _)) in s.failures.iter().enumerate() {
                assert_eq!(*failed, seed + k as i64);
            }
        }
    }
}
