//! `makespan compare SOLUTIONS --baseline FILE_OR_DIR`: a baseline's makespans against the
//! optima in a folder of solution files. The baseline is a folder of solution files (matched
//! by instance name) or a benchmark's own baseline file (Recipe2Plan `plan.json`), whose
//! plans are turned into schedules and verified first: an invalid plan has no makespan,
//! only a reason.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use makespan::benchmarks::{self, input_files, BaselinePlans};
use makespan::compare::{self, Row};
use makespan::instance::Instance;
use makespan::solution::{Solution, Status};
use makespan::verify::verify;

use crate::terminal;

#[derive(clap::Args)]
pub struct CompareArgs {
    /// Folder (or file) of solution files: the optima.
    solutions: PathBuf,
    /// The baseline: a folder of solution files, or Recipe2Plan's plan.json.
    #[arg(long, value_name = "FILE_OR_DIR")]
    baseline: PathBuf,
    /// List only the instances where the baseline is not optimal: longer than the optimum,
    /// or invalid (the group summaries still count every instance). Instances the baseline
    /// folder has no solution of are counted in one line; `-v` lists them too.
    #[arg(long)]
    differences: bool,
    /// With --differences, list the instances without a baseline solution too.
    #[arg(short, long)]
    verbose: bool,
    /// Print the rows and groups as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let solutions = read_solutions(&args.solutions)?;
    if solutions.is_empty() {
        bail!("{}: no solution files found", args.solutions.display());
    }
    let baseline = Baseline::open(&args.baseline)?;
    let rows: Vec<Row> = solutions
        .iter()
        .map(|s| {
            // An optimum read from a file is a claim: one its schedule does not back is no
            // reference (a file claiming 1 whose schedule ends at 7 made a ratio of 7).
            let trusted = makespan::benchmarks::recheck(s);
            Row {
                instance: s.instance.name.clone(),
                group: group_of(&s.instance.instance),
                baseline: match &trusted {
                    Ok(()) => baseline.makespan(&s.instance.instance),
                    Err(why) => Err(format!("the optimum's file is not trustworthy: {why}")),
                },
                optimum: trusted.map_or(None, |()| s.makespan),
                status: s.status,
                time_unit: s.instance.instance.time_unit,
            }
        })
        .collect();
    let groups = compare::summarize(&rows);
    // A baseline run on part of the instances (the greedy oracle without `--constraint`) left
    // 175 rows that only said "no baseline": they are counted, not listed, unless asked.
    let mut unlisted = 0;
    let rows: Vec<Row> = if args.differences {
        rows.into_iter()
            .filter(|r| r.baseline.as_ref().ok() != r.optimum.as_ref())
            .filter(|r| {
                let hidden = !args.verbose && baseline.lacks(&r.instance);
                unlisted += usize::from(hidden);
                !hidden
            })
            .collect()
    } else {
        rows
    };
    if args.json {
        let value = serde_json::json!({
            "rows": rows,
            "groups": groups,
            "unlisted_without_baseline": unlisted,
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{}", terminal::safe(&compare::render(&rows, &groups)));
        if unlisted > 0 {
            println!(
                "{unlisted} instances have no solution in the baseline folder (not listed; -v lists them)"
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What instances are grouped by: the benchmark's own grouping (a level, a scenario), else
/// the benchmark, else "all".
fn group_of(instance: &Instance) -> String {
    if let Some(group) = benchmarks::benchmark_of(instance).and_then(|b| b.grouping()?(instance)) {
        return group;
    }
    instance
        .source
        .as_ref()
        .map_or_else(|| "all".to_string(), |s| s.benchmark.clone())
}

fn read_solutions(path: &Path) -> Result<Vec<Solution>> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{}: cannot list the folder", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
    } else {
        input_files(path)?
    };
    let mut solutions = Vec::new();
    for file in files {
        let text = makespan::input::read_text(&file)?;
        if !text.contains("\"makespan-solution/") {
            continue;
        }
        solutions.push(Solution::parse(&file, &text)?);
    }
    Ok(solutions)
}

enum Baseline {
    Solutions(Vec<Solution>),
    /// A benchmark's own file of baseline plans.
    Plans(Box<dyn BaselinePlans>),
}

impl Baseline {
    fn open(path: &Path) -> Result<Baseline> {
        if path.is_dir() {
            return Ok(Baseline::Solutions(read_solutions(path)?));
        }
        let files: Vec<_> = benchmarks::registry()
            .iter()
            .filter_map(|b| b.baseline_file())
            .collect();
        let accepted: Vec<&str> = std::iter::once("a folder of solution files")
            .chain(files.iter().map(|f| f.description))
            .collect();
        let mut last = None;
        for file in &files {
            match (file.open)(path) {
                Ok(plans) => return Ok(Baseline::Plans(plans)),
                Err(e) => last = Some(e),
            }
        }
        let context = format!(
            "{}: not a baseline this command reads ({})",
            path.display(),
            accepted.join(", or ")
        );
        match last {
            Some(e) => Err(anyhow::Error::new(e).context(context)),
            None => bail!(context),
        }
    }

    /// Whether the baseline is a folder without a solution of the instance named `name`.
    fn lacks(&self, name: &str) -> bool {
        match self {
            Baseline::Solutions(list) => list.iter().all(|s| s.instance.name != name),
            Baseline::Plans(_) => false,
        }
    }

    /// The baseline's verified makespan on `instance`, or why there is none.
    fn makespan(&self, instance: &Instance) -> Result<i64, String> {
        let schedule = match self {
            Baseline::Solutions(list) => {
                let s = list
                    .iter()
                    .find(|s| s.instance.name == instance.name)
                    .ok_or("no baseline solution of this instance")?;
                if s.status == Status::Invalid {
                    // A baseline's schedule that breaks rules: its claimed value and why.
                    return Err(format!(
                        "invalid (claims {}): {}",
                        s.makespan.map_or("-".into(), |m| m.to_string()),
                        s.reason.as_deref().unwrap_or("breaks rules")
                    ));
                }
                if !matches!(s.status, Status::Optimal | Status::Feasible) {
                    return Err(format!("baseline status {}", s.status));
                }
                s.schedule.clone()
            }
            Baseline::Plans(plans) => plans.schedule(instance)?,
        };
        let report = verify(instance, &schedule);
        if report.valid {
            report.makespan.ok_or_else(|| "empty plan".to_string())
        } else {
            Err(format!(
                "invalid plan: {} violation(s), first {}",
                report.violations.len(),
                report.violations[0].rule.name()
            ))
        }
    }
}
