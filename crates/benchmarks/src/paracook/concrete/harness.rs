//! A concrete run as `makespan score` reads it: the folder `src/main.py` fills
//! (`results/<method>/<model>/`, one file per kitchen under
//! `<category>/seed_<s>/agent_num_<m>/orders_num_<k>.json`), each file's plan replayed in both
//! modes ([`super::score::read_result`]) and judged strictly ([`super::replay::report`]: valid
//! when both modes serve every order without an error).
//!
//! The headline has the statistics script's five metrics twice. Original: from the files'
//! own fields, as `collect_statistics` computes them. Corrected: from the strict verdicts and
//! the game's replay (time, per-cook times), with nOCT against the best known plan of each
//! kitchen (makespan's, or the answer where it is shorter) instead of T_max (T_max is a serial estimate 6–13 times a valid lower bound, so a
//! fraction of it says nothing about how far a plan is from the best). A failure still
//! counts T_max in pOCT and pMD: there it is a penalty, not a reference. Beside them: the
//! success rate under each mode alone, and each success's time over its kitchen's proven
//! bound (the most it can be above the optimum).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::kitchen::Kitchen;
use super::replay::{report, schedule_of};
use super::score::{cook_times, metrics, read_result, Metrics, RunEntry, Sample};
use super::sim::Outcome;
use crate::harness::{mean, Entry, Headline, Metric, Row, Scored};
use makespan_model::instance::LoadError;
use makespan_verify::Report;

/// The tag in an entry's `extra` that marks it concrete (the headline dispatches on it).
const TAG: &str = "paracook_concrete";

/// Where a results file's key starts: the last four parts of its path.
const KEY_PARTS: usize = 4;

/// Whether `path` (a file, relative or not) ends in `<category>/seed_<s>/agent_num_<m>/
/// orders_num_<k>.json`.
fn key_of(path: &Path) -> Option<String> {
    if path.extension()? != "json" {
        return None;
    }
    let stem = path.with_extension("");
    let parts: Vec<String> = stem
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let tail = parts.get(parts.len().checked_sub(KEY_PARTS)?..)?;
    let number = |part: &str, prefix: &str| {
        part.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    (number(&tail[1], "seed_") && number(&tail[2], "agent_num_") && number(&tail[3], "orders_num_"))
        .then(|| tail.join("/"))
}

/// Whether `run` is a folder with a result file of the concrete harness somewhere below
/// (looked for breadth first, a few hundred entries at most).
pub fn recognises(run: &Path) -> bool {
    if !run.is_dir() {
        return false;
    }
    let mut pending = vec![run.to_path_buf()];
    let mut seen = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 500 {
                return false;
            }
            let path = entry.path();
            if path.is_dir() {
                pending.insert(0, path);
            } else if key_of(&path).is_some() {
                return true;
            }
        }
    }
    false
}

/// The kitchens of the checkout `data` (the checkout, its `data/cook` folder, or a folder of
/// several benchmarks holding `paracook/upstream`).
fn kitchens(data: &Path) -> Result<(Vec<Kitchen>, Option<PathBuf>), LoadError> {
    let root = [data.to_path_buf(), data.join("paracook/upstream")]
        .into_iter()
        .find(|r| super::checkout::cook_folder(r).is_some())
        .unwrap_or_else(|| data.to_path_buf());
    Ok((
        super::checkout::read_checkout(&root)?,
        super::checkout::cook_folder(&root),
    ))
}

