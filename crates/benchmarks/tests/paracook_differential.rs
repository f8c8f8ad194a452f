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

use makespan_benchmarks::paracook::concrete::checkout::{kitchen_from, read_checkout};
use makespan_benchmarks::paracook::concrete::kitchen::{Kitchen, StationKind};
use makespan_benchmarks::paracook::concrete::oracle::solve::plan_kitchen;
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

/// A plan with one wait inserted: the same actions at other times (cooking clocks, plate
/// returns and same-instant orders shift).
fn delayed(plan: &Plan, rng: &mut SmallRng) -> Plan {
    let mut p = plan.clone();
    for agent in &mut p.agents {
        agent.raw = None;
    }
    let a = rng.random_range(0..p.agents.len());
    let list = &mut p.agents[a].actions;
    let i = rng.random_range(0..=list.len());
    list.insert(i, Action::Wait(rng.random_range(1..30) as f64));
    p
}

fn mutated(plan: &Plan, rng: &mut SmallRng, k: &Kitchen) -> Plan {
    let mut p = plan.clone();
    // The entries as written no longer match once an action changes.
    for agent in &mut p.agents {
        agent.raw = None;
    }
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

/// The checkout's own plans (the fixed agent's five, the IO and CoT few-shot answers) as
/// kitchens and plans, with the driver's cases.
fn examples(root: &Path) -> Vec<(Value, Kitchen, Plan)> {
    let out = Command::new("python3")
        .arg(driver())
        .arg(root)
        .arg("--examples")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    cases
        .into_iter()
        .map(|c| {
            let orders: Vec<String> = serde_json::from_value(c["orders"].clone()).unwrap();
            let name = c["name"].as_str().unwrap().to_string();
            let k = kitchen_from(
                root,
                Path::new(&name),
                &name,
                c["map_json"].clone(),
                &orders,
            )
            .unwrap();
            let plan = Plan::from_json(&c["plan"]).unwrap();
            (c, k, plan)
        })
        .collect()
}

#[test]
fn the_fixed_plans_and_few_shot_answers_take_their_upstream_times() {
    let Some(root) = checkout() else {
        println!("skipped 11 example plans: no ParaCook checkout in ../shared");
        return;
    };
    if !python_ok(&root) {
        println!("skipped 11 example plans: python3 cannot run the game's simulator here");
        return;
    }
    let examples = examples(&root);
    let times: Vec<(String, f64, bool)> = examples
        .iter()
        .map(|(c, k, plan)| {
            let out = simulate(k, plan, Mode::Replica);
            let verdict = if c["harness"] == "fixed" {
                out.all_served
            } else {
                out.done
            };
            (c["name"].as_str().unwrap().to_string(), out.oct, verdict)
        })
        .collect();
    let expected = [
        ("fixed burger_basic on kitchen_burger_8x6", 42.0),
        ("fixed salad_advanced on kitchen_salad_8x6", 15.0),
        (
            "fixed salad_advanced+salad_advanced on kitchen_salad_8x6",
            75.0,
        ),
        ("fixed sushi_fish on kitchen_sushi_8x6", 28.0),
        ("fixed pasta_mushroom+pasta_tomato on kitchen", 72.0),
        ("IO example burger_basic", 42.0),
        ("IO example salad_advanced", 15.0),
        ("IO example sushi_fish", 30.0),
        ("CoT example burger_basic", 42.0),
        ("CoT example salad_advanced", 15.0),
        ("CoT example sushi_fish", 30.0),
    ];
    for (name, time) in expected {
        let got = times
            .iter()
            .find(|t| t.0 == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!((got.1, got.2), (time, true), "{name}");
    }
    // The game agrees on each, event by event.
    let cases: Vec<Value> = examples.iter().map(|(c, ..)| c.clone()).collect();
    let results = upstream(&root, &cases);
    for ((c, k, plan), theirs) in examples.iter().zip(&results) {
        assert_eq!(
            differences(k, plan, theirs),
            Vec::<String>::new(),
            "{}",
            c["name"]
        );
    }
}

/// The oracle never plans longer than the repository's hand-written plans on their kitchens
/// (pasta/42 with two cooks and two orders: far below the fixed plan's 72).
#[test]
fn the_oracle_plans_no_longer_than_the_fixed_plans() {
    let Some(root) = checkout() else {
        println!("skipped 5 fixed plans: no ParaCook checkout in ../shared");
        return;
    };
    if !python_ok(&root) {
        println!("skipped 5 fixed plans: python3 cannot run the game's simulator here");
        return;
    }
    let limits = makespan_world::Limits {
        time: Some(std::time::Duration::from_secs(3)),
        ..makespan_world::Limits::default()
    };
    let mut compared = 0;
    for (c, k, plan) in examples(&root) {
        if c["harness"] != "fixed" {
            continue;
        }
        let fixed = simulate(&k, &plan, Mode::Replica).oct;
        let oracle = plan_kitchen(&k, &limits).unwrap();
        let best = oracle.best.as_ref().expect("a plan");
        assert!(best.replica.done && best.intended.done, "{}", c["name"]);
        assert!(
            best.time as f64 <= fixed,
            "{}: the oracle's {} against the fixed plan's {fixed}",
            c["name"],
            best.time
        );
        println!(
            "{}: oracle {} ({}), fixed {fixed}",
            c["name"], best.time, best.method
        );
        if c["name"] == "fixed pasta_mushroom+pasta_tomato on kitchen" {
            assert!(best.time <= 64, "pasta/42: {}", best.time);
        }
        compared += 1;
    }
    assert_eq!(compared, 5);
}

#[test]
fn mutations_of_the_example_plans_replay_as_the_game_replays_them() {
    let Some(root) = checkout() else {
        println!("skipped the mutated example plans: no ParaCook checkout in ../shared");
        return;
    };
    if !python_ok(&root) {
        println!("skipped the mutated example plans: python3 cannot run the game's simulator here");
        return;
    }
    let mut rng = SmallRng::seed_from_u64(2727);
    let mut cases = Vec::new();
    let mut pairs = Vec::new();
    for (c, k, plan) in examples(&root) {
        for n in 0..40 {
            let p = match n % 4 {
                0 => mutated(&mutated(&plan, &mut rng, &k), &mut rng, &k),
                1 => mutated(&plan, &mut rng, &k),
                2 => delayed(&plan, &mut rng),
                _ => delayed(&delayed(&plan, &mut rng), &mut rng),
            };
            let mut case = c.clone();
            case["plan"] = p.to_json();
            cases.push(case);
            pairs.push((k.clone(), p));
        }
    }
    let results = upstream(&root, &cases);
    let mut failures = Vec::new();
    let (mut errors, mut served) = (0, 0);
    for ((k, plan), theirs) in pairs.iter().zip(&results) {
        errors += usize::from(!theirs["error"].is_null());
        served += theirs["finished_orders"].as_array().map_or(0, Vec::len);
        let d = differences(k, plan, theirs);
        if !d.is_empty() {
            failures.push(format!(
                "{} plan {}:\n  {}",
                k.key,
                plan.to_json(),
                d.join("\n  ")
            ));
        }
    }
    assert!(
        served > pairs.len() / 3,
        "the delayed plans serve: {served}"
    );
    println!(
        "mutated examples: {} replays, {} identical; {errors} end in an error, {served} orders served",
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

#[test]
fn a_whole_run_scores_as_the_statistics_script_scores_it() {
    use makespan_benchmarks::paracook::concrete::score::score_run;
    let Some(root) = checkout() else {
        println!("skipped the run score: no ParaCook checkout in ../shared");
        return;
    };
    if !python_ok(&root) {
        println!("skipped the run score: python3 cannot run the game here");
        return;
    }
    let kitchens = read_checkout(&root).unwrap();
    let mut rng = SmallRng::seed_from_u64(28);
    // The fixed agent's plan on its benchmark instance (done), delayed versions of it (done,
    // later) and grown plans on other instances (mostly not done).
    let pasta = kitchens
        .iter()
        .find(|k| k.key == "pasta/seed_42/agent_num_2/orders_num_2")
        .unwrap();
    let fixed = examples(&root)
        .into_iter()
        .find(|(c, ..)| c["name"] == "fixed pasta_mushroom+pasta_tomato on kitchen")
        .unwrap()
        .2;
    let mut pairs: Vec<(&Kitchen, Plan)> = vec![(pasta, fixed.clone())];
    for k in kitchens.iter().step_by(9) {
        if k.key != pasta.key {
            pairs.push((k, grown_plan(k, &mut rng, 20)));
        }
    }
    let results_dir = tempfile::tempdir().unwrap();
    let run = results_dir.path().join("IO/test-model");
    let cases: Vec<Value> = pairs.iter().map(|(k, p)| case(k, p)).collect();
    let replays = upstream(&root, &cases);
    for ((k, plan), r) in pairs.iter().zip(&replays) {
        let names: Vec<&str> = k.map.agents.iter().map(|a| a.name.as_str()).collect();
        let per = |f: &str| -> Value {
            names
                .iter()
                .zip(r[f].as_array().unwrap())
                .map(|(n, v)| (n.to_string(), v.clone()))
                .collect()
        };
        let file = run.join(format!("{}.json", k.key));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let data = json!({
            "done": r["done"], "time": r["time"],
            "agent_all_execution_time": per("execution"), "agent_waiting_time": per("waiting"),
            "agent_moving_time": per("moving"), "agent_processing_time": per("processing"),
            "error": r["error"], "retry_count": 0, "plan": plan.to_json(),
        });
        std::fs::write(file, data.to_string()).unwrap();
    }
    let out = Command::new("python3")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/paracook/upstream_statistics.py"),
        )
        .args([root.as_os_str(), results_dir.path().as_os_str()])
        .args(["IO", "test-model"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let score = score_run(&run, &kitchens).unwrap();
    assert!(score.errors.is_empty(), "{:?}", score.errors);
    assert_eq!(score.entries.len(), pairs.len());
    let ours = score.original.unwrap();
    let close = |a: f64, b: &Value| (a - b.as_f64().unwrap()).abs() < 1e-9;
    assert!(
        close(ours.sr, &theirs["success_rate"]),
        "SR {} vs {}",
        ours.sr,
        theirs["success_rate"]
    );
    assert!(
        close(ours.poct, &theirs["all_avg_time"]),
        "pOCT {} vs {}",
        ours.poct,
        theirs["all_avg_time"]
    );
    assert!(
        close(ours.noct, &theirs["avg_time_rate"]),
        "nOCT {} vs {}",
        ours.noct,
        theirs["avg_time_rate"]
    );
    assert!(
        close(ours.pmd, &theirs["agent_avg_movements"]),
        "pMD {} vs {}",
        ours.pmd,
        theirs["agent_avg_movements"]
    );
    assert!(
        close(ours.au, &theirs["agent_avg_utilization"]),
        "AU {} vs {}",
        ours.au,
        theirs["agent_avg_utilization"]
    );
    // The files came from the game's own replays: the replica replays agree with every one.
    assert_eq!(score.replica.unwrap(), ours);
    assert!(score.entries.iter().all(|e| e.difference.is_none()));
    assert!(theirs["success_count"].as_u64().unwrap() >= 1);
    println!(
        "run score: {} files, SR {:.4}, pOCT {:.2}, nOCT {:.4}, pMD {:.2}, AU {:.4} (script and makespan agree)",
        score.entries.len(), ours.sr, ours.poct, ours.noct, ours.pmd, ours.au
    );
}
