//! References as data: a benchmark's proven optima in one JSON Lines file
//! (`makespan-references/1`, [`pack`] writes it from a folder of solution files) and its DRCP
//! proofs in one gzipped bundle beside it, instead of thousands of solution files that each
//! embed their instance. [`References::get`] answers "what is the optimum of this instance"
//! from the file alone; [`unpack`] turns it back into the folder `solve --emit-native
//! --certify` writes, for `verify --solution`, `score --solutions`, `compare` and
//! `check-proof`.
//!
//! The file: a header line `{"format": "makespan-references/1", "proofs": "<bundle>"}`
//! (`proofs` absent when no reference has a DRCP proof), then one [`Reference`] per line,
//! sorted by name. The bundle (`<stem>.proofs.jsonl.gz`): a header line `{"format":
//! "makespan-proofs/1"}`, then one [`ProofFiles`] per DRCP certificate.
//!
//! Decisions:
//! - A line is a solution without its instance. The instance is named `BENCH:NAME`, looked
//!   up in the benchmark's own file under a data folder as `verify --instance BENCH:NAME`
//!   does, where that name finds the same problem; otherwise it is embedded (a unified
//!   instance, a generated one). `hash` is the problem hash ([`problem_hash`]: the content
//!   hash without the path the instance was read from), so references made from
//!   `../shared/benchmarks` serve a checkout anywhere; unpacked files get the content hash
//!   of the instance as read there.
//! - A certificate is its proof, the small JSON of `<instance>.cert.json`; a DRCP proof's
//!   FlatZinc model and proof log go to the bundle, the log decompressed, so the bundle
//!   compresses as one stream (a third of the separate files).
//! - Nothing is read relative to the working directory: the references file, the data
//!   folder and the output folder are the caller's, and the bundle lies beside the file.
//! - Every file is read through the bounded reader ([`makespan_model::input`]; the bundle
//!   unpacks to at most the same cap); every schedule is re-checked before it is written
//!   ([`makespan_benchmarks::recheck`]: a hand-edited line never becomes a reference); every
//!   file is written to a temporary file and renamed.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize};

use makespan_model::certificate::{CertificateRecord, Proof, ProofKind};
use makespan_model::input;
use makespan_model::instance::{content_hash, problem_hash, Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{
    BoundSource, CrossCheck, InstanceRecord, Solution, SolvedWith, Status, SOLUTION_FORMAT,
};

mod pack;
mod unpack;

pub use pack::{pack, PackOptions, Packed};
pub use unpack::{unpack, UnpackOptions, Unpacked};

/// The format tag in the first line of every references file.
pub const REFERENCES_FORMAT: &str = "makespan-references/1";

/// The format tag in the first line of every proof bundle.
pub const PROOFS_FORMAT: &str = "makespan-proofs/1";

/// The first line of a references file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    /// Always [`REFERENCES_FORMAT`].
    format: String,
    /// The proof bundle's file name, in the references file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proofs: Option<String>,
}

/// The first line of a proof bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProofsHeader {
    /// Always [`PROOFS_FORMAT`].
    format: String,
}

