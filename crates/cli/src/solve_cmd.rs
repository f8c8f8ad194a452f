//! `makespan solve`: import every input, solve each instance (in parallel, resumable,
//! shardable), write the solutions and `summary.csv`, and print the summary table.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use makespan::batch::{self, BatchOptions, Row};
use makespan::inputs::Inputs;
use makespan::solution::{Status, Verdict};
use makespan::{Method, SolveOptions};

use crate::args::ImportArgs;
use crate::terminal::progress_bar;
use crate::{interrupt, terminal, workers};

#[derive(clap::Args)]
pub struct SolveArgs {
    /// Files or folders (searched recursively) of instances.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Folder for the solution files and summary.csv (default: `solutions` in the current
    /// folder, unless that is inside an input folder: then give --out, so nothing is
    /// written into a benchmark's clone unasked).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    import: ImportArgs,
    /// How to solve: `exact` (bounds, heuristics, MILP: proven optima) or a benchmark's own
    /// baseline, replayed and verified (`timearena-greedy`).
    #[arg(long, default_value = "exact", value_parser = method_parser())]
    method: Method,
    /// Seconds for one instance, shared by every phase (bounds, heuristics, exact methods);
    /// when they run out, the best schedule so far is reported `feasible`.
    #[arg(long, default_value_t = 60.0, value_parser = crate::args::parse_seconds)]
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
    /// Also write each benchmark's native answer form (e.g. ParaCook per-agent lists), for the
    /// solutions kept from an earlier run too.
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
    /// List the files of the input folders that were skipped (not instances, or a
    /// benchmark's baseline plans), not just their count.
    #[arg(long, short)]
    verbose: bool,
}

/// The output folder: `--out`, else `solutions` here unless here is inside an input folder.
fn out_folder(args: &SolveArgs) -> Result<PathBuf> {
    if let Some(out) = &args.out {
        return Ok(out.clone());
    }
    let here = std::env::current_dir()?;
    let inside = args.inputs.iter().find(|input| {
        input.is_dir() && input.canonicalize().is_ok_and(|dir| here.starts_with(dir))
    });
    match inside {
        Some(input) => bail!(
            "the default output folder, solutions/ here, would be inside the input {}; give --out DIR (outside it, or inside it if that is what you want)",
            input.display()
        ),
        None => Ok(PathBuf::from("solutions")),
    }
}

/// The files of the input folders that are not instances, by what they are.
#[derive(Default)]
struct SkippedFiles {
    baselines: Vec<(PathBuf, &'static str)>,
    unrelated: Vec<String>,
}

impl SkippedFiles {
    /// One line on what was skipped (with each file when `verbose`); empty when nothing was.
    fn report(&self, verbose: bool) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if !self.baselines.is_empty() {
            let _ = writeln!(
                out,
                "{} benchmark baseline file(s) recognised and not solved (compare them with `makespan compare SOLUTIONS --baseline FILE`)",
                self.baselines.len()
            );
            if verbose {
                for (path, benchmark) in &self.baselines {
                    let _ = writeln!(out, "  {}: {benchmark} baseline plans", path.display());
                }
            }
        }
        if !self.unrelated.is_empty() {
            let _ = writeln!(
                out,
                "{} file(s) skipped: no benchmark reads them as instances{}",
                self.unrelated.len(),
                if verbose { "" } else { " (-v lists them)" }
            );
            if verbose {
                for why in &self.unrelated {
                    // The error names the file and why no format claims it.
                    let why = why
                        .split("; this is not an input")
                        .next()
                        .and_then(|w| w.split(" (accepted formats").next())
                        .unwrap_or(why);
                    let _ = writeln!(out, "  {}", terminal::safe(why));
                }
            }
        }
        out
    }
}

