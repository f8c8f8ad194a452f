//! ParaCook's harness output: `src/abstract/test.py` writes one file
//! per model, `results/abstract/<model>.json`, an object keyed
//! `<recipe>/seed_<s>/agent_num_<m>/orders_num_<k>` → `{"done", "time", "answer"}`. `answer` is
//! what `extract_json` pulled out of the model's response (`[[""]]` when nothing usable),
//! `done`/`time` the original scorer's verdict. The instance is
//! `data/abstract/<recipe>/seed_<s>/orders_num_<k>.json` of the checkout with m = `agent_num`.
//!
//! The original headline (`get_abstract_results.py`) needs the reference run: the
//! `cp_sat.json` file beside the model's file. SR counts the file's `done`; nOCT and pOCT divide
//! by the reference's time. Corrected: the strict verdict and the proven optimum instead.
//!
//! A folder is the concrete mode's run instead (`results/<method>/<model>/`, one file per
//! kitchen), read by [`super::concrete::harness`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::lists::check_agent_lists;
use crate::harness::{
    find_in_checkout, mean, results_entries, rule_counts, Entry, Harness, Headline, Metric, Row,
    Scope, Scored,
};
use crate::ImportOptions;
use makespan_model::instance::{Instance, LoadError};
use makespan_verify::{Report, Rule};

/// The ParaCook harness.
pub struct ParaCookHarness;

/// Where a checkout keeps the abstract tasks: the repository's layout, the data folder
/// itself, or a folder of several benchmarks.
const ABSTRACT: [&str; 3] = ["data/abstract", "abstract", "paracook/abstract"];

/// Penalty factor of pOCT for a failed answer (`get_abstract_results.py`).
const FAIL_FACTOR: f64 = 1.2;

/// A key split into its parts.
struct Key {
    recipe: String,
    seed: String,
    agents: u32,
    orders: String,
}

fn parse_key(key: &str) -> Option<Key> {
    let parts: Vec<&str> = key.split('/').collect();
    let [recipe, seed, agents, orders] = parts[..] else {
        return None;
    };
    let field = |part: &str, prefix: &str| {
        part.strip_prefix(prefix)
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string)
    };
    Some(Key {
        recipe: recipe.to_string(),
        seed: field(seed, "seed_")?,
        agents: field(agents, "agent_num_")?.parse().ok()?,
        orders: field(orders, "orders_num_")?,
    })
}

/// A results file's entries, each parsed on its own (an entry nested too deep or not JSON is
/// that entry's error), as `read_object` sees the file: only the entries that parse.
fn read_object(path: &Path) -> Result<serde_json::Map<String, Value>, LoadError> {
    Ok(results_entries(path)?
        .into_iter()
        .filter_map(|(key, value)| Some((key, value.ok()?)))
        .collect())
}

impl Harness for ParaCookHarness {
    fn recognises(&self, run: &Path) -> bool {
        if super::concrete::harness::recognises(run) {
            return true;
        }
        run.is_file()
            && read_object(run).is_ok_and(|map| {
                map.values()
                    .next()
                    .is_some_and(|v| v.get("answer").is_some() && v.get("done").is_some())
            })
    }

