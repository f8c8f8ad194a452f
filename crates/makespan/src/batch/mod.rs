//! Solving many instances: parallel (rayon), resumable (an existing solution with the same
//! instance hash is kept), atomic (every file is written to a temporary file and renamed),
//! with progress reported to a callback and a `summary.csv` of the whole output folder. It
//! draws nothing and installs no signal handler: the caller passes a [`Cancel`] token and a
//! progress callback (the CLI draws a bar and trips the token on Ctrl-C).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use makespan_benchmarks as benchmarks;
use makespan_model::certificate::ProofKind;
use makespan_model::instance::{Instance, TimeUnit};
use makespan_model::solution::{CrossCheck, Solution, SolvedWith, Status, Verdict};
use makespan_solve::{certify, check};
use makespan_solve::{Cancel, SolveOptions};

use crate::Method;
use resume::Resume;

mod names;
mod resume;
pub mod temp;

pub use names::{dedupe, dedupe_files, file_stem, solution_path};

/// How to run a batch.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Folder of the solution files and `summary.csv`.
    pub out: PathBuf,
    /// Instances solved at once.
    pub jobs: usize,
    /// Re-solve instances that already have a solution for the same instance hash.
    pub force: bool,
    /// Also write each benchmark's native answer form beside the solution.
    pub emit_native: bool,
    /// Write each MILP built into this folder as `<instance>.lp`.
    pub export_lp: Option<PathBuf>,
    /// Re-solve each instance by a second method and record the verdict ([`check`]).
    pub check: bool,
    /// Write a certificate beside each optimal solution ([`certify`]).
    pub certify: bool,
    /// Limits and effort of each solve.
    pub solve: SolveOptions,
    /// Which method produces the schedules.
    pub method: Method,
}

/// One row of the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Instance name.
    pub instance: String,
    /// What is known after solving.
    pub status: Status,
    /// Makespan of the schedule, if one was found.
    pub makespan: Option<i64>,
    /// Proven lower bound.
    pub lower_bound: Option<i64>,
    /// (makespan − bound) / makespan.
    pub gap: Option<f64>,
    /// Wall-clock seconds of the solve.
    pub seconds: f64,
    /// Method that produced the schedule.
    pub method: String,
    /// Kept from an earlier run instead of solved now.
    pub reused: bool,
    /// The cross-check's verdict, when one ran.
    pub check: Option<Verdict>,
    /// Why a result kept from an earlier run was solved again (weaker limits, another
    /// method, a failed re-check).
    pub resolved: Option<String>,
    /// Why the instance's files could not be written (the row's status is then `error`).
    pub failed: Option<String>,
    /// The kind of certificate its solution carries.
    pub certificate: Option<ProofKind>,
    /// With `--certify`, why an optimal solution got no certificate.
    pub uncertified: Option<String>,
    /// Why the benchmark's own environment cannot complete any answer to the instance, the
    /// optimum's included ([`benchmarks::unfinishable`]).
    pub unfinishable: Option<String>,
    /// The unit of the makespan and bound, for showing them as people read them
    /// ([`TimeUnit::show`]).
    pub time_unit: TimeUnit,
}

impl Row {
    fn of(solution: &Solution, reused: bool) -> Row {
        Row {
            instance: solution.instance.name.clone(),
            status: solution.status,
            makespan: solution.makespan,
            lower_bound: solution.lower_bound,
            gap: solution.gap,
            seconds: solution.seconds,
            method: solution.method.clone(),
            reused,
            check: solution.check.as_ref().map(|c| c.verdict),
            resolved: None,
            failed: None,
            certificate: solution.certificate.as_ref().map(|c| c.kind),
            uncertified: None,
            unfinishable: benchmarks::unfinishable(&solution.instance.instance),
            time_unit: solution.instance.instance.time_unit,
        }
    }

    /// An instance whose files could not be written: one `error` row, and the run goes on.
    fn failed(instance: &Instance, error: &BatchError) -> Row {
        Row {
            failed: Some(error.to_string()),
            ..Row::of(&Solution::new(instance, Status::Error, ""), false)
        }
    }
}

