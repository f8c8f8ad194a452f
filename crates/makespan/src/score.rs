//! Scoring a whole model run from the benchmark's own output files (`makespan score`).
//!
//! The report's types are plain data, defined beside the benchmarks' harness readers in
//! [`formats::run`](crate::formats::run) and re-exported here: [`RunReport`] (one [`Row`]
//! per answer, the [`Headline`] metrics original and corrected, the [`Difference`]s).

pub use makespan_formats::run::{Difference, Headline, Metric, Row, RunReport, RUN_REPORT_FORMAT};
