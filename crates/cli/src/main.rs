//! The `makespan` command line: parses arguments, calls the library, prints, sets exit codes.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

use indicatif::{ProgressBar, ProgressStyle};

use makespan::batch::{self, BatchOptions, Row};
use makespan::formats::recipe2plan::Level;
use makespan::formats::{self, ImportOptions};
use makespan::solution::{Status, Verdict};
use makespan::{Method, SolveOptions};

mod check_proof_cmd;
mod compare_cmd;
mod explain_cmd;
mod generate_cmd;
mod interrupt;
mod references_cmd;
mod score_cmd;
mod terminal;
mod validate_cmd;
mod verify_cmd;
mod workers;

/// Provably optimal schedules for LLM planning benchmarks, and a strict plan verifier.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Largest input file read, in MiB (default 256; also $MAKESPAN_MAX_FILE_MB).
    #[arg(long, global = true, value_name = "MB")]
    max_file_mb: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve instances (unified or native benchmark files, or folders of them).
    ///
    /// Example: makespan solve ../shared/benchmarks/paracook/abstract --agents 1,2,3 --out solutions/paracook
    Solve(SolveArgs),
    /// Check a plan against its instance and report every violated rule.
    ///
    /// Exit code 0: valid; 1: violations; 2: unreadable input.
    /// Example: makespan verify solutions/two-cooks-breakfast.json
    Verify(verify_cmd::VerifyArgs),
    /// Solve classic instances and compare with published optima (exit code 1 on any
    /// disagreement with a proven result).
    ///
    /// Example: makespan validate ../shared/external-validation/rcpsp-max/sm_j10 --optima ../shared/external-validation/rcpsp-max/sm_j10/optimum.csv
    Validate(validate_cmd::ValidateArgs),
    /// Write seeded random instances of a benchmark's shape (AsyncTool, kitchen jobs).
    ///
    /// Example: makespan generate asynctool --seed 1 --chains 3 --length 3 --delay 1 --out instances/asynctool
    Generate(generate_cmd::GenerateArgs),
    /// Compare a baseline (a benchmark's heuristic plans, or solution files) with the optima.
    ///
    /// Example: makespan compare solutions/recipe2plan --baseline ../shared/benchmarks/recipe2plan/plan.json
    Compare(compare_cmd::CompareArgs),
    /// Explain where a plan's time went: the critical chain (why each activity started when
    /// it did), unforced waits, lost time against a solution, each agent's idle time.
    ///
    /// Example: makespan explain answer.json --instance inst.json --solution best.json
    Explain(explain_cmd::ExplainArgs),
    /// Draw a plan as a Gantt chart (SVG, or self-contained HTML with hover details), with
    /// the critical chain, unforced waits and violations marked, and a solution below it.
    ///
    /// Example: makespan gantt answer.json --instance inst.json --compare best.json -o plan.html
    Gantt(explain_cmd::GanttArgs),
    /// Score a whole model run from the benchmark's own output files, strictly and as the
    /// original scores it, on your checkout of the benchmark.
    ///
    /// Exit code 0: all valid; 1: some answers invalid; 2: unreadable run; 3: some entries
    /// could not be scored.
    /// Example: makespan score ParaCook/results/abstract/gpt-5.json --data ParaCook/
    Score(score_cmd::ScoreArgs),
    /// Re-check the certificate of optimal solutions (written by `solve --certify`) with a
    /// checker that shares no code with the solver.
    ///
    /// Exit code 0: every solution certified; 1: a certificate missing or rejected; 2:
    /// unreadable input.
    /// Example: makespan check-proof solutions/two-cooks-breakfast.json
    CheckProof(check_proof_cmd::CheckProofArgs),
    /// Proven optima as data: pack a folder of solution files into one JSON Lines file,
    /// unpack one into solution files, answers and certificates, or show one instance's.
    ///
    /// Example: makespan references unpack references/timearena.jsonl --data ../shared/benchmarks --out solutions/timearena
    References(references_cmd::ReferencesArgs),
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Files or folders (searched recursively) of instances.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Folder for the solution files and summary.csv.
    #[arg(long, default_value = "solutions")]
    out: PathBuf,
    /// Agent counts to solve each native instance with, e.g. 1,2,3 ("unlimited" allowed).
    /// Default: each benchmark's own (ParaCook 1,2,3; AsyncHow unlimited).
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// Combination sizes for benchmarks that combine tasks (TimeArena: tasks per run),
    /// e.g. 1,2,3. Default: the benchmark's own (TimeArena 1,2,3: all 525 runs).
    #[arg(long, value_delimiter = ',')]
    combine: Vec<usize>,
    /// Build the constrained-resource variant (TimeArena: one pot, one fryer, one oven).
    #[arg(long)]
    constraint: bool,
    /// How to solve: `exact` (bounds, heuristics, MILP: proven optima) or a benchmark's own
    /// baseline, replayed and verified (`timearena-greedy`).
    #[arg(long, default_value = "exact", value_parser = method_parser())]
    method: Method,
    /// Recipe2Plan levels to solve, e.g. easy,medium (default: both).
    #[arg(long, value_delimiter = ',')]
    level: Vec<String>,
    /// Most instances one input file may become.
    #[arg(long, value_name = "N", default_value_t = formats::MAX_INSTANCES_PER_FILE)]
    max_instances_per_file: usize,
    /// Seconds for one instance, shared by every phase (bounds, heuristics, exact methods);
    /// when they run out, the best schedule so far is reported `feasible`.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    time_limit: f64,
    /// Branch-and-bound nodes the MILP of one instance may explore (HiGHS mip_max_nodes);
    /// an instance stopped by it is reported `feasible` with its bound and gap.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Unit chunks preemptible activities may become, in all, before they are scheduled
    /// without preemption (feasible; optimal only where a bound proves it).
    #[arg(long, value_name = "N", default_value_t = makespan::solve::MAX_CHUNKS)]
    max_chunks: u64,
    /// Instances solved in parallel (default: the number of cores divided by --threads,
    /// fewer when memory is short: 2 GiB each).
    #[arg(long)]
    jobs: Option<usize>,
    /// Threads per instance: HiGHS's, and the one-agent search over time's.
    #[arg(long, default_value_t = NonZeroU32::MIN)]
    threads: NonZeroU32,
    /// Re-solve instances whose solution file already exists for the same instance.
    #[arg(long)]
    force: bool,
    /// Also write each benchmark's native answer form (e.g. ParaCook per-agent lists).
    #[arg(long)]
    emit_native: bool,
    /// Write each MILP that is built to DIR/<instance>.lp.
    #[arg(long, value_name = "DIR")]
    export_lp: Option<PathBuf>,
    /// Re-solve every instance by a second method (exhaustive search on small instances, the
    /// MILP alone on larger ones) and report any disagreement (exit code 3).
    #[arg(long)]
    check: bool,
    /// Write beside each optimal solution a certificate of its lower bound (a critical
    /// path or load, or a DRCP proof by Pumpkin); `makespan check-proof` re-checks it.
    #[arg(long)]
    certify: bool,
    /// Stop after bounds and heuristics (no MILP): fast, but optimality only where the bounds prove it.
    #[arg(long)]
    heuristic_only: bool,
    /// Solve only shard K of N (1-based, "K/N"), for cluster job arrays.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// No progress bar and no summary table.
    #[arg(long, short)]
    quiet: bool,
}

