//! `makespan explain` and `makespan gantt`: read a plan in any form `verify` reads, explain
//! where its time went, and print it or draw it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};

use makespan::report::gantt::{self, Chart};
use makespan::report::Explanation;
use makespan::{Solution, VerifiedPlan};

use crate::args::InstanceArgs;
use crate::verify_cmd::reference_solution;

/// A plan and where its instance comes from, as `verify` takes them.
#[derive(clap::Args)]
pub struct PlanInput {
    /// The plan: a unified plan, a solution file, or a native answer (as for `verify`).
    plan: PathBuf,
    #[command(flatten)]
    source: InstanceArgs,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    input: PlanInput,
    /// A solution file of the same instance (an optimum, or any solution): the lost time is
    /// measured against it.
    #[arg(long, value_name = "FILE")]
    solution: Option<PathBuf>,
    /// Print the explanation as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct GanttArgs {
    #[command(flatten)]
    input: PlanInput,
    /// A solution file of the same instance, drawn below the plan on the same time axis (and
    /// the lost time measured against it).
    #[arg(long, value_name = "FILE")]
    compare: Option<PathBuf>,
    /// Where to write the picture: `.svg`, or `.html` for a self-contained page with hover
    /// details.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// Checks the plan, reads the reference and explains the plan.
fn explained(
    input: &PlanInput,
    reference: Option<&Path>,
) -> Result<(VerifiedPlan, Option<Solution>, Explanation)> {
    let instance = input.source.load()?;
    let text = makespan::input::read_text(&input.plan)?;
    let checked = makespan::verify_plan(&input.plan, &text, instance.as_ref(), reference)?;
    let solution = match reference {
        Some(path) => Some(reference_solution(path, &checked.instance)?),
        None => None,
    };
    let explanation = makespan::explain_plan(&checked, solution.as_ref())?;
    Ok((checked, solution, explanation))
}

pub fn run_explain(args: ExplainArgs) -> Result<ExitCode> {
    let (_, _, explanation) = explained(&args.input, args.solution.as_deref())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&explanation)?);
    } else {
        print!("{}", explanation.render_text());
    }
    Ok(if explanation.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn run_gantt(args: GanttArgs) -> Result<ExitCode> {
    let html = match args.output.extension().and_then(|e| e.to_str()) {
        Some("svg") => false,
        Some("html" | "htm") => true,
        _ => bail!(
            "{}: the picture's file name must end in .svg or .html",
            args.output.display()
        ),
    };
    let (checked, solution, explanation) = explained(&args.input, args.compare.as_deref())?;
    let chart = Chart {
        instance: &checked.instance,
        schedule: &checked.answer.schedule,
        explanation: &explanation,
        reference: solution.as_ref().map(|s| s.schedule.as_slice()),
    };
    let picture = if html {
        gantt::html(&chart)
    } else {
        gantt::svg(&chart)
    };
    makespan::batch::write_atomically(&args.output, picture.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
