//! Every reader of outside input, fuzzed: arbitrary bytes, byte-level mutations of valid
//! files (truncation, flipped bytes, cut and repeated spans, huge numbers, non-UTF-8) and
//! JSON-aware mutations (deleted, duplicated, renamed and swapped keys, values of the wrong
//! type or size, deep nesting). A reader must never panic, and every error must name the
//! file and a position in it (line and column, byte, or JSON path). What a reader accepts
//! goes on to its consumer (the solver's bounds and heuristics, or the verifier), which must
//! not panic either.
//!
//! Table-driven: a new reader is one line in [`READERS`] (name, file name, reader, seeds), or
//! in [`FOLDER_READERS`] for a file read among others (a harness's run scored against a
//! benchmark's checkout, a certificate with its model and proof, a checkout's task modules),
//! where every case also has a time limit.

use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

use makespan::benchmarks::asynctool::turns::read_turns;
use makespan::benchmarks::paracook::lists::{read_agent_lists, verify_agent_lists};
use makespan::benchmarks::recipe2plan::steps::{parse_steps, verify_steps};
use makespan::benchmarks::robotouille::actions::{read_actions, verify_actions};
use makespan::benchmarks::timearena::log::{read_decisions, verify_decisions};
use makespan::benchmarks::{self, asynchow, paracook, ImportOptions};
use makespan::instance::{parse_instance, problem_hash, Instance, LoadError};
use makespan::references::{InstanceSource, References};
use makespan::score::ScoreOptions;
use makespan::solution::Solution;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::plan::read_plan;
use makespan::verify::verify;
use makespan_certify_check::CheckError;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRng, TestRunner};
use serde_json::Value;

/// One reader under test.
struct Reader {
    name: &'static str,
    /// The file name the input pretends to have (some readers look at it).
    file: &'static str,
    /// Reads the bytes and hands what it accepts to its consumer.
    read: fn(&Path, &[u8]) -> Result<(), LoadError>,
    /// Valid inputs to mutate.
    seeds: fn() -> Vec<Vec<u8>>,
}

const READERS: &[Reader] = &[
    Reader {
        name: "unified instance",
        file: "fuzz.json",
        read: unified,
        seeds: unified_seeds,
    },
    Reader {
        name: "paracook",
        file: "orders_num_1.json",
        read: paracook_native,
        seeds: paracook_seeds,
    },
    Reader {
        name: "asynchow json",
        file: "instances.json",
        read: asynchow_json,
        seeds: asynchow_json_seeds,
    },
    Reader {
        name: "asynchow pickle",
        file: "async_benchmark.pkl",
        read: asynchow_pickle,
        seeds: pickle_seeds,
    },
    Reader {
        name: "plan",
        file: "plan.json",
        read: plan,
        seeds: plan_seeds,
    },
    Reader {
        name: "solution",
        file: "solution.json",
        read: plan,
        seeds: solution_seeds,
    },
    Reader {
        name: "paracook agent lists",
        file: "answer.json",
        read: agent_lists,
        seeds: agent_list_seeds,
    },
    Reader {
        name: "timearena tasks",
        file: "tasks.json",
        read: timearena_tasks,
        seeds: timearena_seeds,
    },
    Reader {
        name: "timearena decision log",
        file: "answer.json",
        read: timearena_log,
        seeds: timearena_log_seeds,
    },
    Reader {
        name: "recipe2plan",
        file: "cooking.json",
        read: recipe2plan_native,
        seeds: recipe2plan_seeds,
    },
    Reader {
        name: "recipe2plan step plans",
        file: "answer.txt",
        read: step_plan,
        seeds: step_plan_seeds,
    },
    Reader {
        name: "robotouille task graphs",
        file: "task_graphs.json",
        read: robotouille_native,
        seeds: robotouille_seeds,
    },
    Reader {
        name: "psplib .sm",
        file: "j301_1.sm",
        read: psplib_native,
        seeds: psplib_seeds,
    },
    Reader {
        name: "rcpsp/max .sch",
        file: "PSP1.SCH",
        read: rcpsp_max_native,
        seeds: rcpsp_max_seeds,
    },
    Reader {
        name: "job shop .jss",
        file: "la01.jss",
        read: jobshop_native,
        seeds: jobshop_seeds,
    },
    Reader {
        name: "asynctool turn list",
        file: "turns.json",
        read: turn_list,
        seeds: turn_seeds,
    },
    Reader {
        name: "robotouille action plan",
        file: "plan.txt",
        read: robotouille_actions,
        seeds: robotouille_action_seeds,
    },
    Reader {
        name: "references file",
        file: "references.jsonl",
        read: references_file,
        seeds: references_seeds,
    },
    Reader {
        name: "any file (detect + import)",
        file: "input.json",
        read: import_file,
        seeds: all_seeds,
    },
];

/// Hand-made hostile inputs that once crashed or exhausted a reader or its consumer: each
/// must end like any fuzzed input, in a value or a located error, with bounded resources.
/// (reader name, what the input is, the input).
type Hostile = (&'static str, &'static str, fn() -> Vec<u8>);

const HOSTILE: &[Hostile] = &[
    ("asynchow pickle", "200,000 nested lists", nested_pickle),
    (
        "any file (detect + import)",
        "200,000 nested lists",
        nested_pickle,
    ),
    (
        "unified instance",
        "a preemptible activity of 10^9 units",
        huge_preemption,
    ),
    (
        "unified instance",
        "a preemptible activity of 10,007 units",
        long_preemption,
    ),
];

/// Protocol 2: 200,000 empty lists, each appended to the one below it (400 KB).
fn nested_pickle() -> Vec<u8> {
    let n = 200_000;
    let mut bytes = vec![0x80, 2];
    bytes.extend(std::iter::repeat_n(b']', n));
    bytes.extend(std::iter::repeat_n(b'a', n - 1));
    bytes.push(b'.');
    bytes
}

fn preemption(duration: i64) -> Vec<u8> {
    format!(
        r#"{{"format": "makespan-instance/1", "name": "p", "agents": 1, "activities": [
            {{"id": "p", "duration": {duration}, "preemptible": true}}, {{"id": "q", "duration": 3}}]}}"#
    )
    .into_bytes()
}

fn huge_preemption() -> Vec<u8> {
    preemption(1_000_000_000)
}

fn long_preemption() -> Vec<u8> {
    preemption(10_007)
}

#[test]
fn hostile_inputs_end_in_a_value_or_a_located_error() {
    for &(name, what, bytes) in HOSTILE {
        let reader = READERS.iter().find(|r| r.name == name).unwrap();
        if let Err(e) = check(reader, &bytes()) {
            panic!("{name} on {what}: {e}");
        }
    }
}