    fn score_name(&self) -> &'static str {
        "time"
    }

    fn run_form(&self) -> &'static str {
        "a ParaCook results file (results/abstract/<model>.json) or a model's folder of concrete results (results/<method>/<model>)"
    }

    fn read(&self, run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError> {
        if run.is_dir() {
            return super::concrete::harness::read(run, data);
        }
        let results = results_entries(run)?;
        let root = find_in_checkout(data, &ABSTRACT, "ParaCook abstract tasks (data/abstract)")?;
        let reference = run
            .with_file_name("cp_sat.json")
            .is_file()
            .then(|| read_object(&run.with_file_name("cp_sat.json")))
            .transpose()?;
        let mut files: HashMap<(PathBuf, u32), Result<Vec<Instance>, String>> = HashMap::new();
        let mut entries = Vec::new();
        for (key, value) in &results {
            let value = match value {
                Ok(value) => value,
                Err(why) => {
                    entries.push(Entry::error(key, why.clone()));
                    continue;
                }
            };
            let Some(parts) = parse_key(key) else {
                entries.push(Entry::error(
                    key,
                    "the key is not of the form <recipe>/seed_<s>/agent_num_<m>/orders_num_<k>",
                ));
                continue;
            };
            let file = root
                .join(&parts.recipe)
                .join(format!("seed_{}", parts.seed))
                .join(format!("orders_num_{}.json", parts.orders));
            let instances = files
                .entry((file.clone(), parts.agents))
                .or_insert_with(|| {
                    if !file.is_file() {
                        return Err(format!("the checkout has no task file {}", file.display()));
                    }
                    let opts = ImportOptions {
                        agents: vec![Some(parts.agents)],
                        ..ImportOptions::default()
                    };
                    crate::import(&file, &opts).map_err(|e| e.to_string())
                });
            let instance = match instances {
                Ok(list) => list.iter().find(|i| i.agents == Some(parts.agents)),
                Err(why) => {
                    entries.push(Entry::error(key, why.clone()));
                    continue;
                }
            };
            let Some(instance) = instance else {
                entries.push(Entry::error(
                    key,
                    format!("no instance for {} agents", parts.agents),
                ));
                continue;
            };
            let reference_time = reference
                .as_ref()
                .and_then(|r| r.get(key))
                .and_then(|r| r.get("time"))
                .and_then(Value::as_f64)
                .filter(|t| *t > 0.0);
            entries.push(Entry {
                key: key.clone(),
                scored: score(instance, value, reference_time),
            });
        }
        Ok(entries)
    }

    /// Every task file of the checkout for every number of cooks the run (or its
    /// `cp_sat.json`) answers: the harness drops an answer it cannot parse without a trace.
    fn scope(&self, run: &Path, data: &Path, entries: &[Entry]) -> Option<Scope> {
        // A concrete run's keys name kitchens, not the abstract task files listed here.
        if super::concrete::harness::is_concrete(entries) {
            return None;
        }
        let root = find_in_checkout(data, &ABSTRACT, "ParaCook abstract tasks").ok()?;
        let reference = read_object(&run.with_file_name("cp_sat.json")).ok();
        let mut agents: Vec<u32> = entries
            .iter()
            .map(|e| e.key.as_str())
            .chain(reference.iter().flat_map(|r| r.keys().map(String::as_str)))
            .filter_map(|k| Some(parse_key(k)?.agents))
            .collect();
        agents.sort_unstable();
        agents.dedup();
        let mut keys = Vec::new();
        for (recipe, seed, orders) in task_files(&root) {
            for m in &agents {
                keys.push(format!("{recipe}/{seed}/agent_num_{m}/{orders}"));
            }
        }
        let cooks: Vec<String> = agents.iter().map(u32::to_string).collect();
        Some(Scope {
            keys,
            success_metric: "SR",
            about: format!("the checkout's task files for {} cook(s)", cooks.join(", ")),
        })
    }

    fn headline(&self, rows: &[Row], entries: &[Entry]) -> Headline {
        if super::concrete::harness::is_concrete(entries) {
            return super::concrete::harness::headline(rows, entries);
        }
        let scored: Vec<(&Row, Option<f64>)> = rows
            .iter()
            .zip(entries)
            .filter(|(r, _)| r.error.is_none())
            .map(|(r, e)| {
                let reference = e
                    .scored
                    .as_ref()
                    .ok()
                    .and_then(|s| s.extra["reference_time"].as_f64());
                (r, reference)
            })
            .collect();
        // get_abstract_results.py divides by every key of the model's file.
        let n = rows.len().max(1) as f64;
        let done = |r: &Row| r.original_valid == Some(true);
        let valid = |r: &Row| r.valid == Some(true);
        // The original iterates over the reference's keys that the model's file also has.
        let with_reference: Vec<(&Row, f64)> = scored
            .iter()
            .filter_map(|(r, t)| t.map(|t| (*r, t)))
            .collect();
        let original_noct = mean(
            with_reference
                .iter()
                .filter(|(r, _)| done(r))
                .filter_map(|(r, t)| Some(r.original_score? / t)),
        );
        let original_poct = (!with_reference.is_empty()).then(|| {
            mean(with_reference.iter().map(|(r, t)| match r.original_score {
                Some(time) if done(r) => time,
                _ => FAIL_FACTOR * t,
            }))
        });
        let corrected_noct = mean(
            scored
                .iter()
                .filter(|(r, _)| valid(r))
                .filter_map(|(r, _)| r.ratio),
        );
        let corrected_poct = mean(scored.iter().filter_map(|(r, _)| {
            let optimum = r.optimum? as f64;
            Some(match r.makespan {
                Some(m) if valid(r) => m as f64,
                _ => FAIL_FACTOR * optimum,
            })
        }));
        let no_reference = (with_reference.is_empty() && !scored.is_empty()).then(|| {
            "no cp_sat.json beside the results file: get_abstract_results.py needs its reference times and prints nothing; the corrected figure uses the proven optimum instead".to_string()
        });
        // It counts a success only for a key cp_sat.json has too; without the file, none.
        let successes = if with_reference.is_empty() {
            scored.iter().filter(|(r, _)| done(r)).count()
        } else {
            with_reference.iter().filter(|(r, _)| done(r)).count()
        };
        let no_reference_sr = no_reference.as_ref().map(|_| {
            "no cp_sat.json beside the results file: get_abstract_results.py counts a success only for a key the reference has, so it prints 0.00; shown: the file's done over all its keys".to_string()
        });
        Headline {
            metrics: vec![
                Metric {
                    name: "SR".into(),
                    about: "success rate, % of the results file's keys (original: the file's done, for keys cp_sat.json has too)".into(),
                    original: Some(100.0 * successes as f64 / n),
                    corrected: Some(100.0 * scored.iter().filter(|(r, _)| valid(r)).count() as f64 / n),
                    fair: None,
                    note: no_reference_sr,
                },
                Metric {
                    name: "nOCT".into(),
                    about: "mean time / reference over successes (original: cp_sat.json's time; corrected: the optimum)".into(),
                    original: original_noct,
                    corrected: corrected_noct,
                    fair: None,
                    note: no_reference.clone(),
                },
                Metric {
                    name: "pOCT".into(),
                    about: "mean time, a failure counted as 1.2 × the reference".into(),
                    original: original_poct.flatten(),
                    corrected: corrected_poct,
                    fair: None,
                    note: no_reference,
                },
            ],
        }
    }
}