/// One instance's reference: its solution file without the instance, with its certificate's
/// proof and its native answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// The instance's name.
    pub name: String,
    /// The instance's problem hash ([`problem_hash`]).
    pub hash: String,
    /// Where the instance comes from.
    pub instance: InstanceSource,
    /// What is known: `optimal` for every committed reference.
    pub status: Status,
    /// The makespan of `schedule`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<i64>,
    /// The proven lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<i64>,
    /// Where the bound comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_source: Option<BoundSource>,
    /// (makespan − bound) / makespan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// Why the instance is infeasible, or what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The method that produced the schedule.
    pub method: String,
    /// Solver and version.
    pub solver: String,
    /// Wall-clock seconds the solve took.
    pub seconds: f64,
    /// Branch-and-bound nodes of the MILP, if it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The cross-check's verdict, when solved with `--check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CrossCheck>,
    /// The method and limits it was solved under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solved_with: Option<SolvedWith>,
    /// The proof of the lower bound (a critical path, a load, an energetic interval, or a
    /// DRCP proof whose files are in the bundle), when it was certified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Proof>,
    /// The schedule.
    #[serde(default)]
    pub schedule: Vec<ScheduledActivity>,
    /// The benchmark's native answer (`solve --emit-native`), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<NativeText>,
    /// A simulated world's plan replayed under each of its simulator's rule sets (the game as
    /// it runs and the rules its prompt states, by name): the time, or none where the plan fails; absent for one rule set.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub times: BTreeMap<String, Option<f64>>,
    /// The step count the benchmark states for the instance and whether the budget its
    /// harness derives from it is the one the optimum gives (a count hard-coded per task
    /// and multiplied into an agent's step limit is only fair when it is the optimum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<makespan_benchmarks::Budget>,
}

/// How a reference names its instance: `"<benchmark>:<name>"`, or the instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InstanceSource {
    /// `BENCH:NAME`, looked up in the benchmark's own file under a data folder.
    Named(String),
    /// The instance itself, for one that no benchmark file holds.
    Embedded(Box<Instance>),
}

impl<'de> Deserialize<'de> for InstanceSource {
    /// A string or an object; anything else is an error that says which two forms there are.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(spec) => Ok(InstanceSource::Named(spec)),
            value @ serde_json::Value::Object(_) => serde_json::from_value(value)
                .map(|i| InstanceSource::Embedded(Box::new(i)))
                .map_err(|e| D::Error::custom(format!("the embedded instance: {e}"))),
            _ => Err(D::Error::custom(
                "`instance` is BENCH:NAME or an embedded makespan-instance/1 object",
            )),
        }
    }
}

/// A native answer's text and the extension of its file (`<instance>.answer.<extension>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeText {
    /// `json` (decision lists), `txt` (step lines), ….
    pub extension: String,
    /// The answer, as `solve --emit-native` wrote it.
    pub text: String,
}

/// One line of a proof bundle: the files of one instance's DRCP certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofFiles {
    /// The instance's name.
    pub name: String,
    /// Its problem hash, as in its reference.
    pub hash: String,
    /// The FlatZinc model.
    pub model: String,
    /// The DRCP proof log, uncompressed.
    pub proof: String,
}