// ---- readers ------------------------------------------------------------------------------

/// The bytes as UTF-8, or the error a text reader gives for them.
fn text<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, LoadError> {
    std::str::from_utf8(bytes)
        .map_err(|e| LoadError::format(path, format!("byte {}", e.valid_up_to()), "not UTF-8"))
}

/// Instances go through the solver's bounds and heuristics (no MILP: it is not a reader).
fn solve_quickly(instances: &[Instance]) {
    let options = SolveOptions {
        heuristic_only: true,
        ..SolveOptions::default()
    };
    for instance in instances.iter().take(3) {
        if instance.activities.len() <= 60 {
            solve(instance, &options);
        }
    }
}

fn unified(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let instance = parse_instance(path, text(path, bytes)?)?;
    solve_quickly(&[instance]);
    Ok(())
}

fn paracook_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let instances = paracook::import(path, text(path, bytes)?, &ImportOptions::default())?;
    solve_quickly(&instances);
    Ok(())
}

fn asynchow_json(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let instances = asynchow::import_json(path, text(path, bytes)?, &ImportOptions::default())?;
    solve_quickly(&instances);
    Ok(())
}

fn asynchow_pickle(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let instances = asynchow::import_pickle(path, bytes, &ImportOptions::default())?;
    solve_quickly(&instances);
    Ok(())
}

fn plan(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let resolved = read_plan(path, text(path, bytes)?)?.resolve(None)?;
    verify(&resolved.instance, &resolved.schedule);
    Ok(())
}

fn agent_lists(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let lists = read_agent_lists(path, text(path, bytes)?)?;
    verify_agent_lists(&paracook_instance(), &lists);
    Ok(())
}

// The readers added with TimeArena, Recipe2Plan, Robotouille and the validation sets:
// imported and validated only (their solver paths are covered by their own tests).

fn timearena_tasks(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::timearena::import(path, text(path, bytes)?, &ImportOptions::default()).map(drop)
}

fn timearena_log(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let log = read_decisions(path, text(path, bytes)?)?;
    if let Some(instance) = timearena_instance() {
        verify_decisions(instance, &log);
    }
    Ok(())
}

fn recipe2plan_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::recipe2plan::import(path, text(path, bytes)?, &ImportOptions::default()).map(drop)
}

/// A Step answer never fails to parse (what does not parse is a violation): everything it
/// reads goes to the verifier against the instance its seed answers.
fn step_plan(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let plan = parse_steps(text(path, bytes)?);
    if let Some(instance) = recipe2plan_instance() {
        verify_steps(instance, &plan, None, None);
    }
    Ok(())
}

/// Each reference whose instance is embedded goes on to become a solution (re-checked).
fn references_file(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let references = References::parse(path, text(path, bytes)?)?;
    for reference in references.iter().take(3) {
        if let InstanceSource::Embedded(instance) = &reference.instance {
            let _ = references.solution(&reference.name, instance);
        }
    }
    Ok(())
}

fn robotouille_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::robotouille::import(path, text(path, bytes)?).map(drop)
}

fn psplib_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::psplib::import(path, text(path, bytes)?).map(drop)
}

fn rcpsp_max_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::rcpsp_max::import(path, text(path, bytes)?).map(drop)
}

fn jobshop_native(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    benchmarks::jobshop::import(path, text(path, bytes)?).map(drop)
}

fn turn_list(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    read_turns(path, text(path, bytes)?).map(drop)
}

fn robotouille_actions(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let plan = read_actions(path, text(path, bytes)?)?;
    if let Some(task) = robotouille_task() {
        verify_actions(task, &plan);
    }
    Ok(())
}

/// Task 0's graph, read once (importing all tasks per case would dominate the run).
fn robotouille_task() -> Option<&'static benchmarks::robotouille::Task> {
    static TASK: std::sync::OnceLock<Option<benchmarks::robotouille::Task>> =
        std::sync::OnceLock::new();
    TASK.get_or_init(|| {
        let path = makespan_testkit::data_if_present("robotouille/task_graphs.json")?;
        let text = std::fs::read_to_string(&path).ok()?;
        let instances = benchmarks::robotouille::import(&path, &text).ok()?;
        benchmarks::robotouille::task_graph(instances.first()?).ok()
    })
    .as_ref()
}

/// The real entry point: the bytes in a file, recognised by [`benchmarks::detect`].
fn import_file(path: &Path, bytes: &[u8]) -> Result<(), LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(path);
    std::fs::write(&file, bytes).unwrap();
    let result = benchmarks::import(&file, &ImportOptions::default());
    // Errors name the temporary file; re-anchor them so the check sees `path`.
    match result {
        Ok(instances) => {
            solve_quickly(&instances);
            Ok(())
        }
        Err(err) => {
            let shown = err.to_string();
            let prefix = format!("{}", file.display());
            assert!(shown.starts_with(&prefix), "{shown}");
            Err(match err {
                LoadError::Io { .. } => panic!("the file exists: {shown}"),
                LoadError::Json {
                    line,
                    column,
                    message,
                    ..
                } => LoadError::Json {
                    path: path.into(),
                    line,
                    column,
                    message,
                },
                LoadError::Invalid { source, .. } => LoadError::Invalid {
                    path: path.into(),
                    source,
                },
                LoadError::Format { at, message, .. } => LoadError::Format {
                    path: path.into(),
                    at,
                    message,
                },
                LoadError::Usage { message, .. } => LoadError::Usage {
                    path: path.into(),
                    message,
                },
            })
        }
    }
}

// ---- seeds --------------------------------------------------------------------------------

fn unified_seeds() -> Vec<Vec<u8>> {
    [
        include_str!("../instances/two-cooks-breakfast.json"),
        include_str!("../instances/three-cooks-seven-dishes.json"),
        include_str!("../instances/three-agent-assembly.json"),
        include_str!("../instances/lab-incubation.json"),
    ]
    .map(|s| s.as_bytes().to_vec())
    .to_vec()
}

const PARACOOK: &str = r#"[
    {"name": "subtask1", "time": 4, "dependencies": {}},
    {"name": "subtask2", "time": 1, "dependencies": {}},
    {"name": "subtask3", "time": 9, "dependencies": {"subtask2": 0}},
    {"name": "subtask4", "time": 3, "dependencies": {"subtask3": 0, "subtask1": 2}}
]"#;

fn paracook_seeds() -> Vec<Vec<u8>> {
    vec![PARACOOK.as_bytes().to_vec()]
}

/// The ParaCook seed with two cooks: the instance agent lists are checked against.
fn paracook_instance() -> Instance {
    let options = ImportOptions {
        agents: vec![Some(2)],
        ..ImportOptions::default()
    };
    paracook::import(Path::new("orders_num_1.json"), PARACOOK, &options).unwrap()[0].clone()
}

