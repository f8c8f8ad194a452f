//! `makespan generate`: writes seeded random instances of a benchmark's shape as unified
//! instance files.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use makespan::batch::write_atomically;
use makespan::benchmarks::asynctool::generate as asynctool;
use makespan::benchmarks::generate::Span;
use makespan::benchmarks::kitchen;
use makespan::instance::Instance;

#[derive(Args)]
pub struct GenerateArgs {
    #[command(subcommand)]
    family: Family,
}

#[derive(Subcommand)]
enum Family {
    /// AsyncTool: K chains of tool calls, one call per round, results D rounds later.
    ///
    /// Example: makespan generate asynctool --seed 1 --chains 3 --length 2-4 --delay 1 --out instances/asynctool
    Asynctool {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of subtask chains.
        #[arg(long)]
        chains: usize,
        /// Calls per chain: N, or A-B drawn per chain.
        #[arg(long)]
        length: Span,
        /// Rounds until a call's result arrives: D, or A-B drawn per call.
        #[arg(long, default_value = "1")]
        delay: Span,
        /// Folder for the instance file.
        #[arg(long)]
        out: PathBuf,
        /// Largest instance written, in activities (chains × longest length).
        #[arg(long, value_name = "N", default_value_t = MAX_ACTIVITIES)]
        max_activities: u64,
    },
    /// Kitchen jobs (ParaCook's shape): N recipes of prep, cook (on a shared appliance,
    /// unattended after its first minute) and plate steps for M cooks.
    ///
    /// Example: makespan generate kitchen --seed 1 --recipes 5 --agents 2 --out instances/kitchen
    Kitchen {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long)]
        recipes: usize,
        /// Number of cooks.
        #[arg(long, default_value_t = 2)]
        agents: u32,
        #[arg(long)]
        out: PathBuf,
        /// Largest instance written, in activities (up to 5 per recipe).
        #[arg(long, value_name = "N", default_value_t = MAX_ACTIVITIES)]
        max_activities: u64,
    },
}

pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    let (instance, out) = match args.family {
        Family::Asynctool {
            seed,
            chains,
            length,
            delay,
            out,
            max_activities,
        } => {
            anyhow::ensure!(chains >= 1, "--chains must be at least 1");
            anyhow::ensure!(
                length.low >= 1,
                "--length must be at least 1 call per chain"
            );
            let most = (chains as u64).saturating_mul(length.high.unsigned_abs());
            within(most, max_activities)?;
            let params = asynctool::Params {
                seed,
                chains,
                length,
                delay,
            };
            (asynctool::generate(&params), out)
        }
        Family::Kitchen {
            seed,
            recipes,
            agents,
            out,
            max_activities,
        } => {
            anyhow::ensure!(recipes >= 1, "--recipes must be at least 1");
            within((recipes as u64).saturating_mul(5), max_activities)?;
            anyhow::ensure!(agents >= 1, "--agents must be at least 1");
            let params = kitchen::Params {
                seed,
                recipes,
                agents,
            };
            (kitchen::generate(&params), out)
        }
    };
    write(&instance, &out)?;
    Ok(ExitCode::SUCCESS)
}

/// Default of `--max-activities`: far beyond what the exact methods prove, small enough
/// to write in a second.
const MAX_ACTIVITIES: u64 = 100_000;

/// Refuses before generating: a size typed with a few zeros too many would take minutes
/// and gigabytes.
fn within(activities: u64, limit: u64) -> Result<()> {
    anyhow::ensure!(
        activities <= limit,
        "this would make up to {activities} activities, over the limit of {limit}; raise it with --max-activities"
    );
    Ok(())
}

fn write(instance: &Instance, out: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
    let path = out.join(format!("{}.json", instance.name));
    let mut text = serde_json::to_string_pretty(instance)?;
    text.push('\n');
    write_atomically(&path, text.as_bytes()).with_context(|| format!("{}", path.display()))?;
    println!("{}", path.display());
    Ok(())
}