/// Why references could not be read, looked up, packed or unpacked. Each names the file
/// (and the line) and what to do.
#[derive(Debug, thiserror::Error)]
pub enum ReferencesError {
    /// A file could not be read or is not in its format (the file, line and column).
    #[error(transparent)]
    Read(#[from] LoadError),
    /// A file or folder could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No reference of that instance in the file.
    #[error("{}: no reference of \"{name}\" ({count} references; names are case-sensitive)", path.display())]
    NotFound {
        /// The references file.
        path: PathBuf,
        /// The name asked for.
        name: String,
        /// How many references the file holds.
        count: usize,
    },
    /// A reference names its instance `BENCH:NAME`, and no data folder was given.
    #[error("{}: line {line}: \"{name}\" is the benchmark instance {spec}: pass the folder of the benchmarks' files (--data DIR) or set MAKESPAN_DATA", path.display())]
    NoData {
        /// The references file.
        path: PathBuf,
        /// The reference's line.
        line: usize,
        /// The instance.
        name: String,
        /// Its `BENCH:NAME`.
        spec: String,
    },
    /// A reference's instance could not be loaded from the data folder.
    #[error("{}: line {line}: the instance of \"{name}\": {source}", path.display())]
    Instance {
        /// The references file.
        path: PathBuf,
        /// The reference's line.
        line: usize,
        /// The instance.
        name: String,
        /// Why it could not be loaded.
        source: Box<LoadError>,
    },
    /// The instance given (or found in the data folder) is another problem than the one
    /// the reference was made for.
    #[error("{}: line {line}: \"{name}\" was made for problem {expected}, the instance given is {found}: use the benchmark's files at the commit the references were made from (the README's \"Data\")", path.display())]
    OtherProblem {
        /// The references file.
        path: PathBuf,
        /// The reference's line.
        line: usize,
        /// The instance.
        name: String,
        /// The reference's problem hash.
        expected: String,
        /// The given instance's.
        found: String,
    },
    /// The reference's schedule, makespan or bound do not agree with each other or with
    /// its instance (an edited line).
    #[error("{}: line {line}: \"{name}\" is not a trustworthy reference: {why}; regenerate the file with `makespan references pack`", path.display())]
    Untrusted {
        /// The references file.
        path: PathBuf,
        /// The reference's line.
        line: usize,
        /// The instance.
        name: String,
        /// What does not agree.
        why: String,
    },
    /// A reference has a DRCP certificate whose files the bundle lacks.
    #[error("{}: no proof files of \"{name}\", whose certificate is a DRCP proof: regenerate the references file and its bundle together with `makespan references pack`", path.display())]
    MissingProof {
        /// The bundle (or where the header says it is).
        path: PathBuf,
        /// The instance.
        name: String,
    },
}

/// A references file, read and indexed by instance name.
#[derive(Debug, Clone)]
pub struct References {
    path: PathBuf,
    proofs: Option<PathBuf>,
    entries: Vec<Reference>,
    /// Each entry's line in the file, for messages.
    lines: Vec<usize>,
    index: HashMap<String, usize>,
}

impl References {
    /// Reads a references file (through the bounded reader). Errors name the file, the
    /// line and the column.
    ///
    /// ```
    /// # let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    /// let references = makespan::references::References::read(&root.join("references/instances.jsonl"))?;
    /// let breakfast = references.get("two-cooks-breakfast").unwrap();
    /// assert_eq!((breakfast.status, breakfast.makespan), (makespan::Status::Optimal, Some(21)));
    /// # Ok::<(), makespan::LoadError>(())
    /// ```
    pub fn read(path: &Path) -> Result<References, LoadError> {
        References::parse(path, &input::read_text(path)?)
    }

    /// Parses the text of a references file; `path` names it in errors and locates its
    /// proof bundle.
    pub fn parse(path: &Path, text: &str) -> Result<References, LoadError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(k, line)| (k + 1, line))
            .filter(|(_, line)| !line.trim().is_empty());
        let header: Header = match lines.next() {
            Some((line, text)) => parse_line(path, line, text)?,
            None => return Err(not_references(path, "the file is empty")),
        };
        if header.format != REFERENCES_FORMAT {
            return Err(not_references(
                path,
                &format!("format \"{}\"", header.format),
            ));
        }
        let proofs = match header.proofs {
            Some(name) => Some(beside(path, "line 1, \"proofs\"", &name)?),
            None => None,
        };
        let mut references = References {
            path: path.to_path_buf(),
            proofs,
            entries: Vec::new(),
            lines: Vec::new(),
            index: HashMap::new(),
        };
        for (line, text) in lines {
            let reference: Reference = parse_line(path, line, text)?;
            if let Some(&first) = references.index.get(&reference.name) {
                return Err(LoadError::format(
                    path,
                    format!("line {line}"),
                    format!(
                        "a second reference of \"{}\" (the first is on line {}); keep one",
                        reference.name, references.lines[first]
                    ),
                ));
            }
            references
                .index
                .insert(reference.name.clone(), references.entries.len());
            references.entries.push(reference);
            references.lines.push(line);
        }
        Ok(references)
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every reference, sorted by name as the file is.
    pub fn iter(&self) -> impl Iterator<Item = &Reference> {
        self.entries.iter()
    }

    /// How many references the file holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the file holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The reference of the instance called `name`.
    pub fn get(&self, name: &str) -> Option<&Reference> {
        self.index.get(name).map(|&k| &self.entries[k])
    }