fn asynchow_json_seeds() -> Vec<Vec<u8>> {
    let step = |id: u32, text: &str, seconds: i64| {
        serde_json::json!({
            "id": id, "text": text, "duration_text": format!("{} min", seconds / 60),
            "seconds_lo": seconds, "seconds_hi": seconds,
            "seconds_full_lo": seconds, "seconds_full_hi": seconds,
            "minutes_lo": seconds as f64 / 60.0, "minutes_hi": seconds as f64 / 60.0
        })
    };
    let file = serde_json::json!({
        "counts": {"async": 1},
        "instances": [{
            "id": "async-0000", "split": "async", "index": 0, "title": "How to make tea",
            "plan_type": "async",
            "steps": [step(1, "Boil water", 300), step(2, "Warm the pot", 60), step(3, "Steep", 240)],
            "edges": [[1, 3], [2, 3]],
            "gold_seconds_lo": 540, "gold_seconds_hi": 540,
            "gold_minutes_lo": 9.0, "gold_minutes_hi": 9.0
        }]
    });
    let mut seeds = vec![serde_json::to_vec_pretty(&file).unwrap()];
    // The real file's first instances too, where the data is beside the repository.
    if let Some(real) = makespan_testkit::data_if_present("asynchow/instances.json")
        .and_then(|path| std::fs::read(path).ok())
    {
        let mut value: Value = serde_json::from_slice(&real).unwrap();
        if let Some(list) = value["instances"].as_array_mut() {
            list.truncate(3);
        }
        seeds.push(serde_json::to_vec_pretty(&value).unwrap());
    }
    seeds
}

/// Two AsyncHow-shaped tasks written by Python's `pickle.dumps` (protocol 4), with
/// `timedelta` golds: made for these tests (tea and a rest), not benchmark data.
const TINY_PICKLE: &[u8] = b"\
    \x80\x04\x95J\x01\x00\x00\x00\x00\x00\x00}\x94(\x8c\x06titles\x94]\x94(\x8c\x0fHow to ma\
    ke tea\x94\x8c\x0bHow to rest\x94e\x8c\x05steps\x94]\x94(]\x94(\x8c\x0aBoil water\x94\
    \x8c\x0cWarm the pot\x94\x8c\x0dSteep the tea\x94e]\x94\x8c\x08Sit down\x94ae\x8c\x09ste\
    p_deps\x94]\x94(\x8f\x94(\x8c\x012\x94\x8c\x013\x94\x86\x94\x8c\x011\x94h\x11\x86\x94\
    \x90]\x94e\x8c\x08time_dic\x94]\x94(}\x94(h\x13\x8c\x055 min\x94h\x10\x8c\x051 min\x94h\
    \x11\x8c\x094 minutes\x94u}\x94h\x13\x8c\x061 hour\x94se\x8c\x09task_time\x94]\x94(]\x94\
    (\x8c\x08datetime\x94\x8c\x09timedelta\x94\x93\x94K\x00M\x1c\x02K\x00\x87\x94R\x94h#K\
    \x00M\x1c\x02K\x00\x87\x94R\x94e]\x94(h#K\x00M\x10\x0eK\x00\x87\x94R\x94h#K\x00M\x10\x0e\
    K\x00\x87\x94R\x94eeu.";

fn pickle_seeds() -> Vec<Vec<u8>> {
    vec![TINY_PICKLE.to_vec()]
}

fn plan_seeds() -> Vec<Vec<u8>> {
    let instance: Value =
        serde_json::from_str(include_str!("../instances/two-cooks-breakfast.json")).unwrap();
    let plan = serde_json::json!({
        "format": "makespan-plan/1",
        "instance": instance,
        "schedule": [
            {"activity": "chop-onion", "agent": 0, "start": 0},
            {"activity": "chop-peppers", "agent": 0, "pieces": [[4, 7]]},
            {"activity": "whisk-eggs", "agent": 1, "start": 0},
            {"activity": "boil-water", "agent": 1, "start": 2},
            {"activity": "fry-vegetables", "agent": 0, "start": 7},
            {"activity": "cook-omelette", "agent": 0, "start": 13},
            {"activity": "brew-tea", "start": 10},
            {"activity": "set-table", "agent": 1, "start": 3},
            {"activity": "serve", "agent": 1, "start": 18}
        ]
    });
    vec![serde_json::to_vec_pretty(&plan).unwrap()]
}

fn solution_seeds() -> Vec<Vec<u8>> {
    let instance = parse_instance(
        Path::new("three-agent-assembly.json"),
        include_str!("../instances/three-agent-assembly.json"),
    )
    .unwrap();
    let solution = solve(&instance, &SolveOptions::default());
    vec![serde_json::to_vec_pretty(&solution).unwrap()]
}

/// The header and the first two references of the bundled instances' file.
fn references_seeds() -> Vec<Vec<u8>> {
    let text = include_str!("../references/instances.jsonl");
    let head: Vec<&str> = text.lines().take(3).collect();
    vec![(head.join("\n") + "\n").into_bytes()]
}

fn agent_list_seeds() -> Vec<Vec<u8>> {
    vec![
        br#"[["subtask2", "subtask3"], ["subtask1", "subtask4"]]"#.to_vec(),
        b"<think>two cooks</think>\n```JSON\n[[\"subtask1\"],\n [\"subtask2\", \"subtask3\", \"subtask4\"]]\n```"
            .to_vec(),
    ]
}

/// A benchmark data file, or nothing when the data is not there (the seed is then left out;
/// the test runs on the others).
fn benchmark(relative: &str) -> Option<String> {
    std::fs::read_to_string(makespan_testkit::data_if_present(relative)?).ok()
}

/// A file of the classic validation sets, or nothing when they are not there (see
/// [`benchmark`]).
fn validation(relative: &str) -> Option<String> {
    std::fs::read_to_string(makespan_testkit::external_if_present(relative)?).ok()
}

/// The first `keep` entries of a JSON list found at `pointer` (the whole file when empty).
fn trimmed(text: &str, pointer: &str, keep: usize) -> Vec<u8> {
    let mut value: Value = serde_json::from_str(text).unwrap();
    if let Some(Value::Array(list)) = value.pointer_mut(pointer) {
        list.truncate(keep);
    }
    serde_json::to_vec(&value).unwrap()
}

const TIMEARENA: &str = "timearena/tasks.json";

fn timearena_seeds() -> Vec<Vec<u8>> {
    benchmark(TIMEARENA).map_or_else(Vec::new, |t| vec![trimmed(&t, "/tasks", 2)])
}

