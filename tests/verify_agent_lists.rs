//! Per-agent list answers on the real ParaCook tasks: the strict decoder must agree with
//! the benchmark's own decoder (`check_dependencies`, ported below as the reference) on
//! every answer the benchmark handles correctly: same success, same makespan.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::OnceLock;

use makespan::benchmarks::paracook::lists::{read_agent_lists, verify_agent_lists};
use makespan::instance::{Activity, Instance, Precedence, INSTANCE_FORMAT};
use makespan::verify::Rule;
use proptest::prelude::*;

/// One ParaCook subtask: name, time, dependencies (name → lag).
type Task = (String, i64, Vec<(String, i64)>);

/// The 72 ParaCook files' tasks, read once; `None` (the test is skipped) where the data is
/// absent.
fn paracook_files() -> Option<&'static [Vec<Task>]> {
    static FILES: OnceLock<Vec<Vec<Task>>> = OnceLock::new();
    let root = makespan_testkit::data("paracook/abstract")?;
    Some(FILES.get_or_init(|| {
        let mut paths = Vec::new();
        for dish in std::fs::read_dir(&root).unwrap() {
            for seed in std::fs::read_dir(dish.unwrap().path()).unwrap() {
                for file in std::fs::read_dir(seed.unwrap().path()).unwrap() {
                    paths.push(file.unwrap().path());
                }
            }
        }
        paths.sort();
        assert_eq!(paths.len(), 72, "the project holds 72 ParaCook files");
        paths
            .iter()
            .map(|p| {
                let tasks: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                tasks
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| {
                        let deps = t["dependencies"]
                            .as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
                            .collect();
                        (
                            t["name"].as_str().unwrap().to_string(),
                            t["time"].as_i64().unwrap(),
                            deps,
                        )
                    })
                    .collect()
            })
            .collect()
    }))
}

/// The project's mapping of a ParaCook file with `m` agents.
fn instance(tasks: &[Task], m: u32) -> Instance {
    Instance {
        format: INSTANCE_FORMAT.into(),
        name: "paracook".into(),
        time_unit: Default::default(),
        agents: Some(m),
        resources: vec![],
        activities: tasks
            .iter()
            .map(|(n, t, _)| Activity::new(n.clone(), *t))
            .collect(),
        precedences: tasks
            .iter()
            .flat_map(|(n, _, deps)| {
                deps.iter()
                    .map(move |(d, lag)| Precedence::finish_to_start(d.clone(), n.clone(), *lag))
            })
            .collect(),
        setups: vec![],
        holds: vec![],
        objective: Default::default(),
        source: None,
    }
}

/// ParaCook's `check_dependencies`, ported line by line: `Some(makespan)` or `None`.
fn reference_decoder(tasks: &[Task], schedule: &[Vec<String>]) -> Option<i64> {
    let task_map: HashMap<&str, &Task> = tasks.iter().map(|t| (t.0.as_str(), t)).collect();
    let mut finished: HashSet<(String, i64)> = HashSet::new();
    let mut current = vec![0i64; schedule.len()];
    let process = |agent: usize,
                   index: usize,
                   finished: &mut HashSet<(String, i64)>,
                   current: &mut Vec<i64>| {
        let name = schedule[agent].get(index)?;
        let task = task_map[name.as_str()];
        let mut max_dep = 0;
        for (dep, delay) in &task.2 {
            let times: Vec<i64> = finished
                .iter()
                .filter(|(n, _)| n == dep)
                .map(|&(_, t)| t + delay)
                .collect();
            max_dep = max_dep.max(*times.iter().max()?);
        }
        current[agent] = current[agent].max(max_dep) + task.1;
        finished.insert((name.clone(), current[agent]));
        Some(index + 1)
    };
    let mut queue = VecDeque::new();
    for agent in 0..schedule.len() {
        let next = process(agent, 0, &mut finished, &mut current).unwrap_or(0);
        queue.push_back((agent, next));
    }
    let mut not_changed = 0;
    while let Some((agent, index)) = queue.pop_front() {
        if index >= schedule[agent].len() {
            continue;
        }
        match process(agent, index, &mut finished, &mut current) {
            Some(next) => {
                queue.push_back((agent, next));
                not_changed = 0;
            }
            None => {
                queue.push_back((agent, index));
                not_changed += 1;
                if not_changed > schedule.len() {
                    break;
                }
            }
        }
    }
    (finished.len() == tasks.len()).then(|| current.into_iter().max().unwrap_or(0))
}

/// Every task once, spread over `m` lists; in a topological order when `topological`,
/// else in a random one (which often deadlocks).
fn answer(tasks: &[Task], m: u32, keys: &[(u32, u32)], topological: bool) -> Vec<Vec<String>> {
    let index: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.0.as_str(), i))
        .collect();
    let mut depth = vec![None; tasks.len()];
    fn depth_of(
        i: usize,
        tasks: &[Task],
        index: &HashMap<&str, usize>,
        depth: &mut Vec<Option<usize>>,
    ) -> usize {
        if let Some(d) = depth[i] {
            return d;
        }
        let d = tasks[i]
            .2
            .iter()
            .map(|(dep, _)| 1 + depth_of(index[dep.as_str()], tasks, index, depth))
            .max()
            .unwrap_or(0);
        depth[i] = Some(d);
        d
    }
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&i| {
        let level = if topological {
            depth_of(i, tasks, &index, &mut depth)
        } else {
            0
        };
        (level, keys[i % keys.len()].0, i)
    });
    let mut lists = vec![Vec::new(); m as usize];
    for i in order {
        lists[(keys[i % keys.len()].1 % m) as usize].push(tasks[i].0.clone());
    }
    lists
}

#[test]
fn strict_decoder_agrees_with_the_paracook_decoder() {
    let Some(files) = paracook_files() else {
        return;
    };
    proptest!(ProptestConfig::with_cases(400), |(
        file in 0usize..72,
        m in 1u32..=3,
        keys in prop::collection::vec((any::<u32>(), any::<u32>()), 38),
        topological in prop::bool::weighted(0.7),
    )| {
        let tasks = &files[file];
        let lists = answer(tasks, m, &keys, topological);
        let expected = reference_decoder(tasks, &lists);
        let report = verify_agent_lists(&instance(tasks, m), &lists);
        match expected {
            Some(makespan) => {
                prop_assert!(report.valid, "{}", report.render_text());
                prop_assert_eq!(report.makespan, Some(makespan));
            }
            None => {
                prop_assert!(report.violations.iter().all(|v| v.rule == Rule::Deadlock), "{}", report.render_text());
                prop_assert!(!report.valid);
            }
        }
    });
}

#[test]
fn an_llm_answer_file_is_read_and_checked() {
    let Some(files) = paracook_files() else {
        return;
    };
    let tasks = &files[0];
    let names: Vec<String> = tasks.iter().map(|t| format!("\"{}\"", t.0)).collect();
    let text = format!(
        "<think>\nwhich cook does what?\n</think>\nHere is the plan:\n```json\n[[{}], [\"subtask99\"]]\n```\n",
        names.join(", ")
    );
    let lists = read_agent_lists(std::path::Path::new("answer.md"), &text).unwrap();
    let report = verify_agent_lists(&instance(tasks, 2), &lists);
    let rules: Vec<Rule> = report.violations.iter().map(|v| v.rule).collect();
    // File order need not be topological, so the first list may deadlock; the unknown
    // name is reported either way, and never crashes the check.
    assert!(
        rules.contains(&Rule::UnknownActivity),
        "{}",
        report.render_text()
    );
}
