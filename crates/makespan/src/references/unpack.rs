//! [`unpack`]: a references file back into the folder `solve --emit-native --certify`
//! writes: `<instance>.json` solution files around the instances (embedded, or looked up
//! under the data folder and checked to be the same problems), `<instance>.answer.<ext>`,
//! `<instance>.cert.json` with the FlatZinc model and gzipped DRCP log from the bundle, and
//! `summary.csv`. Every schedule is re-checked before anything of its instance is written.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use rayon::prelude::*;

use makespan_model::certificate::{Certificate, CertificateRecord, Proof, CERTIFICATE_FORMAT};
use makespan_model::input;
use makespan_model::instance::{content_hash, LoadError};

use super::{
    kind_of, parse_line, write, ProofFiles, ProofsHeader, Reference, References, ReferencesError,
    PROOFS_FORMAT,
};
use crate::batch;

/// Where and what to unpack.
#[derive(Debug, Clone, Default)]
pub struct UnpackOptions {
    /// The folder to write (created if needed); files of the same names are replaced.
    pub out: PathBuf,
    /// The folder of the benchmarks' files, for instances named `BENCH:NAME` (default
    /// `$MAKESPAN_DATA`).
    pub data: Option<PathBuf>,
    /// Only these instances (all when empty).
    pub only: Vec<String>,
}

/// What [`unpack`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unpacked {
    /// Solution files.
    pub solutions: usize,
    /// Native answers.
    pub answers: usize,
    /// Certificates.
    pub certificates: usize,
}

/// Writes the solution files (and answers and certificates) of the references, or of the
/// `only` ones, into `options.out`, then its `summary.csv`.
///
/// ```
/// # let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
/// use makespan::references::{unpack, References, UnpackOptions};
///
/// let references = References::read(&root.join("references/instances.jsonl"))?;
/// let out = tempfile::tempdir().unwrap();
/// let options = UnpackOptions {
///     out: out.path().to_path_buf(),
///     only: vec!["two-cooks-breakfast".into()],
///     ..UnpackOptions::default()
/// };
/// let written = unpack(&references, &options)?;
/// assert_eq!((written.solutions, written.certificates), (1, 1));
/// let solution = makespan::Solution::read(&out.path().join("two-cooks-breakfast.json"))?;
/// assert_eq!(solution.makespan, Some(21));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn unpack(
    references: &References,
    options: &UnpackOptions,
) -> Result<Unpacked, ReferencesError> {
    let mut selected: Vec<&Reference> = Vec::new();
    for name in &options.only {
        let (reference, _) = references.find(name)?;
        if !selected.iter().any(|r| r.name == *name) {
            selected.push(reference);
        }
    }
    if options.only.is_empty() {
        selected = references.iter().collect();
    }
    let proofs = read_bundle(references, &selected)?;
    std::fs::create_dir_all(&options.out).map_err(|source| ReferencesError::Write {
        path: options.out.clone(),
        source,
    })?;
    batch::temp::clean(&options.out);
    let written: Vec<(bool, bool)> = selected
        .par_iter()
        .map(|reference| unpack_one(references, reference, options, &proofs))
        .collect::<Result<_, _>>()?;
    batch::write_summary(&options.out).map_err(|e| ReferencesError::Write {
        path: options.out.join("summary.csv"),
        source: std::io::Error::other(e.to_string()),
    })?;
    Ok(Unpacked {
        solutions: written.len(),
        answers: written.iter().filter(|(answer, _)| *answer).count(),
        certificates: written.iter().filter(|(_, cert)| *cert).count(),
    })
}