/// Imported once: every fuzz case verifies against it.
fn timearena_instance() -> Option<&'static Instance> {
    static INSTANCE: OnceLock<Option<Instance>> = OnceLock::new();
    INSTANCE
        .get_or_init(|| {
            let text = benchmark(TIMEARENA)?;
            benchmarks::timearena::import_named(Path::new(TIMEARENA), &text, "cooking1").ok()
        })
        .as_ref()
}

fn timearena_log_seeds() -> Vec<Vec<u8>> {
    vec![
        committed_answer("timearena", "cooking1"),
        br#"["instruction", {"time": 0, "observation": "You are doing ``pick beef``, it will take 2 minutes.", "action": "pick beef"}, {"total_time": 2, "total_score": 10, "isCompleted": false}]"#.to_vec(),
    ]
}

/// The native answer committed in `references/<benchmark>.jsonl` for the instance `name`.
fn committed_answer(benchmark: &str, name: &str) -> Vec<u8> {
    let file = format!("references/{benchmark}.jsonl");
    let references = References::read(Path::new(&file)).unwrap();
    let answer = references.lookup(name).unwrap().answer.clone().unwrap();
    answer.text.into_bytes()
}

fn recipe2plan_seeds() -> Vec<Vec<u8>> {
    benchmark(RECIPE2PLAN).map_or_else(Vec::new, |t| vec![trimmed(&t, "", 1)])
}

const RECIPE2PLAN: &str = "recipe2plan/cooking.json";
/// The instance the committed answer below solves.
const STEP_PLAN_INSTANCE: &str = "recipe2plan-BBQ-Meatballs_Banana-Fry-easy";

/// Imported once: every fuzz case verifies against it.
fn recipe2plan_instance() -> Option<&'static Instance> {
    static INSTANCE: OnceLock<Option<Instance>> = OnceLock::new();
    INSTANCE
        .get_or_init(|| {
            let text = benchmark(RECIPE2PLAN)?;
            let path = Path::new(RECIPE2PLAN);
            let instances =
                benchmarks::recipe2plan::import(path, &text, &ImportOptions::default()).ok()?;
            instances.into_iter().find(|i| i.name == STEP_PLAN_INSTANCE)
        })
        .as_ref()
}

fn step_plan_seeds() -> Vec<Vec<u8>> {
    vec![
        committed_answer("recipe2plan", STEP_PLAN_INSTANCE),
        // The 3-field form, units the evaluator rewrites, and a malformed action.
        b"Step(0, BBQ-Meatballs, 00:00:00)\nStep(1, BBQ-Meatballs, 5 min, 5 min)\nStep(2, BBQ-Meatballs, 1:00)\nStep(x, y)".to_vec(),
    ]
}

fn robotouille_seeds() -> Vec<Vec<u8>> {
    benchmark("robotouille/task_graphs.json")
        .map_or_else(Vec::new, |t| vec![trimmed(&t, "/tasks", 1)])
}

fn psplib_seeds() -> Vec<Vec<u8>> {
    validation("psplib-j30/j301_1.sm").map_or_else(Vec::new, |t| vec![t.into_bytes()])
}

fn rcpsp_max_seeds() -> Vec<Vec<u8>> {
    validation("rcpsp-max/sm_j10/PSP1.SCH").map_or_else(Vec::new, |t| vec![t.into_bytes()])
}

fn jobshop_seeds() -> Vec<Vec<u8>> {
    validation("jssp/la01.jss").map_or_else(Vec::new, |t| vec![t.into_bytes()])
}

fn robotouille_action_seeds() -> Vec<Vec<u8>> {
    let plan = "Move robot1 from table1 to table2\nPick up chicken1 from table2 using robot1\n\
        Move robot1 from table2 to stove1\nPlace chicken1 on stove1 using robot1\n\
        Cook chicken1 on stove1 using robot1\nDo nothing\nMove robot1 from stove1 to table1\n\
        Unstack bread2 from bread1 using robot1\nStack bread2 on top of bread1 using robot1\n\
        Fill bowl1 with pot1's contents using robot1\nBoil pot1's contents on stove1 using robot1\n";
    let list: Vec<&str> = plan.lines().collect();
    vec![plan.as_bytes().to_vec(), serde_json::to_vec(&list).unwrap()]
}

fn turn_seeds() -> Vec<Vec<u8>> {
    vec![br#"["a1", null, "b1", ["a2"], "b2"]"#.to_vec()]
}

/// Every importable seed: the import entry point must tell the formats apart.
fn all_seeds() -> Vec<Vec<u8>> {
    [
        unified_seeds,
        paracook_seeds,
        asynchow_json_seeds,
        pickle_seeds,
    ]
    .iter()
    .flat_map(|seeds| seeds())
    .collect()
}

// ---- the checks ---------------------------------------------------------------------------

/// Whether an error names the file and a position in it.
fn located(err: &LoadError, path: &Path) -> Result<(), String> {
    let shown = err.to_string();
    let problem = match err {
        LoadError::Json { line, .. } if *line == 0 => Some("no line"),
        LoadError::Format { at, .. } if at.trim().is_empty() => Some("no place"),
        LoadError::Invalid { source, .. } if source.problems.is_empty() => Some("no problems"),
        LoadError::Invalid { source, .. } if source.problems.iter().any(|p| p.at.is_empty()) => {
            Some("a problem without a JSON path")
        }
        // A plan's instance file that does not exist: the error names that file.
        LoadError::Io { path: missing, .. } if missing.as_os_str().is_empty() => Some("no file"),
        LoadError::Io { .. } => None,
        _ if !shown.starts_with(&path.display().to_string()) => Some("does not name the file"),
        _ => None,
    };
    match problem {
        Some(what) => Err(format!("{what}: {shown}")),
        None => Ok(()),
    }
}

fn check(reader: &Reader, bytes: &[u8]) -> Result<(), TestCaseError> {
    let path = Path::new(reader.file);
    match (reader.read)(path, bytes) {
        Ok(()) => Ok(()),
        Err(err) => {
            located(&err, path).map_err(|e| TestCaseError::fail(format!("{}: {e}", reader.name)))
        }
    }
}

/// A runner over the same inputs on every run, so CI never fails by chance; set
/// `MAKESPAN_FUZZ_RANDOM=1` to explore new inputs instead.
fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("MAKESPAN_FUZZ_RANDOM").is_some() {
        return TestRunner::new(config);
    }
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    TestRunner::new_with_rng(config, rng)
}

