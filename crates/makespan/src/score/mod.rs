//! Scoring a whole model run from the benchmark's own output files (`makespan score`).
//!
//! A run is what a benchmark's harness leaves behind: a results file, a folder of
//! trajectories or of logs. [`score_run`] asks each benchmark's
//! [`Harness`] whether the run is its own, lets it tie every answer to its instance in the
//! user's checkout (`data`) and check it strictly and by the original's rules, adds the
//! optimum of every instance (from a folder of solutions, else solved here and cached there),
//! and returns the [`RunReport`]: one [`Row`] per answer, the [`Headline`] metrics original and
//! corrected, and the [`Difference`]s between the two verdicts.
//!
//! The report's types are plain data, defined beside the harness readers in
//! [`benchmarks::harness`] and re-exported here; [`page`] draws a scored run as one HTML page;
//! [`leaderboard`] scores a folder of several models' runs side by side.
//! Everything about scoring a run is here or in a benchmark's `harness.rs`: the CLI's
//! `score` command and Python's `score` only call these.

pub mod leaderboard;
pub mod page;
mod template;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::benchmarks::{self, harness::Entry};
use crate::instance::problem_hash;
use crate::{Instance, LoadError, Solution, SolveOptions, Status};

pub use makespan_benchmarks::harness::{
    Difference, Harness, Headline, Metric, Row, RunReport, RUN_REPORT_FORMAT,
};

/// How to score a run.
#[derive(Debug, Clone, Default)]
pub struct ScoreOptions {
    /// The root of the user's checkout of the benchmark; `None`: `$MAKESPAN_DATA`.
    pub data: Option<PathBuf>,
    /// A folder of solution files (`<instance>.json`) read for the optima; instances without
    /// one are solved and their solutions written there.
    pub solutions: Option<PathBuf>,
    /// How instances without a stored solution are solved.
    pub solve: SolveOptions,
}

/// The checkout: the option, else `$MAKESPAN_DATA`; there is no other default.
pub fn checkout(run: &Path, data: Option<&Path>) -> Result<PathBuf, LoadError> {
    data.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MAKESPAN_DATA").map(PathBuf::from))
        .ok_or_else(|| {
            let needs = format!(
                "makespan needs the benchmark's own files: pass {} with the root of your checkout of the benchmark (or set MAKESPAN_DATA)",
                crate::setting::Setting::Data
            );
            LoadError::usage(run, needs)
        })
}

/// The harness whose output `run` is, with its benchmark's name.
pub fn harness_of(run: &Path) -> Option<(&'static str, &'static dyn Harness)> {
    benchmarks::registry()
        .iter()
        .filter_map(|b| Some((b.name(), b.harness()?)))
        .find(|(_, h)| h.recognises(run))
}

/// Scores a whole run (see the module docs). Fails only when the run or the checkout cannot
/// be used at all; an answer that cannot be scored is a row with its error.
pub fn score_run(run: &Path, options: &ScoreOptions) -> Result<RunReport, LoadError> {
    score_run_detailed(run, options).map(|scored| scored.report)
}

/// A scored run with what its report leaves out: every answer as checked (its schedule
/// included) and each instance's optimum solution, for explanations and pictures.
#[derive(Debug, Clone)]
pub struct ScoredRun {
    /// The run report.
    pub report: RunReport,
    /// The answers as the harness read and checked them, in the report's row order.
    pub entries: Vec<Entry>,
    /// Each instance's optimum (or best known) solution, by problem hash, or why there is none.
    pub optima: HashMap<String, Result<Solution, String>>,
}