/// A reader that stops early (`makespan verify … | head`) ends the program quietly, as it
/// does every Unix tool, instead of `println!` panicking on the failed write: Rust starts
/// programs with SIGPIPE ignored.
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    // SAFETY: called first in `main`, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    if let Some(mb) = cli.max_file_mb {
        // Read by every reader (`makespan::input`); set before any thread starts.
        std::env::set_var(makespan::input::MAX_FILE_MB_VAR, mb.to_string());
    }
    let result = match cli.command {
        Command::Solve(args) => solve(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Validate(args) => validate_cmd::run(args),
        Command::Generate(args) => generate_cmd::run(args),
        Command::Compare(args) => compare_cmd::run(args),
        Command::Explain(args) => explain_cmd::run_explain(args),
        Command::Gantt(args) => explain_cmd::run_gantt(args),
        Command::Score(args) => score_cmd::run(args),
        Command::CheckProof(args) => check_proof_cmd::run(args),
        Command::References(args) => references_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", terminal::safe(&without_repeats(&err)));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes, each cause left out when the message already says it (an I/O
/// error's text is part of the message that wraps it).
fn without_repeats(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}

pub(crate) fn parse_agents(values: &[String]) -> Result<Vec<Option<u32>>> {
    values
        .iter()
        .map(|v| match v.trim() {
            "unlimited" | "inf" | "null" => Ok(None),
            n => match n.parse::<u32>() {
                Ok(m) if m > 0 => Ok(Some(m)),
                _ => bail!("--agents: \"{n}\" is not a positive agent count or \"unlimited\""),
            },
        })
        .collect()
}

/// `exact` or a benchmark's baseline, listed by `--help` and in the error for any other name.
fn method_parser() -> impl clap::builder::TypedValueParser<Value = Method> {
    use clap::builder::TypedValueParser;
    // Every possible value is a name `Method::parse` accepts, so the default is never used.
    let exact = clap::builder::PossibleValue::new("exact")
        .help("Bounds, heuristics and the MILP: optima proven where time allows");
    let baselines = makespan::formats::baselines()
        .map(|b| clap::builder::PossibleValue::new(b.name).help(b.about));
    clap::builder::PossibleValuesParser::new(std::iter::once(exact).chain(baselines))
        .map(|name| Method::parse(&name).unwrap_or_default())
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!(
            "\"{text}\" is not a number of seconds ≥ 0, e.g. 60"
        )),
    }
}

