//! The `makespan` command line: parses arguments, calls the library, prints, sets exit codes.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod args;
mod check_proof_cmd;
mod compare_cmd;
mod explain_cmd;
mod gantt_cmd;
mod generate_cmd;
mod interrupt;
mod references_cmd;
mod score_cmd;
mod solve_cmd;
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
    Solve(solve_cmd::SolveArgs),
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
    Gantt(gantt_cmd::GanttArgs),
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
        Command::Solve(args) => solve_cmd::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Validate(args) => validate_cmd::run(args),
        Command::Generate(args) => generate_cmd::run(args),
        Command::Compare(args) => compare_cmd::run(args),
        Command::Explain(args) => explain_cmd::run(args),
        Command::Gantt(args) => gantt_cmd::run(args),
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
