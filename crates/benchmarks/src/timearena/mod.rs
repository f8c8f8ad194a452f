//! TimeArena: 30 household, cooking and lab tasks for one agent, solved alone and in every
//! pair and triple of one scenario (525 runs), plus the `--constraint` variant with one pot,
//! fryer and oven.
//!
//! `tasks.json` (the environment's task modules, extracted) is the source of every
//! instance; the `combine` module turns a run into the environment's exact scheduling
//! model. When the oracle's `dependencygraph.json` sits in the same folder, each instance
//! also carries the oracle's model (for the `timearena-greedy` baseline, [`greedy`]) and the
//! graph's disagreements with the tasks in `source.notes`. The graph file itself holds no
//! instances: importing it alone gives none.
//!
//! Instances are named after their tasks in run order, `cooking1+cooking2`, with
//! `-constraint` for the constrained variant. The constrained variant is built only for
//! runs that have pooled containers (cooking): elsewhere it is the same problem.

mod benchmark;
mod combine;
pub mod graph;
pub mod greedy;
mod harness;
pub mod log;
mod native;
mod python;
mod tasks;

use std::collections::BTreeMap;
use std::path::Path;

use super::{ImportOptions, Knob};
use makespan_model::instance::{Instance, LoadError};

pub use benchmark::TimeArena;
pub use harness::TimeArenaHarness;
pub use native::{decisions, pool_instances};

/// `source.benchmark` of every TimeArena instance.
pub const BENCHMARK: &str = "timearena";

/// The combination sizes the benchmark evaluates when the caller asks for none.
const DEFAULT_SIZES: [usize; 3] = [1, 2, 3];

/// TimeArena's own import options: which combinations of tasks to build, and whether in
/// the constrained-resource variant.
pub(crate) const KNOBS: &[Knob] = &[
    Knob {
        name: "combine",
        help: "Combination sizes for TimeArena: tasks per run, e.g. 1,2,3 (default: 1,2,3, all 525 runs)",
        value: Some("N"),
        check: |v| match v.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(()),
            _ => Err(format!(
                "\"{v}\" is not a number of tasks per run; sizes are at least 1 (e.g. 1,2,3)"
            )),
        },
    },
    Knob {
        name: "constraint",
        help: "Build TimeArena's constrained-resource variant (one pot, one fryer, one oven per run)",
        value: None,
        check: |_| Ok(()),
    },
];

/// TimeArena's own options (`combine`, `constraint`), read back from the import options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Tasks per run to build; empty for the benchmark's own 1, 2 and 3.
    pub combine: Vec<usize>,
    /// Build the constrained-resource variant.
    pub constraint: bool,
}

impl Options {
    /// TimeArena's options among `opts` (checked when they were set).
    pub fn of(opts: &ImportOptions) -> Options {
        Options {
            combine: opts
                .values("combine")
                .iter()
                .filter_map(|v| v.parse().ok())
                .collect(),
            constraint: opts.switch("constraint"),
        }
    }
}

/// The oracle's graph file, read from the folder of `tasks.json`.
const GRAPH_FILE: &str = "dependencygraph.json";

/// Whether a JSON text is TimeArena's `tasks.json` (an object with `tasks` and
/// `dependencygraph_disagreements`) — checked on keys only.
pub fn is_task_file(value: &serde_json::Value) -> bool {
    value.get("tasks").is_some() && value.get("dependencygraph_disagreements").is_some()
}

/// Every run of the requested sizes (default 1, 2, 3) within each scenario, tasks in file
/// order; with the `constraint` option, the constrained variant of runs that have pools.
pub fn import(path: &Path, text: &str, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let file = tasks::read(path, text)?;
    let graph = read_graph(path)?;
    runs(path, &file.tasks, graph.as_ref(), opts)
}

/// The task-modules folder of a checkout given as `dir`: its root
/// (`TimeArena/specificTasks`), the folder itself, or a `specificTasks` below it.
pub fn modules_folder(dir: &Path) -> Option<std::path::PathBuf> {
    TASK_MODULES
        .iter()
        .map(|c| dir.join(c))
        .find(|d| d.join("cooking1.py").is_file())
}

/// Every run of a checkout's task modules ([`modules_folder`]), as [`import`] builds them
/// from `tasks.json`: the same problems, with the oracle's graph where the checkout has it.
pub fn import_checkout(dir: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let checkout = Checkout::open(dir)?;
    runs(
        &checkout.source,
        &checkout.tasks,
        checkout.graph.as_ref(),
        opts,
    )
}

