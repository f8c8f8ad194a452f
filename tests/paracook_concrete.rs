//! ParaCook's concrete mode through the command line: `makespan score` on a results folder as
//! `src/main.py` writes it, against the benchmark's statistics script run with python3 on the
//! same folder; `gantt` on a kitchen's plan. The results folder is built here from the
//! repository's fixed plan for pasta/42 with two cooks and two orders (the only one of its
//! plans on a benchmark kitchen), replayed by the game itself for each file's fields. Skips,
//! saying so, without the checkout or python3.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use makespan::score::RunReport;
use serde_json::{json, Value};

use crate::common::{makespan, text};

/// The checkout, when it is here and python3 runs its game.
fn checkout() -> Option<PathBuf> {
    let root = makespan_testkit::data("paracook/upstream")?;
    let runs = Command::new("python3")
        .args(["-c", "import src.game.simulator"])
        .current_dir(&root)
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        makespan_testkit::skip("python3 cannot run ParaCook's game here");
        return None;
    }
    Some(root)
}

fn python(args: &[&std::ffi::OsStr], input: Option<&Value>) -> Vec<u8> {
    let mut child = Command::new("python3")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let bytes = input.map(|v| v.to_string()).unwrap_or_default();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(bytes.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

const DRIVER: &str = "tests/paracook/upstream_replay.py";

/// The fixed agent's plan on pasta/42 with two cooks and two orders.
fn fixed_pasta_plan(root: &Path) -> Value {
    let cases: Vec<Value> = serde_json::from_slice(&python(
        &[DRIVER.as_ref(), root.as_os_str(), "--examples".as_ref()],
        None,
    ))
    .unwrap();
    cases
        .into_iter()
        .find(|c| c["name"] == "fixed pasta_mushroom+pasta_tomato on kitchen")
        .expect("the fixed pasta plan")["plan"]
        .clone()
}

/// Writes one result file per `(key, plan)` with the fields the harness records, from the
/// game's own replay of the plan.
fn write_run(root: &Path, run: &Path, files: &[(&str, Value)]) {
    let orders: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("data/cook/orders/all_orders.json")).unwrap(),
    )
    .unwrap();
    let cases: Vec<Value> = files
        .iter()
        .map(|(key, plan)| {
            let parts: Vec<&str> = key.split('/').collect();
            let dishes = &orders[format!("{}/{}/{}", parts[0], parts[1], parts[3])];
            json!({
                "map": format!("data/cook/maps/{}/{}/{}", parts[0], parts[1], parts[2]),
                "orders": dishes,
                "plan": plan,
            })
        })
        .collect();
    let out = python(
        &[DRIVER.as_ref(), root.as_os_str()],
        Some(&Value::Array(cases)),
    );
    let replays: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for ((key, plan), r) in files.iter().zip(&replays) {
        let m: usize = key.split("agent_num_").nth(1).unwrap()[..1]
            .parse()
            .unwrap();
        let per = |f: &str| -> Value {
            (1..=m)
                .zip(r[f].as_array().unwrap())
                .map(|(n, v)| (format!("agent{n}"), v.clone()))
                .collect()
        };
        let file = run.join(format!("{key}.json"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let record = json!({
            "done": r["done"], "time": r["time"],
            "finished_orders": r["finished_orders"], "remaining_orders": r["remaining_orders"],
            "agent_all_execution_time": per("execution"), "agent_waiting_time": per("waiting"),
            "agent_moving_time": per("moving"), "agent_processing_time": per("processing"),
            "error": r["error"], "retry_count": 0, "plan": plan,
        });
        std::fs::write(file, record.to_string()).unwrap();
    }
}

const PASTA: &str = "pasta/seed_42/agent_num_2/orders_num_2";

#[test]
fn a_concrete_run_scores_as_the_statistics_script_and_against_the_best_known_plans() {
    let Some(root) = checkout() else { return };
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let run = results.join("IO/model-x");
    let fixed = fixed_pasta_plan(&root);
    // The fixed plan where it belongs (done in 72), on the kitchens with one order (the game
    // crashes serving the second dish) and three (one left open), and with the first cook's
    // list cut short on another seed (the game refuses an action).
    let mut cut = fixed.clone();
    let list = cut["agent1"].as_array_mut().unwrap();
    list.truncate(list.len() / 2);
    const ONE: &str = "pasta/seed_42/agent_num_2/orders_num_1";
    write_run(
        &root,
        &run,
        &[
            (PASTA, fixed.clone()),
            (ONE, fixed.clone()),
            ("pasta/seed_42/agent_num_2/orders_num_3", fixed),
            ("pasta/seed_84/agent_num_2/orders_num_2", cut),
        ],
    );
    // The one-order file as the harness's fixed agent records it: done once every order is
    // served, though the game then stops with an error.
    let one = run.join(format!("{ONE}.json"));
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&one).unwrap()).unwrap();
    assert_eq!(record["done"], false, "the game's own verdict");
    record["done"] = json!(true);
    std::fs::write(&one, record.to_string()).unwrap();

    let theirs: Value = serde_json::from_slice(&python(
        &[
            "tests/paracook/upstream_statistics.py".as_ref(),
            root.as_os_str(),
            results.as_os_str(),
            "IO".as_ref(),
            "model-x".as_ref(),
        ],
        None,
    ))
    .unwrap();
    let solutions = dir.path().join("solutions");
    let (csv, page) = (dir.path().join("run.csv"), dir.path().join("run.html"));
    let output = makespan(&[
        "score",
        run.to_str().unwrap(),
        "--data",
        root.to_str().unwrap(),
        "--solutions",
        solutions.to_str().unwrap(),
        "--time-limit",
        "5",
        "--out",
        csv.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--json",
        "-",
    ]);
    // Some answers fail: exit 1, as for every harness.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report: RunReport = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report.benchmark, "paracook");
    assert_eq!(report.rows.len(), 4);
    let row = |key: &str| report.rows.iter().find(|r| r.key == key).unwrap();
    let pasta = row(PASTA);
    assert_eq!(
        pasta.instance.as_deref(),
        Some("paracook-concrete-pasta-s42-o2-m2")
    );
    assert_eq!(
        (
            pasta.valid,
            pasta.makespan,
            pasta.original_score,
            pasta.corrected_score
        ),
        (Some(true), Some(72), Some(72.0), Some(72.0))
    );
    assert!(pasta.notes[0].contains("replica: done, OCT 72; intended: done, OCT 72"));
    // The best known plan and its bound, from makespan's oracle (cached for the next run). A
    // machine too busy for the oracle to find a plan within its limit leaves a note instead.
    let found = pasta.optimum.zip(pasta.bound);
    match found {
        Some((best, bound)) => {
            assert!(0 < bound && bound <= best, "{bound} {best}");
            assert!(solutions
                .join("paracook-concrete-pasta-s42-o2-m2.json")
                .is_file());
        }
        None => assert!(
            pasta.notes.iter().any(|n| n.contains("no optimum")),
            "{:?}",
            pasta.notes
        ),
    }
    let crash = row(ONE);
    assert_eq!(
        (crash.valid, crash.original_valid),
        (Some(false), Some(true))
    );
    // The original metrics are the statistics script's, to the last digit.
    let metric = |name: &str| {
        report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-9;
    let num = |f: &str| theirs[f].as_f64().unwrap();
    assert!(close(metric("SR").original, 100.0 * num("success_rate")));
    assert!(close(metric("pOCT").original, num("all_avg_time")));
    assert!(close(metric("nOCT").original, num("avg_time_rate")));
    assert!(close(metric("pMD").original, num("agent_avg_movements")));
    assert!(close(metric("AU").original, num("agent_avg_utilization")));
    assert!(close(metric("SR").original, 50.0));
    // Corrected: the one success, nOCT against the best known plan (the answer itself where
    // it beats makespan's) instead of T_max.
    assert!(close(metric("SR").corrected, 25.0));
    match found {
        Some((best, bound)) => {
            assert!(close(
                metric("nOCT").corrected,
                72.0 / (best as f64).min(72.0)
            ));
            assert!(close(metric("OCT/LB").corrected, 72.0 / bound as f64));
        }
        None => assert_eq!(metric("nOCT").corrected, None),
    }
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    let d = &report.differences[0];
    assert_eq!(
        (d.key.as_str(), d.original_valid, d.valid),
        (ONE, true, false)
    );
    assert!(
        d.reason.contains("the game's replay of its plan differs"),
        "{}",
        d.reason
    );
    // The same run as text, CSV and an HTML page with each answer's Gantt chart.
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 5, "{table}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<details id=\"answer-").count(), 4);
    assert!(html.contains("pMD") && html.contains("SR game"));
    let printed = makespan(&[
        "score",
        run.to_str().unwrap(),
        "--data",
        root.to_str().unwrap(),
        "--solutions",
        solutions.to_str().unwrap(),
    ]);
    let said = text(&printed);
    assert!(said.contains(PASTA) && said.contains("nOCT"), "{said}");
}

