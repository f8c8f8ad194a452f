//! `solve --certify`: the certificate of an optimal solution's lower bound
//! ([`makespan_model::certificate`]). The cheapest proof that reaches the makespan wins:
//! a critical path, then a resource's load, then an energetic interval (arithmetic anyone
//! can redo over the instance's own rules, in its own units: see the module `timing`), then a DRCP
//! proof logged by Pumpkin on the constraint model with the horizon one below the makespan,
//! built on the instance without the rules that model does not take (module `relaxed`).
//! `makespan check-proof` re-checks each with its own code (crate `makespan-certify-check`).

mod energetic;
mod relaxed;
mod timing;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use makespan_model::certificate::{
    Certificate, CertificateRecord, Proof, ProofKind, Work, CERTIFICATE_FORMAT,
};
use makespan_model::instance::{content_hash, Instance};
use makespan_model::solution::{Solution, Status};

use crate::exact::cp::{self, hints, model::CpModel, Branching, CpOutcome};
use crate::heuristics::{self, Effort};
use crate::problem::{Problem, Refusal};
use crate::Cancel;
use relaxed::Splits;
use timing::Timing;

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The solution is not optimal, or no proof of this kind reaches its makespan.
    #[error("not certified: {0}")]
    NoProof(String),
    /// A certificate file could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Writes the certificate of `solution` (of `instance`) as `dir/<stem>.cert.json` (plus the
/// FlatZinc model and DRCP proof for a search proof, found within `seconds` unless `cancel`
/// is tripped first), and returns the record for the solution file.
pub fn certify(
    instance: &Instance,
    solution: &Solution,
    dir: &Path,
    stem: &str,
    seconds: f64,
    cancel: &Cancel,
) -> Result<CertificateRecord, CertifyError> {
    let no = |why: &str| Err(CertifyError::NoProof(why.into()));
    let (Status::Optimal, Some(makespan)) = (solution.status, solution.makespan) else {
        return no("only optimal solutions carry a certificate");
    };
    let (proof, kind) = match bound_proof(instance, makespan) {
        Some(proof) => (proof, ProofKind::Bound),
        None => (
            search_proof(instance, makespan, dir, stem, seconds, cancel)?,
            ProofKind::Drcp,
        ),
    };
    let certificate = Certificate {
        format: CERTIFICATE_FORMAT.into(),
        instance_hash: content_hash(instance),
        bound: makespan,
        proof,
    };
    let file = format!("{stem}.cert.json");
    let text = serde_json::to_string_pretty(&certificate).expect("certificates serialise");
    write_atomically(&dir.join(&file), |path| std::fs::write(path, &text))?;
    if kind == ProofKind::Bound {
        // A search proof from an earlier run is no longer the certificate: leave none behind.
        for stale in [format!("{stem}.fzn"), format!("{stem}.drcp.gz")] {
            let _ = std::fs::remove_file(dir.join(stale));
        }
    }
    Ok(CertificateRecord { kind, file })
}

/// A DRCP proof on the relaxation ([`relaxed`]), with split activities first as their
/// timing only, a proof for every schedule; where that relaxation has a shorter schedule,
/// as their units of work, a proof for pieces on the grid.
fn search_proof(
    instance: &Instance,
    makespan: i64,
    dir: &Path,
    stem: &str,
    seconds: f64,
    cancel: &Cancel,
) -> Result<Proof, CertifyError> {
    let refused = |refusal: Refusal| CertifyError::NoProof(refusal.to_string());
    let split = instance.activities.iter().any(timing::splittable);
    // Both attempts share the time limit.
    let started = Instant::now();
    for splits in [Splits::Timing, Splits::Units] {
        let seconds = seconds - started.elapsed().as_secs_f64();
        let relaxed = relaxed::relaxed(instance, splits);
        let mut problem = Problem::compile_scaled(&relaxed).map_err(refused)?;
        if !relaxed::scale_divides(instance, problem.expanded.scale) {
            // The relaxation left out the only times that the scale does not divide.
            problem = Problem::compile(&relaxed).map_err(refused)?;
        }
        let pieces_relaxed = relaxed::end_by_piece_lags(&mut problem);
        let search = Search {
            problem: &problem,
            relaxed: relaxed != *instance || pieces_relaxed,
        };
        let shorter = search.relaxed && shorter_by_heuristics(&problem, makespan);
        if !shorter {
            if let Some(proof) = search.drcp(makespan, dir, stem, seconds, cancel)? {
                return Ok(proof);
            }
        }
        if !split || splits == Splits::Units {
            break;
        }
    }
    Err(CertifyError::NoProof(format!(
        "no bound-only proof reaches the makespan, and without this instance's {} (rules the constraint model leaves out) a shorter schedule exists",
        listed(&relaxed::left_out(instance))
    )))
}

