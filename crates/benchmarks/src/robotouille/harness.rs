//! Robotouille's harness output: `main.py evaluate` writes one `results.json` per run into its
//! evaluation folder, an object keyed `<set>/<task file>_<seed>` (e.g.
//! `asynchronous/0_cheese_chicken_sandwich_42`) → `{"done", "steps", "max_steps"}`, plus
//! `"accuracy"` and `"average_steps"`; beside it one folder per key holding the agent's log
//! (`ACTION PROPOSAL RESPONSE` blocks). `steps` counts executed actions: invalid ones are
//! neither executed nor counted. `max_steps` is the budget: 1.5 × the task's hard-coded
//! "optimal" count, the same for every seed.
//!
//! Each key is tied to the seeded kitchen the harness ran (the checkout's instance of that
//! set, task and seed). With a log, the agent's actions are replayed in the simulator: the
//! strict verdict is whether they reach the goal, and refused actions are listed in the notes
//! (upstream skips them too). Without a log, the results file's own verdict and steps are all
//! there is, and the row says so.
//!
//! The headline (`accuracy`, `average_steps`) is recomputed from the file as `main.py` does
//! (over every key), and beside it the mean ratio of steps to each seed's optimum. Corrected: the budget upstream meant, 1.5 × the true optimum of the
//! seeded kitchen, instead of 1.5 × a default-layout count. A run counts as a success when it
//! reaches the goal within that budget; a run that upstream stopped below it without reaching
//! the goal is counted a failure, and the budget is flagged as unfair in the headline (what
//! the agent would have done with more steps cannot be known).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::checkout::{Checkout, WorldNote};
use super::world::verify::{read_texts, report_of};
use super::world::{kitchen_of, replay_texts};
use crate::harness::{mean, Entry, Harness, Headline, Metric, Row, Scope, Scored};
use crate::ImportOptions;
use makespan_model::instance::{Instance, LoadError};
use makespan_verify::{Report, Rule};

/// The Robotouille harness.
pub struct RobotouilleHarness;

/// The keys of `results.json` that are the run's totals, not entries.
const TOTALS: [&str; 2] = ["accuracy", "average_steps"];

/// The file `main.py evaluate` writes into its evaluation folder.
const RESULTS: &str = "results.json";

/// A key split into its parts: `asynchronous/0_cheese_chicken_sandwich_42` → set
/// `asynchronous`, task (the environment file's name) `0_cheese_chicken_sandwich`, seed 42.
#[derive(Debug, PartialEq, Eq)]
struct Key {
    set: String,
    task: String,
    seed: i64,
}

impl Key {
    /// The environment's name as `main.py` names it (and its log folder, with the seed).
    fn environment(&self) -> String {
        format!("{}/{}", self.set, self.task)
    }
}

fn parse_key(key: &str) -> Option<Key> {
    let (environment, seed) = key.rsplit_once('_')?;
    let (set, task) = environment.split_once('/')?;
    task.split('_').next()?.parse::<f64>().ok()?;
    Some(Key {
        set: set.to_string(),
        task: task.to_string(),
        seed: seed.parse().ok()?,
    })
}

/// The results file of a run given as the file itself or its evaluation folder.
fn results_file(run: &Path) -> PathBuf {
    if run.is_dir() {
        run.join(RESULTS)
    } else {
        run.to_path_buf()
    }
}

fn read_results(path: &Path) -> Result<Map<String, Value>, LoadError> {
    let text = makespan_model::input::read_text(path)?;
    match serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e))? {
        Value::Object(map) => Ok(map),
        _ => Err(LoadError::format(
            path,
            "top level",
            "a Robotouille results file is a JSON object keyed <set>/<task>_<seed> with \"accuracy\" and \"average_steps\"",
        )),
    }
}

impl Harness for RobotouilleHarness {
    fn recognises(&self, run: &Path) -> bool {
        let file = results_file(run);
        file.is_file()
            && read_results(&file).is_ok_and(|map| {
                TOTALS.iter().all(|t| map.contains_key(*t))
                    && map
                        .values()
                        .find(|v| v.is_object())
                        .is_some_and(|v| v.get("max_steps").is_some())
            })
    }

