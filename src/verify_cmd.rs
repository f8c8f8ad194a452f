//! `makespan verify`: read a plan (unified, a solution file, or a native answer), tie it to
//! its instance, run the independent verifier and print every violation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use makespan::formats::recipe2plan::Level;
use makespan::formats::reference;
use makespan::formats::{self, ImportOptions};
use makespan::instance::{content_hash, problem_hash, Instance};
use makespan::solution::{Solution, Status};
use makespan::verify::timearena_log::{self, RunMetrics, TimeArenaVerdict};
use makespan::verify::{agent_lists, compare, plan, turns, Comparison, Report};

/// A verifier of one benchmark's native plan text: `None` when the instance is not of its
/// benchmark (or the text is a unified plan), else the exit code after printing the report.
type NativeVerifier =
    fn(&Path, &str, Option<&Instance>, Option<&Path>, bool) -> Result<Option<ExitCode>>;

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
    /// The instance, if the plan does not name it or to override it: a unified instance or
    /// a native benchmark file; PATH#NAME picks one instance of a file that holds several;
    /// BENCH:NAME names one by benchmark (e.g. timearena:cooking1+cooking2, robotouille:7).
    #[arg(long, value_name = "PATH[#NAME]|BENCH:NAME")]
    instance: Option<String>,
    /// Folder of the benchmarks' native files for BENCH:NAME (default: $MAKESPAN_DATA, else
    /// ../shared/benchmarks).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Agent count for a native instance file (e.g. ParaCook: 1, 2 or 3).
    #[arg(long)]
    agents: Option<String>,
    /// Recipe2Plan level of the instance (easy or medium).
    #[arg(long)]
    level: Option<String>,
    /// A solution file of the same instance whose makespan is the reference (the optimum
    /// when its status is optimal): prints the ratio and the time lost.
    #[arg(long, value_name = "FILE")]
    solution: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let levels = crate::parse_levels(&args.level.iter().cloned().collect::<Vec<_>>())?;
    let instance = match &args.instance {
        Some(spec) => Some(load_instance(spec, &args, levels)?),
        None => None,
    };
    let several = args.plans.len() > 1;
    let mut code = ExitCode::SUCCESS;
    let mut runs = Vec::new();
    for plan in &args.plans {
        if several && !args.json {
            println!("== {}", plan.display());
        }
        let (valid, metrics) = run_one(&args, plan, instance.clone())?;
        if !valid {
            code = ExitCode::from(1);
        }
        runs.extend(metrics);
    }
    if several && !runs.is_empty() {
        let total = timearena_log::aggregate(&runs);
        if args.json {
            println!("{}", serde_json::json!({ "timearena_aggregate": total }));
        } else {
            println!(
                "TimeArena over {} runs: average progress score {:.2}, completion speed {:.2}/min, completion rate {:.1}%, average completion time {}",
                total.runs,
                total.average_progress_score,
                total.completion_speed,
                total.completion_rate,
                total
                    .average_completion_time
                    .map_or("- (no run completed)".into(), |t| format!("{t:.2} min"))
            );
        }
    }
    Ok(code)
}

