//! A user's checkout of Robotouille, read whole: every (set, task, seed) the benchmark
//! evaluates, as world instances.
//!
//! What is read, from the repository root (or its `environments` folder):
//! - the environment files of the three sets, `environments/env_generator/examples/{synchronous,
//!   asynchronous,multi_agent}/*.json`; a set's tasks are its numbered files (`3_burger.json`),
//!   the others (`3.1_lettuce_cheeseburger.json`) are reached by naming them;
//! - the evaluation seeds, `conf/evaluation/base_evaluation.yaml` (`testing_seeds`);
//! - the hard-coded step counts that set each task's budget, from every experiment
//!   configuration (`conf/experiments/**/*.yaml`: `evaluation.environment_names` and
//!   `evaluation.optimal_steps`, which must agree across files); the multi-agent set has none;
//! - the domain, `domain/robotouille.json`, checked and referred to by its path.
//!
//! Each task gives its default layout (the file as upstream loads it) and one kitchen per
//! evaluation seed, generated as upstream's harness generates it ([`super::seeds`]), seed+k
//! retries included. Instance names say set, task and seed: `robotouille-asynchronous-3-seed42`,
//! `robotouille-synchronous-0-default`. The options `sets`, `tasks` and `seeds` select.
//!
//! Each instance is a simulated world: its note `world` ([`WorldNote`]) holds everything the
//! simulator needs, and its activities are only a relaxation ([`super::relaxation`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use makespan_model::instance::{Instance, LoadError, Source};

use super::relaxation::relaxation;
use super::seeds::{load_environment, seeded};
use crate::{ImportOptions, Knob};

/// The three sets, in upstream's order.
pub const SETS: [&str; 3] = ["synchronous", "asynchronous", "multi_agent"];

/// Where the environments are, below the repository root.
const EXAMPLES: &str = "environments/env_generator/examples";
/// The evaluation seeds' configuration.
const EVALUATION: &str = "conf/evaluation/base_evaluation.yaml";
/// The experiment configurations (budgets).
const EXPERIMENTS: &str = "conf/experiments";
/// The domain.
const DOMAIN: &str = "domain/robotouille.json";

/// Upstream's budget: the hard-coded step count times this (`max_step_multiplier`).
const STEP_MULTIPLIER: f64 = 1.5;

/// Robotouille's own import options.
pub(crate) const KNOBS: &[Knob] = &[
    Knob {
        name: "sets",
        help: "Robotouille sets to read from a checkout: synchronous, asynchronous, multi_agent (default: all three)",
        value: Some("SET"),
        check: |v| set_name(v).map(|_| ()),
    },
    Knob {
        name: "tasks",
        help: "Robotouille tasks to read from a checkout, by number (3, 3.1) or file name (3_burger) (default: each set's numbered tasks)",
        value: Some("TASK"),
        check: |v| {
            if v.is_empty() {
                Err("a task is a number (3) or a file name (3_burger)".into())
            } else {
                Ok(())
            }
        },
    },
    Knob {
        name: "seeds",
        help: "Robotouille layouts to build from a checkout: evaluation seeds, any whole number, or default for the unseeded layout (default: default and the configured seeds)",
        value: Some("SEED"),
        check: |v| seed_choice(v).map(|_| ()),
    },
];

/// A set by its name or short name (`sync`, `async`, `multi`).
fn set_name(value: &str) -> Result<&'static str, String> {
    match value {
        "synchronous" | "sync" => Ok(SETS[0]),
        "asynchronous" | "async" => Ok(SETS[1]),
        "multi_agent" | "multi" => Ok(SETS[2]),
        _ => Err(format!(
            "\"{value}\" is not a Robotouille set; use synchronous, asynchronous or multi_agent"
        )),
    }
}

/// `default` (the layout as written) or a seed.
fn seed_choice(value: &str) -> Result<Option<i64>, String> {
    if value == "default" {
        return Ok(None);
    }
    value.parse::<i64>().map(Some).map_err(|_| {
        format!(
            "\"{value}\" is not a seed; use a whole number (42) or default for the unseeded layout"
        )
    })
}

