//! The concrete kitchens' oracle on the benchmark's own maps: every plan it returns serves
//! every order, and no bound exceeds a plan.

use std::path::Path;
use std::time::{Duration, Instant};

use makespan_benchmarks::paracook::concrete::bounds::instance_bound;
use makespan_benchmarks::paracook::concrete::oracle::layout::{Layout, Start, StationKind, StationSpec, Ware};
use makespan_benchmarks::paracook::concrete::oracle::{beam::beam, replay, world::KitchenWorld};
use serde_json::Value;

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The kitchen of `<category>/seed_<s>/agent_num_<m>` with its first `k` orders.
fn kitchen(root: &Path, category: &str, seed: u32, m: u32, k: u32) -> Layout {
    let map = read(&root.join(format!("data/cook/maps/{category}/seed_{seed}/agent_num_{m}.json")));
    let orders = read(&root.join("data/cook/orders/all_orders.json"));
    let recipes = read(&root.join(format!("config/recipe/{category}.json")));
    let mut specs = Vec::new();
    let mut walls = Vec::new();
    for t in map["tiles"].as_array().unwrap() {
        let (x, y) = (t["x"].as_i64().unwrap() as i32, t["y"].as_i64().unwrap() as i32);
        let name = t["name"].as_str().unwrap();
        if t["type"] == "obstacle" {
            walls.push((x, y));
            continue;
        }
        let kind = [
            ("table", StationKind::Table),
            ("dispenser", StationKind::Dispenser),
            ("chopping_board", StationKind::Board),
            ("stove", StationKind::Stove),
            ("serving_window", StationKind::Window),
            ("sink", StationKind::Sink),
            ("plate_return", StationKind::Return),
        ]
        .iter()
        .find(|(k, _)| name.contains(k))
        .unwrap()
        .1;
        let start = match t.get("item").and_then(Value::as_str) {
            Some("plate") => Some(Start::Plate),
            Some("pan") => Some(Start::Ware(Ware::Pan)),
            Some("pot") => Some(Start::Ware(Ware::Pot)),
            _ => None,
        };
        specs.push(StationSpec {
            name: name.into(),
            kind,
            x,
            y,
            provides: t.get("provides").and_then(Value::as_str).map(String::from),
            start,
        });
    }
    let agents: Vec<(String, i32, i32)> = map["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap().into(), a["x"].as_i64().unwrap() as i32, a["y"].as_i64().unwrap() as i32))
        .collect();
    let list = orders[format!("{category}/seed_{seed}/orders_num_{k}")].as_array().unwrap();
    let dishes: Vec<(String, Vec<(String, String)>)> = list
        .iter()
        .map(|o| {
            let dish = o.as_str().unwrap().split('/').nth(1).unwrap();
            let recipe = recipes.as_array().unwrap().iter().find(|r| r["name"] == dish).unwrap();
            let units = recipe["ingredients"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| (i["item"].as_str().unwrap().into(), i["state"].as_str().unwrap().into()))
                .collect();
            (dish.into(), units)
        })
        .collect();
    Layout::new(10, 8, &specs, &walls, &agents, &dishes).unwrap()
}

#[test]
#[ignore = "a development sweep"]
fn sweep_dev() {
    let Some(root) = makespan_testkit::data("paracook/upstream") else { return };
    let filter = std::env::var("SWEEP").unwrap_or_default();
    let width: usize = std::env::var("WIDTH").ok().and_then(|w| w.parse().ok()).unwrap_or(100);
    let mut out = Vec::new();
    for category in ["sashimi", "salad", "sushi", "burger", "pasta", "burrito"] {
        for seed in [42, 84, 126] {
            for m in 1..=3 {
                for k in 1..=4 {
                    let key = format!("{category}/{seed}/{m}/{k}");
                    if !key.starts_with(&filter) {
                        continue;
                    }
                    let lay = kitchen(&root, category, seed, m, k);
                    let (bi, br) = instance_bound(&lay);
                    let world = KitchenWorld::new(&lay);
                    let t = Instant::now();
                    let weight: i64 = std::env::var("WEIGHT").ok().and_then(|w| w.parse().ok()).unwrap_or(4);
                    let found = beam(&world, width, weight, Some(t + Duration::from_secs(5)), i64::MAX);
                    let mut secs = t.elapsed().as_secs_f64();
                    let mut found = found;
                    if std::env::var("ASTAR").is_ok() {
                        let t = Instant::now();
                        let limits = makespan_world::Limits { max_states: 2_000_000, time: Some(Duration::from_secs(30)), ..Default::default() };
                        match makespan_world::search(&world, &limits) {
                            makespan_world::Outcome::Optimal(p) => {
                                println!("  astar optimal {} in {:.2}s", p.cost, t.elapsed().as_secs_f64());
                                found = Some((p.steps.iter().map(|s| s.action).collect(), p.cost));
                            }
                            makespan_world::Outcome::Feasible { plan, bound } => println!("  astar feasible {} bound {bound} {:.2}s", plan.cost, t.elapsed().as_secs_f64()),
                            makespan_world::Outcome::Unknown { bound } => println!("  astar unknown bound {bound} {:.2}s", t.elapsed().as_secs_f64()),
                            makespan_world::Outcome::Infeasible => println!("  astar infeasible"),
                        }
                        secs += t.elapsed().as_secs_f64();
                    }
                    match found {
                        Some((d, cost)) => {
                            let p = replay(&lay, &d).expect("the model replays its own plan");
                            assert_eq!(i64::from(p.time), cost);
                            let answer = makespan_benchmarks::paracook::concrete::oracle::answer(&lay, &p);
                            out.push(serde_json::json!({"key": key, "time": cost, "plan": answer}));
                            println!("{key}: {cost} bound {}/{} ({:?}) {secs:.2}s", bi.value, br.value, bi.argument);
                            assert!(bi.value.max(br.value) <= cost);
                        }
                        None => println!("{key}: none, bound {} {secs:.2}s", bi.value),
                    }
                }
            }
        }
    }
    std::fs::write("/tmp/oracle-plans.json", serde_json::to_string(&out).unwrap()).unwrap();
}

#[test]
#[ignore = "a development probe"]
fn probe_dev() {
    use makespan_world::World;
    let Some(root) = makespan_testkit::data("paracook/upstream") else { return };
    let lay = kitchen(&root, "salad", 42, 1, 1);
    let world = KitchenWorld::new(&lay);
    let mut s = world.initial();
    println!("initial {:?} lb {}", s, world.lower_bound(&s));
    for depth in 0..8 {
        let mut out = Vec::new();
        world.successors(&s, &mut out);
        println!("depth {depth}: {} successors", out.len());
        for (d, c, st) in &out {
            println!("   {d:?} cost {c} lb {} hold {:?}", world.lower_bound(st), st.agents[0].hold);
        }
        let Some(pick) = out.into_iter().min_by_key(|(_, c, st)| c + world.lower_bound(st)) else { break };
        s = pick.2;
    }
}
