//! The exact method: a time-indexed MILP solved by HiGHS. It answers "is there a schedule
//! that ends by the horizon, and what is the shortest one?" with HiGHS's own proof
//! (infeasibility, or a dual bound that meets the incumbent).

mod cliques;
mod holds;
mod instants;
mod model;
mod preemption;
pub mod propagate;
mod setups;
mod states;

use std::ffi::{CStr, CString};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

use highs::{HighsModelStatus, HighsSolutionStatus, Sense};

use crate::problem::Problem;
pub use model::TimeIndexed;

/// Solver limits and outputs.
#[derive(Debug, Clone)]
pub struct MilpSettings {
    /// Wall-clock limit in seconds.
    pub time_limit: f64,
    pub threads: NonZeroU32,
    /// Branch-and-bound nodes HiGHS may explore (`mip_max_nodes`); `None` for no limit.
    pub node_limit: Option<u64>,
    /// Write the model in LP format here before solving.
    pub export_lp: Option<PathBuf>,
}

/// What HiGHS established about the horizon model.
#[derive(Debug, Clone, PartialEq)]
pub enum MilpOutcome {
    /// Proven: no schedule ends by the horizon.
    Infeasible { nodes: u64 },
    /// A schedule that ends by the horizon; `proven` when HiGHS closed the gap, and `bound`
    /// is its dual bound rounded up (every schedule within the horizon is at least this long).
    Solved {
        starts: Vec<i64>,
        makespan: i64,
        bound: i64,
        proven: bool,
        nodes: u64,
    },
    /// Stopped (time or node limit) without a schedule; `bound` as above when HiGHS had one.
    Stopped { bound: Option<i64>, nodes: u64 },
    /// Not built: a time grid this long (days in seconds, say) would need more than
    /// [`MAX_VARIABLES`] variables (or time-step capacity rows; the larger count is given).
    TooLarge { variables: u64 },
}

/// The largest time-indexed model worth building on one core and 24 GiB.
pub const MAX_VARIABLES: u64 = 2_000_000;

/// The HiGHS version linked into this binary, e.g. `HiGHS 1.11.0`.
pub fn highs_version() -> String {
    // SAFETY: Highs_version returns a pointer to a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(highs_sys::Highs_version()) };
    format!("HiGHS {}", version.to_string_lossy())
}

/// Minimises the makespan over schedules that end by `horizon`.
///
/// Propagation first ([`propagate`]): it may prove the horizon infeasible or raise the lower
/// bound (the smallest horizon it cannot rule out), and its tighter windows and derived
/// precedences shrink and strengthen the model.
pub fn solve(
    problem: &Problem,
    horizon: i64,
    lower_bound: i64,
    settings: &MilpSettings,
) -> Result<MilpOutcome, String> {
    // Too long a grid is too large whatever propagation finds, and propagating over it
    // would take as long as building it.
    let cells = grid_cells(problem, horizon);
    if cells > MAX_VARIABLES {
        return Ok(MilpOutcome::TooLarge { variables: cells });
    }
    let Some(lower_bound) =
        propagate::first_open_horizon(problem, lower_bound.min(horizon), horizon)
    else {
        return Ok(MilpOutcome::Infeasible { nodes: 0 });
    };
    solve_window(problem, horizon, lower_bound, settings)
}

/// Capacity rows are built for every time unit of the horizon, however few variables the
/// windows leave: a long horizon is too large even when the starts are nearly fixed.
fn grid_cells(problem: &Problem, horizon: i64) -> u64 {
    (horizon.max(0) as u64).saturating_mul(problem.capacities.len() as u64)
}

