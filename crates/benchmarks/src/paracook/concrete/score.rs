//! A whole concrete run as the harness writes it (`results/<method>/<model>/<category>/
//! seed_<s>/agent_num_<m>/orders_num_<k>.json`: `done`, `time`, the per-cook times and the
//! last attempt's `plan`), scored as the benchmark's statistics script scores it and again
//! from makespan's replays of each plan in both modes.
//!
//! The script's metrics: SR (share done), pOCT (mean of the time, T_max for a failure),
//! nOCT (mean over successes of time / T_max), pMD (mean over cooks of the moving time, a
//! failure's cooks T_max's moves / m each) and AU (mean over the cooks of successes of
//! (execution − waiting) / execution). T_max is the script's serial estimate (18 steps per
//! walk, whatever the map and the number of cooks). `makespan score` adds the metrics
//! corrected against the best known plans and their bounds ([`super::harness`]).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::kitchen::Kitchen;
use super::sim::{simulate, Mode, Outcome, Plan};
use makespan_model::instance::LoadError;

/// The script's walk length for every leg.
const LEG: f64 = 18.0;

/// The statistics script's serial estimate of an instance: `(time, moves)`.
pub fn t_max(kitchen: &Kitchen) -> (f64, f64) {
    let c = &kitchen.constants;
    let (mut time, mut moves) = (0.0, 0.0);
    for dish in &kitchen.orders {
        let Some(recipe) = kitchen.recipe(dish) else {
            continue;
        };
        for ing in &recipe.ingredients {
            let (legs, work) = match ing.state.as_str() {
                "raw" => (2.0, 0.0),
                "chopped" => (3.0, c.cut_time as f64),
                "cooked" if ing.item == "rice" || ing.item == "pasta" => {
                    (4.0, c.pot_cook_time as f64)
                }
                "cooked" => (4.0, c.pan_cook_time as f64),
                _ => (0.0, 0.0),
            };
            time += legs * LEG + work;
            moves += legs * LEG;
        }
        time += LEG;
        moves += LEG;
    }
    let washes = kitchen.orders.len().saturating_sub(2) as f64;
    time += washes * (2.0 * LEG + (c.return_time + c.wash_time) as f64);
    moves += washes * 2.0 * LEG;
    (time, moves)
}

/// What one result file says and what makespan's replays say.
#[derive(Debug, Clone, Serialize)]
pub struct RunEntry {
    /// The harness key.
    pub key: String,
    /// The file's verdict.
    pub harness_done: bool,
    /// The file's time.
    pub harness_time: f64,
    /// Per cook `(moving, waiting, execution)` as the file gives them.
    pub harness_agents: Vec<(f64, f64, f64)>,
    /// The plan replayed as the game runs it.
    pub replica: Outcome,
    /// The plan replayed under the prompt's rules.
    pub intended: Outcome,
    /// The serial estimate (time, moves).
    pub t_max: (f64, f64),
    /// Why the file's verdict or time differs from the replica replay, when it does.
    pub difference: Option<String>,
}

/// The script's five metrics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Metrics {
    /// Success rate.
    pub sr: f64,
    /// Penalised mean time.
    pub poct: f64,
    /// Mean time over T_max of the successes.
    pub noct: f64,
    /// Penalised mean moving time per cook.
    pub pmd: f64,
    /// Mean utilisation of the cooks of successes.
    pub au: f64,
}

/// Per cook `(moving, waiting, execution)`.
pub type CookTimes = Vec<(f64, f64, f64)>;

/// `(done, time, per cook times)` of one answer, by one judge.
type Judged = (bool, f64, CookTimes);

/// One answer as the metrics see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Counted a success.
    pub done: bool,
    /// Its time (OCT).
    pub time: f64,
    /// Per cook `(moving, waiting, execution)`.
    pub agents: CookTimes,
    /// What a failure counts instead: `(time, moves)` (the script's T_max).
    pub penalty: (f64, f64),
    /// What nOCT divides a success's time by (the script: T_max; a reference of 0 counts 0);
    /// `None` leaves the answer out of nOCT.
    pub reference: Option<f64>,
    /// Cooks of the kitchen.
    pub cooks: usize,
}

/// The metrics as the statistics script computes them over `samples`.
pub fn metrics(samples: &[Sample]) -> Option<Metrics> {
    if samples.is_empty() {
        return None;
    }
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let (mut times, mut rates, mut moves, mut utils, mut done) =
        (vec![], vec![], vec![], vec![], 0);
    for s in samples {
        if s.done {
            done += 1;
            times.push(s.time);
            if let Some(r) = s.reference {
                rates.push(if r > 0.0 { s.time / r } else { 0.0 });
            }
            for &(mv, wait, exec) in &s.agents {
                utils.push(if exec > 0.0 {
                    (exec - wait) / exec
                } else {
                    0.0
                });
                moves.push(mv);
            }
        } else {
            times.push(s.penalty.0);
            for _ in &s.agents {
                moves.push(s.penalty.1 / s.cooks.max(1) as f64);
            }
        }
    }
    Some(Metrics {
        sr: done as f64 / samples.len() as f64,
        poct: mean(&times),
        noct: mean(&rates),
        pmd: mean(&moves),
        au: mean(&utils),
    })
}