/// [`score_run`], keeping the answers' schedules and the optima's solutions.
pub fn score_run_detailed(run: &Path, options: &ScoreOptions) -> Result<ScoredRun, LoadError> {
    if !run.exists() {
        return Err(LoadError::Io {
            path: run.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
        });
    }
    let data = checkout(run, options.data.as_deref())?;
    if let Some(dir) = &options.solutions {
        std::fs::create_dir_all(dir).map_err(|source| LoadError::Io {
            path: dir.clone(),
            source,
        })?;
    }
    let (benchmark, harness) = harness_of(run).ok_or_else(|| {
        let forms: Vec<&str> = benchmarks::registry()
            .iter()
            .filter_map(|b| Some(b.harness()?.run_form()))
            .collect();
        LoadError::usage(
            run,
            format!(
                "not a run makespan can score: expected {}",
                forms.join(", or ")
            ),
        )
    })?;
    let entries = harness.read(run, &data)?;
    let optima = optima(&entries, options);
    let rows: Vec<Row> = entries.iter().map(|entry| row(entry, &optima)).collect();
    let differences = entries
        .iter()
        .filter_map(|e| {
            let s = e.scored.as_ref().ok()?;
            let original = s.original_valid?;
            (original != s.report.valid).then(|| Difference {
                key: e.key.clone(),
                original_valid: original,
                valid: s.report.valid,
                reason: s
                    .difference
                    .clone()
                    .unwrap_or_else(|| benchmarks::harness::rule_counts(&s.report)),
            })
        })
        .collect();
    let mut headline = harness.headline(&rows, &entries);
    let unanswered = match harness.scope(run, &data, &entries) {
        Some(scope) => over_scope(&scope, &rows, &mut headline),
        None => Vec::new(),
    };
    let report = RunReport {
        format: RUN_REPORT_FORMAT.to_string(),
        benchmark: benchmark.to_string(),
        run: run.display().to_string(),
        data: data.display().to_string(),
        score_name: harness.score_name().to_string(),
        rows,
        headline,
        differences,
        unanswered,
        time_unit: entries
            .iter()
            .find_map(|e| Some(e.scored.as_ref().ok()?.instance.time_unit))
            .unwrap_or_default(),
    };
    Ok(ScoredRun {
        report,
        entries,
        optima,
    })
}

/// The scope's keys with no row, sorted; and beside the harness's success metric its twin over
/// every key of the scope, an unanswered key counted as a failure (by the original's verdict
/// and by the strict one).
fn over_scope(
    scope: &benchmarks::harness::Scope,
    rows: &[Row],
    headline: &mut Headline,
) -> Vec<String> {
    let answered: HashMap<&str, &Row> = rows.iter().map(|r| (r.key.as_str(), r)).collect();
    let mut unanswered: Vec<String> = scope
        .keys
        .iter()
        .filter(|k| !answered.contains_key(k.as_str()))
        .cloned()
        .collect();
    unanswered.sort();
    unanswered.dedup();
    let n = scope.keys.len();
    if n == 0 {
        return unanswered;
    }
    let share = |success: &dyn Fn(&Row) -> bool| {
        let hits = scope
            .keys
            .iter()
            .filter(|k| answered.get(k.as_str()).is_some_and(|r| success(r)))
            .count();
        Some(100.0 * hits as f64 / n as f64)
    };
    let at = headline
        .metrics
        .iter()
        .position(|m| m.name == scope.success_metric)
        .map_or(headline.metrics.len(), |i| i + 1);
    headline.metrics.insert(
        at,
        Metric::new(
            &format!("{}-all", scope.success_metric),
            &format!(
                "{} over all {n} keys of {} (an unanswered key counts as a failure; original: the benchmark's own verdict per answer)",
                scope.success_metric, scope.about
            ),
            share(&|r| r.original_valid == Some(true)),
            share(&|r| r.valid == Some(true)),
        ),
    );
    unanswered
}

/// The optimum (or best known makespan) of each instance, by problem hash, and whether it is
/// proven; `Err` says why there is none.
type Optima = HashMap<String, Result<Solution, String>>;

/// Every distinct instance's optimum: its solution file under `--solutions` when that solves
/// the same problem, else solved here (in parallel) and written there.
fn optima(entries: &[Entry], options: &ScoreOptions) -> Optima {
    let mut distinct: BTreeMap<String, &Instance> = BTreeMap::new();
    for entry in entries {
        if let Ok(s) = &entry.scored {
            distinct
                .entry(problem_hash(&s.instance))
                .or_insert(&s.instance);
        }
    }
    distinct
        .into_par_iter()
        .map(|(hash, instance)| {
            let optimum = optimum(instance, &hash, options);
            (hash, optimum)
        })
        .collect()
}

