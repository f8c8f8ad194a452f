//! Solving many instances: parallel (rayon), resumable (an existing solution with the same
//! instance hash is kept), atomic (every file is written to a temporary file and renamed),
//! with progress reported to a callback and a `summary.csv` of the whole output folder. It
//! draws nothing and installs no signal handler: the caller passes a [`Cancel`] token and a
//! progress callback (the CLI draws a bar and trips the token on Ctrl-C).

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use makespan_formats as formats;
use makespan_model::instance::{content_hash, problem_hash, Instance};
use makespan_model::solution::{Solution, Status, Verdict};
use makespan_solve::{certify, check};
use makespan_solve::{Cancel, SolveOptions};

use crate::Method;

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
        }
    }
}

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
    #[error("two inputs define instance \"{0}\" differently; rename one of them")]
    /// Two different instances share a name (their solution files would collide).
    NameClash(String),
}

/// Removes instances read twice (the same benchmark in two native forms) and refuses two
/// different instances with one name, which would overwrite each other's solution.
pub fn dedupe(instances: Vec<Instance>) -> Result<Vec<Instance>, BatchError> {
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut unique = Vec::with_capacity(instances.len());
    for instance in instances {
        let hash = problem_hash(&instance);
        match seen.get(&instance.name) {
            Some(h) if *h == hash => continue,
            Some(_) => return Err(BatchError::NameClash(instance.name)),
            None => {
                seen.insert(instance.name.clone(), hash);
                unique.push(instance);
            }
        }
    }
    Ok(unique)
}

/// File name of an instance's solution: its name with anything unsafe in a path replaced.
pub fn solution_path(out: &Path, name: &str) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.join(format!("{safe}.json"))
}

/// Solves every instance and writes one solution file each, then `summary.csv`; `progress`
/// is called with each finished row. Once `cancel` is tripped it starts no further instance
/// and returns the rows of those that were completed.
pub fn run(
    instances: &[Instance],
    options: &BatchOptions,
    progress: &(dyn Fn(&Row) + Sync),
    cancel: &Cancel,
) -> Result<Vec<Row>, BatchError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BatchError::Io { path, source }
    };
    fs::create_dir_all(&options.out).map_err(io(&options.out))?;
    if let Some(dir) = &options.export_lp {
        fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        // HiGHS recurses deeply on some models; the 2 MiB default is not enough.
        .stack_size(256 << 20)
        .build()
        .expect("a thread pool with a positive thread count builds");
    let rows: Result<Vec<Option<Row>>, BatchError> = pool.install(|| {
        instances
            .par_iter()
            .map(|instance| {
                // Once cancelled, instances not yet started are left for the next run.
                if cancel.is_cancelled() {
                    return Ok(None);
                }
                let row = solve_one(instance, options)?;
                progress(&row);
                Ok(Some(row))
            })
            .collect()
    });
    let rows = rows?;
    write_summary(&options.out)?;
    Ok(rows.into_iter().flatten().collect())
}

fn solve_one(instance: &Instance, options: &BatchOptions) -> Result<Row, BatchError> {
    let path = solution_path(&options.out, &instance.name);
    if !options.force {
        if let Some(existing) = read_solution(&path) {
            if existing.instance.hash == content_hash(instance) && existing.status != Status::Error
            {
                let certified = !options.certify || existing.certificate.is_some();
                if (!options.check || existing.check.is_some()) && certified {
                    return Ok(Row::of(&existing, true));
                }
                if !options.check || existing.check.is_some() {
                    // `--certify` on a folder solved before certifies the solutions kept there.
                    let mut kept = existing;
                    certify_into(instance, &mut kept, &path, options)?;
                    write_solution(&path, &kept)?;
                    return Ok(Row::of(&kept, true));
                }
                // `--check` on a folder solved before checks the solutions kept there.
                let mut checked = existing;
                checked.check = Some(check::cross_check(instance, &checked, &options.solve));
                write_solution(&path, &checked)?;
                return Ok(Row::of(&checked, true));
            }
        }
    }
    let mut solve_options = options.solve.clone();
    solve_options.export_lp = options
        .export_lp
        .as_ref()
        .map(|dir| solution_path(dir, &instance.name).with_extension("lp"));
    let mut solution = crate::solve_with(instance, options.method, &solve_options);
    if options.check {
        solution.check = Some(check::cross_check(instance, &solution, &solve_options));
    }
    if options.certify {
        certify_into(instance, &mut solution, &path, options)?;
    }
    write_solution(&path, &solution)?;
    if options.emit_native && !solution.schedule.is_empty() {
        if let Some(native) = formats::export_native(instance, &solution.schedule) {
            write_atomically(
                // `<instance>.answer.<ext>`: never the solution file's own name.
                &path.with_extension(format!("answer.{}", native.extension)),
                native.text.as_bytes(),
            )?;
        }
    }
    Ok(Row::of(&solution, false))
}

/// Writes the certificate of an optimal solution beside its file and records it; a solution
/// no proof reaches stays uncertified (`check-proof` says so).
fn certify_into(
    instance: &Instance,
    solution: &mut Solution,
    path: &Path,
    options: &BatchOptions,
) -> Result<(), BatchError> {
    if solution.status != Status::Optimal {
        return Ok(());
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
    ) {
        Ok(record) => solution.certificate = Some(record),
        Err(certify::CertifyError::NoProof(_)) => solution.certificate = None,
        Err(certify::CertifyError::Io { path, source }) => {
            return Err(BatchError::Io { path, source })
        }
    }
    Ok(())
}

fn write_solution(path: &Path, solution: &Solution) -> Result<(), BatchError> {
    let json = serde_json::to_string_pretty(solution).expect("a Solution always serialises");
    write_atomically(path, json.as_bytes())
}

/// A solution file kept from an earlier run, if it is one (anything else is re-solved).
fn read_solution(path: &Path) -> Option<Solution> {
    Solution::read(path).ok()
}

/// Writes through a temporary file in the same folder and renames it into place, so an
/// interrupted run never leaves half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let err = |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    file.write_all(bytes).map_err(err)?;
    file.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

/// Rewrites `summary.csv` from every solution file in the folder, so it describes the
/// folder, not just the latest run.
fn write_summary(out: &Path) -> Result<(), BatchError> {
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
    let mut csv = String::from("instance,status,makespan,lower_bound,gap,seconds,method,check\n");
    let cell = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
    for r in &rows {
        csv.push_str(&format!(
            "{},{},{},{},{},{:.3},{},{}\n",
            r.instance,
            r.status,
            cell(r.makespan),
            cell(r.lower_bound),
            r.gap.map(|g| format!("{g:.4}")).unwrap_or_default(),
            r.seconds,
            r.method,
            r.check.map(Verdict::name).unwrap_or_default()
        ));
    }
    write_atomically(&out.join("summary.csv"), csv.as_bytes())
}
