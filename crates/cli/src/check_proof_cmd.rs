//! `makespan check-proof`: re-check the certificates of optimal solutions with
//! `makespan-certify-check` (no solver code), and the schedules with the verifier.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};

use makespan::instance::problem_hash;
use makespan::solution::Solution;
use makespan_certify_check::{check, check_pinned, CheckError};

use crate::args::InstanceArgs;
use crate::terminal;

#[derive(clap::Args)]
pub struct CheckProofArgs {
    /// Solution files, or folders of them (searched recursively).
    #[arg(required = true)]
    solutions: Vec<PathBuf>,
    /// Print only failures and the summary.
    #[arg(long, short)]
    quiet: bool,
    /// With --instance, only a solution of that instance (the same problem hash) is
    /// certified: a solution file carries its own instance, which anyone may have edited.
    #[command(flatten)]
    pinned: InstanceArgs,
}

pub fn run(args: CheckProofArgs) -> Result<ExitCode> {
    let pinned = args.pinned.load()?;
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for input in &args.solutions {
        collect(input, &mut files, &mut seen)?;
    }
    if files.is_empty() {
        bail!("no solution files (*.json) found in {:?}", args.solutions);
    }
    let (mut certified, mut failed) = (0, 0);
    let clock = Instant::now();
    for file in &files {
        // One unreadable file is one failure; the others are still checked.
        let shown = file.display().to_string();
        let shown = terminal::name(&shown);
        let solution = match Solution::read(file) {
            Ok(solution) => solution,
            Err(e) => {
                failed += 1;
                println!("{shown}: not certified: {}", terminal::name(&e.to_string()));
                continue;
            }
        };
        let started = Instant::now();
        let report = makespan::verify(&solution.instance.instance, &solution.schedule);
        let dir = file.parent().unwrap_or(Path::new("."));
        let verdict = if report.valid {
            match &pinned {
                Some(instance) => check_pinned(&solution, dir, instance),
                None => check(&solution, dir),
            }
        } else {
            Err(CheckError::Rejected(format!(
                "the schedule breaks {} rule(s) of the instance",
                report.violations.len()
            )))
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match verdict {
            Ok(c) => {
                certified += 1;
                if !args.quiet {
                    // The problem's hash, to compare with the instance the claim is about.
                    let instance = &solution.instance;
                    println!(
                        "{shown}: certified ({c}, instance {} {}, {ms:.1} ms)",
                        terminal::name(&instance.name),
                        problem_hash(&instance.instance)
                    );
                }
            }
            Err(e) => {
                failed += 1;
                println!("{shown}: not certified: {}", terminal::name(&e.to_string()));
            }
        }
    }
    println!(
        "{} solutions: {certified} certified, {failed} not, {:.2} s",
        files.len(),
        clock.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Whether a file name is a certificate or a native answer, which sit beside solutions.
fn beside_solutions(name: &str) -> bool {
    name.ends_with(".cert.json") || name.contains(".answer.")
}

/// Solution files under `path`: the file itself (unless a certificate or a native answer,
/// which `solutions/*.json` also names), or every `*.json` below a folder except those. Each
/// folder and file is visited once (`seen`, by real path): a link to `.` counted one solution
/// once per level, and two links made the walk endless.
fn collect(path: &Path, files: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> Result<()> {
    if !seen.insert(path.canonicalize().unwrap_or_else(|_| path.to_path_buf())) {
        return Ok(());
    }
    if path.is_file() {
        let name = path.file_name().map(|n| n.to_string_lossy());
        if !name.is_some_and(|n| beside_solutions(&n)) {
            files.push(path.to_path_buf());
        }
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for entry in entries {
        let name = entry
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        if entry.is_dir() {
            collect(&entry, files, seen)?;
        } else if name.ends_with(".json")
            && !beside_solutions(&name)
            && !name.starts_with('.')
            && seen.insert(entry.canonicalize().unwrap_or_else(|_| entry.clone()))
        {
            files.push(entry);
        }
    }
    Ok(())
}