/// Runs `strategy`'s inputs through every reader; on failure names the reader and the
/// shrunk input.
fn fuzz_every_reader<S: Strategy<Value = Vec<u8>>>(cases: u32, strategy: impl Fn(&Reader) -> S) {
    for reader in READERS {
        let result = runner(cases).run(&strategy(reader), |bytes| check(reader, &bytes));
        if let Err(e) = result {
            panic!("reader {}: {e}", reader.name);
        }
    }
}

#[test]
fn seeds_are_read_without_error() {
    for reader in READERS {
        for seed in (reader.seeds)() {
            let path = Path::new(reader.file);
            if let Err(e) = (reader.read)(path, &seed) {
                panic!("reader {}: its seed fails: {e}", reader.name);
            }
        }
    }
}

#[test]
fn the_step_plan_seed_is_a_valid_answer_so_mutations_reach_the_verifier() {
    if makespan_testkit::data(RECIPE2PLAN).is_none() {
        return;
    }
    let instance = recipe2plan_instance().expect("the instance the committed answer solves");
    let seed = &step_plan_seeds()[0];
    let plan = parse_steps(std::str::from_utf8(seed).unwrap());
    let checked = verify_steps(instance, &plan, None, None);
    assert!(checked.report.valid, "{}", checked.report.render_text());
}

#[test]
fn arbitrary_bytes_never_panic_and_errors_are_located() {
    fuzz_every_reader(128, |_| arbitrary());
}

#[test]
fn mutated_seeds_never_panic_and_errors_are_located() {
    fuzz_every_reader(192, |reader| mutated((reader.seeds)()));
}

#[test]
fn structurally_mutated_json_never_panics_and_errors_are_located() {
    fuzz_every_reader(192, |reader| restructured((reader.seeds)()));
}

/// Arbitrary bytes, up to 200.
fn arbitrary() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..200)
}

/// One of `seeds` with one to three byte-level edits. A reader whose only seeds are
/// benchmark data has none where the data is absent: its edits then start from empty bytes.
fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let seeds = if seeds.is_empty() {
        vec![Vec::new()]
    } else {
        seeds
    };
    (0..seeds.len(), proptest::collection::vec(byte_edit(), 1..4)).prop_map(move |(k, edits)| {
        let mut bytes = seeds[k].clone();
        for edit in &edits {
            edit.apply(&mut bytes);
        }
        bytes
    })
}

/// One of the `seeds` that are JSON with one to three JSON-aware edits.
fn restructured(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let seeds: Vec<Value> = seeds
        .iter()
        .filter_map(|s| serde_json::from_slice(s).ok())
        .collect();
    let seeds = if seeds.is_empty() {
        vec![Value::Null]
    } else {
        seeds
    };
    (0..seeds.len(), proptest::collection::vec(json_edit(), 1..4)).prop_map(move |(k, edits)| {
        let mut value = seeds[k].clone();
        let mut duplicate = None;
        for edit in &edits {
            edit.apply(&mut value, &mut duplicate);
        }
        render(&value, duplicate.as_deref()).into_bytes()
    })
}

// ---- readers of a file among others -------------------------------------------------------

/// A reader whose input sits in a folder beside other files: a harness's run (a results file
/// beside `cp_sat.json`, one trajectory or log among others), a solution with its
/// certificate, model and proof, a checkout's task modules. Each case lays out a fresh folder
/// (`setup`: valid files only), writes the input as `file` in it and reads the folder. As for
/// [`READERS`], nothing may panic and an error must name a file of that folder and a place in
/// it; and a case must end within [`CASE_SECONDS`] (no reader may hang or go superlinear).
struct FolderReader {
    name: &'static str,
    /// Where the input goes, relative to the folder.
    file: &'static str,
    /// The benchmark data it needs (relative to the data folder), if any: the reader is
    /// skipped, saying so, where it is absent.
    needs: Option<&'static str>,
    /// Writes the valid files beside the input.
    setup: fn(&Path),
    /// Reads the folder (the input is `folder/file`).
    read: fn(&Path) -> Result<(), LoadError>,
    /// Valid inputs to mutate.
    seeds: fn() -> Vec<Vec<u8>>,
    /// Whether a case scores a run against a benchmark's checkout (tens of milliseconds): such
    /// a reader gets an eighth of the cases.
    heavy: bool,
}

/// The longest a case may take: every input here is at most a few hundred kilobytes, which
/// a linear reader takes milliseconds over.
const CASE_SECONDS: f64 = 20.0;