fn optimum(instance: &Instance, hash: &str, options: &ScoreOptions) -> Result<Solution, String> {
    let path = options
        .solutions
        .as_deref()
        .map(|dir| crate::batch::solution_path(dir, &instance.name));
    let stored = path
        .as_deref()
        .and_then(|p| Solution::read(p).ok())
        .filter(|s| problem_hash(&s.instance.instance) == hash && s.makespan.is_some())
        // A cached file is a claim: one its schedule does not back is solved again.
        .filter(|s| makespan_benchmarks::recheck(s).is_ok());
    let solution = match stored {
        Some(solution) => solution,
        None => {
            let solution = crate::solve(instance, &options.solve);
            if let (Some(path), Some(_)) = (&path, solution.makespan) {
                let json = serde_json::to_string_pretty(&solution).map_err(|e| e.to_string())?;
                crate::batch::write_atomically(path, json.as_bytes()).map_err(|e| e.to_string())?;
            }
            solution
        }
    };
    match solution.makespan {
        Some(_) => Ok(solution),
        None => Err(format!(
            "no optimum: {} {}",
            solution.status,
            solution.reason.unwrap_or_default()
        )),
    }
}

/// One entry as a report row.
fn row(entry: &Entry, optima: &Optima) -> Row {
    let s = match &entry.scored {
        Ok(s) => s,
        Err(why) => {
            return Row {
                key: entry.key.clone(),
                error: Some(why.clone()),
                ..Row::default()
            }
        }
    };
    let report = &s.report;
    let mut violations: BTreeMap<String, usize> = BTreeMap::new();
    for v in &report.violations {
        *violations.entry(v.rule.name().to_string()).or_default() += 1;
    }
    let mut notes = s.notes.clone();
    let optimum = match &optima[&problem_hash(&s.instance)] {
        Ok(found) => found
            .makespan
            .map(|m| (m, found.status == Status::Optimal, found.lower_bound)),
        Err(why) => {
            notes.push(why.clone());
            None
        }
    };
    let ratio = match (report.valid, report.makespan, optimum) {
        (true, Some(m), Some((o, ..))) if o > 0 => Some(m as f64 / o as f64),
        _ => None,
    };
    Row {
        key: entry.key.clone(),
        instance: Some(s.instance.name.clone()),
        valid: Some(report.valid),
        violations,
        messages: report
            .violations
            .iter()
            .map(|v| format!("{}: {}", v.rule, v.message))
            .collect(),
        makespan: report.makespan,
        optimum: optimum.map(|(o, ..)| o),
        proven: optimum.map(|(_, p, _)| p),
        bound: optimum.and_then(|(.., b)| b),
        ratio,
        original_valid: s.original_valid,
        original_score: s.original_score,
        corrected_score: s.corrected_score,
        notes,
        error: None,
        unfinishable: s.unfinishable.clone(),
    }
}

/// The report as CSV, one line per row: `key, instance, valid, makespan, optimum, proven,
/// ratio, original_valid, original_score, corrected_score, violations` (`rule:n;…`), `notes`,
/// `error`, `unfinishable` (why the benchmark's own environment cannot complete the entry).
pub fn csv(report: &RunReport) -> Result<Vec<u8>, csv::Error> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record([
        "key",
        "instance",
        "valid",
        "makespan",
        "optimum",
        "proven",
        "ratio",
        "original_valid",
        "original_score",
        "corrected_score",
        "violations",
        "notes",
        "error",
        "unfinishable",
    ])?;
    fn cell<T: ToString>(value: Option<T>) -> String {
        value.map_or(String::new(), |v| v.to_string())
    }
    for r in &report.rows {
        let violations: Vec<String> = r
            .violations
            .iter()
            .map(|(k, n)| format!("{k}:{n}"))
            .collect();
        let text = |t: String| crate::batch::spreadsheet_safe(&t);
        out.write_record([
            text(r.key.clone()),
            text(cell(r.instance.as_ref())),
            cell(r.valid),
            cell(r.makespan),
            cell(r.optimum),
            cell(r.proven),
            cell(r.ratio.map(|x| format!("{x:.4}"))),
            cell(r.original_valid),
            cell(r.original_score),
            cell(r.corrected_score),
            text(violations.join(";")),
            text(r.notes.join(" | ")),
            text(cell(r.error.as_ref())),
            text(cell(r.unfinishable.as_ref())),
        ])?;
    }
    out.into_inner().map_err(|e| e.into_error().into())
}