/// What the simulator needs of one instance, kept in its note `world`: the kitchen, the
/// goal and where they come from, so that a solution that embeds the instance can be
/// replayed without the checkout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorldNote {
    /// `synchronous`, `asynchronous` or `multi_agent`.
    pub set: String,
    /// The environment file's name without `.json` (`3_tomato_burger_and_fries`).
    pub task: String,
    /// The seed asked for; `None` for the default layout.
    pub seed: Option<i64>,
    /// The seed whose generation succeeded (`seed + k` after `k` exceptions); `None` for
    /// the default layout.
    pub effective_seed: Option<i64>,
    /// Every seed whose generation raised, with upstream's exception.
    #[serde(default)]
    pub retried_seeds: Vec<RetriedSeed>,
    /// Whether the kitchen came from upstream's noisy generation (never in its evaluation).
    #[serde(default)]
    pub noisy: bool,
    /// The environment as upstream's harness hands it to the simulator: the file as loaded
    /// (entity lists sorted by position), or the generator's kitchen; objects are named when
    /// the simulator builds its state ([`super::seeds::named_objects`]).
    pub environment: Map<String, Value>,
    /// The goal literals (`{predicate, args, ids}`), as in the file.
    pub goal: Vec<Value>,
    /// The goal in words.
    pub goal_description: String,
    /// The domain file of the checkout.
    pub domain: String,
    /// The environment file.
    pub file: String,
    /// Upstream's hard-coded step count for the task (its default layout), where an
    /// experiment configures one.
    pub reference_optimal_steps: Option<i64>,
    /// Upstream's `max_steps` (the step count × 1.5); the harness runs while fewer actions
    /// have been executed, so at most ⌈max_steps⌉ actions count.
    pub max_steps: Option<f64>,
}

/// A seed whose generation raised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetriedSeed {
    /// The seed.
    pub seed: i64,
    /// Upstream's exception.
    pub error: String,
}

impl WorldNote {
    /// The world note of a Robotouille world instance, if it has one.
    pub fn of(instance: &Instance) -> Option<Result<WorldNote, crate::BadValue>> {
        let note = instance.source.as_ref()?.notes.get(crate::WORLD_NOTE)?;
        Some(serde_json::from_value(note.clone()).map_err(|e| {
            crate::BadValue(format!(
                "instance \"{}\": source.notes.world: {e}",
                instance.name
            ))
        }))
    }
}

/// The folder of a checkout's environments, if `dir` is a checkout's root, its
/// `environments` folder or the examples folder itself.
pub fn examples_folder(dir: &Path) -> Option<PathBuf> {
    [
        dir.join(EXAMPLES),
        dir.join("env_generator/examples"),
        dir.to_path_buf(),
    ]
    .into_iter()
    .find(|d| SETS.iter().all(|s| d.join(s).is_dir()))
}

/// A checkout's configuration: where its files are, the seeds and the budgets.
pub struct Checkout {
    /// `environments/env_generator/examples`.
    pub examples: PathBuf,
    /// `domain/robotouille.json`.
    pub domain: PathBuf,
    /// The evaluation seeds.
    pub seeds: Vec<i64>,
    /// `set/task` → the hard-coded step count.
    pub references: BTreeMap<String, i64>,
    /// The experiment configurations that evaluate (`conf/experiments/**/*.yaml`).
    pub experiments: Vec<Experiment>,
}

/// One experiment configuration: what `main.py evaluate` runs with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Experiment {
    /// The file (`…/conf/experiments/IO/asynchronous/io.yaml`).
    pub file: PathBuf,
    /// `evaluation.environment_names` (`asynchronous/0_cheese_chicken_sandwich`) with their
    /// `evaluation.optimal_steps`.
    pub environments: Vec<(String, i64)>,
    /// `evaluation.testing_seeds` where the file sets it, else the evaluation seeds.
    pub seeds: Vec<i64>,
}

impl Experiment {
    /// The keys of the `results.json` that `main.py evaluate` writes with it:
    /// `<environment>_<seed>`.
    pub fn keys(&self) -> Vec<String> {
        self.environments
            .iter()
            .flat_map(|(e, _)| self.seeds.iter().map(move |s| format!("{e}_{s}")))
            .collect()
    }

