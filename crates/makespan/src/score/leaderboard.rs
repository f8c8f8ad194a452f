//! Several models' runs of one benchmark scored side by side (`makespan score DIR`): a folder
//! of the harness's results files (one `<model>.json` each) or of one folder per model
//! (trajectories, logs, evaluation folders). Each run is scored as [`super::score_run`] scores it alone; the [`Leaderboard`]
//! keeps one [`Standing`] per model: its counts and its headline metrics, original and
//! corrected. A run that cannot be scored is its model's error row, and the others stand.
//!
//! Standings are ranked by the corrected figure of the benchmark's first headline metric (a
//! success rate or a progress score: higher is better), then by name.

use std::path::{Path, PathBuf};

use minijinja::context;
use serde::{Deserialize, Serialize};

use super::{harness_of, score_run, template, Metric, RunReport, ScoreOptions};
use crate::LoadError;

/// The `format` tag of a serialised [`Leaderboard`].
pub const LEADERBOARD_FORMAT: &str = "makespan-leaderboard/1";

/// Several models' runs of one benchmark, scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// Always [`LEADERBOARD_FORMAT`].
    pub format: String,
    /// The benchmark whose harness wrote the runs.
    pub benchmark: String,
    /// The folder of runs as given.
    pub folder: String,
    /// The root of the benchmark checkout the instances were read from.
    pub data: String,
    /// One per model, best first.
    pub standings: Vec<Standing>,
}

/// One model's run on the leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The model: the results file's name without `.json`, or the run folder's name.
    pub model: String,
    /// The run's file or folder.
    pub run: String,
    /// Answers the run records.
    pub answers: usize,
    /// Of them, valid by the strict check.
    pub valid: usize,
    /// Of them, breaking a rule.
    pub invalid: usize,
    /// Of them, not scored (each an error row of the run's own report).
    pub unscored: usize,
    /// Keys of the checkout in the run's scope with no answer ([`RunReport::unanswered`]).
    pub unanswered: usize,
    /// The run's headline metrics, original and corrected.
    pub metrics: Vec<Metric>,
    /// Why the run could not be scored at all (the other fields are then empty).
    pub error: Option<String>,
}

impl Standing {
    fn of(model: String, run: &Path, report: &RunReport) -> Standing {
        Standing {
            model,
            run: run.display().to_string(),
            answers: report.rows.len(),
            valid: report.rows.iter().filter(|r| r.valid == Some(true)).count(),
            invalid: report.invalid(),
            unscored: report.unscored(),
            unanswered: report.unanswered.len(),
            metrics: report.headline.metrics.clone(),
            error: None,
        }
    }

    fn failed(model: String, run: &Path, why: String) -> Standing {
        Standing {
            model,
            run: run.display().to_string(),
            answers: 0,
            valid: 0,
            invalid: 0,
            unscored: 0,
            unanswered: 0,
            metrics: Vec::new(),
            error: Some(why),
        }
    }
}

/// The runs directly inside `folder` that a harness recognises, by model name, with their
/// benchmark; empty when there are none (or `folder` is itself one run).
pub fn runs_in(folder: &Path) -> Vec<(String, PathBuf, &'static str)> {
    if !folder.is_dir() || harness_of(folder).is_some() {
        return Vec::new();
    }
    let mut children: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|e| Some(e.ok()?.path()))
        .collect();
    children.sort();
    children
        .into_iter()
        .filter_map(|path| {
            let (benchmark, _) = harness_of(&path)?;
            let model = if path.is_dir() {
                path.file_name()
            } else {
                path.file_stem()
            }?
            .to_string_lossy()
            .into_owned();
            Some((model, path, benchmark))
        })
        .collect()
}

