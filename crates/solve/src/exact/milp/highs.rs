//! The one file of makespan that touches HiGHS (`highs`, `highs-sys`): the row builder every
//! row family writes into, solving with the options that make a proof, and reading back what
//! HiGHS established. Everything else speaks in [`Var`], [`Row`] and [`Solved`].

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;

use highs::{Col, HighsModelStatus, HighsSolutionStatus, RowProblem, Sense};

use super::{MilpError, MilpSettings};
use crate::Cancel;

/// A binary column of the model.
#[derive(Debug, Clone, Copy)]
pub(super) struct Var(Col);

impl Var {
    /// Its index in a column solution.
    pub(super) fn index(self) -> usize {
        self.0.index()
    }
}

/// A term of a row: a column, or a constant that is already known.
pub(super) enum Term {
    Var(Var),
    Const(f64),
}

/// Collects `Σ coef · term ≤ bound` with constants folded into the bound.
#[derive(Default)]
pub(super) struct Row {
    terms: Vec<(Var, f64)>,
    constant: f64,
}

impl Row {
    /// Adds `coef · term`.
    pub(super) fn add(&mut self, term: Term, coef: f64) {
        match term {
            Term::Var(v) => self.terms.push((v, coef)),
            Term::Const(v) => self.constant += v * coef,
        }
    }
}

/// The model being built: columns and `row ≤ upper` rows. A row whose every term is known is
/// not added: it is either true, or it proves the horizon infeasible ([`Rows::contradicted`]).
#[derive(Default)]
pub(super) struct Rows {
    problem: RowProblem,
    contradicted: bool,
}

impl Rows {
    /// A new binary column with objective coefficient `cost`.
    pub(super) fn binary(&mut self, cost: f64) -> Var {
        Var(self.problem.add_integer_column(cost, 0..=1))
    }

    /// Adds `row ≤ upper` as written (its columns are distinct).
    pub(super) fn add(&mut self, row: Row, upper: f64) {
        if !row.terms.is_empty() {
            let terms = row.terms.into_iter().map(|(v, c)| (v.0, c));
            self.problem.add_row(..=upper - row.constant, terms);
        } else if row.constant > upper + 1e-9 {
            self.contradicted = true;
        }
    }

    /// Adds `row ≤ upper` with the terms of one column merged (HiGHS rejects repeated columns
    /// in a row) and zero terms dropped.
    pub(super) fn add_merged(&mut self, row: Row, upper: f64) {
        let mut terms: Vec<(Var, f64)> = Vec::with_capacity(row.terms.len());
        for (var, coef) in row.terms {
            match terms.iter_mut().find(|(v, _)| v.index() == var.index()) {
                Some(term) => term.1 += coef,
                None => terms.push((var, coef)),
            }
        }
        terms.retain(|&(_, coef)| coef != 0.0);
        self.add(
            Row {
                terms,
                constant: row.constant,
            },
            upper,
        );
    }

    /// Whether a row with no columns left was violated: no schedule fits the horizon.
    pub(super) fn contradicted(&self) -> bool {
        self.contradicted
    }

    /// How many columns the model has.
    pub(super) fn columns(&self) -> usize {
        self.problem.num_cols()
    }
}

/// How HiGHS ended.
pub(super) enum Ending {
    /// Proven optimal.
    Optimal,
    /// Proven infeasible.
    Infeasible,
    /// Stopped by a limit (time, nodes, iterations, solutions, interrupt).
    Limit,
    /// Anything else, named.
    Other(String),
}

/// What HiGHS established: how it ended, its node count, its dual bound and, when it found
/// one, the column values of its best solution.
pub(super) struct Solved {
    pub(super) ending: Ending,
    pub(super) nodes: u64,
    pub(super) dual_bound: Option<f64>,
    pub(super) values: Option<Vec<f64>>,
}