/// The checkout's task files, `data/abstract/<recipe>/seed_<s>/orders_num_<k>.json`, as the
/// key's parts (`burger`, `seed_42`, `orders_num_4`), in order.
fn task_files(root: &Path) -> Vec<(String, String, String)> {
    let names = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    };
    let mut files = Vec::new();
    for recipe in names(root).into_iter().filter(|r| root.join(r).is_dir()) {
        let seeds = names(&root.join(&recipe));
        for seed in seeds.into_iter().filter(|s| s.starts_with("seed_")) {
            for file in names(&root.join(&recipe).join(&seed)) {
                if let Some(orders) = file
                    .strip_suffix(".json")
                    .filter(|o| o.starts_with("orders_num_"))
                {
                    files.push((recipe.clone(), seed.clone(), orders.to_string()));
                }
            }
        }
    }
    files
}

/// One results entry: the strict check of its answer beside the file's own verdict.
fn score(
    instance: &Instance,
    value: &Value,
    reference_time: Option<f64>,
) -> Result<Scored, String> {
    let done = value.get("done").and_then(Value::as_bool);
    let time = value.get("time").and_then(Value::as_f64);
    let answer = value.get("answer").ok_or("the entry has no \"answer\"")?;
    let lists: Option<Vec<Vec<String>>> = serde_json::from_value(answer.clone()).ok();
    let mut notes = Vec::new();
    let mut schedule = Vec::new();
    let report = match lists {
        Some(lists) if lists != [[String::new()]] => {
            let (decoded, report) = check_agent_lists(instance, &lists);
            schedule = decoded;
            report
        }
        Some(_) => Report::malformed_answer(
            &instance.name,
            "the harness recorded [[\"\"]]: extract_json could not read the model's response"
                .into(),
            "the model must answer with a JSON list of lists of subtask names".into(),
        ),
        None => Report::malformed_answer(
            &instance.name,
            format!("the recorded answer {answer} is not a list of lists of subtask names"),
            "the model must answer with a JSON list of lists of subtask names".into(),
        ),
    };
    let original_score = time.filter(|_| done == Some(true));
    if let (Some(true), Some(t), Some(m), true) = (done, time, report.makespan, report.valid) {
        if (t - m as f64).abs() > 1e-9 {
            notes.push(format!(
                "the file's time {t} differs from the decoded makespan {m}"
            ));
        }
    }
    let difference = match done {
        Some(d) if d != report.valid => Some(reason(d, &report)),
        _ => None,
    };
    Ok(Scored {
        instance: instance.clone(),
        corrected_score: report
            .valid
            .then_some(report.makespan)
            .flatten()
            .map(|m| m as f64),
        original_valid: done,
        original_score,
        difference,
        notes,
        unfinishable: None,
        extra: json!({ "reference_time": reference_time }),
        report,
        schedule,
    })
}

/// Why the original's `done` differs from the strict verdict (the scorer's faults).
fn reason(done: bool, report: &Report) -> String {
    if !done {
        return "the results file says not done, yet the answer decodes to a valid schedule".into();
    }
    let has = |rule: Rule| report.violations.iter().any(|v| v.rule == rule);
    let mut faults = Vec::new();
    if has(Rule::TooManyAgents) {
        faults.push("more lists than agents, which the original never compares");
    }
    if has(Rule::DuplicateActivity) || has(Rule::MissingActivity) {
        faults.push("a subtask repeated or left out, which the original's count of distinct (name, finish) pairs misses");
    }
    if faults.is_empty() {
        format!(
            "the original accepts an answer that breaks: {}",
            rule_counts(report)
        )
    } else {
        faults.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_in_the_harness_form_only() {
        let key = parse_key("burger/seed_42/agent_num_2/orders_num_4").unwrap();
        assert_eq!(
            (
                key.recipe.as_str(),
                key.seed.as_str(),
                key.agents,
                key.orders.as_str()
            ),
            ("burger", "42", 2, "4")
        );
        assert!(parse_key("burger/seed_42/orders_num_4").is_none());
        assert!(parse_key("burger/seed_x/agent_num_2/orders_num_4").is_none());
    }
}
