//! `certify` and `check_proof`: the certificates of `makespan solve --certify` and their
//! re-check by `makespan check-proof`, with the same files, layout and verdicts.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pyo3::prelude::*;

use makespan::batch::{file_stem, solution_path, write_atomically};
use makespan::instance::problem_hash;
use makespan::solve::certify::certify as write_certificate;
use makespan::{Cancel, Status};
use makespan_certify_check::{check, check_pinned, CheckError};

use crate::errors;
use crate::interrupt;
use crate::objects::{Instance, ProofCheck, ProofVerdict, Solution};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(certify, m)?)?;
    m.add_function(wrap_pyfunction!(check_proof, m)?)?;
    Ok(())
}

/// Writes the certificate of an optimal solution's lower bound into ``dir``, as
/// ``makespan solve --certify --out DIR`` does, and returns the solution with its
/// ``certificate`` record.
///
/// The files are ``<name>.cert.json`` (a critical path or a resource's load: arithmetic
/// anyone can redo; else a DRCP proof, with ``<name>.fzn`` and ``<name>.drcp.gz``, that
/// Pumpkin finds within ``time_limit`` seconds) and ``<name>.json``, the solution recording
/// its certificate, so ``check_proof("DIR/<name>.json")`` and ``makespan check-proof DIR``
/// check it. ``name`` defaults to the CLI's file name for the instance. Every file is
/// written through a temporary file and renamed into place.
///
/// Raises ``makespan.Error`` for a solution that is not ``optimal``, and when no proof
/// reaches its makespan (the message says why: the time limit, or a rule the constraint
/// model cannot express). The GIL is released, and Ctrl-C stops the proof search and
/// raises ``KeyboardInterrupt`` (no file is left).
///
/// >>> sol = makespan.certify(makespan.solve(inst), "proofs")    # doctest: +SKIP
/// >>> sol.certificate                                            # doctest: +SKIP
/// {'kind': 'drcp', 'file': 'three-cooks-seven-dishes.cert.json'}
#[pyfunction]
#[pyo3(signature = (solution, dir, *, name=None, time_limit=60.0))]
fn certify(
    py: Python<'_>,
    solution: PyRef<'_, Solution>,
    dir: PathBuf,
    name: Option<String>,
    time_limit: f64,
) -> PyResult<Solution> {
    let seconds = crate::solve::options(time_limit, 1, None, false)?.time_limit;
    let solution = &solution.0;
    let instance = &solution.instance.instance;
    if solution.status != Status::Optimal {
        return Err(errors::usage(format!(
            "solution: {} is {}, and only optimal solutions carry a certificate (solve it \
             to optimality first, e.g. with a longer time_limit)",
            instance.name, solution.status
        )));
    }
    let stem = match name {
        None => file_stem(&instance.name),
        Some(name) if file_stem(&name) == name => name,
        Some(name) => {
            return Err(errors::usage(format!(
                "name: \"{name}\" is not a plain file name; use letters, digits and -_+@. \
                 (e.g. \"{}\")",
                file_stem(&name)
            )))
        }
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| errors::usage(format!("{}: cannot create the folder: {e}", dir.display())))?;
    let cancel = Cancel::new();
    let certified = interrupt::run(py, &cancel, || {
        let record = write_certificate(instance, solution, &dir, &stem, seconds, &cancel)
            .map_err(|e| format!("{}: {e}", instance.name))?;
        let certified = makespan::Solution {
            certificate: Some(record),
            ..solution.clone()
        };
        let text = serde_json::to_string_pretty(&certified).expect("a Solution serialises");
        write_atomically(&solution_path(&dir, &stem), text.as_bytes())
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(certified)
    })?;
    certified.map(Solution).map_err(errors::usage)
}

/// Re-checks the certificate of an optimal solution, as ``makespan check-proof`` does:
/// the schedule with the verifier, then the proof with ``makespan-certify-check``, which
/// shares no code with the solver (``pumpkin-checker`` for a DRCP proof).
///
/// ``solution``: a solution file (``str`` or ``os.PathLike``), whose folder holds its
/// certificate, or a ``Solution`` with ``dir``, the folder of its certificate files. A
/// missing or rejected certificate is a result (``certified`` false, ``reason`` says
/// why), not an exception; a solution file that cannot be read raises ``ReadError``.
///
/// ``instance``: the ``Instance`` the claim must be about, as ``makespan check-proof
/// --instance``. A solution file carries its own instance, which anyone may have edited (a
/// shorter duration under the same name); with ``instance`` only a solution of that problem
/// (the same ``problem_hash``) is certified. Every result names the carried instance and its
/// ``problem_hash``, to compare by hand.
///
/// >>> check = makespan.check_proof("proofs/three-cooks-seven-dishes.json", instance=inst)   # doctest: +SKIP
/// >>> check.certified, check.kind, check.bound, check.problem_hash == inst.problem_hash     # doctest: +SKIP
/// (True, 'drcp', 14, True)
#[pyfunction]
#[pyo3(signature = (solution, dir=None, *, instance=None))]
fn check_proof(
    py: Python<'_>,
    solution: &Bound<'_, PyAny>,
    dir: Option<PathBuf>,
    instance: Option<PyRef<'_, Instance>>,
) -> PyResult<ProofCheck> {
    let pinned = instance.as_ref().map(|i| &i.0);
    let (label, solution, dir) = if let Ok(given) = solution.cast::<Solution>() {
        let dir = dir.ok_or_else(|| {
            errors::usage("dir: a Solution needs the folder of its certificate files")
        })?;
        let given = given.get().0.clone();
        (given.instance.name.clone(), given, dir)
    } else {
        let path: PathBuf = solution.extract()?;
        let read = makespan::Solution::read(&path).map_err(errors::load)?;
        let dir = dir.unwrap_or_else(|| path.parent().unwrap_or(Path::new(".")).to_path_buf());
        (path.display().to_string(), read, dir)
    };
    py.detach(|| {
        let started = Instant::now();
        let report = makespan::verify(&solution.instance.instance, &solution.schedule);
        let verdict = if report.valid {
            match pinned {
                Some(pinned) => check_pinned(&solution, &dir, pinned),
                None => check(&solution, &dir),
            }
        } else {
            Err(CheckError::Rejected(format!(
                "the schedule breaks {} rule(s) of the instance",
                report.violations.len()
            )))
        };
        let seconds = started.elapsed().as_secs_f64();
        let recorded = solution.certificate.as_ref().map(|r| r.kind);
        let instance = Some(solution.instance.name.clone());
        let problem_hash = Some(problem_hash(&solution.instance.instance));
        Ok(ProofCheck(match verdict {
            Ok(certified) => ProofVerdict {
                solution: label,
                instance,
                problem_hash,
                certified: true,
                kind: Some(certified.kind),
                bound: Some(certified.bound),
                grid: certified.grid,
                reason: None,
                seconds,
            },
            Err(why) => ProofVerdict {
                solution: label,
                instance,
                problem_hash,
                certified: false,
                kind: recorded,
                bound: None,
                grid: None,
                reason: Some(why.to_string()),
                seconds,
            },
        }))
    })
}