/// The whole run: every entry, and the metrics as the script computes them from the files
/// and from the replays in each mode.
#[derive(Debug, Clone, Serialize)]
pub struct RunScore {
    /// One per result file, in key order.
    pub entries: Vec<RunEntry>,
    /// Result files that could not be scored, with why.
    pub errors: Vec<(String, String)>,
    /// From the files' own fields.
    pub original: Option<Metrics>,
    /// From the replica replays (T_max as the reference).
    pub replica: Option<Metrics>,
    /// From the intended replays (T_max as the reference).
    pub intended: Option<Metrics>,
}

/// Reads one result file against its kitchen and replays its plan in both modes; also the
/// plan (empty when the file's `plan` is not one, with why). An error names the file and the
/// field when the file is not a result file.
pub fn read_result(
    kitchen: &Kitchen,
    path: &Path,
) -> Result<(RunEntry, Plan, Option<String>), String> {
    let text = makespan_model::input::read_text(path).map_err(|e| e.to_string())?;
    let data: Value =
        serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e).to_string())?;
    let field = |name: &str, what: &str| {
        LoadError::format(
            path,
            name,
            format!("a result file of the harness (src/main.py) has {what}"),
        )
        .to_string()
    };
    let harness_done = data
        .get("done")
        .and_then(Value::as_bool)
        .ok_or_else(|| field("done", "\"done\": true or false"))?;
    let harness_time = match data.get("time").and_then(Value::as_f64) {
        Some(t) => t,
        None if !harness_done => 0.0,
        None => return Err(field("time", "a number \"time\" when done")),
    };
    let agents: Vec<(f64, f64, f64)> = kitchen
        .map
        .agents
        .iter()
        .map(|a| {
            let get = |f: &str| data[f][&a.name].as_f64().unwrap_or(0.0);
            (
                get("agent_moving_time"),
                get("agent_waiting_time"),
                get("agent_all_execution_time"),
            )
        })
        .collect();
    let (plan, unreadable) = match data.get("plan").map(Plan::from_json) {
        Some(Ok(plan)) => (plan, None),
        Some(Err(why)) => (Plan::default(), Some(why)),
        None => (
            Plan::default(),
            Some("the file has no \"plan\" (the last attempt's action lists)".to_string()),
        ),
    };
    let replica = simulate(kitchen, &plan, Mode::Replica);
    let intended = simulate(kitchen, &plan, Mode::Intended);
    let difference = if harness_done != replica.done {
        Some(match &replica.error {
            Some(e) => format!("the replay fails at t = {}: {}", e.time, e.rule),
            None if !replica.all_served => format!("the replay leaves {:?} open", replica.remaining),
            None => "the replay serves every order; the file records a failure (an earlier attempt's error, or an unreadable answer)".into(),
        })
    } else if harness_done && harness_time != replica.oct {
        Some(format!(
            "the file says time {harness_time}, the replay {}",
            replica.oct
        ))
    } else {
        None
    };
    let entry = RunEntry {
        key: kitchen.key.clone(),
        harness_done,
        harness_time,
        harness_agents: agents,
        replica,
        intended,
        t_max: t_max(kitchen),
        difference,
    };
    Ok((entry, plan, unreadable))
}

/// Per cook `(moving, waiting, execution)` of a replay.
pub fn cook_times(o: &Outcome) -> CookTimes {
    o.agents
        .iter()
        .map(|a| (a.moving, a.waiting, a.execution))
        .collect()
}

/// The script's sample of an entry judged by `done`, `time` and `agents`.
fn scripts_sample(e: &RunEntry, (done, time, agents): Judged) -> Sample {
    Sample {
        cooks: agents.len().max(1),
        done,
        time,
        agents,
        penalty: e.t_max,
        reference: Some(e.t_max.0),
    }
}

/// Scores the result files under `results` (a model's folder, or any folder whose files end
/// in `<category>/seed_<s>/agent_num_<m>/orders_num_<k>.json`) against `kitchens`.
pub fn score_run(results: &Path, kitchens: &[Kitchen]) -> Result<RunScore, LoadError> {
    let files = crate::walk::input_files(results)?;
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let rel: PathBuf = file
            .strip_prefix(results)
            .map(Path::to_path_buf)
            .unwrap_or(file.clone());
        let parts: Vec<String> = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.len() < 4 {
            continue;
        }
        let key = parts[parts.len() - 4..].join("/");
        match kitchens.iter().find(|k| k.key == key) {
            Some(k) => match read_result(k, &file) {
                Ok((e, ..)) => entries.push(e),
                Err(why) => errors.push((key, why)),
            },
            None => errors.push((
                key,
                format!(
                    "{}: no instance of the checkout has this key",
                    file.display()
                ),
            )),
        }
    }
    entries.sort_by(|a, b| a.key.cmp(&b.key));
    let samples = |f: &dyn Fn(&RunEntry) -> Judged| -> Vec<Sample> {
        entries.iter().map(|e| scripts_sample(e, f(e))).collect()
    };
    let replayed = |o: &Outcome| (o.done, o.oct, cook_times(o));
    Ok(RunScore {
        original: metrics(&samples(&|e| {
            (e.harness_done, e.harness_time, e.harness_agents.clone())
        })),
        replica: metrics(&samples(&|e| replayed(&e.replica))),
        intended: metrics(&samples(&|e| replayed(&e.intended))),
        entries,
        errors,
    })
}