    /// The reference of the instance called `name`, or [`ReferencesError::NotFound`].
    pub fn lookup(&self, name: &str) -> Result<&Reference, ReferencesError> {
        self.find(name).map(|(reference, _)| reference)
    }

    /// The reference of `name`, or [`ReferencesError::NotFound`], with its line.
    fn find(&self, name: &str) -> Result<(&Reference, usize), ReferencesError> {
        let k = *self
            .index
            .get(name)
            .ok_or_else(|| ReferencesError::NotFound {
                path: self.path.clone(),
                name: name.to_string(),
                count: self.entries.len(),
            })?;
        Ok((&self.entries[k], self.lines[k]))
    }

    /// The instance of `name`: the embedded one, or `BENCH:NAME` looked up under `data`
    /// (else `$MAKESPAN_DATA`), checked to be the problem the reference was made for.
    pub fn instance(&self, name: &str, data: Option<&Path>) -> Result<Instance, ReferencesError> {
        let (reference, line) = self.find(name)?;
        let instance = match &reference.instance {
            InstanceSource::Embedded(instance) => (**instance).clone(),
            InstanceSource::Named(spec) => {
                let Some(data) = makespan_benchmarks::data_dir(data) else {
                    return Err(ReferencesError::NoData {
                        path: self.path.clone(),
                        line,
                        name: name.to_string(),
                        spec: spec.clone(),
                    });
                };
                makespan_benchmarks::load_instance(spec, Some(&data), &Default::default()).map_err(
                    |source| ReferencesError::Instance {
                        path: self.path.clone(),
                        line,
                        name: name.to_string(),
                        source: Box::new(source),
                    },
                )?
            }
        };
        self.same_problem(reference, line, &instance)?;
        Ok(instance)
    }

    /// The solution file `name`'s reference stands for, around `instance` (which must be
    /// the problem it was made for), re-checked. Without a certificate record: a
    /// certificate is a file, which [`unpack`] writes.
    pub fn solution(&self, name: &str, instance: &Instance) -> Result<Solution, ReferencesError> {
        let (reference, line) = self.find(name)?;
        self.same_problem(reference, line, instance)?;
        let solution = reference.solution(instance, None);
        makespan_benchmarks::recheck(&solution).map_err(|why| ReferencesError::Untrusted {
            path: self.path.clone(),
            line,
            name: name.to_string(),
            why,
        })?;
        Ok(solution)
    }

    fn same_problem(
        &self,
        reference: &Reference,
        line: usize,
        instance: &Instance,
    ) -> Result<(), ReferencesError> {
        let found = problem_hash(instance);
        if found == reference.hash {
            return Ok(());
        }
        Err(ReferencesError::OtherProblem {
            path: self.path.clone(),
            line,
            name: reference.name.clone(),
            expected: reference.hash.clone(),
            found: format!("\"{}\" {found}", instance.name),
        })
    }
}