/// Writes one reference's files; says whether it wrote an answer and a certificate.
fn unpack_one(
    references: &References,
    reference: &Reference,
    options: &UnpackOptions,
    proofs: &HashMap<String, ProofFiles>,
) -> Result<(bool, bool), ReferencesError> {
    let name = reference.name.as_str();
    let (_, line) = references.find(name)?;
    let untrusted = |why: String| ReferencesError::Untrusted {
        path: references.path.clone(),
        line,
        name: name.to_string(),
        why,
    };
    let instance = references.instance(name, options.data.as_deref())?;
    let path = batch::solution_path(&options.out, name);
    let stem = batch::file_stem(name);
    let certificate = match &reference.certificate {
        Some(proof) => {
            let bound = reference
                .makespan
                .ok_or_else(|| untrusted("a certificate without a makespan".into()))?;
            let proof = match proof {
                Proof::Drcp { scale, .. } => Proof::Drcp {
                    scale: *scale,
                    model: format!("{stem}.fzn"),
                    proof: format!("{stem}.drcp.gz"),
                },
                other => other.clone(),
            };
            Some(Certificate {
                format: CERTIFICATE_FORMAT.into(),
                instance_hash: content_hash(&instance),
                bound,
                proof,
            })
        }
        None => None,
    };
    let record = certificate.as_ref().map(|c| CertificateRecord {
        kind: kind_of(&c.proof),
        file: format!("{stem}.cert.json"),
    });
    let solution = reference.solution(&instance, record.clone());
    makespan_benchmarks::recheck(&solution).map_err(&untrusted)?;
    let answer_path = match &reference.answer {
        Some(answer) => {
            let plain = (1..=16).contains(&answer.extension.len())
                && answer.extension.chars().all(|c| c.is_ascii_alphanumeric());
            if !plain {
                return Err(untrusted(format!(
                    "the answer's extension \"{}\" is not a few letters or digits",
                    answer.extension
                )));
            }
            Some(path.with_extension(format!("answer.{}", answer.extension)))
        }
        None => None,
    };
    // The certificate's files, then the certificate, then the solution that names it.
    if let (Some(certificate), Some(record)) = (&certificate, &record) {
        if let Proof::Drcp { model, proof, .. } = &certificate.proof {
            let files = proofs
                .get(name)
                .ok_or_else(|| ReferencesError::MissingProof {
                    path: bundle_path(references),
                    name: name.to_string(),
                })?;
            write(&options.out.join(model), files.model.as_bytes())?;
            write(&options.out.join(proof), &gzip(&files.proof))?;
        }
        let text = serde_json::to_string_pretty(certificate).expect("certificates serialise");
        write(&options.out.join(&record.file), text.as_bytes())?;
    }
    let text = serde_json::to_string_pretty(&solution).expect("a Solution always serialises");
    write(&path, text.as_bytes())?;
    if let (Some(answer), Some(answer_path)) = (&reference.answer, &answer_path) {
        write(answer_path, answer.text.as_bytes())?;
    }
    Ok((answer_path.is_some(), certificate.is_some()))
}

fn gzip(text: &str) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(text.as_bytes())
        .and_then(|()| gz.finish())
        .expect("compressing into memory cannot fail")
}

/// The bundle's path, or the references file's where its header names none.
fn bundle_path(references: &References) -> PathBuf {
    references
        .proofs
        .clone()
        .unwrap_or_else(|| references.path.clone())
}

/// The proof files of the `selected` references with a DRCP certificate, from the bundle
/// (read through the bounded reader, and unpacked to at most the same cap); files of another
/// problem than the reference's are left out, so that reference fails as missing its proof.
fn read_bundle(
    references: &References,
    selected: &[&Reference],
) -> Result<HashMap<String, ProofFiles>, ReferencesError> {
    let wanted: HashMap<&str, &str> = selected
        .iter()
        .filter(|r| matches!(r.certificate, Some(Proof::Drcp { .. })))
        .map(|r| (r.name.as_str(), r.hash.as_str()))
        .collect();
    let mut found = HashMap::new();
    if wanted.is_empty() {
        return Ok(found);
    }
    let Some(path) = &references.proofs else {
        return Ok(found);
    };
    let bytes = input::read_bytes(path)?;
    let cap = input::max_file_bytes();
    let reader = BufReader::new(GzDecoder::new(bytes.as_slice()).take(cap + 1));
    let mut total: u64 = 0;
    for (k, text) in reader.lines().enumerate() {
        let line = k + 1;
        let text = text.map_err(|e| {
            LoadError::format(
                path,
                format!("line {line}"),
                format!("{e}: not a gzipped {PROOFS_FORMAT} file; regenerate it with `makespan references pack`"),
            )
        })?;
        total += text.len() as u64 + 1;
        if total > cap {
            return Err(super::unpacks_too_large(path, cap).into());
        }
        if line == 1 {
            let header: ProofsHeader = parse_line(path, line, &text)?;
            if header.format != PROOFS_FORMAT {
                return Err(LoadError::format(
                    path,
                    "line 1",
                    format!("format \"{}\", expected \"{PROOFS_FORMAT}\"; regenerate it with `makespan references pack`", header.format),
                )
                .into());
            }
            continue;
        }
        let files: ProofFiles = parse_line(path, line, &text)?;
        if wanted.get(files.name.as_str()) == Some(&files.hash.as_str()) {
            found.insert(files.name.clone(), files);
        }
    }
    Ok(found)
}