    /// The file below `conf/experiments` (`IO/asynchronous/io.yaml`), to name it briefly.
    pub fn short_name(&self) -> String {
        let full = self.file.to_string_lossy().replace('\\', "/");
        match full.rsplit_once(&format!("{EXPERIMENTS}/")) {
            Some((_, short)) => short.to_string(),
            None => full,
        }
    }
}

impl Checkout {
    /// Reads a checkout's configuration (see the module docs).
    pub fn open(dir: &Path) -> Result<Checkout, LoadError> {
        let examples = examples_folder(dir).ok_or_else(|| {
            LoadError::usage(
                dir,
                format!("not a Robotouille checkout: no {EXAMPLES} with synchronous, asynchronous and multi_agent; give the repository's root"),
            )
        })?;
        let root = examples
            .ancestors()
            .nth(3)
            .filter(|r| r.join(EXAMPLES) == examples)
            .ok_or_else(|| {
                LoadError::usage(
                    dir,
                    "the environments are not inside a Robotouille repository (no conf/ and domain/ beside them); give the repository's root",
                )
            })?;
        let domain = root.join(DOMAIN);
        check_domain(&domain)?;
        let seeds = evaluation_seeds(&root.join(EVALUATION))?;
        let experiments = experiments(root, &examples, &seeds)?;
        Ok(Checkout {
            references: references(&experiments)?,
            seeds,
            experiments,
            examples,
            domain,
        })
    }

    /// The environment files of a set, numbered tasks first (by number), then the others.
    pub fn tasks(&self, set: &str) -> Result<Vec<String>, LoadError> {
        let folder = self.examples.join(set);
        let entries = std::fs::read_dir(&folder).map_err(|source| LoadError::Io {
            path: folder.clone(),
            source,
        })?;
        let mut tasks: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".json").map(str::to_string)
            })
            .collect();
        let number = |t: &str| task_number(t).and_then(|n| n.parse::<f64>().ok());
        tasks.sort_by(|a, b| {
            let (x, y) = (number(a), number(b));
            x.is_none()
                .cmp(&y.is_none())
                .then(x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal))
                .then(a.cmp(b))
        });
        Ok(tasks)
    }

    /// Every instance the options select (see the module docs).
    pub fn instances(&self, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
        let sets: Vec<&str> = match opts.values("sets") {
            [] => SETS.to_vec(),
            chosen => SETS
                .iter()
                .copied()
                .filter(|s| chosen.iter().any(|c| set_name(c) == Ok(*s)))
                .collect(),
        };
        let wanted = opts.values("tasks");
        let seeds: Vec<Option<i64>> = match opts.values("seeds") {
            [] => std::iter::once(None)
                .chain(self.seeds.iter().copied().map(Some))
                .collect(),
            chosen => {
                let mut seeds = Vec::new();
                for seed in chosen.iter().filter_map(|c| seed_choice(c).ok()) {
                    if !seeds.contains(&seed) {
                        seeds.push(seed);
                    }
                }
                seeds
            }
        };
        let mut found = vec![false; wanted.len()];
        let mut out = Vec::new();
        for set in sets {
            for task in self.tasks(set)? {
                let picked = if wanted.is_empty() {
                    task_number(&task).is_some_and(|n| !n.contains('.'))
                } else {
                    let hits: Vec<usize> = (0..wanted.len())
                        .filter(|&k| names_task(&wanted[k], set, &task))
                        .collect();
                    hits.iter().for_each(|&k| found[k] = true);
                    !hits.is_empty()
                };
                if picked {
                    out.extend(self.task_instances(set, &task, &seeds)?);
                }
            }
        }
        if let Some(k) = found.iter().position(|f| !f) {
            return Err(LoadError::usage(
                &self.examples,
                format!(
                    "no Robotouille task \"{}\" in the sets read; name a task by number (3, 3.1) or file name (3_burger)",
                    wanted[k]
                ),
            ));
        }
        Ok(out)
    }

    /// The instances of one task, one per layout.
    fn task_instances(
        &self,
        set: &str,
        task: &str,
        seeds: &[Option<i64>],
    ) -> Result<Vec<Instance>, LoadError> {
        let path = self.examples.join(set).join(format!("{task}.json"));
        let text = makespan_model::input::read_text(&path)?;
        let loaded = load_environment(&path, &text)?;
        let reference = self.references.get(&format!("{set}/{task}")).copied();
        let short = task_number(task).unwrap_or(task);
        let mut out = Vec::new();
        for &seed in seeds {
            let (environment, effective_seed, retried_seeds) = match seed {
                None => (loaded.clone(), None, Vec::new()),
                Some(seed) => {
                    let s = seeded(&path, &loaded, seed, false)?;
                    let retried = s
                        .failures
                        .into_iter()
                        .map(|(seed, error)| RetriedSeed { seed, error })
                        .collect();
                    (s.environment, Some(s.effective_seed), retried)
                }
            };
            let note = WorldNote {
                set: set.into(),
                task: task.into(),
                seed,
                effective_seed,
                retried_seeds,
                noisy: false,
                goal: environment
                    .get("goal")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
                goal_description: environment
                    .get("goal_description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .into(),
                environment,
                domain: self.domain.display().to_string(),
                file: path.display().to_string(),
                reference_optimal_steps: reference,
                max_steps: reference.map(|r| r as f64 * STEP_MULTIPLIER),
            };
            let layout = seed.map_or_else(|| "default".to_string(), |s| format!("seed{s}"));
            let name = format!("{}-{set}-{short}-{layout}", super::BENCHMARK);
            out.push(world_instance(name, &note, &path));
        }
        Ok(out)
    }
}