impl Reference {
    /// The kind of its certificate's proof: `critical_path`, `load`, `energetic` or `drcp`.
    pub fn certificate_kind(&self) -> Option<&'static str> {
        self.certificate.as_ref().map(|proof| match proof {
            Proof::CriticalPath { .. } => "critical_path",
            Proof::Load { .. } => "load",
            Proof::Energetic { .. } => "energetic",
            Proof::Drcp { .. } => "drcp",
        })
    }

    /// The reference of `solution` (whose instance is named or embedded as `instance`).
    fn of(
        solution: Solution,
        instance: InstanceSource,
        certificate: Option<Proof>,
        answer: Option<NativeText>,
    ) -> Reference {
        let simulated = makespan_benchmarks::simulated_of(&solution.instance.instance);
        let times = simulated
            .map(|s| s.times(&solution.instance.instance, &solution.schedule))
            .unwrap_or_default();
        let budget = simulated.and_then(|s| {
            s.budget(
                &solution.instance.instance,
                solution.lower_bound,
                solution.makespan,
            )
        });
        Reference {
            times,
            budget,
            name: solution.instance.name,
            hash: problem_hash(&solution.instance.instance),
            instance,
            status: solution.status,
            makespan: solution.makespan,
            lower_bound: solution.lower_bound,
            bound_source: solution.bound_source,
            gap: solution.gap,
            reason: solution.reason,
            method: solution.method,
            solver: solution.solver,
            seconds: solution.seconds,
            nodes: solution.nodes,
            check: solution.check,
            solved_with: solution.solved_with,
            certificate,
            schedule: solution.schedule,
            answer,
        }
    }

    /// The solution file around `instance`, with `certificate` as its record.
    fn solution(&self, instance: &Instance, certificate: Option<CertificateRecord>) -> Solution {
        Solution {
            format: SOLUTION_FORMAT.into(),
            instance: InstanceRecord {
                name: instance.name.clone(),
                hash: content_hash(instance),
                instance: instance.clone(),
            },
            status: self.status,
            makespan: self.makespan,
            lower_bound: self.lower_bound,
            bound_source: self.bound_source,
            gap: self.gap,
            reason: self.reason.clone(),
            method: self.method.clone(),
            solver: self.solver.clone(),
            seconds: self.seconds,
            nodes: self.nodes,
            schedule: self.schedule.clone(),
            check: self.check.clone(),
            certificate,
            solved_with: self.solved_with.clone(),
        }
    }
}

/// The kind of certificate a proof is.
fn kind_of(proof: &Proof) -> ProofKind {
    match proof {
        Proof::Drcp { .. } => ProofKind::Drcp,
        Proof::CriticalPath { .. } | Proof::Load { .. } | Proof::Energetic { .. } => {
            ProofKind::Bound
        }
    }
}

/// One JSON line of `path`, parsed; an error names the line and the column.
fn parse_line<T: serde::de::DeserializeOwned>(
    path: &Path,
    line: usize,
    text: &str,
) -> Result<T, LoadError> {
    serde_json::from_str(text).map_err(|e| match LoadError::json_in(path, text, &e) {
        LoadError::Json {
            path,
            column,
            message,
            ..
        } => LoadError::Json {
            path,
            line,
            column,
            message: format!("{message}; regenerate the file with `makespan references pack`"),
        },
        other => other,
    })
}

fn not_references(path: &Path, what: &str) -> LoadError {
    LoadError::format(
        path,
        "line 1",
        format!("{what}: not a {REFERENCES_FORMAT} file (its first line is {{\"format\": \"{REFERENCES_FORMAT}\"}}); write one with `makespan references pack`"),
    )
}

/// The file `name` that `path` names (at `at`), in `path`'s folder: a plain file name only,
/// so that no file can point anywhere else.
fn beside(path: &Path, at: &str, name: &str) -> Result<PathBuf, LoadError> {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && Path::new(name).file_name() == Some(std::ffi::OsStr::new(name));
    if !plain {
        return Err(LoadError::format(
            path,
            at,
            format!(
                "\"{name}\" is not a plain file name; the file it names lies in the same folder"
            ),
        ));
    }
    Ok(path.with_file_name(name))
}

/// Writes `bytes` to `path` atomically ([`crate::batch::write_atomically`]).
fn write(path: &Path, bytes: &[u8]) -> Result<(), ReferencesError> {
    crate::batch::write_atomically(path, bytes).map_err(|e| match e {
        crate::batch::BatchError::Io { path, source } => ReferencesError::Write { path, source },
        other => ReferencesError::Write {
            path: path.to_path_buf(),
            source: std::io::Error::other(other.to_string()),
        },
    })
}

/// The bundle of the references file `path`: `<stem>.proofs.jsonl.gz` beside it.
fn bundle_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or_else(|| "references".into(), |s| s.to_string_lossy().into_owned());
    format!("{stem}.proofs.jsonl.gz")
}

#[cfg(test)]
mod tests;