/// Verifies one plan; returns whether it is valid, and its TimeArena metrics if it is a
/// TimeArena decision log. With several plans, JSON reports are printed one per line.
fn run_one(
    args: &VerifyArgs,
    plan_path: &Path,
    instance: Option<Instance>,
) -> Result<(bool, Option<RunMetrics>)> {
    let text = std::fs::read_to_string(plan_path)
        .with_context(|| format!("{}: cannot read the plan", plan_path.display()))?;
    // Benchmarks' native plan texts, each tried when the instance is of its benchmark.
    let native: [NativeVerifier; 2] = [
        crate::step_verify::run_if_steps,
        crate::robotouille_verify::run_if_actions,
    ];
    for run in native {
        if let Some(code) = run(
            plan_path,
            &text,
            instance.as_ref(),
            args.solution.as_deref(),
            args.json,
        )? {
            return Ok((code == ExitCode::SUCCESS, None));
        }
    }
    let mut timearena = None;
    let (instance, report) = if text.trim_start().starts_with('{') {
        let resolved = plan::read_plan(plan_path, &text)?.resolve(instance)?;
        let report = makespan::verify::verify(&resolved.instance, &resolved.schedule);
        (resolved.instance, report)
    } else if serde_json::from_str(&text).is_ok_and(|v| timearena_log::is_decision_log(&v)) {
        let Some(instance) = instance else {
            bail!(
                "{}: a TimeArena decision list does not name its run; pass --instance, e.g. --instance timearena:cooking1+cooking2",
                plan_path.display()
            );
        };
        let log = timearena_log::read_decisions(plan_path, &text)?;
        let verdict = timearena_log::verify_decisions(&instance, &log);
        let report = verdict.report.clone();
        timearena = Some((verdict, log.final_record));
        (instance, report)
    } else {
        let Some(instance) = instance else {
            bail!(
                "{}: a native answer does not name its instance; pass --instance (and --agents for ParaCook; e.g. robotouille:7 for Robotouille action strings)",
                plan_path.display()
            );
        };
        let benchmark = instance.source.as_ref().map(|s| s.benchmark.as_str());
        let report = if benchmark == Some("asynctool") {
            let rounds = turns::read_turns(plan_path, &text)?;
            turns::verify_turns(&instance, &rounds)
        } else {
            let lists = agent_lists::read_agent_lists(plan_path, &text)?;
            agent_lists::verify_agent_lists(&instance, &lists)
        };
        (instance, report)
    };
    let reference = match &args.solution {
        Some(path) => Some(reference(path, &instance)?),
        None => None,
    };
    let comparison = reference
        .as_ref()
        .map(|(optimum, _)| compare(&report, *optimum));
    if args.json {
        let mut value = serde_json::json!({ "report": report, "comparison": comparison });
        if let Some((verdict, _)) = &timearena {
            value["timearena"] =
                serde_json::json!({"metrics": verdict.metrics, "warnings": verdict.warnings});
        }
        if args.plans.len() > 1 {
            println!("{value}");
        } else {
            println!("{}", serde_json::to_string_pretty(&value)?);
        }
    } else {
        print!("{}", report.render_text());
        if let Some((verdict, final_record)) = &timearena {
            print_timearena(verdict, *final_record);
        }
        if let (Some(c), Some((_, status))) = (&comparison, &reference) {
            print_comparison(&report, c, *status);
        }
    }
    let metrics = timearena.map(|(verdict, _)| verdict.metrics);
    Ok((report.valid, metrics))
}

/// Reads `BENCH:NAME`, or `PATH[#NAME]` with the benchmark's importer, and picks one
/// instance.
fn load_instance(spec: &str, args: &VerifyArgs, levels: Vec<Level>) -> Result<Instance> {
    let agents = args.agents.as_deref();
    let data = reference::data_dir(args.data.as_deref());
    let options = ImportOptions {
        levels,
        ..ImportOptions::default()
    };
    if let Some(found) = reference::resolve(spec, &data, &options) {
        return Ok(found?);
    }
    let (path, name) = match spec.rsplit_once('#') {
        Some((p, n)) => (p, Some(n)),
        None => (spec, None),
    };
    let agents = match agents {
        Some(a) => vec![crate::parse_agents(&[a.to_string()])?[0]],
        None => Vec::new(),
    };
    let mut instances = formats::import(
        Path::new(path),
        &ImportOptions {
            agents,
            ..ImportOptions::default()
        },
    )?;
    if let Some(name) = name {
        return match instances.iter().position(|i| i.name == name) {
            Some(k) => Ok(instances.swap_remove(k)),
            None => bail!(
                "{path}: no instance named \"{name}\" (it holds {})",
                names(&instances)
            ),
        };
    }
    match instances.len() {
        1 => Ok(instances.remove(0)),
        n => bail!(
            "{path} holds {n} instances ({}); pick one with --instance {path}#NAME, or give --agents for a native file",
            names(&instances)
        ),
    }
}

fn names(instances: &[Instance]) -> String {
    let mut shown: Vec<&str> = instances.iter().take(3).map(|i| i.name.as_str()).collect();
    if instances.len() > 3 {
        shown.push("…");
    }
    shown.join(", ")
}

/// The reference makespan and its status from a solution file of the same instance.
fn reference(path: &Path, instance: &Instance) -> Result<(i64, Status)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the solution", path.display()))?;
    let solution: Solution = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a makespan-solution/1 file", path.display()))?;
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
    match solution.makespan {
        Some(m) => Ok((m, solution.status)),
        None => bail!(
            "{}: the solution has no makespan (status {})",
            path.display(),
            solution.status
        ),
    }
}

fn print_timearena(verdict: &TimeArenaVerdict, final_record: Option<(i64, i64, bool)>) {
    for warning in &verdict.warnings {
        println!("warning: {warning}");
    }
    let m = &verdict.metrics;
    println!(
        "TimeArena: progress score {}, completion time {} min, completion speed {:.2}/min, completed: {}",
        m.progress_score,
        m.completion_time,
        m.completion_speed,
        if m.completed { "yes" } else { "no" }
    );
    if let Some((time, score, completed)) = final_record {
        println!(
            "the trajectory's final record says: total_time {time}, total_score {score}, isCompleted {completed}"
        );
    }
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