/// A world instance: the relaxation's activities, the world note, and the notes other
/// Robotouille tools read (`task`, `goal`, `reference_optimal_steps_config`).
fn world_instance(name: String, note: &WorldNote, path: &Path) -> Instance {
    let mut instance = relaxation(name, note);
    let mut notes = BTreeMap::new();
    notes.insert("task".into(), format!("{}/{}", note.set, note.task).into());
    notes.insert("goal".into(), note.goal_description.clone().into());
    if let Some(r) = note.reference_optimal_steps {
        notes.insert("reference_optimal_steps_config".into(), r.into());
    }
    notes.insert(
        crate::WORLD_NOTE.into(),
        serde_json::to_value(note).unwrap_or(Value::Null),
    );
    instance.source = Some(Source {
        benchmark: super::BENCHMARK.into(),
        file: Some(path.display().to_string()),
        notes,
    });
    instance
}

/// The number a task file starts with (`3` of `3_burger`, `3.1` of `3.1_lettuce…`).
fn task_number(task: &str) -> Option<&str> {
    let (number, _) = task.split_once('_')?;
    let digits = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.');
    (digits && number.starts_with(|c: char| c.is_ascii_digit())).then_some(number)
}

/// Whether an option value names this task: its number, file name or `set/file name`.
fn names_task(value: &str, set: &str, task: &str) -> bool {
    value == task || value == format!("{set}/{task}") || task_number(task) == Some(value)
}

/// `testing_seeds` of the evaluation configuration.
fn evaluation_seeds(path: &Path) -> Result<Vec<i64>, LoadError> {
    let config = read_yaml(path)?;
    let list = config.get("testing_seeds").ok_or_else(|| {
        LoadError::format(
            path,
            "testing_seeds",
            "is missing or not a list; upstream evaluates the seeds listed there",
        )
    })?;
    seed_list(path, "testing_seeds", list)
}

/// A list of whole numbers at `at` in the file `path`.
fn seed_list(path: &Path, at: &str, list: &serde_yaml_ng::Value) -> Result<Vec<i64>, LoadError> {
    let seeds = list.as_sequence().ok_or_else(|| {
        LoadError::format(
            path,
            at,
            "is not a list; upstream evaluates the seeds listed there",
        )
    })?;
    seeds
        .iter()
        .enumerate()
        .map(|(k, s)| {
            s.as_i64().ok_or_else(|| {
                LoadError::format(path, format!("{at}[{k}]"), "is not a whole number")
            })
        })
        .collect()
}