/// Stack of each worker thread: that of a thread running HiGHS.
pub const WORKER_STACK: usize = makespan_solve::THREAD_STACK;

/// Why a batch could not run (per-instance failures are `error` solutions, not this).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("{}: {source}", path.display())]
    /// A file or folder could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error("cannot start {jobs} worker threads with {} MiB of stack each: {message}; lower {}", WORKER_STACK >> 20, crate::setting::Setting::Jobs)]
    /// The worker threads could not be started (an address-space or thread limit).
    Workers {
        /// Workers asked for.
        jobs: usize,
        /// The system's reason.
        message: String,
    },
    #[error("instances \"{first}\" (from {first_file}) and \"{second}\" (from {second_file}) would share one solution file; rename one of them")]
    /// Two different instances share a name, or names whose files would be one file.
    NameClash {
        /// The instance read first.
        first: String,
        /// The file it was read from.
        first_file: String,
        /// The instance that clashes with it.
        second: String,
        /// The file it was read from.
        second_file: String,
    },
}

/// What a batch did: a row per instance completed, and whether `summary.csv` was written.
#[derive(Debug)]
pub struct Batch {
    /// One row per instance completed, in the input order.
    pub rows: Vec<Row>,
    /// Why `summary.csv` could not be rewritten (a full disk, a folder of that name); the
    /// solution files are complete, and the next run into the folder rewrites it.
    pub summary_failed: Option<BatchError>,
}

