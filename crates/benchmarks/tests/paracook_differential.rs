//! The concrete simulator against ParaCook's own, run with python3 on the user's checkout in
//! `../shared`: on every map, random plans grown action by action (mostly actions the game
//! accepts, so that runs go deep: cooking, serving, washing) and mutations of them (an action
//! dropped, two swapped, a wait changed, a target moved). Each replay must agree with the
//! game's on the time, the verdict, the error's class and text, the served and open orders,
//! the per-cook times and the world after every event. Skips, saying so, without python3 or
//! the checkout.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use makespan_benchmarks::paracook::concrete::checkout::read_checkout;
use makespan_benchmarks::paracook::concrete::kitchen::{Kitchen, StationKind};
use makespan_benchmarks::paracook::concrete::sim::{
    simulate, simulate_with, Action, AgentPlan, ErrorClass, Mode, Options, Plan,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

fn checkout() -> Option<PathBuf> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/paracook/upstream");
    dir.join("data/cook").is_dir().then_some(dir)
}

fn driver() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/paracook/upstream_replay.py")
}

/// Whether python3 can run the game here.
fn python_ok(root: &Path) -> bool {
    Command::new("python3")
        .arg("-c")
        .arg("import src.game.simulator")
        .current_dir(root)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The game's results for `cases` (one per line).
fn upstream(root: &Path, cases: &[Value]) -> Vec<Value> {
    let mut child = Command::new("python3")
        .arg(driver())
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let input = serde_json::to_vec(cases).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "the driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn map_path(k: &Kitchen) -> String {
    let (agents, _) = k.key.rsplit_once("/orders_num_").unwrap();
    let mut parts = agents.split('/');
    let (cat, seed, m) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    format!("data/cook/maps/{cat}/{seed}/{m}")
}

fn case(k: &Kitchen, plan: &Plan) -> Value {
    json!({
        "map": map_path(k),
        "orders": k.orders.iter().map(|o| format!("{}/{o}", k.category)).collect::<Vec<_>>(),
        "plan": plan.to_json(),
    })
}

/// Numbers compared by value (the game mixes 24 and 24.0 once waits are fractional).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn class_of(python_type: &str) -> ErrorClass {
    match python_type {
        "ActionExecutionError" => ErrorClass::Execution,
        "ValueError" => ErrorClass::Rule,
        _ => ErrorClass::Crash,
    }
}

/// Differences between our replay and the game's, empty when they agree.
fn differences(k: &Kitchen, plan: &Plan, theirs: &Value) -> Vec<String> {
    let ours = simulate_with(
        k,
        plan,
        Mode::Replica,
        Options {
            keep_going: false,
            snapshots: true,
        },
    );
    let mut diffs = Vec::new();
    let mut check = |what: &str, a: Value, b: &Value| {
        if !same(&a, b) {
            diffs.push(format!("{what}: ours {a}, theirs {b}"));
        }
    };
    check("time", json!(ours.oct), &theirs["time"]);
    check("done", json!(ours.done), &theirs["done"]);
    check("all_served", json!(ours.all_served), &theirs["all_served"]);
    let served: Vec<&str> = ours.served.iter().map(|s| s.0.as_str()).collect();
    check("finished", json!(served), &theirs["finished_orders"]);
    check(
        "remaining",
        json!(ours.remaining),
        &theirs["remaining_orders"],
    );
    let times = |f: fn(&makespan_benchmarks::paracook::concrete::sim::AgentTimes) -> f64| {
        json!(ours.agents.iter().map(f).collect::<Vec<_>>())
    };
    check("moving", times(|a| a.moving), &theirs["moving"]);
    check("waiting", times(|a| a.waiting), &theirs["waiting"]);
    check("processing", times(|a| a.processing), &theirs["processing"]);
    check("execution", times(|a| a.execution), &theirs["execution"]);
    match (&ours.error, theirs["error"].as_object()) {
        (None, None) => {}
        (Some(e), Some(t)) => {
            let class = class_of(t["type"].as_str().unwrap_or(""));
            if e.class != class {
                diffs.push(format!(
                    "error class: ours {:?} ({}), theirs {t:?}",
                    e.class, e.rule
                ));
            } else if class != ErrorClass::Crash && t["message"] != e.rule.as_str() {
                diffs.push(format!(
                    "error text: ours {:?}, theirs {:?}",
                    e.rule, t["message"]
                ));
            }
        }
        (e, t) => diffs.push(format!("error: ours {e:?}, theirs {t:?}")),
    }
    let history = theirs["history"].as_array().cloned().unwrap_or_default();
    if history.len() != ours.snapshots.len() {
        diffs.push(format!(
            "snapshots: ours {}, theirs {}",
            ours.snapshots.len(),
            history.len()
        ));
    }
    for ((time, world), theirs) in ours.snapshots.iter().zip(&history) {
        if !same(&json!(time), &theirs["time"]) || !same(world, &theirs["world"]) {
            diffs.push(format!(
                "snapshot at {time}: ours {world}, theirs {}",
                theirs["world"]
            ));
            break;
        }
    }
    diffs
}

