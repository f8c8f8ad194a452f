//! The certificate checker of makespan: `makespan check-proof` re-checks the proof that an
//! optimal solution's makespan is a lower bound ([`makespan_model::certificate`]) with code
//! that shares nothing with the solver. It reads the instance's own rules, not the solver's
//! compiled problem:
//!
//! - a critical path: every step is a release, a precedence lag or an activity's end of the
//!   instance, and the steps sum to the bound (an activity split into pieces still ends at
//!   least its duration after its start, so lags after its end count from its start too;
//!   a maximum lag after its end is never read backwards);
//! - a load: every work entry is at most what the activity does on that resource, and the
//!   work over the capacity, rounded up, reaches the bound;
//! - an energetic interval: the checker computes each activity's window over the schedules
//!   that end one unit before the bound itself (longest paths through the instance's
//!   timing rules), and the work the activities must do inside the interval exceeds the
//!   capacity there (the soundness argument is in the module `energetic`);
//! - a DRCP proof: every variable and row of the FlatZinc model is implied by the instance
//!   (so the model is a relaxation: a shorter schedule would be a solution of it; an
//!   activity split into pieces enters as its units of work, which ties the proof to
//!   pieces on the grid when the model is scaled: [`Certified::grid`]), and
//!   `pumpkin-checker` checks that the model has no solution shorter than the bound.

#![warn(missing_docs)]

mod bound;
mod drcp;
mod energetic;
mod orders;
mod rules;

use std::path::{Path, PathBuf};

use makespan_model::certificate::{Certificate, Proof, ProofKind, CERTIFICATE_FORMAT};
use makespan_model::input;
use makespan_model::instance::Instance;
use makespan_model::instance::{content_hash, problem_hash};
use makespan_model::solution::{Solution, Status};

/// Why a certificate does not certify its solution.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The solution carries no certificate, or is not optimal.
    #[error("{0}")]
    Nothing(String),
    /// A file could not be read.
    #[error("{}: {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A file could not be read through the bounded reader (not a regular file, over a
    /// limit, not UTF-8): the message names the file, the limit and how to raise it.
    #[error(transparent)]
    Input(#[from] makespan_model::instance::LoadError),
    /// The certificate does not prove the bound; the message names the step that fails.
    #[error("rejected: {0}")]
    Rejected(String),
}

/// What a certificate proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Certified {
    /// The kind of proof.
    pub kind: ProofKind,
    /// The lower bound proven, which equals the solution's makespan.
    pub bound: i64,
    /// `Some(g)` when the proof holds for the schedules whose split activities' pieces lie
    /// on the grid of `g` time units: a DRCP proof on a scaled model that reads the units
    /// of a split activity (the model the solver optimises over: it cuts pieces on that
    /// grid only). `None` when it holds for every schedule.
    pub grid: Option<i64>,
}

impl std::fmt::Display for Certified {
    /// `makespan M proven optimal by a K proof`, and the grid the proof needs, if any: the
    /// words `makespan check-proof` prints after "certified".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            ProofKind::Bound => "bound",
            ProofKind::Drcp => "DRCP",
        };
        write!(
            f,
            "makespan {} proven optimal by a {kind} proof",
            self.bound
        )?;
        match self.grid {
            Some(g) => write!(f, " over pieces on the grid of {g}"),
            None => Ok(()),
        }
    }
}

/// Checks the certificate of `solution`, whose file lies in `dir` (the solution file's
/// folder): its bound must equal the makespan, and its proof must hold for the instance
/// embedded in the solution.
pub fn check(solution: &Solution, dir: &Path) -> Result<Certified, CheckError> {
    let Some(record) = &solution.certificate else {
        return Err(CheckError::Nothing(
            "the solution has no certificate (solve with --certify)".into(),
        ));
    };
    let (Status::Optimal, Some(makespan)) = (solution.status, solution.makespan) else {
        return Err(CheckError::Nothing(format!(
            "the solution is {}, and only optimal solutions are certified",
            solution.status
        )));
    };
    let path = beside(dir, &record.file)?;
    let text = input::read_text(&path)?;
    let certificate: Certificate = serde_json::from_str(&text)
        .map_err(|e| makespan_model::instance::LoadError::json_in(&path, &text, &e))?;
    let instance = &solution.instance.instance;
    let reject = |why: String| Err(CheckError::Rejected(why));
    if certificate.format != CERTIFICATE_FORMAT {
        return reject(format!(
            "format \"{}\", expected \"{CERTIFICATE_FORMAT}\"",
            certificate.format
        ));
    }
    if certificate.instance_hash != content_hash(instance) {
        return reject("the certificate is about another instance (content hash differs)".into());
    }
    if certificate.bound != makespan {
        return reject(format!(
            "the certificate proves a bound of {}, the solution's makespan is {makespan}",
            certificate.bound
        ));
    }
    let kind = bound::kind(&certificate.proof);
    if kind != record.kind {
        return reject("the solution file records another kind of proof".into());
    }
    let grid = match kind {
        ProofKind::Bound => bound::check(instance, &certificate.proof, makespan).map(|()| None),
        ProofKind::Drcp => {
            let dir = dir_of(&path);
            if let Proof::Drcp { model, proof, .. } = &certificate.proof {
                beside(&dir, model)?;
                beside(&dir, proof)?;
            }
            drcp::check(instance, &certificate.proof, makespan, &dir).map(|checked| checked.grid)
        }
    }
    .map_err(CheckError::Rejected)?;
    Ok(Certified {
        kind,
        bound: makespan,
        grid,
    })
}

/// [`check`], for the instance `pinned` only: a solution file carries its own instance, and
/// one edited to a shorter duration (keeping its name) would have its certificate, about the
/// edited instance, accepted. Compared by problem hash ([`problem_hash`]: the file an instance
/// was read from does not change the problem).
pub fn check_pinned(
    solution: &Solution,
    dir: &Path,
    pinned: &Instance,
) -> Result<Certified, CheckError> {
    let (own, wanted) = (
        problem_hash(&solution.instance.instance),
        problem_hash(pinned),
    );
    if own != wanted {
        return Err(CheckError::Rejected(format!(
            "the solution's instance \"{}\" ({own}) is not the pinned instance \"{}\" ({wanted}): its embedded instance differs",
            solution.instance.name, pinned.name
        )));
    }
    check(solution, dir)
}

/// Checks a bound-only proof (critical path, load or energetic interval) that no schedule
/// of `instance` ends before `bound`, without a solution file.
pub fn check_bound_proof(instance: &Instance, proof: &Proof, bound: i64) -> Result<(), CheckError> {
    if bound::kind(proof) != ProofKind::Bound {
        return Err(CheckError::Nothing(
            "a DRCP proof needs its files: check it with its solution".into(),
        ));
    }
    bound::check(instance, proof, bound).map_err(CheckError::Rejected)
}

/// A file a solution or certificate names, which must lie in `dir` or below it (after
/// following links): otherwise a solution file could make the checker read any file its user
/// can read, as a plan could.
fn beside(dir: &Path, name: &str) -> Result<PathBuf, CheckError> {
    input::confined(dir, name).map_err(|message| CheckError::Read {
        path: dir.join(name),
        message,
    })
}

fn dir_of(path: &Path) -> PathBuf {
    path.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}
