//! Temporary files of atomic writes. Each is named `.makespan-tmp-<pid>-<random>` (created
//! with `O_EXCL` by `tempfile`, so a planted file or link is never written through), so that
//! what a killed run left behind is recognisable: [`clean`] removes those of processes that
//! no longer run, at the start of every batch, and [`remove_own`] those of this process
//! (the CLI's second Ctrl-C, which exits at once).

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Start of every temporary name.
const PREFIX: &str = ".makespan-tmp-";

/// Where `/proc` cannot say whether a process runs, a temporary file this old is left over
/// (an atomic write takes milliseconds).
const STALE: Duration = Duration::from_secs(600);

/// This process's prefix: `.makespan-tmp-<pid>-`.
pub fn prefix() -> String {
    format!("{PREFIX}{}-", std::process::id())
}

/// Removes the temporaries in `dir` left by processes that no longer run (or, without
/// `/proc`, older than ten minutes). Concurrent runs into one folder (`--shard`) keep theirs.
pub fn clean(dir: &Path) {
    for (path, pid) in temporaries(dir) {
        let gone = if Path::new("/proc/self").exists() {
            pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
        } else {
            fs::metadata(&path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| SystemTime::now().duration_since(t).unwrap_or_default() > STALE)
        };
        if gone {
            remove(&path);
        }
    }
}

/// Removes this process's temporaries in `dir` (a run that exits in the middle of writes).
pub fn remove_own(dir: &Path) {
    for (path, pid) in temporaries(dir) {
        if pid == std::process::id() {
            remove(&path);
        }
    }
}

fn remove(path: &Path) {
    // Best effort: another run may remove it first.
    let _ = if path.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    };
}

/// The temporaries in `dir`, each with the process id in its name.
fn temporaries(dir: &Path) -> Vec<(std::path::PathBuf, u32)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name.strip_prefix(PREFIX)?.split('-').next()?.parse().ok()?;
            Some((e.path(), pid))
        })
        .collect()
}