pub(crate) fn parse_levels(values: &[String]) -> Result<Vec<Level>> {
    values
        .iter()
        .map(|v| Level::parse(v).map_err(|e| anyhow::anyhow!("--level: {e}")))
        .collect()
}

fn parse_shard(text: &str) -> Result<(usize, usize)> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if k >= 1 && k <= n => Ok((k, n)),
        _ => bail!("--shard: \"{text}\" is not K/N with 1 ≤ K ≤ N, e.g. 2/8"),
    }
}

fn solve(args: SolveArgs) -> Result<ExitCode> {
    if args.combine.contains(&0) {
        bail!("--combine: sizes are numbers of tasks per run, at least 1 (e.g. 1,2,3)");
    }
    let import = ImportOptions {
        agents: parse_agents(&args.agents)?,
        combine: args.combine.clone(),
        constraint: args.constraint,
        levels: parse_levels(&args.level)?,
        max_instances: Some(args.max_instances_per_file),
    };
    let mut instances = Vec::new();
    for input in &args.inputs {
        for file in formats::input_files_outside(input, Some(&args.out))? {
            let name = file.display().to_string();
            instances.extend(
                formats::import(&file, &import)?
                    .into_iter()
                    .map(|i| (name.clone(), i)),
            );
        }
    }
    let mut instances = batch::dedupe_files(instances)?;
    if let Some(shard) = &args.shard {
        let (k, n) = parse_shard(shard)?;
        instances = instances
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, inst)| inst)
            .collect();
    }
    if instances.is_empty() {
        bail!("no instances found in {:?}", args.inputs);
    }
    let jobs = match args.jobs {
        Some(jobs) => workers::check_jobs(jobs)?,
        None => workers::default_jobs(args.threads.get()),
    };
    workers::check_threads(args.threads.get())?;
    let options = BatchOptions {
        out: args.out.clone(),
        jobs,
        force: args.force,
        emit_native: args.emit_native,
        export_lp: args.export_lp,
        check: args.check,
        certify: args.certify,
        solve: SolveOptions {
            time_limit: args.time_limit,
            threads: args.threads,
            node_limit: args.node_limit,
            heuristic_only: args.heuristic_only,
            max_chunks: args.max_chunks,
            ..SolveOptions::default()
        },
        method: args.method,
    };
    let started = std::time::Instant::now();
    let folders = std::iter::once(args.out.clone())
        .chain(options.export_lp.clone())
        .collect();
    let cancel = interrupt::install(folders).map_err(anyhow::Error::msg)?;
    let bar = progress_bar(instances.len(), args.quiet);
    let rows = batch::run(
        &instances,
        &options,
        &|row: &Row| {
            bar.inc(1);
            bar.set_message(format!("{} {}", terminal::name(&row.instance), row.status));
        },
        &cancel,
    )
    .context("solve")?;
    bar.finish_and_clear();
    if !args.quiet {
        print_summary(&rows, started.elapsed().as_secs_f64(), &args.out);
    }
    for r in &rows {
        if let Some(why) = &r.failed {
            eprintln!("{}: {}", terminal::name(&r.instance), terminal::safe(why));
        }
    }
    if cancel.is_cancelled() {
        eprintln!(
            "interrupted: {} of {} instances done, summary in {}; run the same command again to solve the rest (finished instances are kept)",
            rows.len(),
            instances.len(),
            args.out.join("summary.csv").display()
        );
        return Ok(ExitCode::from(interrupt::EXIT_CODE));
    }
    let disagreements: Vec<&str> = rows
        .iter()
        .filter(|r| r.check == Some(Verdict::Disagree))
        .map(|r| r.instance.as_str())
        .collect();
    if !disagreements.is_empty() {
        eprintln!(
            "check: the second method disagrees on {} instance(s): {} (see \"check\" in their solution files)",
            disagreements.len(),
            disagreements.join(", ")
        );
        return Ok(ExitCode::from(3));
    }
    let failed = rows.iter().any(|r| r.status == Status::Error);
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A progress bar on standard error, hidden with `--quiet`.
pub(crate) fn progress_bar(len: usize, quiet: bool) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(len as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}