const FOLDER_READERS: &[FolderReader] = &[
    FolderReader {
        name: "timearena task module",
        file: "cooking1.py",
        needs: None,
        setup: |_| {},
        read: task_modules,
        seeds: task_module_seeds,
        heavy: false,
    },
    FolderReader {
        name: "paracook results file",
        file: "results/abstract/model-x.json",
        needs: Some("paracook"),
        setup: |dir| {
            copy_fixture(
                "paracook/results/abstract/cp_sat.json",
                dir,
                "results/abstract",
            )
        },
        read: score_paracook,
        seeds: || vec![fixture("paracook/results/abstract/model-x.json")],
        heavy: true,
    },
    FolderReader {
        name: "paracook cp_sat.json",
        file: "results/abstract/cp_sat.json",
        needs: Some("paracook"),
        setup: |dir| {
            copy_fixture(
                "paracook/results/abstract/model-x.json",
                dir,
                "results/abstract",
            )
        },
        read: score_paracook,
        seeds: || vec![fixture("paracook/results/abstract/cp_sat.json")],
        heavy: true,
    },
    FolderReader {
        name: "timearena trajectory",
        file: "model-z/cooking1.json",
        needs: Some("timearena"),
        setup: |dir| copy_fixture("timearena/trajectory/model-z/lab1.json", dir, "model-z"),
        read: |dir| score_in(&dir.join("model-z"), "timearena", "timearena"),
        seeds: || {
            ["cooking1", "lab2"]
                .map(|k| fixture(&format!("timearena/trajectory/model-z/{k}.json")))
                .to_vec()
        },
        heavy: true,
    },
    FolderReader {
        name: "recipe2plan log",
        file: "medium/plan_solve/cooking/Okra-Fry_Leche-Asada.json",
        needs: Some("recipe2plan"),
        setup: |dir| {
            copy_fixture(
                &format!("{RECIPE2PLAN_LOGS}/Cobbler_Banana-Fry.json"),
                dir,
                "medium/plan_solve/cooking",
            )
        },
        read: |dir| {
            let run = dir.join("medium/plan_solve/cooking");
            score_in(&run, "recipe2plan", "recipe2plan")
        },
        seeds: || {
            ["Okra-Fry_Leche-Asada", "Leche-Asada_BBQ-Meatballs"]
                .map(|k| fixture(&format!("{RECIPE2PLAN_LOGS}/{k}.json")))
                .to_vec()
        },
        heavy: true,
    },
    FolderReader {
        name: "robotouille results",
        file: "evaluation/results.json",
        needs: Some(ROBOTOUILLE_CHECKOUT),
        setup: |_| {},
        read: robotouille_results,
        seeds: robotouille_results_seeds,
        heavy: true,
    },
    FolderReader {
        name: "certificate (DRCP proof)",
        file: "kitchen-s1-n4-m2.cert.json",
        needs: None,
        setup: certified_pair,
        read: |dir| check_proof_in(dir, "kitchen-s1-n4-m2.json"),
        seeds: || pair_file("kitchen-s1-n4-m2.cert.json"),
        heavy: false,
    },
    FolderReader {
        name: "certificate (bound proof)",
        file: "two-cooks-breakfast.cert.json",
        needs: None,
        setup: certified_pair,
        read: |dir| check_proof_in(dir, "two-cooks-breakfast.json"),
        seeds: || pair_file("two-cooks-breakfast.cert.json"),
        heavy: false,
    },
    FolderReader {
        name: "flatzinc model",
        file: "kitchen-s1-n4-m2.fzn",
        needs: None,
        setup: certified_pair,
        read: |dir| check_proof_in(dir, "kitchen-s1-n4-m2.json"),
        seeds: || pair_file("kitchen-s1-n4-m2.fzn"),
        heavy: false,
    },
    FolderReader {
        name: "drcp proof (gzip)",
        file: "kitchen-s1-n4-m2.drcp.gz",
        needs: None,
        setup: certified_pair,
        read: |dir| check_proof_in(dir, "kitchen-s1-n4-m2.json"),
        seeds: || pair_file("kitchen-s1-n4-m2.drcp.gz"),
        heavy: false,
    },
    FolderReader {
        name: "drcp proof (plain)",
        file: "kitchen-s1-n4-m2.drcp",
        needs: None,
        setup: plain_proof_pair,
        read: |dir| check_proof_in(dir, "kitchen-s1-n4-m2.json"),
        seeds: plain_proof_seeds,
        heavy: false,
    },
    FolderReader {
        name: "solution for check-proof",
        file: "kitchen-s1-n4-m2.json",
        needs: None,
        setup: certified_pair,
        read: |dir| check_proof_in(dir, "kitchen-s1-n4-m2.json"),
        seeds: || pair_file("kitchen-s1-n4-m2.json"),
        heavy: false,
    },
];

const SCORE_FIXTURES: &str = "tests/fixtures/score";
const RECIPE2PLAN_LOGS: &str = "recipe2plan/logs/model-y/medium/plan_solve/cooking";
const ROBOTOUILLE_CHECKOUT: &str = "robotouille/upstream";

/// A run fixture's bytes (`tests/fixtures/score/…`).
fn fixture(relative: &str) -> Vec<u8> {
    std::fs::read(Path::new(SCORE_FIXTURES).join(relative)).unwrap()
}

/// Copies a run fixture into `dir/into`.
fn copy_fixture(relative: &str, dir: &Path, into: &str) {
    let to = dir.join(into);
    std::fs::create_dir_all(&to).unwrap();
    let name = Path::new(relative).file_name().unwrap();
    std::fs::write(to.join(name), fixture(relative)).unwrap();
}

/// Modules of the checkout's own tasks, one per scenario.
fn task_module_seeds() -> Vec<Vec<u8>> {
    ["cooking1", "household3", "lab2"]
        .iter()
        .filter_map(|task| {
            let relative = format!("timearena/checkout/TimeArena/specificTasks/{task}.py");
            std::fs::read(makespan_testkit::data_if_present(&relative)?).ok()
        })
        .collect()
}

/// The folder as a checkout's task modules: every run is built and handed to the solver.
fn task_modules(dir: &Path) -> Result<(), LoadError> {
    let instances = benchmarks::timearena::import_checkout(dir, &ImportOptions::default())?;
    solve_quickly(&instances);
    Ok(())
}

fn score_paracook(dir: &Path) -> Result<(), LoadError> {
    score_in(
        &dir.join("results/abstract/model-x.json"),
        "paracook",
        "paracook",
    )
}

/// Scores `run` against the benchmark's data as `makespan score` does (optima from the
/// heuristics: the solver is not under test here). Where no harness recognises the run, the
/// benchmark's own harness reads it anyway, so that its reader meets every input.
fn score_in(run: &Path, benchmark: &str, data: &str) -> Result<(), LoadError> {
    let data = makespan_testkit::data_if_present(data).expect("checked before the cases");
    if makespan::score::harness_of(run).is_none() {
        let harness = benchmarks::benchmark(benchmark).unwrap().harness().unwrap();
        return harness.read(run, &data).map(drop);
    }
    let options = ScoreOptions {
        data: Some(data),
        solve: SolveOptions {
            heuristic_only: true,
            ..SolveOptions::default()
        },
        ..ScoreOptions::default()
    };
    let scored = makespan::score::score_run_detailed(run, &options)?;
    assert!(!makespan::score::render_text(&scored.report).is_empty());
    Ok(())
}

/// Two seeds of one task as `main.py evaluate` records them, without logs (the file's own
/// verdicts are then all there is).
fn robotouille_results_seeds() -> Vec<Vec<u8>> {
    let env = "asynchronous/0_cheese_chicken_sandwich";
    let results = serde_json::json!({
        format!("{env}_42"): {"done": true, "steps": 21, "max_steps": 31.5},
        format!("{env}_84"): {"done": false, "steps": 31, "max_steps": 31.5},
        "accuracy": 0.5,
        "average_steps": 26.0,
    });
    vec![serde_json::to_vec_pretty(&results).unwrap()]
}

/// The results file read by Robotouille's harness, each key's kitchen built from the checkout
/// (scoring would search every kitchen's optimum: the search is not under test here).
fn robotouille_results(dir: &Path) -> Result<(), LoadError> {
    let checkout = makespan_testkit::data_if_present(ROBOTOUILLE_CHECKOUT).unwrap();
    let harness = benchmarks::benchmark("robotouille")
        .unwrap()
        .harness()
        .unwrap();
    harness.read(&dir.join("evaluation"), &checkout).map(drop)
}

/// `solve --certify` of a bundled instance whose optimum takes a DRCP proof and one a bound
/// proof takes: every file, and each solution's problem hash and optimum (what a certificate
/// about that problem may claim).
struct Pair {
    files: Vec<(String, Vec<u8>)>,
    optima: Vec<(String, String, i64)>,
}

