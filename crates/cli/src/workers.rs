//! `--jobs` and `--threads`, checked by the library (which Python's `solve_many` shares) and
//! worded as flags: 2,000 HiGHS threads abort inside HiGHS, and 16 workers with 256 MiB
//! stacks each do not fit an address-space limit of 4 GB.

use anyhow::{bail, Result};

pub use makespan::jobs::default_jobs;
use makespan::jobs::JobsError;

/// `--jobs N`: refused when the address-space limit cannot hold N worker stacks.
pub fn check_jobs(jobs: usize) -> Result<usize> {
    match makespan::jobs::check_jobs(jobs) {
        Ok(jobs) => Ok(jobs),
        Err(e @ JobsError::Zero) => bail!("--jobs: {e}"),
        Err(e @ JobsError::AddressSpace { jobs, .. }) => bail!("--jobs {jobs}: {e}"),
    }
}

/// `--threads N`, checked by the library (at least 1, at most the number of cores).
pub fn check_threads(threads: u32) -> Result<()> {
    makespan::solve::check_threads(threads.into()).map_err(|e| anyhow::anyhow!("--threads {e}"))?;
    Ok(())
}
