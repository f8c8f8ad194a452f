//! `makespan gantt`: draw a plan as a Gantt chart (SVG, or a self-contained HTML page with
//! hover details), with the critical chain, unforced waits and violations marked, and a
//! solution below it on the same time axis.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use makespan::explain::gantt::{self, Chart};

use crate::args::PlanInput;
use crate::explain_cmd::explained;

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

pub fn run(args: GanttArgs) -> Result<ExitCode> {
    let html = match args.output.extension().and_then(|e| e.to_str()) {
        Some("svg") => false,
        Some("html" | "htm") => true,
        _ => bail!(
            "{}: the picture's file name must end in .svg or .html",
            args.output.display()
        ),
    };
    let (checked, solution, explanation) = explained(&args.input, args.compare.as_deref())?;
    let drawing = makespan::Drawing::new(
        &checked.instance,
        &checked.answer.schedule,
        solution.as_ref().map(|s| s.schedule.as_slice()),
    );
    let chart = Chart {
        instance: &drawing.instance,
        schedule: &drawing.schedule,
        explanation: &explanation,
        reference: drawing.reference.as_deref(),
    };
    let picture = if html {
        gantt::html(&chart)
    } else {
        gantt::svg(&chart)
    };
    makespan::batch::write_atomically(&args.output, picture.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