/// Scores every run of `folder` ([`runs_in`]) and ranks the models. Fails only when the
/// folder holds no run, or runs of several benchmarks.
pub fn score_folder(folder: &Path, options: &ScoreOptions) -> Result<Leaderboard, LoadError> {
    let runs = runs_in(folder);
    let Some((_, _, benchmark)) = runs.first() else {
        return Err(LoadError::usage(
            folder,
            "not a run makespan can score, nor a folder of runs (several models' results files, or one folder per model)",
        ));
    };
    if let Some((model, _, other)) = runs.iter().find(|(_, _, b)| b != benchmark) {
        return Err(LoadError::usage(
            folder,
            format!("the folder mixes runs of {benchmark} and {other} ({model}); a leaderboard compares models on one benchmark: give each benchmark's runs their own folder"),
        ));
    }
    let data = super::checkout(folder, options.data.as_deref())?;
    // Every model answers the same instances: their optima are solved once, in a shared
    // folder (a scratch one unless --solutions names one).
    let scratch = tempfile::tempdir().map_err(|source| LoadError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let options = ScoreOptions {
        data: Some(data.clone()),
        solutions: Some(
            options
                .solutions
                .clone()
                .unwrap_or_else(|| scratch.path().to_path_buf()),
        ),
        solve: options.solve.clone(),
    };
    let mut standings: Vec<Standing> = runs
        .iter()
        .map(|(model, run, _)| match score_run(run, &options) {
            Ok(report) => Standing::of(model.clone(), run, &report),
            Err(e) => Standing::failed(model.clone(), run, e.to_string()),
        })
        .collect();
    let first = |s: &Standing| s.metrics.first().and_then(|m| m.corrected);
    standings.sort_by(|a, b| {
        first(b)
            .partial_cmp(&first(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.model.cmp(&b.model))
    });
    Ok(Leaderboard {
        format: LEADERBOARD_FORMAT.to_string(),
        benchmark: benchmark.to_string(),
        folder: folder.display().to_string(),
        data: data.display().to_string(),
        standings,
    })
}

/// The metric names of the leaderboard, in the order the benchmark reports them.
fn metric_names(board: &Leaderboard) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in board.standings.iter().flat_map(|s| &s.metrics) {
        if !names.contains(&m.name) {
            names.push(m.name.clone());
        }
    }
    names
}

/// A standing's metric by name.
fn metric<'a>(standing: &'a Standing, name: &str) -> Option<&'a Metric> {
    standing.metrics.iter().find(|m| m.name == name)
}

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

/// The leaderboard as CSV, one line per model: `model, run, answers, valid, invalid,
/// unscored, unanswered`, then `<metric>_original` and `<metric>_corrected` for each headline
/// metric, then `error`.
pub fn csv(board: &Leaderboard) -> Result<Vec<u8>, csv::Error> {
    let names = metric_names(board);
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "model",
        "run",
        "answers",
        "valid",
        "invalid",
        "unscored",
        "unanswered",
    ]
    .map(String::from)
    .to_vec();
    for name in &names {
        header.push(format!("{name}_original"));
        header.push(format!("{name}_corrected"));
    }
    header.push("error".into());
    out.write_record(&header)?;
    let text = |t: &str| crate::batch::spreadsheet_safe(t);
    let cell = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    for s in &board.standings {
        let mut record = vec![
            text(&s.model),
            text(&s.run),
            s.answers.to_string(),
            s.valid.to_string(),
            s.invalid.to_string(),
            s.unscored.to_string(),
            s.unanswered.to_string(),
        ];
        for name in &names {
            let m = metric(s, name);
            record.push(cell(m.and_then(|m| m.original)));
            record.push(cell(m.and_then(|m| m.corrected)));
        }
        record.push(text(s.error.as_deref().unwrap_or_default()));
        out.write_record(&record)?;
    }
    out.into_inner().map_err(|e| e.into_error().into())
}

