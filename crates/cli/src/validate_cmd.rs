//! `makespan validate`: solve classic instances with the ordinary pipeline and compare with
//! tables of published optima ([`makespan::validation`]).

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use makespan::solve::{Run, SolveOptions};
use makespan::validation::{self, Optima, Verdict};

#[derive(clap::Args)]
pub struct ValidateArgs {
    /// Instance files or folders (PSPLIB .sm, RCPSP/max .sch, job shop .jss, or any input
    /// `solve` reads); folders are searched recursively.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Table(s) of published optima, CSV `problem,optimum` (an integer, `lb..ub` or `unsat`),
    /// keyed by file name (case-insensitive). Repeat for several tables; each applies first
    /// to the instances in its own folder.
    #[arg(long, required = true, value_name = "TABLE.csv")]
    optima: Vec<PathBuf>,
    /// Seconds the MILP may spend on one instance.
    #[arg(long, default_value_t = 60.0, value_parser = crate::args::parse_seconds)]
    time_limit: f64,
    /// Instances solved in parallel (default: the number of cores divided by --threads).
    #[arg(long)]
    jobs: Option<usize>,
    /// Threads per instance: HiGHS's, and the one-agent search over time's.
    #[arg(long, default_value_t = NonZeroU32::MIN)]
    threads: NonZeroU32,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Exit code 0: every result agrees with (or, unproven, brackets) the table; 1: at least
/// one disagreement; 2: unreadable input.
pub fn run(args: ValidateArgs) -> Result<ExitCode> {
    let mut optima = Optima::default();
    for path in &args.optima {
        optima.read(path)?;
    }
    let cases = validation::load_cases(&args.inputs)?;
    if cases.is_empty() {
        bail!("no instances found in {:?}", args.inputs);
    }
    let options = SolveOptions {
        time_limit: args.time_limit,
        threads: args.threads,
        ..SolveOptions::default()
    };
    let jobs = match args.jobs {
        Some(jobs) => crate::workers::check_jobs(jobs)?,
        None => crate::workers::default_jobs(args.threads.get()),
    };
    crate::workers::check_threads(args.threads.get())?;
    let bar = crate::terminal::progress_bar(cases.len(), args.quiet);
    let outcomes = validation::run(&cases, &optima, &options, &Run::default(), jobs, &|o| {
        bar.inc(1);
        bar.set_message(format!("{} {}", o.instance, o.verdict.label()));
    })?;
    bar.finish_and_clear();
    print!("{}", validation::render(&outcomes));
    let disagreements = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Disagree(_)))
        .count();
    let missing = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::NoEntry)
        .count();
    println!(
        "{} instances: {} proven, {} agree, {} disagree, {} without a table entry",
        outcomes.len(),
        outcomes.iter().filter(|o| o.proven()).count(),
        outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Agree)
            .count(),
        disagreements,
        missing
    );
    if missing == outcomes.len() {
        bail!(
            "no instance has an entry in the optima tables ({} instances, none matched): check that --optima belongs to these inputs (rows are keyed by file name)",
            outcomes.len()
        );
    }
    if missing > 0 {
        eprintln!(
            "warning: {missing} of {} instances have no entry in the optima tables and were not compared",
            outcomes.len()
        );
    }
    Ok(if disagreements > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