/// The report as text for a terminal: a table of the rows, the headline metrics original and
/// corrected, and the differences with their reasons.
pub fn render_text(report: &RunReport) -> String {
    use std::fmt::Write as _;
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let mut out = String::new();
    let width = report
        .rows
        .iter()
        .map(|r| r.key.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let _ = writeln!(
        out,
        "{:width$}  {:7}  {:>8}  {:>8}  {:>6}  {:>9}  {:>9}  violations / error",
        "key", "valid", "makespan", "optimum", "ratio", "orig", "corrected"
    );
    for r in &report.rows {
        let valid = match (r.valid, r.original_valid) {
            (None, _) => "error",
            (Some(true), _) => "valid",
            (Some(false), _) => "INVALID",
        };
        let valid = if r.unfinishable.is_some() {
            format!("{valid}*")
        } else {
            valid.to_string()
        };
        let show = |t: i64| report.time_unit.show(t);
        let optimum = r.optimum.map(|o| {
            if r.proven == Some(true) {
                show(o)
            } else {
                format!("≤{}", show(o))
            }
        });
        let what = match &r.error {
            Some(e) => e.clone(),
            None => r
                .violations
                .iter()
                .map(|(k, n)| format!("{k} ×{n}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let _ = writeln!(
            out,
            "{:width$}  {:7}  {:>8}  {:>8}  {:>6}  {:>9}  {:>9}  {}",
            r.key,
            valid,
            opt(r.makespan.map(show)),
            opt(optimum),
            opt(r.ratio.map(|x| format!("{x:.3}"))),
            opt(r.original_score.map(|x| format!("{x:.4}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string())),
            opt(r.corrected_score.map(|x| format!("{x:.4}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string())),
            what
        );
    }
    let _ = writeln!(
        out,
        "\n{} run {}: {} answers, {} valid, {} invalid, {} not scored (scores: {})",
        report.benchmark,
        report.run,
        report.rows.len(),
        report.rows.iter().filter(|r| r.valid == Some(true)).count(),
        report.invalid(),
        report.unscored(),
        report.score_name
    );
    if !report.unanswered.is_empty() {
        const SHOWN: usize = 10;
        let shown: Vec<&str> = report
            .unanswered
            .iter()
            .take(SHOWN)
            .map(String::as_str)
            .collect();
        let _ = writeln!(
            out,
            "{} key(s) of the checkout have no answer in the run (the harness recorded none): {}{}",
            report.unanswered.len(),
            shown.join(", "),
            if report.unanswered.len() > SHOWN {
                ", … (the JSON report lists every one)"
            } else {
                ""
            }
        );
    }
    let fair = report.headline.metrics.iter().any(|m| m.fair.is_some());
    let unfinishable = report
        .rows
        .iter()
        .filter(|r| r.unfinishable.is_some())
        .count();
    if fair {
        let _ = writeln!(
            out,
            "{unfinishable} of them (marked *) cannot be completed in the benchmark's own environment whatever the answer; the fair column leaves them out"
        );
    }
    let _ = writeln!(
        out,
        "{:6}  {:>10}  {:>10}{}  about",
        "metric",
        "original",
        "corrected",
        if fair {
            format!("  {:>10}", "fair")
        } else {
            String::new()
        }
    );
    for m in &report.headline.metrics {
        let _ = writeln!(
            out,
            "{:8}  {:>10}  {:>10}{}  {}",
            m.name,
            opt(m.original.map(|x| format!("{x:.4}"))),
            opt(m.corrected.map(|x| format!("{x:.4}"))),
            if fair {
                format!("  {:>10}", opt(m.fair.map(|x| format!("{x:.4}"))))
            } else {
                String::new()
            },
            m.about
        );
    }
    for m in report.headline.metrics.iter().filter(|m| m.note.is_some()) {
        let _ = writeln!(
            out,
            "original {}: {}",
            m.name,
            m.note.as_deref().unwrap_or_default()
        );
    }
    if !report.differences.is_empty() {
        let _ = writeln!(
            out,
            "\nverdicts that differ ({}):",
            report.differences.len()
        );
        for d in &report.differences {
            let verdict = |v: bool| if v { "valid" } else { "invalid" };
            let _ = writeln!(
                out,
                "{}: original {}, strict {}: {}",
                d.key,
                verdict(d.original_valid),
                verdict(d.valid),
                d.reason
            );
        }
    }
    out
}