/// The leaderboard as text for a terminal: one row per model, each metric as `original /
/// corrected`, then what each metric measures and the notes on original figures.
pub fn render_text(board: &Leaderboard) -> String {
    use std::fmt::Write as _;
    let names = metric_names(board);
    let cells: Vec<Vec<String>> = board
        .standings
        .iter()
        .map(|s| {
            names
                .iter()
                .map(|name| {
                    let m = metric(s, name);
                    format!(
                        "{} / {}",
                        figure(m.and_then(|m| m.original)),
                        figure(m.and_then(|m| m.corrected))
                    )
                })
                .collect()
        })
        .collect();
    let model_width = board
        .standings
        .iter()
        .map(|s| s.model.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let widths: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            cells
                .iter()
                .map(|c| c[k].chars().count())
                .max()
                .unwrap_or(0)
                .max(name.chars().count())
        })
        .collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "{:model_width$}  {:>7}  {:>7}  {:>7}  {:>8}  {:>10}",
        "model", "answers", "valid", "invalid", "unscored", "unanswered"
    );
    for (name, w) in names.iter().zip(&widths) {
        let _ = write!(out, "  {name:>w$}");
    }
    out.push('\n');
    for (s, row) in board.standings.iter().zip(&cells) {
        let _ = write!(
            out,
            "{:model_width$}  {:>7}  {:>7}  {:>7}  {:>8}  {:>10}",
            s.model, s.answers, s.valid, s.invalid, s.unscored, s.unanswered
        );
        match &s.error {
            Some(why) => {
                let _ = write!(out, "  not scored: {why}");
            }
            None => {
                for (cell, w) in row.iter().zip(&widths) {
                    let _ = write!(out, "  {cell:>w$}");
                }
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n{} leaderboard of {} ({} models); each metric original / corrected:",
        board.benchmark,
        board.folder,
        board.standings.len()
    );
    for name in &names {
        if let Some(m) = board.standings.iter().find_map(|s| metric(s, name)) {
            let _ = writeln!(out, "  {name}: {}", m.about);
        }
    }
    for s in &board.standings {
        for m in s.metrics.iter().filter(|m| m.note.is_some()) {
            let _ = writeln!(
                out,
                "{}: original {}: {}",
                s.model,
                m.name,
                m.note.as_deref().unwrap_or_default()
            );
        }
    }
    out
}

const PAGE: &str = include_str!("leaderboard.html");

#[derive(Serialize)]
struct PageRow {
    model: String,
    counts: [usize; 5],
    figures: Vec<(String, String)>,
    error: Option<String>,
}

/// The leaderboard as one self-contained HTML page: the table of models, each metric original
/// and corrected, and what each metric measures.
pub fn leaderboard_html(board: &Leaderboard) -> String {
    let names = metric_names(board);
    let rows: Vec<PageRow> = board
        .standings
        .iter()
        .map(|s| PageRow {
            model: s.model.clone(),
            counts: [s.answers, s.valid, s.invalid, s.unscored, s.unanswered],
            figures: names
                .iter()
                .map(|name| {
                    let m = metric(s, name);
                    (
                        figure(m.and_then(|m| m.original)),
                        figure(m.and_then(|m| m.corrected)),
                    )
                })
                .collect(),
            error: s.error.clone(),
        })
        .collect();
    let abouts: Vec<(String, String)> = names
        .iter()
        .filter_map(|name| {
            let m = board.standings.iter().find_map(|s| metric(s, name))?;
            Some((name.clone(), m.about.clone()))
        })
        .collect();
    let notes: Vec<String> = board
        .standings
        .iter()
        .flat_map(|s| {
            s.metrics.iter().filter_map(move |m| {
                Some(format!(
                    "{}: original {}: {}",
                    s.model,
                    m.name,
                    m.note.as_ref()?
                ))
            })
        })
        .collect();
    template::render(
        "leaderboard.html",
        PAGE,
        context! {
            title => format!("{} leaderboard: {}", board.benchmark, board.folder),
            names => names,
            rows => minijinja::value::Serde(rows),
            abouts => abouts,
            notes => notes,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(model: &str, sr: Option<f64>) -> Standing {
        Standing {
            metrics: vec![Metric::new("SR", "success rate", Some(90.0), sr)],
            ..Standing::failed(model.into(), Path::new(model), String::new())
        }
    }

    #[test]
    fn the_page_escapes_model_names_and_shows_both_figures() {
        let board = Leaderboard {
            format: LEADERBOARD_FORMAT.into(),
            benchmark: "any-benchmark".into(),
            folder: "runs".into(),
            data: "data".into(),
            standings: vec![Standing {
                error: None,
                ..standing("<b>m</b>", Some(50.0))
            }],
        };
        let page = leaderboard_html(&board);
        assert!(
            page.contains("<td>&lt;b&gt;m") && !page.contains("<b>m"),
            "{page}"
        );
        assert!(
            page.contains("90.0000") && page.contains("50.0000"),
            "{page}"
        );
        let text = render_text(&board);
        assert!(text.contains("90.0000 / 50.0000"), "{text}");
    }
}