#[test]
fn a_concrete_plan_is_drawn_with_its_cooks_stations_and_served_orders() {
    let Some(root) = checkout() else { return };
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, fixed_pasta_plan(&root).to_string()).unwrap();
    let svg = dir.path().join("plan.svg");
    let instance = format!("{}#{PASTA}", root.display());
    let run = makespan(&[
        "gantt",
        answer.to_str().unwrap(),
        "--mode",
        "concrete",
        "--instance",
        &instance,
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let svg = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    let has = |prefix: &str| labels.iter().any(|l| l.starts_with(prefix));
    // One lane per cook, the stations in use as lanes, and on the game's time axis: 72.
    // (Two orders need no washing: two plates are clean at the start, so the sink is idle.)
    for lane in [
        "agent 0",
        "agent 1",
        "chopping_board",
        "stove",
        "serving_window",
    ] {
        assert!(has(lane), "no lane {lane}: {labels:?}");
    }
    assert!(
        svg.contains("makespan 72"),
        "{}",
        &svg[..400.min(svg.len())]
    );
    for what in ["→ (", "cooking"] {
        assert!(
            labels.iter().any(|l| l.contains(what)),
            "nothing drawn as {what}"
        );
    }
    for what in ["chop", "order 1", "order 2"] {
        assert!(
            labels.contains(&what),
            "nothing drawn as {what}: {labels:?}"
        );
    }
    // Short labels keep the scale of a plan of single steps: its 72 steps fit in a few
    // screens (the labels of one-step walks and serves once set it at 13,000 pixels).
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert!(width < 5000.0, "{width}");
    // The explanation reads the same drawing, and follows the plan's own chain: each cook's
    // steps in turn, the cooking between the step that started it and the step that takes
    // the pan off, and the one cook's wait before that step (the pan was done at 60).
    let explained = makespan(&[
        "explain",
        answer.to_str().unwrap(),
        "--mode",
        "concrete",
        "--instance",
        &instance,
        "--json",
    ]);
    assert!(explained.status.success(), "{}", text(&explained));
    let e: Value = serde_json::from_slice(&explained.stdout).unwrap();
    let chain = e["chain"].as_array().unwrap();
    let ids: Vec<&str> = chain
        .iter()
        .map(|s| s["activity"].as_str().unwrap())
        .collect();
    assert!(
        ids[0].starts_with("1: ") && chain[0]["from"] == 0,
        "{ids:?}"
    );
    assert!(ids.last().unwrap().contains("serving_window"), "{ids:?}");
    assert_eq!(chain.last().unwrap()["to"], 72);
    let pan = ids
        .iter()
        .position(|i| i.starts_with("stove2: pan"))
        .unwrap();
    let (cooked, taken) = (&chain[pan], &chain[pan + 1]);
    assert_eq!(
        (
            cooked["to"].as_i64(),
            taken["ready"].as_i64(),
            taken["start"].as_i64()
        ),
        (Some(60), Some(60), Some(71)),
        "{taken}"
    );
    assert!(taken["activity"].as_str().unwrap().contains("stove2"));
    let waits = e["waits"].as_array().unwrap();
    assert!(
        waits
            .iter()
            .all(|w| !w["activity"].as_str().unwrap().contains("Wait")),
        "a wait step is idle time, never itself late: {waits:?}"
    );
}

/// `references/paracook-concrete.jsonl`: every kitchen of the checkout, each plan replayed
/// again (it must still serve every order in both modes at its recorded times) and its answer
/// the harness's form, one action list per cook. Needs no data: the kitchens are embedded.
#[test]
fn the_committed_concrete_references_replay_to_their_times_in_both_modes() {
    use makespan::references::{InstanceSource, References};
    let references = References::read(Path::new("references/paracook-concrete.jsonl")).unwrap();
    assert_eq!(references.len(), 216);
    let mut planned = 0;
    for r in references.iter() {
        let InstanceSource::Embedded(instance) = &r.instance else {
            panic!("{}: a kitchen is embedded", r.name);
        };
        let Some(makespan) = r.makespan else {
            assert!(
                r.schedule.is_empty() && r.lower_bound.is_some(),
                "{}",
                r.name
            );
            continue;
        };
        planned += 1;
        let solution = references.solution(&r.name, instance).unwrap();
        assert_eq!(solution.makespan, Some(makespan));
        assert!(r.lower_bound.unwrap() <= makespan, "{}", r.name);
        for mode in ["replica", "intended"] {
            let time = r.times[mode].unwrap_or_else(|| panic!("{}: fails in {mode}", r.name));
            assert!(
                time <= makespan as f64 && time.ceil() as i64 <= makespan,
                "{}",
                r.name
            );
        }
        let answer: Value = serde_json::from_str(&r.answer.as_ref().unwrap().text).unwrap();
        let cooks = instance.agents.unwrap() as usize;
        assert_eq!(answer.as_object().unwrap().len(), cooks, "{}", r.name);
        let lists = answer.as_object().unwrap().values();
        assert!(lists.clone().all(Value::is_array), "{}", r.name);
        assert!(
            lists.into_iter().any(|l| l[0]["action"].is_string()),
            "{}",
            r.name
        );
    }
    assert!(planned >= 100, "{planned} kitchens with a plan");
}