    fn score_name(&self) -> &'static str {
        "steps"
    }

    fn run_form(&self) -> &'static str {
        "a Robotouille evaluation folder or its results.json (main.py evaluate)"
    }

    fn read(&self, run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError> {
        let file = results_file(run);
        let results = read_results(&file)?;
        let folder = file.parent().unwrap_or(Path::new("."));
        let kitchens = Kitchens::of(data);
        Ok(results
            .iter()
            .filter(|(key, _)| !TOTALS.contains(&key.as_str()))
            .map(|(key, value)| Entry {
                key: key.clone(),
                scored: score(key, value, folder, &kitchens),
            })
            .collect())
    }

    /// The keys `main.py evaluate` writes for the run: those of the smallest experiment
    /// configuration of the checkout that evaluates every environment and seed in the results
    /// (a run stopped early or a file edited by hand lacks some); where none does (the
    /// multi-agent set has no configuration), the evaluation seeds of each environment in the
    /// results.
    fn scope(&self, _run: &Path, data: &Path, entries: &[Entry]) -> Option<Scope> {
        let checkout = Checkout::open(data).ok()?;
        let present: Vec<Key> = entries.iter().filter_map(|e| parse_key(&e.key)).collect();
        if present.is_empty() {
            return None;
        }
        let answered: BTreeSet<String> = entries.iter().map(|e| e.key.clone()).collect();
        let covering = checkout
            .experiments
            .iter()
            .map(|e| (e, e.keys()))
            .filter(|(_, keys)| {
                present
                    .iter()
                    .all(|k| keys.contains(&format!("{}_{}", k.environment(), k.seed)))
            })
            .min_by_key(|(_, keys)| keys.len());
        if let Some((experiment, keys)) = covering {
            let same = checkout
                .experiments
                .iter()
                .filter(|e| e.file != experiment.file && e.keys() == keys)
                .count();
            let others = match same {
                0 => String::new(),
                n => format!(" and {n} other configuration(s) with the same keys"),
            };
            return Some(Scope {
                about: format!(
                    "the {} environment(s) × {} seed(s) of {}{others}",
                    experiment.environments.len(),
                    experiment.seeds.len(),
                    experiment.short_name()
                ),
                keys,
                success_metric: "accuracy",
            });
        }
        let environments: BTreeSet<String> = present.iter().map(Key::environment).collect();
        let keys: Vec<String> = environments
            .iter()
            .flat_map(|e| checkout.seeds.iter().map(move |s| format!("{e}_{s}")))
            .chain(answered)
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        Some(Scope {
            about: format!(
                "the evaluation seeds of the {} environment(s) in the results (no experiment configuration evaluates them all)",
                environments.len()
            ),
            keys,
            success_metric: "accuracy",
        })
    }

    fn headline(&self, rows: &[Row], entries: &[Entry]) -> Headline {
        let scored: Vec<(&Row, i64)> = rows
            .iter()
            .zip(entries)
            .filter_map(|(r, e)| {
                let budget = e.scored.as_ref().ok()?.extra["max_steps"].as_i64()?;
                Some((r, budget))
            })
            .collect();
        let n = scored.len();
        let percent = |k: usize| (n > 0).then(|| 100.0 * k as f64 / n as f64);
        let done = scored
            .iter()
            .filter(|(r, _)| r.original_valid == Some(true))
            .count();
        let steps = |r: &Row| r.original_score.or(r.corrected_score).unwrap_or(0.0);
        let fair = |r: &Row| r.optimum.map(|o| (3 * o + 1) / 2);
        let within = scored
            .iter()
            .filter(|(r, _)| {
                r.valid == Some(true)
                    && matches!((r.makespan, fair(r)), (Some(m), Some(b)) if m <= b)
            })
            .count();
        let below = scored
            .iter()
            .filter(|(r, budget)| fair(r).is_some_and(|b| *budget < b))
            .count();
        let above = scored
            .iter()
            .filter(|(r, budget)| fair(r).is_some_and(|b| *budget > b))
            .count();
        Headline {
            metrics: vec![
                Metric::new(
                    "accuracy",
                    "% of runs that reach the goal (original: the file's done within 1.5 × the hard-coded count; corrected: within 1.5 × the seed's optimum)",
                    percent(done),
                    percent(within),
                ),
                Metric::new(
                    "average steps",
                    "mean executed steps over every run (corrected: as the simulator replays the logs)",
                    mean(scored.iter().map(|(r, _)| steps(r))),
                    mean(scored.iter().filter_map(|(r, _)| r.makespan.map(|m| m as f64))),
                ),
                Metric::new(
                    "steps / optimum",
                    "mean of steps over the seed's optimum, over the runs that reach the goal",
                    None,
                    mean(
                        scored
                            .iter()
                            .filter(|(r, _)| r.valid == Some(true))
                            .filter_map(|(r, _)| r.ratio),
                    ),
                ),
                Metric::new(
                    "budget below",
                    "% of runs whose budget was below 1.5 × the seed's optimum (a run stopped there may have been unfinishable)",
                    None,
                    percent(below),
                ),
                Metric::new(
                    "budget above",
                    "% of runs whose budget was above 1.5 × the seed's optimum",
                    None,
                    percent(above),
                ),
            ],
        }
    }
}

/// The checkout's world instances by (set, task, seed), read once per run.
struct Kitchens {
    by_key: Result<HashMap<(String, String, i64), Instance>, String>,
}

impl Kitchens {
    fn of(data: &Path) -> Kitchens {
        let by_key = crate::import(data, &ImportOptions::default())
            .map_err(|e| e.to_string())
            .map(|instances| {
                instances
                    .into_iter()
                    .filter_map(|i| {
                        let note = WorldNote::of(&i)?.ok()?;
                        Some(((note.set, note.task, note.seed?), i))
                    })
                    .collect()
            });
        Kitchens { by_key }
    }