/// Every experiment configuration below `conf/experiments` that evaluates (has
/// `evaluation.environment_names` and `evaluation.optimal_steps`), in file order; each
/// environment must be a file of the checkout.
fn experiments(root: &Path, examples: &Path, seeds: &[i64]) -> Result<Vec<Experiment>, LoadError> {
    let mut files = Vec::new();
    yaml_files(&root.join(EXPERIMENTS), &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let config = read_yaml(&path)?;
        let Some(evaluation) = config.get("evaluation") else {
            continue;
        };
        let names = evaluation
            .get("environment_names")
            .and_then(serde_yaml_ng::Value::as_sequence);
        let steps = evaluation
            .get("optimal_steps")
            .and_then(serde_yaml_ng::Value::as_sequence);
        let (Some(names), Some(steps)) = (names, steps) else {
            continue;
        };
        if names.len() != steps.len() {
            return Err(LoadError::format(
                &path,
                "evaluation.optimal_steps",
                format!(
                    "has {} entries for {} environment_names; give one step count per environment",
                    steps.len(),
                    names.len()
                ),
            ));
        }
        let mut environments = Vec::new();
        for (k, (name, step)) in names.iter().zip(steps).enumerate() {
            let name = name.as_str().ok_or_else(|| {
                LoadError::format(
                    &path,
                    format!("evaluation.environment_names[{k}]"),
                    "is not a string",
                )
            })?;
            if !examples.join(format!("{name}.json")).is_file() {
                return Err(LoadError::format(
                    &path,
                    format!("evaluation.environment_names[{k}]"),
                    format!(
                        "names {name}, but {}/{name}.json is not there",
                        examples.display()
                    ),
                ));
            }
            let step = step.as_i64().ok_or_else(|| {
                LoadError::format(
                    &path,
                    format!("evaluation.optimal_steps[{k}]"),
                    "is not a whole number",
                )
            })?;
            environments.push((name.to_string(), step));
        }
        let seeds = match evaluation.get("testing_seeds") {
            None => seeds.to_vec(),
            Some(list) => seed_list(&path, "evaluation.testing_seeds", list)?,
        };
        out.push(Experiment {
            file: path,
            environments,
            seeds,
        });
    }
    Ok(out)
}

/// `set/task` → hard-coded step count, from every experiment configuration; two files that
/// disagree are an error naming both.
fn references(experiments: &[Experiment]) -> Result<BTreeMap<String, i64>, LoadError> {
    let mut out: BTreeMap<String, (i64, &Path)> = BTreeMap::new();
    for experiment in experiments {
        for (k, (name, step)) in experiment.environments.iter().enumerate() {
            match out.get(name) {
                Some((other, first)) if other != step => {
                    return Err(LoadError::format(
                        &experiment.file,
                        format!("evaluation.optimal_steps[{k}]"),
                        format!(
                            "is {step} for {name}, but {} gives {other}; make the configurations agree",
                            first.display()
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    out.insert(name.clone(), (*step, &experiment.file));
                }
            }
        }
    }
    Ok(out.into_iter().map(|(k, (v, _))| (k, v)).collect())
}

/// Every `.yaml` file below `folder`.
fn yaml_files(folder: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let entries = std::fs::read_dir(folder).map_err(|source| LoadError::Io {
        path: folder.to_path_buf(),
        source,
    })?;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
    Ok(())
}

/// A YAML file, or an error at its line and column.
fn read_yaml(path: &Path) -> Result<serde_yaml_ng::Value, LoadError> {
    let text = makespan_model::input::read_text(path)?;
    serde_yaml_ng::from_str(&text).map_err(|e| {
        let at = e.location().map_or_else(
            || "top level".to_string(),
            |l| format!("line {} column {}", l.line(), l.column()),
        );
        LoadError::format(path, at, format!("is not YAML: {e}"))
    })
}

/// The domain must be upstream's JSON domain (its predicates and actions), and the release
/// one: the simulator's rules are written from it ([`super::world::release_domain`]).
fn check_domain(path: &Path) -> Result<(), LoadError> {
    let text = makespan_model::input::read_text(path)?;
    let domain: Value =
        serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e))?;
    for key in ["predicate_defs", "action_defs"] {
        if !domain.get(key).is_some_and(Value::is_array) {
            return Err(LoadError::format(
                path,
                key,
                "is missing or not a list; this is not Robotouille's domain file",
            ));
        }
    }
    super::world::release_domain(&domain).map_err(|why| LoadError::format(path, "top level", why))
}