/// `a`, `a and b`, `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The cheapest bound-only proof that no schedule of `instance` ends before `bound`: a
/// critical path, a load, or an energetic interval.
pub fn bound_proof(instance: &Instance, bound: i64) -> Option<Proof> {
    let timing = Timing::new(instance);
    timing
        .critical_path(bound)
        .map(|steps| Proof::CriticalPath { steps })
        .or_else(|| load(instance, bound))
        .or_else(|| energetic::energetic(instance, &timing, bound))
}

/// The energetic proof that no schedule of `instance` ends before `bound`, when one
/// interval shows it (whether or not a cheaper proof exists).
pub fn energetic_proof(instance: &Instance, bound: i64) -> Option<Proof> {
    energetic::energetic(instance, &Timing::new(instance), bound)
}

/// A resource (or the agents) whose work over its capacity reaches `makespan`.
fn load(instance: &Instance, makespan: i64) -> Option<Proof> {
    let agents = instance.agents.map(|m| {
        let work = instance
            .activities
            .iter()
            .filter_map(|a| {
                let (from, to) = a.agent.busy_span(a.duration)?;
                Some(Work {
                    activity: a.id.clone(),
                    work: to - from,
                })
            })
            .collect();
        (None, i64::from(m), work)
    });
    let resources = instance.resources.iter().map(|r| {
        let work = instance
            .activities
            .iter()
            .flat_map(|a| {
                a.uses
                    .iter()
                    .filter(|u| u.resource == r.id && u.amount > 0 && a.duration > 0)
                    .map(|u| Work {
                        activity: a.id.clone(),
                        work: i64::from(u.amount) * a.duration,
                    })
            })
            .collect();
        (Some(r.id.clone()), i64::from(r.capacity), work)
    });
    agents
        .into_iter()
        .chain(resources)
        .find(|(_, capacity, work): &(_, i64, Vec<Work>)| {
            let total: i64 = work.iter().map(|w| w.work).sum();
            *capacity > 0 && (total + capacity - 1) / capacity >= makespan
        })
        .map(|(resource, capacity, work)| Proof::Load {
            resource,
            capacity,
            work,
        })
}

/// Whether the heuristics find, within a second, a schedule of the relaxation
/// shorter than `makespan`: then no proof on it exists, and Pumpkin need not spend its time
/// limit finding that out (a world's relaxation without its travel and held items).
fn shorter_by_heuristics(problem: &Problem, makespan: i64) -> bool {
    let g = problem.expanded.scale;
    let effort = Effort {
        deadline: Some(Instant::now() + Duration::from_secs(1)),
        ..Effort::default()
    };
    heuristics::best(problem, makespan / g - 1, effort)
        .is_some_and(|h| h.makespan(problem) * g < makespan)
}

/// The constraint model a DRCP proof is searched on.
struct Search<'a> {
    /// The instance's relaxation, compiled.
    problem: &'a Problem,
    /// Whether the relaxation left rules out.
    relaxed: bool,
}