/// Solves every instance and writes one solution file each, then `summary.csv`; `progress`
/// is called with each finished row. Once `cancel` is tripped it starts no further instance
/// and returns the rows of those that were completed. A `summary.csv` that cannot be
/// written is reported in the [`Batch`], not an error: every solution is written by then.
pub fn run(
    instances: &[Instance],
    options: &BatchOptions,
    progress: &(dyn Fn(&Row) + Sync),
    cancel: &Cancel,
) -> Result<Batch, BatchError> {
    writable_folder(&options.out)?;
    temp::clean(&options.out);
    if let Some(dir) = &options.export_lp {
        writable_folder(dir)?;
        temp::clean(dir);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .stack_size(WORKER_STACK)
        .build()
        .map_err(|e| BatchError::Workers {
            jobs: options.jobs,
            message: e.to_string(),
        })?;
    let rows: Result<Vec<Option<Row>>, BatchError> = pool.install(|| {
        instances
            .par_iter()
            .map(|instance| {
                // Once cancelled, instances not yet started are left for the next run.
                if cancel.is_cancelled() {
                    return Ok(None);
                }
                // A file that cannot be written (disk full, a name the file system
                // refuses) is this instance's error, not the end of the run.
                let row = solve_one(instance, options)
                    .unwrap_or_else(|error| Row::failed(instance, &error));
                progress(&row);
                Ok(Some(row))
            })
            .collect()
    });
    let rows = rows?;
    Ok(Batch {
        rows: rows.into_iter().flatten().collect(),
        summary_failed: write_summary(&options.out).err(),
    })
}

/// Creates `dir` if needed and checks that files can be written there, before any
/// instance is solved (a read-only or full folder is found now, not after the first solve).
fn writable_folder(dir: &Path) -> Result<(), BatchError> {
    let fail = |message: String| BatchError::Io {
        path: dir.to_path_buf(),
        source: std::io::Error::other(message),
    };
    if dir.exists() && !dir.is_dir() {
        return Err(fail(
            "exists and is not a folder; --out names the folder for the solution files".into(),
        ));
    }
    fs::create_dir_all(dir).map_err(|e| fail(format!("cannot create the folder: {e}")))?;
    tempfile::Builder::new()
        .prefix(&temp::prefix())
        .tempfile_in(dir)
        .and_then(|mut probe| probe.write_all(b"probe"))
        .map_err(|e| fail(format!("cannot write here: {e}")))
}

/// Solves (checks, certifies) one instance to the end: the batch's token stops only the
/// instances not yet started, so the cross-check and the certificate run untripped.
fn solve_one(instance: &Instance, options: &BatchOptions) -> Result<Row, BatchError> {
    let path = solution_path(&options.out, &instance.name);
    let asked = solved_with(options);
    let mut resolved = None;
    if !options.force {
        match resume::decide(read_solution(&path), instance, &asked) {
            Resume::Keep(existing) => {
                let mut kept = *existing;
                let mut changed = false;
                // `--check` or `--certify` on a folder solved before checks or certifies the
                // solutions kept there.
                if options.check && kept.check.is_none() {
                    kept.check = Some(cross_check(instance, &kept, &options.solve));
                    changed = true;
                }
                let mut uncertified = None;
                if options.certify && kept.certificate.is_none() {
                    uncertified = certify_into(instance, &mut kept, &path, options)?;
                    changed = true;
                }
                if changed {
                    write_solution(&path, &kept)?;
                }
                // `--emit-native` on a folder solved without it writes the kept plans'
                // answers too.
                if options.emit_native {
                    emit_native(instance, &kept, &path)?;
                }
                return Ok(Row {
                    uncertified,
                    ..Row::of(&kept, true)
                });
            }
            Resume::Solve(why) => resolved = why,
        }
    }
    let mut solve_options = options.solve.clone();
    solve_options.export_lp = options
        .export_lp
        .as_ref()
        .map(|dir| solution_path(dir, &instance.name).with_extension("lp"));
    let mut solution = crate::solve_with(instance, options.method, &solve_options);
    if options.check {
        solution.check = Some(cross_check(instance, &solution, &solve_options));
    }
    solution.solved_with = Some(asked);
    let uncertified = if options.certify {
        certify_into(instance, &mut solution, &path, options)?
    } else {
        None
    };
    write_solution(&path, &solution)?;
    if options.emit_native {
        emit_native(instance, &solution, &path)?;
    }
    Ok(Row {
        resolved,
        uncertified,
        ..Row::of(&solution, false)
    })
}

/// Writes the solution's plan in its benchmark's answer form beside its file at `path`
/// (`<instance>.answer.<ext>`, never the solution file's own name), if it has a plan and the
/// benchmark an answer form.
fn emit_native(instance: &Instance, solution: &Solution, path: &Path) -> Result<(), BatchError> {
    if solution.schedule.is_empty() {
        return Ok(());
    }
    let Some(native) = benchmarks::export_native(instance, &solution.schedule) else {
        return Ok(());
    };
    let answer = path.with_extension(format!("answer.{}", native.extension));
    write_atomically(&answer, native.text.as_bytes())
}

/// Why a simulated world's optimum has no certificate: the proof formats makespan writes
/// and checks speak of activity graphs, not of a simulator's states.
const WORLD_UNCERTIFIED: &str = "a simulated kitchen's optimum is proven by an exhaustive search of the simulator's states, and no proof format records such a search yet (it would need every state expanded with its bound, checkable by replaying the simulator)";

/// `--check`'s second method, except for a simulated world: its plan is already replayed by
/// the simulator, and no second method searches worlds yet.
fn cross_check(instance: &Instance, solution: &Solution, options: &SolveOptions) -> CrossCheck {
    if benchmarks::simulated_of(instance).is_some() {
        return CrossCheck {
            verdict: Verdict::Skipped,
            method: "none".into(),
            detail: "a simulated kitchen has no second method to re-solve it; its plan is replayed by the simulator instead".into(),
            seconds: 0.0,
        };
    }
    check::cross_check(instance, solution, options, &Cancel::new())
}

/// The method and limits of this run, as recorded in each solution it writes.
fn solved_with(options: &BatchOptions) -> SolvedWith {
    SolvedWith {
        method: match options.method {
            Method::Exact => "exact".into(),
            Method::Baseline(b) => b.name.into(),
        },
        heuristic_only: options.solve.heuristic_only,
        time_limit: options.solve.time_limit,
        node_limit: options.solve.node_limit,
    }
}

/// Writes the certificate of an optimal solution beside its file and records it; a solution
/// no proof reaches stays uncertified, and the reason is returned.
fn certify_into(
    instance: &Instance,
    solution: &mut Solution,
    path: &Path,
    options: &BatchOptions,
) -> Result<Option<String>, BatchError> {
    if solution.status != Status::Optimal {
        return Ok(None);
    }
    if benchmarks::simulated_of(instance).is_some() {
        return Ok(Some(WORLD_UNCERTIFIED.into()));
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    match certify::certify(
        instance,
        solution,
        &options.out,
        &stem,
        options.solve.time_limit,
        &Cancel::new(),
    ) {
        Ok(record) => {
            solution.certificate = Some(record);
            Ok(None)
        }
        Err(certify::CertifyError::NoProof(why)) => {
            solution.certificate = None;
            Ok(Some(why))
        }
        Err(certify::CertifyError::Io { path, source }) => Err(BatchError::Io { path, source }),
    }
}

fn write_solution(path: &Path, solution: &Solution) -> Result<(), BatchError> {
    let json = serde_json::to_string_pretty(solution).expect("a Solution always serialises");
    write_atomically(path, json.as_bytes())
}

/// A solution file kept from an earlier run, if it is one (anything else is re-solved).
fn read_solution(path: &Path) -> Option<Solution> {
    Solution::read(path).ok()
}

/// Writes through a temporary file in the same folder (a fresh random name, see [`temp`])
/// and renames it into place, so an interrupted run never leaves half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let err = |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    };
    let prefix = temp::prefix();
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created as 0666 less the umask, like any file a tool writes (tempfile's own
        // default, 0600, would hide results in a shared folder from the group).
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(dir).map_err(err)?;
    file.write_all(bytes).map_err(err)?;
    file.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

/// Rewrites `summary.csv` from every solution file in the folder, so it describes the
/// folder, not just the latest run. Written by the `csv` crate: a name with a comma, quote
/// or line break stays one cell, and a cell a spreadsheet would run as a formula (`=`, `+`,
/// `-`, `@` first) is quoted and prefixed with `'`. The `unfinishable` column says why the
/// benchmark's own environment cannot complete an instance (empty when it can).
pub(crate) fn write_summary(out: &Path) -> Result<(), BatchError> {
    let entries = fs::read_dir(out).map_err(|source| BatchError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let mut rows: Vec<Row> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| read_solution(&p))
        .map(|s| Row::of(&s, false))
        .collect();
    rows.sort_by(|a, b| a.instance.cmp(&b.instance));
    let mut csv = csv::Writer::from_writer(Vec::new());
    let cell = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
    let header = [
        "instance",
        "status",
        "makespan",
        "lower_bound",
        "gap",
        "seconds",
        "method",
        "check",
        "unfinishable",
    ];
    let mut record = |fields: [String; 9]| {
        csv.write_record(&fields)
            .expect("writing CSV to memory cannot fail")
    };
    record(header.map(String::from));
    for r in &rows {
        record([
            spreadsheet_safe(&r.instance),
            r.status.to_string(),
            cell(r.makespan),
            cell(r.lower_bound),
            r.gap.map(|g| format!("{g:.4}")).unwrap_or_default(),
            format!("{:.3}", r.seconds),
            spreadsheet_safe(&r.method),
            r.check.map(Verdict::name).unwrap_or_default().into(),
            spreadsheet_safe(r.unfinishable.as_deref().unwrap_or_default()),
        ]);
    }
    let bytes = csv.into_inner().expect("writing CSV to memory cannot fail");
    write_atomically(&out.join("summary.csv"), &bytes)
}

/// A text cell a spreadsheet would evaluate (`=`, `+`, `-`, `@`, tab or carriage return
/// first) gets a leading `'`, as OWASP's CSV-injection advice says.
pub(crate) fn spreadsheet_safe(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}