/// Minimises the makespan over schedules that end by `horizon`, given that none is shorter
/// than `lower_bound`.
fn solve_window(
    problem: &Problem,
    horizon: i64,
    lower_bound: i64,
    settings: &MilpSettings,
) -> Result<MilpOutcome, String> {
    // Propagation first: it may prove the horizon infeasible, and its tighter windows and
    // derived precedences shrink and strengthen the model.
    let Some(tightened) = propagate::tighten(problem, horizon) else {
        return Ok(MilpOutcome::Infeasible { nodes: 0 });
    };
    let problem = &tightened;
    let grid = grid_cells(problem, horizon);
    match TimeIndexed::variables(problem, horizon) {
        None => return Ok(MilpOutcome::Infeasible { nodes: 0 }),
        Some(variables) if variables.max(grid) > MAX_VARIABLES => {
            return Ok(MilpOutcome::TooLarge {
                variables: variables.max(grid),
            })
        }
        Some(_) => {}
    }
    let Some(mut built) = TimeIndexed::build(problem, horizon, lower_bound.min(horizon)) else {
        return Ok(MilpOutcome::Infeasible { nodes: 0 });
    };
    if built.problem.num_cols() == 0 {
        // Every start is forced by the windows, and no row contradicts them.
        let starts = built.decode(&[], problem.len());
        let makespan = makespan_of(problem, &starts);
        return Ok(MilpOutcome::Solved {
            starts,
            makespan,
            bound: makespan,
            proven: true,
            nodes: 0,
        });
    }
    let rows = std::mem::take(&mut built.problem);
    let mut model = rows
        .try_optimise(Sense::Minimise)
        .map_err(|s| format!("HiGHS rejected the model: {s:?}"))?;
    model.make_quiet();
    model
        .try_set_option("time_limit", settings.time_limit)
        .map_err(|s| {
            format!(
                "HiGHS refused the time limit {} s ({s:?}); give a number of seconds ≥ 0",
                settings.time_limit
            )
        })?;
    if let Some(nodes) = settings.node_limit {
        model
            .try_set_option("mip_max_nodes", i32::try_from(nodes).unwrap_or(i32::MAX))
            .map_err(|s| format!("HiGHS refused the node limit {nodes}: {s:?}"))?;
    }
    model.set_threads(settings.threads);
    model.set_option("mip_rel_gap", 0.0);
    // Makespans are integers, so a gap below one unit is a proof.
    model.set_option("mip_abs_gap", 1.0 - 1e-6);
    if let Some(path) = &settings.export_lp {
        write_lp(&mut model, path)?;
    }
    let solved = model
        .try_solve()
        .map_err(|s| format!("HiGHS failed: {s:?}"))?;
    let nodes = int64_info(&solved, c"mip_node_count").unwrap_or(0).max(0) as u64;
    let offset = built.objective_offset() as f64;
    let dual = solved.double_info_value(c"mip_dual_bound").ok();
    let bound = dual
        .filter(|b| b.is_finite())
        .map(|b| (offset + b - 1e-6).ceil() as i64);
    let status = solved.status();
    if status == HighsModelStatus::Infeasible {
        return Ok(MilpOutcome::Infeasible { nodes });
    }
    // Read the info value directly: the binding panics on "no status" (-1).
    let has_solution = solved.int_info_value(c"primal_solution_status").ok()
        == Some(HighsSolutionStatus::Feasible as i64);
    if !has_solution {
        return match status {
            HighsModelStatus::ReachedTimeLimit
            | HighsModelStatus::ReachedIterationLimit
            | HighsModelStatus::ReachedSolutionLimit
            | HighsModelStatus::ReachedInterrupt => Ok(MilpOutcome::Stopped {
                bound: Some(bound.map_or(lower_bound, |b| b.max(lower_bound))),
                nodes,
            }),
            other => Err(format!("HiGHS ended with status {other:?} and no solution")),
        };
    }
    let solution = solved.get_solution();
    let starts = built.decode(solution.columns(), problem.len());
    let makespan = makespan_of(problem, &starts);
    let proven = status == HighsModelStatus::Optimal;
    Ok(MilpOutcome::Solved {
        starts,
        makespan,
        bound: if proven {
            makespan
        } else {
            bound
                .map_or(lower_bound, |b| b.max(lower_bound))
                .min(makespan)
        },
        proven,
        nodes,
    })
}

fn makespan_of(problem: &Problem, starts: &[i64]) -> i64 {
    starts
        .iter()
        .zip(&problem.durations)
        .map(|(s, p)| s + p)
        .max()
        .unwrap_or(0)
}

fn int64_info(model: &highs::SolvedModel, name: &CStr) -> Option<i64> {
    let mut value: i64 = 0;
    // SAFETY: the pointer is a live HiGHS instance and `value` outlives the call.
    let status =
        unsafe { highs_sys::Highs_getInt64InfoValue(model.as_ptr(), name.as_ptr(), &mut value) };
    (status == 0).then_some(value)
}

/// Writes the model as an LP file, through a temporary file so a crash never leaves half of one.
fn write_lp(model: &mut highs::Model, path: &Path) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{file_name}.{}.lp", std::process::id()));
    let c_path = CString::new(temporary.to_string_lossy().as_bytes())
        .map_err(|_| format!("{}: the path contains a NUL byte", path.display()))?;
    // SAFETY: the pointer is a live HiGHS instance; c_path is NUL-terminated.
    let status = unsafe { highs_sys::Highs_writeModel(model.as_mut_ptr(), c_path.as_ptr()) };
    // 1 is a warning: HiGHS made up the column and row names the model does not carry.
    if status < 0 {
        let _ = std::fs::remove_file(&temporary);
        return Err(format!(
            "{}: HiGHS could not write the LP file",
            path.display()
        ));
    }
    std::fs::rename(&temporary, path).map_err(|e| format!("{}: {e}", path.display()))
}
