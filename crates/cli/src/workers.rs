//! How many instances to solve at once, and how many threads each may use (HiGHS's, the
//! search over time's): defaults that fit the machine's cores and memory, and clear errors
//! for counts it cannot run (2,000 HiGHS threads abort inside HiGHS; 16 workers with 256 MiB
//! stacks each do not fit an address-space limit of 4 GB).

use anyhow::{bail, Result};

use makespan::batch::WORKER_STACK;

/// Memory one running instance is allowed for when choosing the default number of jobs
/// (the largest solves of the benchmarks stay below it; the unit-step search's state
/// budget is sized to it).
const MEMORY_PER_JOB: u64 = 2 << 30;

/// Instances solved at once by default: one per `threads` cores, but no more than the
/// available memory (2 GiB each) and the address-space limit (a worker stack each) allow.
pub fn default_jobs(threads: u32) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from) / threads as usize;
    let by_memory = available_memory().map_or(usize::MAX, |m| (m / MEMORY_PER_JOB) as usize);
    let by_address_space =
        address_space_limit().map_or(usize::MAX, |l| (l / (2 * WORKER_STACK as u64)) as usize);
    cores.min(by_memory).min(by_address_space).max(1)
}

/// `--jobs N`: refused when the address-space limit cannot hold N worker stacks.
pub fn check_jobs(jobs: usize) -> Result<usize> {
    if jobs == 0 {
        bail!("--jobs: at least 1");
    }
    if let Some(limit) = address_space_limit() {
        let fits = (limit / (2 * WORKER_STACK as u64)).max(1) as usize;
        if jobs > fits {
            bail!(
                "--jobs {jobs}: each worker reserves {} MiB of stack, and the address-space limit (ulimit -v) of {} MiB fits at most {fits}; lower --jobs or raise the limit",
                WORKER_STACK >> 20,
                limit >> 20
            );
        }
    }
    Ok(jobs)
}

/// `--threads N`, checked by the library (at least 1, at most the number of cores).
pub fn check_threads(threads: u32) -> Result<()> {
    makespan::solve::check_threads(threads.into()).map_err(|e| anyhow::anyhow!("--threads {e}"))?;
    Ok(())
}

/// `MemAvailable` of `/proc/meminfo`, in bytes (Linux; `None` elsewhere).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The soft address-space limit (`ulimit -v`) from `/proc/self/limits`, in bytes.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}