    fn find(&self, key: &Key) -> Result<&Instance, String> {
        let by_key = self.by_key.as_ref().map_err(Clone::clone)?;
        by_key
            .get(&(key.set.clone(), key.task.clone(), key.seed))
            .ok_or_else(|| {
                format!(
                    "the checkout has no kitchen {} for seed {}",
                    key.environment(),
                    key.seed
                )
            })
    }
}

/// One results entry: the run replayed from its log when there is one, beside the file's
/// own verdict.
fn score(key: &str, value: &Value, folder: &Path, kitchens: &Kitchens) -> Result<Scored, String> {
    let parts = parse_key(key)
        .ok_or("the key is not of the form <set>/<task>_<name>_<seed> that main.py writes")?;
    let instance = kitchens.find(&parts)?;
    let field = |name: &str| {
        value
            .get(name)
            .ok_or(format!("the entry has no \"{name}\""))
    };
    let done = field("done")?
        .as_bool()
        .ok_or("\"done\" is not true or false")?;
    let steps = field("steps")?
        .as_i64()
        .ok_or("\"steps\" is not a whole number")?;
    let budget = field("max_steps")?
        .as_f64()
        .ok_or("\"max_steps\" is not a number")?;
    let mut notes = Vec::new();
    let log = agent_log(&folder.join(format!("{}_{}", parts.environment(), parts.seed)));
    let report = match &log {
        Some(log) => replayed(instance, log, &mut notes)?,
        None => {
            notes.push("no agent log beside the results: the file's own verdict and steps are taken as they are".into());
            from_results(instance, done, steps)
        }
    };
    let reached = report.valid;
    if let (Some(_), Some(m)) = (&log, report.makespan) {
        if reached == done && m != steps {
            notes.push(format!(
                "the log replays to {m} executed step(s); the results file says {steps}"
            ));
        }
    }
    let difference = (reached != done).then(|| {
        if done {
            "the results file says done, yet the log's actions do not reach the goal in the simulator".to_string()
        } else {
            "the results file says not done, yet the log's actions reach the goal in the simulator".to_string()
        }
    });
    Ok(Scored {
        instance: instance.clone(),
        schedule: Vec::new(),
        original_valid: Some(done),
        original_score: Some(steps as f64),
        corrected_score: report
            .valid
            .then_some(report.makespan)
            .flatten()
            .map(|m| m as f64),
        difference,
        notes,
        extra: json!({ "max_steps": budget.ceil() as i64 }),
        unfinishable: None,
        report,
    })
}

/// The agent's log of one run: the first file of its folder with an action proposal.
fn agent_log(dir: &Path) -> Option<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.into_iter().find_map(|path| {
        let text = makespan_model::input::read_text(&path).ok()?;
        text.contains("ACTION PROPOSAL RESPONSE")
            .then_some((path, text))
    })
}

/// The log replayed: the goal is the verdict; refused actions, which upstream skips without
/// counting, become notes.
fn replayed(
    instance: &Instance,
    (path, text): &(PathBuf, String),
    notes: &mut Vec<String>,
) -> Result<Report, String> {
    let kitchen = kitchen_of(instance)
        .ok_or("not a world instance")?
        .map_err(|e| format!("the checkout's kitchen cannot be read: {e}"))?;
    let texts = read_texts(path, text).map_err(|e| e.to_string())?;
    let replay = replay_texts(&kitchen, &texts);
    let starts: Vec<i64> = (0..texts.len() as i64).collect();
    let mut report = report_of(&instance.name, &replay, &starts);
    let (refused, kept): (Vec<_>, Vec<_>) = report
        .violations
        .into_iter()
        .partition(|v| v.rule == Rule::PreconditionFailed);
    notes.extend(
        refused
            .iter()
            .map(|v| format!("refused and not counted: {}", v.message)),
    );
    report.violations = kept;
    report.valid = report.violations.is_empty();
    Ok(report)
}

/// The verdict of a results entry without a log: its own `done` and `steps`.
fn from_results(instance: &Instance, done: bool, steps: i64) -> Report {
    let mut report = report_of(
        &instance.name,
        &super::world::WorldReplay {
            lines: Vec::new(),
            executed: usize::try_from(steps).unwrap_or(0),
            goal_step: done.then(|| usize::try_from(steps).unwrap_or(0)),
            state: None,
        },
        &[],
    );
    report.makespan = Some(steps);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_as_main_py_writes_them() {
        assert_eq!(
            parse_key("asynchronous/0_cheese_chicken_sandwich_42"),
            Some(Key {
                set: "asynchronous".into(),
                task: "0_cheese_chicken_sandwich".into(),
                seed: 42,
            })
        );
        assert_eq!(parse_key("0_cheese_chicken_sandwich_42"), None);
        assert_eq!(parse_key("synchronous/x_burger_42"), None);
        assert_eq!(parse_key("synchronous/1_burger_x"), None);
    }
}