/// `exact` or a benchmark's baseline, listed by `--help` and in the error for any other name.
fn method_parser() -> impl clap::builder::TypedValueParser<Value = Method> {
    use clap::builder::TypedValueParser;
    let names =
        Method::all().map(|(name, about)| clap::builder::PossibleValue::new(name).help(about));
    // Every possible value is a name `Method::parse` accepts, so the default is never used.
    clap::builder::PossibleValuesParser::new(names)
        .map(|name| Method::parse(&name).unwrap_or_default())
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

pub fn run(mut args: SolveArgs) -> Result<ExitCode> {
    let import = args.import.options()?;
    let out = out_folder(&args)?;
    args.out = Some(out.clone());
    let mut inputs = Inputs::default();
    for input in &args.inputs {
        inputs.add(input, &import, Some(&out))?;
    }
    let skipped = SkippedFiles {
        baselines: inputs.baselines,
        unrelated: inputs.unrelated,
    };
    let mut instances = batch::dedupe_files(inputs.instances)?;
    if let Some(shard) = &args.shard {
        let (k, n) = parse_shard(shard)?;
        instances = instances
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, inst)| inst)
            .collect();
    }
    if !args.quiet || args.verbose {
        eprint!("{}", skipped.report(args.verbose));
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
        out: out.clone(),
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
    let folders = std::iter::once(out.clone())
        .chain(options.export_lp.clone())
        .collect();
    let cancel = interrupt::install(folders).map_err(anyhow::Error::msg)?;
    let bar = progress_bar(instances.len(), args.quiet);
    let batch = batch::run(
        &instances,
        &options,
        &|row: &Row| {
            bar.inc(1);
            bar.set_message(format!("{} {}", terminal::name(&row.instance), row.status));
        },
        &cancel,
    )
    .context("solve")?;
    let rows = batch.rows;
    bar.finish_and_clear();
    if !args.quiet {
        print_summary(&rows, started.elapsed().as_secs_f64(), &out);
    }
    for r in &rows {
        if let Some(why) = &r.failed {
            eprintln!("{}: {}", terminal::name(&r.instance), terminal::safe(why));
        }
    }
    // Every solution file is written by now: the summary's failure is one error, and the
    // run's results stand.
    if let Some(why) = &batch.summary_failed {
        eprintln!(
            "summary.csv: not written: {}; the solution files are complete, and the next run into {} rewrites it",
            terminal::safe(&why.to_string()),
            out.display()
        );
    }
    if cancel.is_cancelled() {
        eprintln!(
            "interrupted: {} of {} instances done, summary in {}; run the same command again to solve the rest (finished instances are kept)",
            rows.len(),
            instances.len(),
            out.join("summary.csv").display()
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
    let failed = rows.iter().any(|r| r.status == Status::Error) || batch.summary_failed.is_some();
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
            // Seconds as HH:MM:SS, as the benchmarks in seconds write times (summary.csv and
            // the solution files keep the number).
            let cell = |v: Option<i64>| v.map_or("-".into(), |x| r.time_unit.show(x));
            let status = match r.unfinishable {
                Some(_) => format!("{}*", r.status),
                None => r.status.to_string(),
            };
            println!(
                "{:<width$}  {:<10} {:>9} {:>9} {:>7} {:>8.3}  {}{}",
                terminal::name(&r.instance),
                status,
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
    print_unfinishable(rows);
    print_resolved(rows);
    print_certified(rows);
}

/// How many instances the benchmark's own environment cannot complete (marked `*` in the
/// table), and why: its answers, the optimum's included, never finish there.
fn print_unfinishable(rows: &[Row]) {
    let mut why: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for r in rows {
        if let Some(reason) = &r.unfinishable {
            why.entry(reason.as_str()).or_default().push(&r.instance);
        }
    }
    let total: usize = why.values().map(Vec::len).sum();
    if total == 0 {
        return;
    }
    println!(
        "{total} instance(s) (marked *) cannot be completed in the benchmark's own environment, whatever the answer (the `unfinishable` column of summary.csv says why; a run's fair metrics in `makespan score` leave them out)"
    );
    if total <= 10 {
        for (reason, instances) in why {
            for instance in instances {
                println!("  {}: {}", terminal::name(instance), terminal::safe(reason));
            }
        }
    }
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
