//! How many instances to solve at once: a default that fits the machine's cores and memory,
//! and a check that refuses a count the process cannot run (16 workers with 256 MiB stacks
//! each do not fit an address-space limit of 4 GB: the threads fail to start, or the
//! process aborts). The CLI's `--jobs` and Python's `solve_many(jobs=)` share both.

use crate::batch::WORKER_STACK;
use crate::setting::Setting;

/// Memory one running instance is allowed for when choosing the default number of jobs
/// (the largest solves of the benchmarks stay below it; the unit-step search's state
/// budget is sized to it).
const MEMORY_PER_JOB: u64 = 2 << 30;

/// A number of jobs the process cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobsError {
    /// Zero jobs.
    #[error("at least 1")]
    Zero,
    /// More worker stacks than the address-space limit holds.
    #[error(
        "each worker reserves {} MiB of stack, and the address-space limit (ulimit -v) of {limit_mib} MiB fits at most {fits}; lower {} or raise the limit",
        WORKER_STACK >> 20,
        Setting::Jobs
    )]
    AddressSpace {
        /// Jobs asked for.
        jobs: usize,
        /// The most that fit.
        fits: usize,
        /// The soft address-space limit, in MiB.
        limit_mib: u64,
    },
}

/// Instances solved at once by default: one per `threads` cores, but no more than the
/// available memory (2 GiB each) and the address-space limit (a worker stack each) allow.
pub fn default_jobs(threads: u32) -> usize {
    let cores =
        std::thread::available_parallelism().map_or(1, usize::from) / threads.max(1) as usize;
    let by_memory = available_memory().map_or(usize::MAX, |m| (m / MEMORY_PER_JOB) as usize);
    let by_address_space =
        address_space_limit().map_or(usize::MAX, |l| (l / (2 * WORKER_STACK as u64)) as usize);
    cores.min(by_memory).min(by_address_space).max(1)
}

/// `jobs` if the address-space limit can hold that many worker stacks.
pub fn check_jobs(jobs: usize) -> Result<usize, JobsError> {
    if jobs == 0 {
        return Err(JobsError::Zero);
    }
    if let Some(limit) = address_space_limit() {
        let fits = (limit / (2 * WORKER_STACK as u64)).max(1) as usize;
        if jobs > fits {
            return Err(JobsError::AddressSpace {
                jobs,
                fits,
                limit_mib: limit >> 20,
            });
        }
    }
    Ok(jobs)
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