/// Every run of the requested sizes within each scenario (see [`import`]), counted first: 120
/// tasks of one scenario make 280,840 triples, which took 5 GB before the cap on instances
/// per file refused them.
fn runs(
    path: &Path,
    tasks: &[tasks::Task],
    graph: Option<&BTreeMap<String, graph::GraphTask>>,
    opts: &ImportOptions,
) -> Result<Vec<Instance>, LoadError> {
    let Options {
        combine,
        constraint,
    } = Options::of(opts);
    let sizes = if combine.is_empty() {
        DEFAULT_SIZES.to_vec()
    } else {
        combine
    };
    let mut scenarios: Vec<(&str, Vec<&tasks::Task>)> = Vec::new();
    for task in tasks {
        match scenarios.iter_mut().find(|(s, _)| *s == task.scenario) {
            Some((_, list)) => list.push(task),
            None => scenarios.push((&task.scenario, vec![task])),
        }
    }
    let count = scenarios
        .iter()
        .flat_map(|(_, members)| {
            let unpooled = members.iter().filter(|t| t.pools.is_empty()).count();
            sizes.iter().map(move |&size| {
                let all = binomial(members.len(), size);
                if constraint {
                    all - binomial(unpooled, size).min(all)
                } else {
                    all
                }
            })
        })
        .fold(0usize, usize::saturating_add);
    crate::options::check_instance_count(path, count, opts)?;
    let mut instances = Vec::new();
    for (_, members) in &scenarios {
        for &size in &sizes {
            for run in subsets(members.len(), size) {
                let run: Vec<&tasks::Task> = run.iter().map(|&i| members[i]).collect();
                if constraint && run.iter().all(|t| t.pools.is_empty()) {
                    continue;
                }
                instances.push(combine::build(
                    Some(path.display().to_string()),
                    &run,
                    constraint,
                    graph,
                ));
            }
        }
    }
    Ok(instances)
}

/// `n` choose `k`, `usize::MAX` when larger.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k.min(n - k) {
        // Exact: r · (n − i) is divisible by i + 1 (it is (i + 1) · C(n, i + 1)).
        r = r * (n - i) as u128 / (i + 1) as u128;
        if r > usize::MAX as u128 {
            return usize::MAX;
        }
    }
    r as usize
}

/// One run named like an instance (`cooking2+cooking1`, `lab3-constraint`), in the task
/// order the name gives: the way to reach orders and variants `import` does not build.
pub fn import_named(path: &Path, text: &str, name: &str) -> Result<Instance, LoadError> {
    let file = tasks::read(path, text)?;
    named_run(path, &file.tasks, read_graph(path)?.as_ref(), name)
}

/// One run named like an instance, from a checkout as cloned (its root or its task modules).
pub(crate) fn checkout_named(dir: &Path, name: &str) -> Result<Instance, LoadError> {
    let checkout = Checkout::open(dir)?;
    named_run(
        &checkout.source,
        &checkout.tasks,
        checkout.graph.as_ref(),
        name,
    )
}

fn named_run(
    path: &Path,
    tasks: &[tasks::Task],
    graph: Option<&BTreeMap<String, graph::GraphTask>>,
    name: &str,
) -> Result<Instance, LoadError> {
    let (list, constraint) = match name.strip_suffix("-constraint") {
        Some(list) => (list, true),
        None => (name, false),
    };
    let mut run = Vec::new();
    for task_name in list.split('+') {
        let task = tasks.iter().find(|t| t.name == task_name).ok_or_else(|| {
            LoadError::format(
                path,
                format!("instance \"{name}\""),
                format!(
                    "no task \"{task_name}\"; name a run as tasks joined by '+', e.g. cooking1+cooking2 (add -constraint for one pot, fryer and oven)"
                ),
            )
        })?;
        if run.iter().any(|t: &&tasks::Task| t.name == task.name) {
            return Err(LoadError::format(
                path,
                format!("instance \"{name}\""),
                format!("task \"{task_name}\" appears twice"),
            ));
        }
        run.push(task);
    }
    if run.iter().any(|t| t.scenario != run[0].scenario) {
        return Err(LoadError::format(
            path,
            format!("instance \"{name}\""),
            "the benchmark combines tasks of one scenario only",
        ));
    }
    Ok(combine::build(
        Some(path.display().to_string()),
        &run,
        constraint,
        graph,
    ))
}

/// The tasks of a user's TimeArena checkout, with the oracle's graph where it has one.
pub(crate) struct Checkout {
    /// The file (or folder) the tasks were read from, for the instances' `source.file`.
    pub source: std::path::PathBuf,
    /// The 30 tasks.
    pub tasks: Vec<tasks::Task>,
    /// `algorithm/dependencygraph.json`, when the checkout has it.
    pub graph: Option<BTreeMap<String, graph::GraphTask>>,
}

/// Where a checkout keeps its task modules: the repository's layout, the folder itself, the
/// copies of this project's data folder.
const TASK_MODULES: [&str; 5] = [
    "TimeArena/specificTasks",
    "specificTasks",
    "upstream/specificTasks",
    "timearena/upstream/specificTasks",
    ".",
];