impl Search<'_> {
    /// Pumpkin's DRCP proof that nothing ends by `makespan − 1`, with its FlatZinc model;
    /// `None` when the relaxation has a shorter schedule.
    fn drcp(
        &self,
        makespan: i64,
        dir: &Path,
        stem: &str,
        seconds: f64,
        cancel: &Cancel,
    ) -> Result<Option<Proof>, CertifyError> {
        let problem = self.problem;
        let no = |why: &str| Err(CertifyError::NoProof(why.into()));
        let g = problem.expanded.scale;
        if makespan % g != 0 {
            // The model proves nothing below `g · ⌊makespan / g⌋`, and a proof of less than
            // the makespan is no certificate of it (the checker rejects such a scale).
            return no(&format!(
                "the makespan is not a multiple of {g}, the grid every time of this instance lies on, so it is not optimal"
            ));
        }
        if !cp::states_rules(problem) {
            return no("no bound-only proof reaches the makespan, and the constraint model does not express every rule of this instance");
        }
        let Ok(model) = CpModel::build(problem, makespan / g - 1) else {
            return no("the constraint model cannot be built on the horizon below the makespan");
        };
        let (fzn, drcp) = (format!("{stem}.fzn"), format!("{stem}.drcp.gz"));
        write_atomically(&dir.join(&fzn), |path| {
            std::fs::write(path, model.flatzinc())
        })?;
        // Pumpkin's proof as logged, then with its hints in an order that applies. A proof
        // must close every branch below the makespan, which smallest-start branching does
        // far sooner: on the cooking corpora it proves optima that activity-driven branching
        // leaves unproven after 400 s, and other proofs shrink threefold.
        let work = private_folder(dir).map_err(|source| CertifyError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let raw = work.path().join(format!("raw-{drcp}"));
        let outcome = cp::minimise(
            &model,
            seconds,
            cancel,
            Branching::SmallestStart,
            Some(&raw),
        )
        .map_err(|e| CertifyError::Io {
            path: raw.clone(),
            source: std::io::Error::other(e.to_string()),
        });
        let written = match outcome {
            Ok(CpOutcome::NoneByHorizon) => {
                write_atomically(&dir.join(&drcp), |path| hints::reorder(&raw, path))
                    .map(|()| CpOutcome::NoneByHorizon)
            }
            other => other,
        };
        drop(work);
        match written? {
            CpOutcome::NoneByHorizon => Ok(Some(Proof::Drcp {
                scale: g,
                model: fzn,
                proof: drcp,
            })),
            CpOutcome::Stopped { .. } => {
                let _ = std::fs::remove_file(dir.join(&fzn));
                if cancel.is_cancelled() {
                    no("the proof search was cancelled")
                } else {
                    no(&format!(
                        "Pumpkin did not finish the proof within the time limit ({:.1} s of it were left for the proof)",
                        seconds.max(0.0)
                    ))
                }
            }
            CpOutcome::Optimal { .. } => {
                let _ = std::fs::remove_file(dir.join(&fzn));
                if self.relaxed {
                    Ok(None)
                } else {
                    no("Pumpkin found a schedule shorter than the makespan: the solution is not optimal")
                }
            }
        }
    }
}

/// A fresh folder of unpredictable name in `dir` (`.makespan-tmp-<pid>-<random>`, created
/// exclusively, mode 0700, removed when dropped): Pumpkin and the writers here open files by
/// name, so files are made inside it, where no one can plant a file or link to be written
/// through and concurrent runs into one folder never meet; a killed run's is removed by the
/// next batch (`makespan::batch::temp` knows the prefix).
fn private_folder(dir: &Path) -> std::io::Result<tempfile::TempDir> {
    let prefix = format!(".makespan-tmp-{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder.tempdir_in(dir)
}

/// Writes `path` through a file in a [`private_folder`] beside it, renamed into place; on
/// error (a full disk) the folder and the partial file are removed.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), CertifyError> {
    let io = |source| CertifyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let work = private_folder(dir).map_err(io)?;
    // The file keeps its name: Pumpkin gzips a proof whose name ends in `.gz`.
    let name = path
        .file_name()
        .unwrap_or(std::ffi::OsStr::new("certificate"));
    let temp = work.path().join(name);
    write(&temp).map_err(io)?;
    std::fs::rename(&temp, path).map_err(io)
}