fn pair() -> &'static Pair {
    static PAIR: OnceLock<Pair> = OnceLock::new();
    PAIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let solved = crate::common::makespan(&[
            "solve",
            "instances/kitchen/kitchen-s1-n4-m2.json",
            "instances/two-cooks-breakfast.json",
            "--certify",
            "-q",
            "--out",
            dir.path().to_str().unwrap(),
        ]);
        assert!(solved.status.success(), "{}", crate::common::text(&solved));
        let mut pair = Pair {
            files: Vec::new(),
            optima: Vec::new(),
        };
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "summary.csv" {
                continue;
            }
            if !name.ends_with(".cert.json") && name.ends_with(".json") {
                let solution = Solution::read(&path).unwrap();
                let hash = problem_hash(&solution.instance.instance);
                pair.optima
                    .push((name.clone(), hash, solution.makespan.unwrap()));
            }
            pair.files.push((name, std::fs::read(&path).unwrap()));
        }
        assert_eq!(pair.optima.len(), 2);
        pair
    })
}

fn certified_pair(dir: &Path) {
    for (name, bytes) in &pair().files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

fn pair_file(name: &str) -> Vec<Vec<u8>> {
    let found = pair().files.iter().find(|(n, _)| n == name);
    vec![found.unwrap().1.clone()]
}

/// The pair with the DRCP proof unpacked: the certificate names the plain file.
fn plain_proof_pair(dir: &Path) {
    certified_pair(dir);
    std::fs::remove_file(dir.join("kitchen-s1-n4-m2.drcp.gz")).unwrap();
    let certificate = dir.join("kitchen-s1-n4-m2.cert.json");
    let text = std::fs::read_to_string(&certificate).unwrap();
    let text = text.replace("kitchen-s1-n4-m2.drcp.gz", "kitchen-s1-n4-m2.drcp");
    std::fs::write(certificate, text).unwrap();
}

fn plain_proof_seeds() -> Vec<Vec<u8>> {
    use std::io::Read;
    let packed = &pair_file("kitchen-s1-n4-m2.drcp.gz")[0];
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(&packed[..])
        .read_to_end(&mut text)
        .unwrap();
    vec![text]
}

/// `check-proof` on one solution of the folder: a verdict either way is a result; a file that
/// cannot be read is an error (which must be located). Never fooled: a certified claim about
/// a problem the pair solved (same problem hash) is that problem's optimum.
fn check_proof_in(dir: &Path, solution: &str) -> Result<(), LoadError> {
    let solution_file = dir.join(solution);
    let read = Solution::read(&solution_file)?;
    if !verify(&read.instance.instance, &read.schedule).valid {
        return Ok(());
    }
    match makespan_certify_check::check(&read, dir) {
        Ok(certified) => {
            let hash = problem_hash(&read.instance.instance);
            for (name, known, optimum) in &pair().optima {
                assert!(
                    *known != hash || certified.bound == *optimum,
                    "{solution} certified {} about the problem of {name}, whose optimum is {optimum}",
                    certified.bound
                );
            }
            Ok(())
        }
        Err(CheckError::Input(err)) => Err(err),
        Err(CheckError::Read { path, message }) => Err(LoadError::usage(&path, message)),
        Err(CheckError::Rejected(_) | CheckError::Nothing(_)) => Ok(()),
    }
}

fn check_in_folder(reader: &FolderReader, bytes: &[u8]) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    (reader.setup)(dir.path());
    let file = dir.path().join(reader.file);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, bytes).unwrap();
    let started = Instant::now();
    let result = (reader.read)(dir.path());
    let seconds = started.elapsed().as_secs_f64();
    if seconds > CASE_SECONDS {
        return Err(TestCaseError::fail(format!(
            "{}: a case took {seconds:.1} s",
            reader.name
        )));
    }
    match result {
        Ok(()) => Ok(()),
        Err(err) => located(&err, dir.path())
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", reader.name))),
    }
}

/// Runs `strategy`'s inputs through every folder reader whose data is present (`cases` each,
/// an eighth for heavy ones); on failure names the reader and the shrunk input.
fn fuzz_every_folder_reader<S: Strategy<Value = Vec<u8>>>(
    cases: u32,
    strategy: impl Fn(Vec<Vec<u8>>) -> S,
) {
    for reader in FOLDER_READERS {
        if reader
            .needs
            .is_some_and(|d| makespan_testkit::data(d).is_none())
        {
            continue;
        }
        let cases = if reader.heavy { cases / 8 } else { cases };
        let result = runner(cases).run(&strategy((reader.seeds)()), |bytes| {
            check_in_folder(reader, &bytes)
        });
        if let Err(e) = result {
            panic!("reader {}: {e}", reader.name);
        }
    }
}

#[test]
fn folder_readers_read_their_seeds() {
    for reader in FOLDER_READERS {
        if reader
            .needs
            .is_some_and(|d| makespan_testkit::data(d).is_none())
        {
            continue;
        }
        for seed in (reader.seeds)() {
            let dir = tempfile::tempdir().unwrap();
            (reader.setup)(dir.path());
            let file = dir.path().join(reader.file);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &seed).unwrap();
            if let Err(e) = (reader.read)(dir.path()) {
                panic!("reader {}: its seed fails: {e}", reader.name);
            }
        }
    }
}

#[test]
fn folder_readers_on_arbitrary_bytes_never_panic_and_errors_are_located() {
    fuzz_every_folder_reader(64, |_| arbitrary());
}

#[test]
fn folder_readers_on_mutated_seeds_never_panic_and_errors_are_located() {
    fuzz_every_folder_reader(128, mutated);
}

#[test]
fn folder_readers_on_restructured_json_never_panic_and_errors_are_located() {
    fuzz_every_folder_reader(128, restructured);
}

// ---- byte-level edits ---------------------------------------------------------------------

/// Values that break readers: extremes of every integer type, floats where integers belong,
/// invalid UTF-8, deep nesting, stray syntax.
const TOKENS: &[&str] = &[
    "1e18",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e400",
    "-1",
    "0",
    "0.5",
    "null",
    "true",
    "[]",
    "{}",
    "\"\"",
    ",",
    ":",
    "\"id\": \"x\",",
    "\u{feff}",
    "\\u0000",
    "\\ud800",
];

#[derive(Debug, Clone)]
enum ByteEdit {
    Truncate(usize),
    Flip(usize, u8),
    Delete(usize, usize),
    Repeat(usize, usize),
    Insert(usize, usize),
    NonUtf8(usize),
    Nest(usize, usize),
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    let at = any::<usize>();
    prop_oneof![
        at.prop_map(ByteEdit::Truncate),
        (at, 1..=255u8).prop_map(|(a, b)| ByteEdit::Flip(a, b)),
        (at, 1..40usize).prop_map(|(a, n)| ByteEdit::Delete(a, n)),
        (at, 1..40usize).prop_map(|(a, n)| ByteEdit::Repeat(a, n)),
        (at, 0..TOKENS.len()).prop_map(|(a, t)| ByteEdit::Insert(a, t)),
        at.prop_map(ByteEdit::NonUtf8),
        (at, 1..5000usize).prop_map(|(a, d)| ByteEdit::Nest(a, d)),
    ]
}