/// Where a checkout keeps the oracle's graph.
const GRAPHS: [&str; 3] = [
    "algorithm/dependencygraph.json",
    "dependencygraph.json",
    "timearena/dependencygraph.json",
];

/// Where a folder holds this project's extraction `tasks.json` instead.
const TASKS_JSON: [&str; 2] = ["tasks.json", "timearena/tasks.json"];

impl Checkout {
    /// Reads the tasks under the checkout `data`: its task modules
    /// (`TimeArena/specificTasks/*.py`), else a `tasks.json`.
    pub fn open(data: &Path) -> Result<Checkout, LoadError> {
        if let Some(dir) = modules_folder(data) {
            // The graph sits at the checkout's root (`algorithm/`), which may be above `data`.
            let graph = dir
                .ancestors()
                .take(4)
                .flat_map(|root| GRAPHS.iter().map(move |c| root.join(c)))
                .find(|p| p.is_file())
                .map(|p| {
                    let text = makespan_model::input::read_text(&p)?;
                    graph::read(&p, &text)
                })
                .transpose()?;
            return Ok(Checkout {
                tasks: python::read_folder(&dir)?,
                source: dir,
                graph,
            });
        }
        let path = crate::harness::find_in_checkout(
            data,
            &[
                "TimeArena/specificTasks/cooking1.py",
                TASKS_JSON[0],
                TASKS_JSON[1],
            ],
            "TimeArena tasks",
        )?;
        let text = makespan_model::input::read_text(&path)?;
        let file = tasks::read(&path, &text)?;
        Ok(Checkout {
            graph: read_graph(&path)?,
            source: path,
            tasks: file.tasks,
        })
    }
}

/// `dependencygraph.json` from the folder of `tasks_path`, if it is there.
fn read_graph(tasks_path: &Path) -> Result<Option<BTreeMap<String, graph::GraphTask>>, LoadError> {
    let graph_path = tasks_path.with_file_name(GRAPH_FILE);
    if graph_path == tasks_path || !graph_path.is_file() {
        return Ok(None);
    }
    let text = makespan_model::input::read_text(&graph_path)?;
    graph::read(&graph_path, &text).map(Some)
}

/// The `size`-element subsets of `0..n` in lexicographic order.
fn subsets(n: usize, size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if size == 0 || size > n {
        return out;
    }
    // Iterative (a size given on the command line must not set a recursion's depth).
    let mut current: Vec<usize> = (0..size).collect();
    loop {
        out.push(current.clone());
        let Some(i) = (0..size).rev().find(|&i| current[i] < n - size + i) else {
            return out;
        };
        current[i] += 1;
        for j in i + 1..size {
            current[j] = current[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recomputed_graph_disagreements_are_the_files_own_list() {
        let Some(path) = makespan_testkit::data("timearena/tasks.json") else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let file = tasks::read(&path, &text).unwrap();
        let graph = read_graph(&path).unwrap().expect("graph beside tasks.json");
        let mut found: Vec<String> = file
            .tasks
            .iter()
            .flat_map(|t| graph::disagreements(t, &graph[&t.name]))
            .collect();
        let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut listed: Vec<String> =
            serde_json::from_value(raw["dependencygraph_disagreements"].clone()).unwrap();
        found.sort();
        listed.sort();
        assert_eq!(found, listed);
        let tasks: std::collections::BTreeSet<&str> =
            found.iter().filter_map(|d| d.split(':').next()).collect();
        assert_eq!(
            tasks.len(),
            6,
            "six tasks disagree with the environment: {tasks:?}"
        );
    }

    #[test]
    fn the_task_modules_derive_exactly_the_tasks_of_tasks_json() {
        let (Some(json), Some(modules)) = (
            makespan_testkit::data("timearena/tasks.json"),
            makespan_testkit::data("timearena/upstream/specificTasks"),
        ) else {
            return;
        };
        let text = std::fs::read_to_string(&json).unwrap();
        let expected = tasks::read(&json, &text).unwrap().tasks;
        let derived = python::read_folder(&modules).unwrap();
        assert_eq!(derived.len(), 30);
        for (d, e) in derived.iter().zip(&expected) {
            assert_eq!(d.name, e.name);
            assert_eq!(d.objects, e.objects, "{}: objects", e.name);
            for (da, ea) in d.actions.iter().zip(&e.actions) {
                assert_eq!(da, ea, "{}: action {}", e.name, ea.name);
            }
            assert_eq!(d, e, "{}", e.name);
        }
    }

    #[test]
    fn subsets_are_lexicographic_and_complete() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(subsets(10, 3).len(), 120);
        assert_eq!(subsets(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert!(subsets(3, 0).is_empty());
        assert!(subsets(3, 4).is_empty());
    }
}
