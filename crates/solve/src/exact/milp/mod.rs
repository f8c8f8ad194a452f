//! The exact method: a time-indexed MILP solved by HiGHS. It answers "is there a schedule
//! that ends by the horizon, and what is the shortest one?" with HiGHS's own proof
//! (infeasibility, or a dual bound that meets the incumbent).

mod cliques;
mod highs;
mod holds;
mod instants;
pub(crate) mod method;
mod model;
mod preemption;
pub mod propagate;
mod setups;
mod states;

use std::num::NonZeroU32;
use std::path::PathBuf;

use crate::problem::Problem;
use crate::Cancel;
use highs::Ending;
use model::{Steps, TimeIndexed};

pub use highs::version as highs_version;

/// Stack of a thread that runs HiGHS: it recurses deeply on some models, and the 2 MiB
/// default is not enough. It is address space, not memory, until used.
pub const STACK: usize = 256 << 20;

/// A family of rows beyond precedences and capacities: each adds its rows for the horizon to
/// the model. One signature, so a new rule is one new file and one line here.
type RowFamily = fn(&Problem, i64, &[Steps], &mut highs::Rows);

/// The row families, in the order their rows enter the model.
const ROW_FAMILIES: [RowFamily; 5] = [
    cliques::add_rows,
    setups::add_rows,
    instants::add_rows,
    preemption::add_rows,
    states::add_rows,
];

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
    /// Stops HiGHS at its next interrupt check once tripped (an interrupt ends like a limit).
    pub cancel: Cancel,
}

/// Why the MILP could not run (its outcome is then an `error` solution with this reason).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MilpError {
    /// HiGHS refused the model or an option, or failed while solving.
    #[error("{0}")]
    Highs(String),
    /// `--export-lp`: the LP file could not be written.
    #[error("{}: {message}", path.display())]
    LpFile {
        /// The LP file (or its folder).
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
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
) -> Result<MilpOutcome, MilpError> {
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
) -> Result<MilpOutcome, MilpError> {
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
    if built.rows.columns() == 0 {
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
    let offset = built.objective_offset() as f64;
    let rows = std::mem::take(&mut built.rows);
    if settings.cancel.is_cancelled() {
        // The caller has its answer (a race was won): HiGHS's presolve would keep it
        // waiting, as it does not look at the token.
        return Ok(MilpOutcome::Stopped {
            bound: Some(lower_bound),
            nodes: 0,
        });
    }
    let solved = highs::solve(rows, settings)?;
    let nodes = solved.nodes;
    let bound = solved
        .dual_bound
        .filter(|b| b.is_finite())
        .map(|b| (offset + b - 1e-6).ceil() as i64);
    if matches!(solved.ending, Ending::Infeasible) {
        return Ok(MilpOutcome::Infeasible { nodes });
    }
    let Some(values) = solved.values else {
        return match solved.ending {
            Ending::Limit => Ok(MilpOutcome::Stopped {
                bound: Some(bound.map_or(lower_bound, |b| b.max(lower_bound))),
                nodes,
            }),
            Ending::Other(other) => Err(MilpError::Highs(format!(
                "HiGHS ended with status {other} and no solution"
            ))),
            Ending::Optimal | Ending::Infeasible => Err(MilpError::Highs(
                "HiGHS ended with status Optimal and no solution".into(),
            )),
        };
    };
    let starts = built.decode(&values, problem.len());
    let makespan = makespan_of(problem, &starts);
    let proven = matches!(solved.ending, Ending::Optimal);
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
