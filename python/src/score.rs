//! `score`: a whole model run, read from the benchmark's own output files and scored
//! strictly and as the original scores it (`makespan score`).

use std::path::PathBuf;

use pyo3::prelude::*;

use makespan::score::{score_run, ScoreOptions};

use crate::errors;
use crate::objects::RunReport;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score, m)?)?;
    Ok(())
}

/// Scores a whole model run as ``makespan score`` does.
///
/// ``run``: a ParaCook results file (``results/abstract/<model>.json``), a folder of
/// TimeArena trajectories or a folder of Recipe2Plan logs. ``data``: the root of your
/// checkout of the benchmark (default ``$MAKESPAN_DATA``). ``solutions``: a folder of
/// solution files for the optima; instances without one are solved (``time_limit``
/// seconds each) and their solutions written there. An answer that cannot be scored is a
/// row with its ``error``; a run or checkout that cannot be read raises ``ReadError``.
///
/// >>> run = makespan.score("results/abstract/model-x.json", data="ParaCook")  # doctest: +SKIP
/// >>> run.headline, [r["ratio"] for r in run.rows], run.differences          # doctest: +SKIP
#[pyfunction]
#[pyo3(signature = (run, data=None, solutions=None, *, time_limit=60.0))]
fn score(
    py: Python<'_>,
    run: PathBuf,
    data: Option<PathBuf>,
    solutions: Option<PathBuf>,
    time_limit: f64,
) -> PyResult<RunReport> {
    let options = ScoreOptions {
        data,
        solutions,
        solve: crate::solve::options(time_limit, 1, None, false)?,
    };
    py.detach(|| score_run(&run, &options))
        .map(RunReport)
        .map_err(errors::load)
}
