//! `solve` and `solve_many`: the exact pipeline (or a benchmark's baseline) without the
//! GIL, interruptible by Ctrl-C.

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use makespan::jobs::{check_jobs, default_jobs};
use makespan::solve::{check_threads, check_time_limit};
use makespan::{Method, Run, SolveOptions};

use crate::errors;
use crate::interrupt;
use crate::objects::{Instance, Solution};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    Ok(())
}

/// The options of one solve, checked as the CLI checks its flags.
pub(crate) fn options(
    time_limit: f64,
    threads: u32,
    node_limit: Option<u64>,
    heuristic_only: bool,
) -> PyResult<SolveOptions> {
    let time_limit =
        check_time_limit(time_limit).map_err(|e| errors::usage(format!("time_limit: {e}")))?;
    let threads =
        check_threads(threads.into()).map_err(|e| errors::usage(format!("threads: {e}")))?;
    Ok(SolveOptions {
        time_limit,
        threads,
        node_limit,
        heuristic_only,
        ..SolveOptions::default()
    })
}

fn method(name: &str) -> PyResult<Method> {
    Method::named(name).map_err(|e| errors::usage(format!("method: {e}")))
}

/// Solves one instance: ``optimal`` only when a lower bound meets a verified schedule, else
/// ``feasible`` with ``lower_bound`` and ``gap`` (a limit stopped it) or ``infeasible``.
///
/// ``time_limit``: seconds the MILP may spend; ``threads``: threads of HiGHS and of the
/// one-agent search over time; ``node_limit``: branch-and-bound nodes; ``heuristic_only``: bounds and heuristics only; ``method``:
/// ``"exact"`` or a benchmark's baseline (``"timearena-greedy"``). The GIL is released
/// while solving, and Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a second.
///
/// Raises ``InvalidInstanceError`` or ``UnsupportedError`` for an instance the solver
/// refuses.
///
/// >>> sol = makespan.solve(makespan.load("instances/two-cooks-breakfast.json")[0])
/// >>> sol.status
/// 'optimal'
#[pyfunction]
#[pyo3(signature = (instance, *, time_limit=60.0, threads=1, node_limit=None, heuristic_only=false, method="exact"))]
fn solve(
    py: Python<'_>,
    instance: PyRef<'_, Instance>,
    time_limit: f64,
    threads: u32,
    node_limit: Option<u64>,
    heuristic_only: bool,
    method: &str,
) -> PyResult<Solution> {
    let options = options(time_limit, threads, node_limit, heuristic_only)?;
    let method = self::method(method)?;
    let instance = &instance.0;
    let run = Run::default();
    let solved = interrupt::run(py, &run.cancel, || match method {
        Method::Exact => makespan::try_solve(instance, &options, &run),
        baseline => Ok(makespan::solve_with(instance, baseline, &options)),
    })?;
    solved.map(Solution).map_err(errors::solve)
}

/// Solves every instance in parallel, ``jobs`` at a time, and returns the solutions in the
/// order given. ``jobs`` defaults to one per ``threads`` cores, as many as the available
/// memory (2 GiB each) and the address-space limit (``ulimit -v``) allow; a larger
/// ``jobs`` than that limit holds raises ``makespan.Error`` (as ``makespan solve --jobs``
/// refuses it) instead of failing to start the workers. One bad instance is one ``error`` solution (its
/// ``reason`` says why); the others are solved. Options as in ``solve``; Ctrl-C stops
/// every running solve and raises ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (instances, *, jobs=None, time_limit=60.0, threads=1, node_limit=None, heuristic_only=false))]
fn solve_many(
    py: Python<'_>,
    instances: Vec<PyRef<'_, Instance>>,
    jobs: Option<usize>,
    time_limit: f64,
    threads: u32,
    node_limit: Option<u64>,
    heuristic_only: bool,
) -> PyResult<Vec<Solution>> {
    let options = options(time_limit, threads, node_limit, heuristic_only)?;
    let jobs = match jobs {
        Some(jobs) => check_jobs(jobs).map_err(|e| errors::usage(format!("jobs: {e}")))?,
        None => default_jobs(threads),
    };
    let instances: Vec<makespan::Instance> = instances.iter().map(|i| i.0.clone()).collect();
    let run = Run::default();
    let solved = interrupt::run(py, &run.cancel, || {
        makespan::solve_many(&instances, &options, &run, jobs)
    })?
    .map_err(|e| errors::usage(e.to_string()))?;
    // Only the token stops an instance from starting, and only a signal trips it.
    solved
        .into_iter()
        .map(|s| {
            s.map(Solution)
                .ok_or_else(|| PyKeyboardInterrupt::new_err(""))
        })
        .collect()
}
