//! `makespan score`: a whole model run, from the benchmark's own output files, scored
//! strictly and as the original scores it. The work is `makespan::score`; this file parses
//! flags, writes the files asked for and prints.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use makespan::batch::write_atomically;
use makespan::score::{self, ScoreOptions};
use makespan::SolveOptions;

use crate::terminal;

#[derive(clap::Args)]
pub struct ScoreArgs {
    /// The run: a ParaCook results file (results/abstract/<model>.json) or a model's folder
    /// of concrete results (results/<method>/<model>), a folder of TimeArena trajectories
    /// (LLM_test.py --save_path), or a folder of Recipe2Plan logs
    /// (evaluation/logs/<model>/<level>/<agent>/<domain>). A folder of several models' runs
    /// (their results files, or one folder each) gives one leaderboard: a row per model.
    run: PathBuf,
    /// The root of your checkout of the benchmark, as cloned (a folder of several
    /// benchmarks' files works too); default: $MAKESPAN_DATA.
    #[arg(long, value_name = "CHECKOUT")]
    data: Option<PathBuf>,
    /// Folder of solution files for the optima; instances without one are solved and their
    /// solutions written there.
    #[arg(long, value_name = "DIR")]
    solutions: Option<PathBuf>,
    /// Write the rows (a leaderboard: one per model) as CSV to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the whole report as JSON to this file (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write one self-contained HTML page for the run: the headline metrics, the ratio to
    /// the optimum across the answers, the table of answers, each answer's Gantt chart beside
    /// its optimum.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Seconds the MILP may spend on one instance solved on the fly (default 60).
    #[arg(long, value_name = "S", value_parser = crate::args::parse_seconds)]
    time_limit: Option<f64>,
}

/// Exit code 0: every answer scored and valid; 1: some answers break rules; 2: the run or
/// the checkout cannot be read; 3: some entries could not be scored (each is a row with its
/// error; the others are scored).
pub fn run(args: ScoreArgs) -> Result<ExitCode> {
    let mut solve = SolveOptions::default();
    if let Some(seconds) = args.time_limit {
        solve.time_limit = seconds;
    }
    let options = ScoreOptions {
        data: args.data.clone(),
        solutions: args.solutions.clone(),
        solve,
    };
    if !score::leaderboard::runs_in(&args.run).is_empty() {
        return leaderboard(&args, &options);
    }
    let scored = score::score_run_detailed(&args.run, &options)?;
    if let Some(path) = &args.html {
        write_atomically(path, makespan::score_html(&scored).as_bytes())?;
    }
    let report = scored.report;
    if let Some(path) = &args.out {
        write_atomically(path, &score::csv(&report)?)?;
    }
    let json = serde_json::to_string_pretty(&report)?;
    match &args.json {
        Some(path) if path.as_os_str() == "-" => println!("{json}"),
        Some(path) => {
            write_atomically(path, json.as_bytes())?;
            print!("{}", terminal::safe(&score::render_text(&report)));
        }
        None => print!("{}", terminal::safe(&score::render_text(&report))),
    }
    Ok(if report.unscored() > 0 {
        ExitCode::from(3)
    } else if report.invalid() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `score DIR` on a folder of several models' runs: the leaderboard, as text, CSV, JSON and a
/// page. Exit code 3 when a model's run (or some of its answers) could not be scored, else 0:
/// invalid answers are what a leaderboard ranks.
fn leaderboard(args: &ScoreArgs, options: &ScoreOptions) -> Result<ExitCode> {
    use score::leaderboard;
    let board = leaderboard::score_folder(&args.run, options)?;
    if let Some(path) = &args.html {
        write_atomically(path, leaderboard::leaderboard_html(&board).as_bytes())?;
    }
    if let Some(path) = &args.out {
        write_atomically(path, &leaderboard::csv(&board)?)?;
    }
    let json = serde_json::to_string_pretty(&board)?;
    match &args.json {
        Some(path) if path.as_os_str() == "-" => println!("{json}"),
        Some(path) => {
            write_atomically(path, json.as_bytes())?;
            print!("{}", terminal::safe(&leaderboard::render_text(&board)));
        }
        None => print!("{}", terminal::safe(&leaderboard::render_text(&board))),
    }
    let unscored = board
        .standings
        .iter()
        .any(|s| s.error.is_some() || s.unscored > 0);
    Ok(if unscored {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