/// Minimises the model with the settings' limits; integer makespans make a gap below one unit
/// a proof, so the absolute gap is just under 1.
pub(super) fn solve(rows: Rows, settings: &MilpSettings) -> Result<Solved, MilpError> {
    let mut model = rows
        .problem
        .try_optimise(Sense::Minimise)
        .map_err(|s| MilpError::Highs(format!("HiGHS rejected the model: {s:?}")))?;
    model.make_quiet();
    model
        .try_set_option("time_limit", settings.time_limit)
        .map_err(|s| {
            MilpError::Highs(format!(
                "HiGHS refused the time limit {} s ({s:?}); give a number of seconds ≥ 0",
                settings.time_limit
            ))
        })?;
    if let Some(nodes) = settings.node_limit {
        model
            .try_set_option("mip_max_nodes", i32::try_from(nodes).unwrap_or(i32::MAX))
            .map_err(|s| {
                MilpError::Highs(format!("HiGHS refused the node limit {nodes}: {s:?}"))
            })?;
    }
    model.set_threads(settings.threads);
    model.set_option("mip_rel_gap", 0.0);
    model.set_option("mip_abs_gap", 1.0 - 1e-6);
    if let Some(path) = &settings.export_lp {
        write_lp(&mut model, path)?;
    }
    watch(&mut model, &settings.cancel);
    let solved = model
        .try_solve()
        .map_err(|s| MilpError::Highs(format!("HiGHS failed: {s:?}")))?;
    let nodes = int64_info(&solved, c"mip_node_count").unwrap_or(0).max(0) as u64;
    let dual_bound = solved.double_info_value(c"mip_dual_bound").ok();
    // Read the info value directly: the binding panics on "no status" (-1).
    let has_solution = solved.int_info_value(c"primal_solution_status").ok()
        == Some(HighsSolutionStatus::Feasible as i64);
    let ending = match solved.status() {
        HighsModelStatus::Optimal => Ending::Optimal,
        HighsModelStatus::Infeasible => Ending::Infeasible,
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedInterrupt => Ending::Limit,
        other => Ending::Other(format!("{other:?}")),
    };
    let values = has_solution.then(|| solved.get_solution().columns().to_vec());
    Ok(Solved {
        ending,
        nodes,
        dual_bound,
        values,
    })
}

/// Lets HiGHS stop at its next interrupt check (simplex iterations, branch-and-bound nodes)
/// once `cancel` is tripped; it then ends with `ReachedInterrupt`, like a limit.
fn watch(model: &mut highs::Model, cancel: &Cancel) {
    unsafe extern "C" fn poll(
        _kind: c_int,
        _message: *const c_char,
        _data_out: *const highs_sys::HighsCallbackDataOut,
        data_in: *mut highs_sys::HighsCallbackDataIn,
        cancel: *mut c_void,
    ) {
        // SAFETY: `cancel` is the token `watch` registered, borrowed for the whole solve;
        // `data_in` is HiGHS's own input block for interrupt callbacks, checked for null.
        unsafe {
            if !data_in.is_null() && (*cancel.cast::<Cancel>()).is_cancelled() {
                (*data_in).user_interrupt = 1;
            }
        }
    }
    let model = model.as_mut_ptr();
    // SAFETY: the pointer is a live HiGHS instance; the token outlives `solve`, which is
    // the only call during which HiGHS runs the callback.
    unsafe {
        highs_sys::Highs_setCallback(
            model,
            Some(poll),
            std::ptr::from_ref(cancel).cast_mut().cast(),
        );
        for kind in [
            highs_sys::kHighsCallbackSimplexInterrupt,
            highs_sys::kHighsCallbackIpmInterrupt,
            highs_sys::kHighsCallbackMipInterrupt,
        ] {
            highs_sys::Highs_startCallback(model, kind);
        }
    }
}

/// The HiGHS version linked into this binary, e.g. `HiGHS 1.11.0`.
pub fn version() -> String {
    // SAFETY: Highs_version returns a pointer to a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(highs_sys::Highs_version()) };
    format!("HiGHS {}", version.to_string_lossy())
}

fn int64_info(model: &highs::SolvedModel, name: &CStr) -> Option<i64> {
    let mut value: i64 = 0;
    // SAFETY: the pointer is a live HiGHS instance and `value` outlives the call.
    let status =
        unsafe { highs_sys::Highs_getInt64InfoValue(model.as_ptr(), name.as_ptr(), &mut value) };
    (status == 0).then_some(value)
}

/// Writes the model as an LP file, through a temporary file so a crash never leaves half of
/// one. HiGHS opens the file by name, so the name must not be guessable: it writes into a
/// fresh directory of random name that only this user can enter (a planted link in the
/// output folder is never followed), and the file is renamed into place.
fn write_lp(model: &mut highs::Model, path: &Path) -> Result<(), MilpError> {
    let lp_file = |path: &Path, message: String| MilpError::LpFile {
        path: path.to_path_buf(),
        message,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| lp_file(dir, e.to_string()))?;
    // The prefix the batch's clean-up recognises (`makespan::batch::temp`).
    let prefix = format!(".makespan-tmp-{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    let private = builder
        .tempdir_in(dir)
        .map_err(|e| lp_file(dir, e.to_string()))?;
    let temporary = private.path().join("model.lp");
    let c_path = CString::new(temporary.to_string_lossy().as_bytes())
        .map_err(|_| lp_file(path, "the path contains a NUL byte".into()))?;
    // SAFETY: the pointer is a live HiGHS instance; c_path is NUL-terminated.
    let status = unsafe { highs_sys::Highs_writeModel(model.as_mut_ptr(), c_path.as_ptr()) };
    // 1 is a warning: HiGHS made up the column and row names the model does not carry.
    if status < 0 {
        let _ = std::fs::remove_file(&temporary);
        return Err(lp_file(path, "HiGHS could not write the LP file".into()));
    }
    std::fs::rename(&temporary, path).map_err(|e| lp_file(path, e.to_string()))
}