fn print_summary(rows: &[Row], seconds: f64, out: &std::path::Path) {
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let reused = rows.iter().filter(|r| r.reused).count();
    let width = rows
        .iter()
        .map(|r| terminal::name(&r.instance).chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    if rows.len() <= 40 {
        println!(
            "{:<width$}  {:<10} {:>9} {:>9} {:>7} {:>8}  method",
            "instance", "status", "makespan", "bound", "gap", "seconds"
        );
        for r in rows {
            let cell = |v: Option<i64>| v.map_or("-".into(), |x| x.to_string());
            println!(
                "{:<width$}  {:<10} {:>9} {:>9} {:>7} {:>8.3}  {}{}",
                terminal::name(&r.instance),
                r.status.to_string(),
                cell(r.makespan),
                cell(r.lower_bound),
                r.gap.map_or("-".into(), |g| format!("{:.2}%", g * 100.0)),
                r.seconds,
                terminal::name(&r.method),
                match r.check {
                    Some(v) => format!(" check:{}", v.name()),
                    None => String::new(),
                } + if r.reused { " (kept)" } else { "" }
            );
        }
    }
    println!(
        "{} instances: {} optimal, {} feasible, {} infeasible, {} invalid, {} error ({} kept from an earlier run) in {:.2} s; solutions in {}",
        rows.len(),
        count(Status::Optimal),
        count(Status::Feasible),
        count(Status::Infeasible),
        count(Status::Invalid),
        count(Status::Error),
        reused,
        seconds,
        out.display()
    );
    print_resolved(rows);
    print_certified(rows);
}

/// With `--certify`: how many optima carry a certificate, and why the others do not (per
/// instance for a short run, else grouped by reason).
fn print_certified(rows: &[Row]) {
    let missing: Vec<(&str, &str)> = rows
        .iter()
        .filter_map(|r| Some((r.instance.as_str(), r.uncertified.as_deref()?)))
        .collect();
    let certified = rows.iter().filter(|r| r.certificate.is_some()).count();
    if certified + missing.len() == 0 {
        return;
    }
    println!(
        "{certified} of {} optimal solutions certified",
        rows.iter().filter(|r| r.status == Status::Optimal).count()
    );
    if missing.len() <= 10 {
        for (instance, why) in missing {
            println!("  {}: not certified: {why}", terminal::name(instance));
        }
    } else {
        let mut why: std::collections::BTreeMap<&str, usize> = Default::default();
        for (_, reason) in missing {
            *why.entry(reason).or_default() += 1;
        }
        for (reason, n) in why {
            println!("  {n} not certified: {reason}");
        }
    }
}

/// How many results kept from an earlier run were solved again, and why (grouped).
fn print_resolved(rows: &[Row]) {
    let mut why: std::collections::BTreeMap<&str, usize> = Default::default();
    for reason in rows.iter().filter_map(|r| r.resolved.as_deref()) {
        // The re-check's details differ per file; its kind is before the first colon.
        let kind = reason.split(": ").next().unwrap_or(reason);
        *why.entry(kind).or_default() += 1;
    }
    if !why.is_empty() {
        let total: usize = why.values().sum();
        let parts: Vec<String> = why.iter().map(|(k, n)| format!("{n}: {k}")).collect();
        println!("{total} re-solved ({})", parts.join("; "));
    }
}