impl ByteEdit {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let len = bytes.len();
        let at = |a: usize| if len == 0 { 0 } else { a % (len + 1) };
        match *self {
            ByteEdit::Truncate(a) => bytes.truncate(at(a)),
            ByteEdit::Flip(a, x) if len > 0 => bytes[a % len] ^= x,
            ByteEdit::Flip(..) => {}
            ByteEdit::Delete(a, n) => {
                let start = at(a);
                bytes.drain(start..(start + n).min(len));
            }
            ByteEdit::Repeat(a, n) => {
                let start = at(a);
                let span = bytes[start..(start + n).min(len)].to_vec();
                bytes.splice(start..start, span);
            }
            ByteEdit::Insert(a, t) => {
                let start = at(a);
                bytes.splice(start..start, TOKENS[t].bytes());
            }
            ByteEdit::NonUtf8(a) => {
                let start = at(a);
                bytes.splice(start..start, [0xff, 0xc3, 0x28]);
            }
            ByteEdit::Nest(a, depth) => {
                let start = at(a);
                let nested = "[".repeat(depth) + &"]".repeat(depth);
                bytes.splice(start..start, nested.bytes());
            }
        }
    }
}

// ---- JSON-aware edits ---------------------------------------------------------------------

#[derive(Debug, Clone)]
enum JsonEdit {
    /// Remove the key of an object (node chosen by index among all objects).
    DeleteKey(usize, usize),
    /// Render one object with its first key twice.
    DuplicateKey(usize),
    /// Rename a key to one no reader knows.
    UnknownKey(usize, usize),
    /// Exchange two values anywhere in the document.
    Swap(usize, usize),
    /// Replace a value with a hostile one.
    Replace(usize, usize),
    /// Wrap a value in many arrays.
    Nest(usize, usize),
}

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    let node = any::<usize>();
    prop_oneof![
        (node, node).prop_map(|(a, b)| JsonEdit::DeleteKey(a, b)),
        node.prop_map(JsonEdit::DuplicateKey),
        (node, node).prop_map(|(a, b)| JsonEdit::UnknownKey(a, b)),
        (node, node).prop_map(|(a, b)| JsonEdit::Swap(a, b)),
        (node, 0..hostile().len()).prop_map(|(a, v)| JsonEdit::Replace(a, v)),
        (node, 1..400usize).prop_map(|(a, d)| JsonEdit::Nest(a, d)),
    ]
}

fn hostile() -> Vec<Value> {
    serde_json::from_str(
        r#"[1e18, 9223372036854775807, -9223372036854775808, 18446744073709551615, 1.5e300,
            -1, 0, 0.5, null, true, "", "x", [], {}, [[1, 2], [3]], {"id": "x"},
            "1 day", 4294967296, -4294967297]"#,
    )
    .unwrap()
}

/// JSON pointers of every value in the document, in document order.
fn pointers(value: &Value, here: String, out: &mut Vec<String>) {
    out.push(here.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = k.replace('~', "~0").replace('/', "~1");
                pointers(v, format!("{here}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{here}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn all_pointers(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    pointers(value, String::new(), &mut out);
    out
}

fn object_pointers(value: &Value) -> Vec<String> {
    all_pointers(value)
        .into_iter()
        .filter(|p| value.pointer(p).is_some_and(Value::is_object))
        .collect()
}

impl JsonEdit {
    fn apply(&self, value: &mut Value, duplicate: &mut Option<String>) {
        let pick =
            |list: Vec<String>, k: usize| (!list.is_empty()).then(|| list[k % list.len()].clone());
        match *self {
            JsonEdit::DeleteKey(o, k) | JsonEdit::UnknownKey(o, k) => {
                let Some(p) = pick(object_pointers(value), o) else {
                    return;
                };
                let Some(Value::Object(map)) = value.pointer_mut(&p) else {
                    return;
                };
                if map.is_empty() {
                    return;
                }
                let key = map.keys().nth(k % map.len()).unwrap().clone();
                let old = map.shift_remove(&key).unwrap();
                if matches!(self, JsonEdit::UnknownKey(..)) {
                    map.insert(format!("{key}_unknown"), old);
                }
            }
            JsonEdit::DuplicateKey(o) => *duplicate = pick(object_pointers(value), o),
            JsonEdit::Swap(a, b) => {
                let all = all_pointers(value);
                let (Some(pa), Some(pb)) = (pick(all.clone(), a), pick(all, b)) else {
                    return;
                };
                // Only disjoint values can be exchanged.
                if pa.starts_with(&pb) || pb.starts_with(&pa) {
                    return;
                }
                let va = value.pointer(&pa).unwrap().clone();
                let vb = std::mem::replace(value.pointer_mut(&pb).unwrap(), va);
                *value.pointer_mut(&pa).unwrap() = vb;
            }
            JsonEdit::Replace(a, v) => {
                let Some(p) = pick(all_pointers(value), a) else {
                    return;
                };
                *value.pointer_mut(&p).unwrap() = hostile()[v].clone();
            }
            JsonEdit::Nest(a, depth) => {
                let Some(p) = pick(all_pointers(value), a) else {
                    return;
                };
                let slot = value.pointer_mut(&p).unwrap();
                let mut nested = slot.take();
                for _ in 0..depth {
                    nested = Value::Array(vec![nested]);
                }
                *slot = nested;
            }
        }
    }
}

/// The document as JSON text; the object at `duplicate` (a pointer) repeats its first key.
fn render(value: &Value, duplicate: Option<&str>) -> String {
    fn write(value: &Value, here: &str, duplicate: Option<&str>, out: &mut String) {
        match value {
            Value::Object(map) => {
                out.push('{');
                let mut first = true;
                let mut entry = |k: &String, v: &Value, out: &mut String| {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    let key = k.replace('~', "~0").replace('/', "~1");
                    write(v, &format!("{here}/{key}"), duplicate, out);
                };
                if duplicate == Some(here) {
                    if let Some((k, v)) = map.iter().next() {
                        entry(k, v, out);
                    }
                }
                for (k, v) in map {
                    entry(k, v, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(v, &format!("{here}/{i}"), duplicate, out);
                }
                out.push(']');
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }
    let mut out = String::new();
    write(value, "", duplicate, &mut out);
    out
}
