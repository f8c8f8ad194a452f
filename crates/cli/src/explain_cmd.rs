//! `makespan explain`: read a plan in any form `verify` reads, explain where its time went
//! (the critical chain, unforced waits, lost time against a solution, each agent's idle
//! time) and print it as text or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use makespan::explain::Explanation;
use makespan::{Solution, VerifiedPlan};

use crate::args::PlanInput;
use crate::terminal;
use crate::verify_cmd::reference_solution;

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

/// Verifies the plan, reads the reference and explains the plan.
pub(crate) fn explained(
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

pub fn run(args: ExplainArgs) -> Result<ExitCode> {
    let (_, _, explanation) = explained(&args.input, args.solution.as_deref())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&explanation)?);
    } else {
        print!("{}", terminal::safe(&explanation.render_text()));
    }
    Ok(if explanation.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
