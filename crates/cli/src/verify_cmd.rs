//! `makespan verify`: read a plan (unified, a solution file, or a native answer), tie it to
//! its instance, run the independent verifier and print every violation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use makespan::benchmarks::{Benchmark, NativeJson};
use makespan::instance::{content_hash, problem_hash, Instance};

use crate::args::InstanceArgs;
use makespan::solution::{Solution, Status};
use makespan::verify::{Comparison, Report};

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The plan: a unified plan (makespan-plan/1), a solution file, or a native answer
    /// (ParaCook per-agent lists, bare or inside an LLM response's ```json block; a
    /// TimeArena decision list or LLM_test.py trajectory; AsyncTool turn lists, one entry
    /// per round, for instances from `makespan generate asynctool`; Robotouille action
    /// strings, one per line, with --instance robotouille:<task>). Several plans of one
    /// instance are checked one after the other; for TimeArena logs the benchmark's
    /// metrics over all of them follow (average progress score, completion speed,
    /// completion rate, average completion time).
    #[arg(required = true)]
    plans: Vec<PathBuf>,
    #[command(flatten)]
    source: InstanceArgs,
    /// A solution file of the same instance whose makespan is the reference (the optimum
    /// when its status is optimal): prints the ratio and the time lost.
    #[arg(long, value_name = "FILE")]
    solution: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also explain where the time went (critical chain, unforced waits, lost time against
    /// --solution, agents), as `makespan explain` does.
    #[arg(long)]
    explain: bool,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let instance = args.source.load()?;
    let several = args.plans.len() > 1;
    let mut code = ExitCode::SUCCESS;
    let mut runs = Vec::new();
    let mut benchmark = None;
    for plan in &args.plans {
        if several && !args.json {
            println!("== {}", plan.display());
        }
        let (valid, checked_by, run) = run_one(&args, plan, instance.as_ref())?;
        if !valid {
            code = ExitCode::from(1);
        }
        if run.is_some() {
            benchmark = benchmark.or(checked_by);
        }
        runs.extend(run);
    }
    // The benchmark's metrics over all the answers, where it has them (TimeArena's AS, CS, …).
    if let Some((json, text)) = benchmark
        .filter(|_| several)
        .and_then(|b| b.answers()?.aggregate(&runs))
    {
        if args.json {
            println!("{json}");
        } else {
            print!("{text}");
        }
    }
    Ok(code)
}

/// Verifies one plan; returns whether it is valid, the benchmark whose native answer it was,
/// and that benchmark's metrics of this run where it has them. With several plans, JSON
/// reports are printed one per line.
fn run_one(
    args: &VerifyArgs,
    plan_path: &Path,
    instance: Option<&Instance>,
) -> Result<(
    bool,
    Option<&'static dyn Benchmark>,
    Option<serde_json::Value>,
)> {
    let text = makespan::input::read_text(plan_path)?;
    let checked_plan = makespan::verify_plan(plan_path, &text, instance, args.solution.as_deref())?;
    let explanation = if args.explain {
        let solution = match &args.solution {
            Some(path) => Some(reference_solution(path, &checked_plan.instance)?),
            None => None,
        };
        Some(makespan::explain_plan(&checked_plan, solution.as_ref())?)
    } else {
        None
    };
    let makespan::VerifiedPlan {
        instance,
        benchmark: checked_by,
        answer: checked,
    } = checked_plan;
    let report = &checked.report;
    let reference = match (&args.solution, checked.compared) {
        (Some(path), false) => Some(reference(path, &instance, report)?),
        _ => None,
    };
    let comparison = reference.as_ref().map(|(c, _)| c.clone());
    if args.json {
        let value = match checked.json {
            NativeJson::Whole(value) => value,
            NativeJson::None => serde_json::json!({ "report": report, "comparison": comparison }),
            NativeJson::Extra(key, extra) => {
                let mut value = serde_json::json!({ "report": report, "comparison": comparison });
                value[key] = extra;
                value
            }
        };
        let mut value = value;
        if let Some(e) = &explanation {
            value["explanation"] = serde_json::to_value(e)?;
        }
        if args.plans.len() > 1 {
            println!("{value}");
        } else {
            println!("{}", serde_json::to_string_pretty(&value)?);
        }
    } else {
        print!("{}", crate::terminal::safe(&report.render_text()));
        print!("{}", crate::terminal::safe(&checked.text));
        if let (Some(c), Some((_, status))) = (&comparison, &reference) {
            print_comparison(report, c, *status);
        }
        if let Some(e) = &explanation {
            print!("{}", e.render_text());
        }
    }
    Ok((report.valid, checked_by, checked.run))
}

/// The plan compared with a solution file of the same instance, and the solution's status.
fn reference(path: &Path, instance: &Instance, report: &Report) -> Result<(Comparison, Status)> {
    let solution = reference_solution(path, instance)?;
    let comparison = makespan::compare_to(report, instance, &solution)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((comparison, solution.status))
}

/// A solution file of the same instance (same problem hash), re-checked before its
/// makespan is trusted, or why it is not one.
pub(crate) fn reference_solution(path: &Path, instance: &Instance) -> Result<Solution> {
    let solution = makespan::benchmarks::reference_solution(path)?;
    if problem_hash(&solution.instance.instance) != problem_hash(instance) {
        bail!(
            "{}: the solution is for instance \"{}\" ({}), not for \"{}\" ({})",
            path.display(),
            solution.instance.name,
            solution.instance.hash,
            instance.name,
            content_hash(instance)
        );
    }
    Ok(solution)
}

fn print_comparison(report: &Report, c: &Comparison, status: Status) {
    let what = if status == Status::Optimal {
        "optimum"
    } else {
        "best known makespan"
    };
    match (c.ratio, c.lost_time) {
        (Some(ratio), Some(lost)) => println!(
            "ratio to the {what} {}: {ratio:.4} ({lost} time units lost); agent idle time {}",
            c.optimum,
            report.agent_idle_time.map_or("-".into(), |t| t.to_string())
        ),
        _ => println!("no ratio to the {what} {}: the plan is invalid", c.optimum),
    }
}