/// A random action likely to do something: a walk to a station's access cell, an
/// interaction or process at a nearby station, or a short wait.
fn random_action(k: &Kitchen, rng: &mut SmallRng, pos: (i32, i32)) -> Action {
    let tiles = &k.map.tiles;
    let near: Vec<usize> = (0..tiles.len())
        .filter(|&s| {
            let (x, y) = tiles[s].cell();
            (x - pos.0).abs() + (y - pos.1).abs() == 1
        })
        .collect();
    let roll = rng.random_range(0..100);
    if !near.is_empty() && roll < 55 {
        let s = near[rng.random_range(0..near.len())];
        let processable = matches!(
            tiles[s].kind,
            StationKind::ChoppingBoard | StationKind::Sink | StationKind::Stove
        );
        return if processable && rng.random_range(0..3) == 0 {
            Action::Process(tiles[s].name.clone())
        } else {
            Action::Interact(tiles[s].name.clone())
        };
    }
    if roll < 90 {
        let s = rng.random_range(0..tiles.len());
        let cells = k.map.access_cells(tiles[s].cell());
        if !cells.is_empty() {
            return Action::MoveTo(cells[rng.random_range(0..cells.len())]);
        }
    }
    match rng.random_range(0..10) {
        0 => Action::Finish,
        1 => Action::Wait(rng.random_range(0..3) as f64 + 0.5),
        _ => Action::Wait(rng.random_range(1..30) as f64),
    }
}

/// A plan grown action by action, keeping mostly actions our replay accepts.
fn grown_plan(k: &Kitchen, rng: &mut SmallRng, length: usize) -> Plan {
    let mut plan = Plan {
        agents: k
            .map
            .agents
            .iter()
            .map(|a| AgentPlan::new(a.name.clone(), Vec::new()))
            .collect(),
    };
    let mut positions: Vec<(i32, i32)> = k.map.agents.iter().map(|a| (a.x, a.y)).collect();
    for n in 0..length {
        let a = n % plan.agents.len();
        for attempt in 0..12 {
            let action = random_action(k, rng, positions[a]);
            plan.agents[a].actions.push(action.clone());
            let out = simulate(k, &plan, Mode::Replica);
            if out.error.is_none() || (attempt == 11 && rng.random_range(0..4) == 0) {
                if let Action::MoveTo(c) = action {
                    positions[a] = c;
                }
                break;
            }
            plan.agents[a].actions.pop();
        }
    }
    plan
}

fn mutated(plan: &Plan, rng: &mut SmallRng, k: &Kitchen) -> Plan {
    let mut p = plan.clone();
    let a = rng.random_range(0..p.agents.len());
    let list = &mut p.agents[a].actions;
    if list.is_empty() {
        return p;
    }
    let i = rng.random_range(0..list.len());
    match rng.random_range(0..4) {
        0 => {
            list.remove(i);
        }
        1 => {
            let j = rng.random_range(0..list.len());
            list.swap(i, j);
        }
        2 => list[i] = Action::Wait(rng.random_range(0..12) as f64 - 1.0),
        _ => {
            let s = rng.random_range(0..k.map.tiles.len());
            list[i] = match &list[i] {
                Action::MoveTo((x, y)) => {
                    Action::MoveTo((x + rng.random_range(-1..2), y + rng.random_range(-1..2)))
                }
                Action::Process(_) => Action::Process(k.map.tiles[s].name.clone()),
                _ => Action::Interact(k.map.tiles[s].name.clone()),
            };
        }
    }
    p
}

#[test]
fn random_and_mutated_plans_replay_as_the_game_replays_them_on_every_map() {
    let Some(root) = checkout() else {
        println!("skipped 0 of the differential cases: no ParaCook checkout in ../shared");
        return;
    };
    if !python_ok(&root) {
        println!("skipped the differential cases: python3 cannot run the game's simulator here");
        return;
    }
    let kitchens = read_checkout(&root).unwrap();
    // One instance per map (the largest order count: its recipes cover the others').
    let per_map: Vec<&Kitchen> = kitchens.iter().filter(|k| k.orders_num == 4).collect();
    let plans_per_map: usize = std::env::var("PARACOOK_DIFF_PLANS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut rng = SmallRng::seed_from_u64(27);
    let mut cases = Vec::new();
    let mut pairs = Vec::new();
    for k in &per_map {
        for n in 0..plans_per_map {
            let grown = grown_plan(k, &mut rng, 12 + 6 * n);
            let plan = if n % 2 == 1 {
                mutated(&grown, &mut rng, k)
            } else {
                grown
            };
            cases.push(case(k, &plan));
            pairs.push((*k, plan));
        }
    }
    let results = upstream(&root, &cases);
    assert_eq!(results.len(), pairs.len());
    let mut failures = Vec::new();
    let (mut errors, mut served, mut events) = (0, 0, 0);
    for ((k, plan), theirs) in pairs.iter().zip(&results) {
        errors += usize::from(!theirs["error"].is_null());
        served += theirs["finished_orders"].as_array().map_or(0, Vec::len);
        events += theirs["history"].as_array().map_or(0, Vec::len);
        let diffs = differences(k, plan, theirs);
        if !diffs.is_empty() {
            failures.push(format!(
                "{} plan {}:\n  {}",
                k.key,
                plan.to_json(),
                diffs.join("\n  ")
            ));
        }
    }
    println!(
        "differential: {} maps × {plans_per_map} plans = {} replays, {} identical; {errors} end in an error, {served} orders served, {events} world snapshots compared",
        per_map.len(),
        pairs.len(),
        pairs.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
