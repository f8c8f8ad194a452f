//! Test helpers shared by makespan's crates (a dev-dependency only): where the benchmark
//! data is (below), generated instances ([`job_shop`]) and proptest strategies
//! ([`strategies`]) that both the root package's tests and the solver's use.
//!
//! The benchmarks' data is not part of this repository: each benchmark's files come from its
//! own repository at the commit pinned in the README, laid out under `../shared/benchmarks`
//! (beside the repository) or wherever `$MAKESPAN_DATA` points. Tests that need a file ask
//! [`data`] (or [`external`] for the classic validation sets) and skip, saying why, where it
//! is absent, so a fresh clone with no data still passes. Each skip is also appended to the
//! file `$MAKESPAN_SKIP_LOG` names, if set, so the test script can count them.

pub mod job_shop;
pub mod strategies;

use std::io::Write;
use std::path::{Path, PathBuf};

use makespan_model::instance::{Activity, Instance, Precedence};

/// An instance named `test` with `agents` agents, whole non-preemptible activities of the
/// given durations and finish-to-start precedences `(before, after, min_lag)`.
pub fn instance(
    agents: Option<u32>,
    activities: &[(&str, i64)],
    precedences: &[(&str, &str, i64)],
) -> Instance {
    Instance {
        activities: activities
            .iter()
            .map(|&(id, d)| Activity::new(id, d))
            .collect(),
        precedences: precedences
            .iter()
            .map(|&(b, a, lag)| Precedence::finish_to_start(b, a, lag))
            .collect(),
        ..Instance::new("test", agents)
    }
}

/// The workspace root, as a path relative to the current folder when that is the root
/// itself (the integration tests run there). Relative paths matter: an instance records the
/// file it was imported from, which enters its content hash, and the committed solutions
/// were made from `../shared/benchmarks/…`.
///
/// Found at run time, upwards from the running test's package (`$CARGO_MANIFEST_DIR`, which
/// `cargo test` sets) to the folder with `Cargo.lock`: a path compiled into this crate would
/// name whichever clone built it first when clones share a build cache.
pub fn workspace() -> PathBuf {
    let package = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    let root = package
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .map_or_else(|| package.join("../.."), Path::to_path_buf);
    let here = std::env::current_dir().and_then(|d| d.canonicalize());
    match (here, root.canonicalize()) {
        (Ok(here), Ok(canonical)) if here == canonical => PathBuf::new(),
        _ => root,
    }
}

/// The benchmark data folder: `$MAKESPAN_DATA`, else `../shared/benchmarks` beside the
/// workspace.
pub fn data_dir() -> PathBuf {
    std::env::var_os("MAKESPAN_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/benchmarks"))
}

/// `relative` under the benchmark data folder, or `None` (the calling test then returns:
/// it is skipped) when it is not there.
pub fn data(relative: &str) -> Option<PathBuf> {
    present(data_dir().join(relative))
}

/// `relative` under `../shared/external-validation` (PSPLIB, RCPSP/max, job shop samples),
/// or `None` (skipped) when it is not there.
pub fn external(relative: &str) -> Option<PathBuf> {
    present(external_dir().join(relative))
}

/// `relative` under the benchmark data folder if it is there, without a skip note: for data
/// that only adds to a test that runs anyway (an extra fuzz seed), not for data a test needs.
pub fn data_if_present(relative: &str) -> Option<PathBuf> {
    Some(data_dir().join(relative)).filter(|p| p.exists())
}

/// `relative` under `../shared/external-validation` if it is there, without a skip note (see
/// [`data_if_present`]).
pub fn external_if_present(relative: &str) -> Option<PathBuf> {
    Some(external_dir().join(relative)).filter(|p| p.exists())
}

/// The classic validation sets' folder: `../shared/external-validation` beside the workspace.
pub fn external_dir() -> PathBuf {
    workspace().join("../shared/external-validation")
}

fn present(path: PathBuf) -> Option<PathBuf> {
    if path.exists() {
        return Some(path);
    }
    skip(&format!(
        "{} is not there (benchmark data: set MAKESPAN_DATA or see the README's \"Data\")",
        path.display()
    ));
    None
}

/// Logs that the calling test is skipped and why (to standard error, and to
/// `$MAKESPAN_SKIP_LOG` when set, which `scripts/test` counts).
pub fn skip(why: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!("skipped {test}: {why}");
    eprintln!("{line}");
    if let Some(log) = std::env::var_os("MAKESPAN_SKIP_LOG") {
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(file, "{line}");
        }
    }
}
