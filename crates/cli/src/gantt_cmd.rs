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
    /// Most pieces drawn (plan and solution together): each is a shape, and 100,000 made a
    /// 94 MB page that took 23 s and 1 GB. Plans of the benchmarks have at most a few thousand.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    max_pieces: usize,
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
    let pieces: usize = drawing
        .schedule
        .iter()
        .chain(drawing.reference.iter().flat_map(|r| r.iter()))
        .map(|a| a.pieces.len())
        .sum();
    if pieces > args.max_pieces {
        bail!(
            "{}: the chart would draw {pieces} pieces, over the limit of {}; raise it with --max-pieces N",
            args.input.plan.display(),
            args.max_pieces
        );
    }
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