/// Every result file under `run`, each tied to its kitchen of the checkout and scored.
pub fn read(run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError> {
    let (kitchens, cook) = kitchens(data)?;
    let mut entries = Vec::new();
    for file in crate::walk::input_files(run)? {
        let relative = file.strip_prefix(run).unwrap_or(&file).to_path_buf();
        let Some(key) = key_of(&relative) else {
            continue;
        };
        // The row's key is the path under the run: the harness's key for a model's folder.
        let row_key = relative
            .with_extension("")
            .to_string_lossy()
            .replace('\\', "/");
        let scored = match kitchens.iter().find(|k| k.key == key) {
            Some(kitchen) => score(kitchen, cook.as_deref(), &file),
            None => Err(format!(
                "{}: the checkout has no kitchen {key} (its maps and all_orders.json)",
                file.display()
            )),
        };
        entries.push(Entry {
            key: row_key,
            scored,
        });
    }
    Ok(entries)
}

/// One replay as the row's note and the headline's data.
fn outcome_note(o: &Outcome) -> String {
    let verdict = if o.done {
        "done".to_string()
    } else if let Some(e) = &o.error {
        format!("fails at t = {}: {}", e.time, e.rule)
    } else {
        format!("leaves {:?} open", o.remaining)
    };
    format!("{}: {verdict}, OCT {}", o.mode.name(), o.oct)
}

fn outcome_extra(o: &Outcome) -> Value {
    json!({ "done": o.done, "oct": o.oct, "agents": cook_times(o) })
}

/// One result file: its plan replayed in both modes and judged strictly, beside the file's
/// own verdict.
fn score(kitchen: &Kitchen, cook: Option<&Path>, file: &Path) -> Result<Scored, String> {
    let (entry, plan, unreadable) = read_result(kitchen, file)?;
    let instance = super::instance(kitchen, cook);
    let report = match &unreadable {
        Some(why) => Report::malformed_answer(
            &instance.name,
            format!("{}: {why}", file.display()),
            "the plan is an object of action lists, one per cook (agent1, agent2, …)".into(),
        ),
        None => report(&instance.name, kitchen, &plan),
    };
    let mut notes = vec![format!(
        "makespan's replays: {}; {}",
        outcome_note(&entry.replica),
        outcome_note(&entry.intended)
    )];
    if let Some(d) = &entry.difference {
        if entry.harness_done == entry.replica.done {
            notes.push(d.clone());
        }
    }
    let difference = (entry.harness_done != report.valid).then(|| reason(&entry, &report));
    Ok(Scored {
        schedule: schedule_of(&plan, &entry.replica),
        corrected_score: report.valid.then_some(entry.replica.oct),
        original_valid: Some(entry.harness_done),
        original_score: entry.harness_done.then_some(entry.harness_time),
        difference,
        notes,
        unfinishable: None,
        extra: json!({
            TAG: true,
            "t_max": [entry.t_max.0, entry.t_max.1],
            "cooks": kitchen.agents(),
            "file": {
                "done": entry.harness_done,
                "time": entry.harness_time,
                "agents": entry.harness_agents,
            },
            "replica": outcome_extra(&entry.replica),
            "intended": outcome_extra(&entry.intended),
        }),
        instance,
        report,
    })
}

/// Why the file's verdict differs from the strict one.
fn reason(entry: &RunEntry, report: &Report) -> String {
    if !entry.harness_done {
        return "the file records a failure, yet its plan serves every order in both modes (an earlier attempt's error, or an answer the harness could not read)".into();
    }
    if let Some(why) = entry.difference.as_ref().filter(|_| !entry.replica.done) {
        return format!("the file says done, but the game's replay of its plan differs: {why}");
    }
    match &entry.intended.error {
        Some(e) => format!(
            "the game accepts the plan, but it breaks a rule the prompt states at t = {}: {}",
            e.time, e.rule
        ),
        None if !entry.intended.done => format!(
            "the game accepts the plan, but under the rules the prompt states it leaves {:?} open",
            entry.intended.remaining
        ),
        None => crate::harness::rule_counts(report),
    }
}

/// The replay data an entry keeps for the headline.
struct Judged {
    t_max: (f64, f64),
    cooks: usize,
    file: (bool, f64, Vec<(f64, f64, f64)>),
    replica: (bool, f64, Vec<(f64, f64, f64)>),
    intended_done: bool,
}

fn judged(extra: &Value) -> Option<Judged> {
    let pair = |v: &Value| serde_json::from_value::<(f64, f64)>(v.clone()).ok();
    let agents = |v: &Value| serde_json::from_value::<Vec<(f64, f64, f64)>>(v.clone()).ok();
    let run = |v: &Value| {
        Some((
            v["done"].as_bool()?,
            v["oct"].as_f64()?,
            agents(&v["agents"])?,
        ))
    };
    let file = &extra["file"];
    Some(Judged {
        t_max: pair(&extra["t_max"])?,
        cooks: extra["cooks"].as_u64()? as usize,
        file: (
            file["done"].as_bool()?,
            file["time"].as_f64()?,
            agents(&file["agents"])?,
        ),
        replica: run(&extra["replica"])?,
        intended_done: extra["intended"]["done"].as_bool()?,
    })
}

/// Whether the entries are the concrete harness's.
pub fn is_concrete(entries: &[Entry]) -> bool {
    entries
        .iter()
        .filter_map(|e| e.scored.as_ref().ok())
        .any(|s| s.extra[TAG] == true)
}

/// The headline: the script's metrics from the files and corrected (see the module docs).
pub fn headline(rows: &[Row], entries: &[Entry]) -> Headline {
    let scored: Vec<(&Row, Judged)> = rows
        .iter()
        .zip(entries)
        .filter(|(r, _)| r.error.is_none())
        .filter_map(|(r, e)| Some((r, judged(&e.scored.as_ref().ok()?.extra)?)))
        .collect();
    let sample = |j: &Judged, (done, time, agents): (bool, f64, Vec<(f64, f64, f64)>)| Sample {
        done,
        time,
        agents,
        penalty: j.t_max,
        reference: Some(j.t_max.0),
        cooks: j.cooks,
    };
    let original: Vec<Sample> = scored
        .iter()
        .map(|(_, j)| sample(j, j.file.clone()))
        .collect();
    let corrected: Vec<Sample> = scored
        .iter()
        .map(|(r, j)| {
            let valid = r.valid == Some(true);
            // The best known plan: makespan's, or the answer itself where it is better.
            let best = r.optimum.map(|o| {
                if valid {
                    (o as f64).min(j.replica.1)
                } else {
                    o as f64
                }
            });
            Sample {
                reference: best,
                ..sample(j, (valid, j.replica.1, j.replica.2.clone()))
            }
        })
        .collect();
    let (o, c) = (metrics(&original), metrics(&corrected));
    let get = |m: Option<Metrics>, f: fn(&Metrics) -> f64| m.as_ref().map(f);
    let n = scored.len();
    let percent = |k: usize| (n > 0).then(|| 100.0 * k as f64 / n as f64);
    let no_best = scored
        .iter()
        .filter(|(r, _)| r.valid == Some(true) && r.optimum.is_none())
        .count();
    let with_best = corrected.iter().any(|s| s.done && s.reference.is_some());
    let mut noct = Metric::new(
        "nOCT",
        "mean time of the successes over a reference (original: T_max, the script's serial estimate; corrected: the kitchen's best known plan, makespan's or the answer's own)",
        get(o, |m| m.noct),
        get(c, |m| m.noct).filter(|_| with_best),
    );
    if no_best > 0 {
        noct.note = Some(format!(
            "{no_best} success(es) without a best known plan are left out of the corrected figure"
        ));
    }
    Headline {
        metrics: vec![
            Metric::new(
                "SR",
                "success rate, % of answers (original: the file's done; corrected: done in both modes of makespan's replay)",
                get(o, |m| 100.0 * m.sr),
                get(c, |m| 100.0 * m.sr),
            ),
            Metric::new(
                "pOCT",
                "mean time, a failure counted as T_max (a penalty in both figures)",
                get(o, |m| m.poct),
                get(c, |m| m.poct),
            ),
            noct,
            Metric::new(
                "pMD",
                "mean moving time per cook, a failure's cooks T_max's moves / cooks each",
                get(o, |m| m.pmd),
                get(c, |m| m.pmd),
            ),
            Metric::new(
                "AU",
                "mean (execution − waiting) / execution over the cooks of successes",
                get(o, |m| m.au),
                get(c, |m| m.au),
            ),
            Metric::new(
                "OCT/LB",
                "mean time of the successes over the kitchen's proven lower bound (at least their ratio to the optimum)",
                None,
                mean(scored.iter().filter(|(r, _)| r.valid == Some(true)).filter_map(
                    |(r, j)| {
                        let bound = r.bound.filter(|b| *b > 0)? as f64;
                        Some(j.replica.1 / bound)
                    },
                )),
            ),
            Metric::new(
                "SR game",
                "% of answers the game's own rules serve in full (makespan's replica replay)",
                None,
                percent(scored.iter().filter(|(_, j)| j.replica.0).count()),
            ),
            Metric::new(
                "SR rules",
                "% of answers the rules the prompt states serve in full (makespan's intended replay)",
                None,
                percent(scored.iter().filter(|(_, j)| j.intended_done).count()),
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_last_four_parts_of_a_result_path() {
        assert_eq!(
            key_of(Path::new(
                "IO/gpt/pasta/seed_42/agent_num_2/orders_num_2.json"
            ))
            .as_deref(),
            Some("pasta/seed_42/agent_num_2/orders_num_2")
        );
        assert_eq!(
            key_of(Path::new("pasta/seed_42/agent_num_2/orders_num_2.json")).as_deref(),
            Some("pasta/seed_42/agent_num_2/orders_num_2")
        );
        assert_eq!(
            key_of(Path::new("seed_42/agent_num_2/orders_num_2.json")),
            None
        );
        assert_eq!(
            key_of(Path::new("pasta/seed_x/agent_num_2/orders_num_2.json")),
            None
        );
        assert_eq!(
            key_of(Path::new("pasta/seed_42/agent_num_2/orders_num_2.txt")),
            None
        );
    }
}
