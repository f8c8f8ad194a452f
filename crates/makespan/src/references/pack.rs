//! [`pack`]: a folder of solution files, as `solve --emit-native --certify` writes it, into a
//! references file and its proof bundle. Each solution's native answer
//! (`<stem>.answer.<ext>`) and certificate come along; an instance is named `BENCH:NAME`
//! only where that name, looked up under the data folder, gives the same problem (so every
//! reference packed unpacks), and is embedded otherwise. A cap on DRCP proof files keeps
//! the committed bundles small: a certificate whose proof is larger is left out, and its
//! reference has none (`solve --certify` writes it again).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use rayon::prelude::*;

use makespan_model::certificate::{Certificate, Proof};
use makespan_model::input;
use makespan_model::instance::{problem_hash, Instance, LoadError};
use makespan_model::solution::Solution;

use super::{
    beside, bundle_name, kind_of, write, Header, InstanceSource, NativeText, ProofFiles,
    ProofsHeader, Reference, ReferencesError, PROOFS_FORMAT, REFERENCES_FORMAT,
};

/// What to pack besides the solutions.
#[derive(Debug, Clone, Default)]
pub struct PackOptions {
    /// The folder of the benchmarks' files (default `$MAKESPAN_DATA`), to name benchmark
    /// instances `BENCH:NAME`; without one every instance is embedded.
    pub data: Option<PathBuf>,
    /// Leave out DRCP certificates whose proof file (as written, `.drcp.gz`) is larger than
    /// this many bytes.
    pub max_proof_bytes: Option<u64>,
}

/// What [`pack`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// References written, one per solution file.
    pub references: usize,
    /// Of those, how many name their instance `BENCH:NAME` (the others embed it).
    pub named: usize,
    /// How many carry a certificate.
    pub certificates: usize,
    /// DRCP certificates left out for a proof over [`PackOptions::max_proof_bytes`].
    pub left_out: usize,
    /// How many carry a native answer.
    pub answers: usize,
    /// The proof bundle, when some certificate is a DRCP proof.
    pub bundle: Option<PathBuf>,
}

/// A solution file and its native answer, if one lies beside it.
struct SolutionFile {
    path: PathBuf,
    answer: Option<(PathBuf, String)>,
}

/// Packs every solution file in the folder `solutions` (not below it) into the references
/// file `out` and, when some certificate is a DRCP proof, the bundle
/// `<stem>.proofs.jsonl.gz` beside it (see [`PackOptions`]).
pub fn pack(
    solutions: &Path,
    out: &Path,
    options: &PackOptions,
) -> Result<Packed, ReferencesError> {
    let files = solution_files(solutions)?;
    if files.is_empty() {
        return Err(LoadError::usage(
            solutions,
            "no solution files (*.json) here; give the --out folder of `makespan solve`",
        )
        .into());
    }
    let data = makespan_benchmarks::data_dir(options.data.as_deref());
    let packed: Vec<Packing> = files
        .par_iter()
        .map(|file| pack_one(file, data.as_deref(), options.max_proof_bytes))
        .collect::<Result<_, _>>()?;
    let left_out = packed.iter().filter(|p| p.left_out).count();
    let mut packed: Vec<(Reference, Option<ProofFiles>)> =
        packed.into_iter().map(|p| (p.reference, p.proof)).collect();
    packed.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    if let Some(pair) = packed.windows(2).find(|w| w[0].0.name == w[1].0.name) {
        return Err(LoadError::usage(
            solutions,
            format!(
                "two solution files of instance \"{}\"; keep one",
                pair[0].0.name
            ),
        )
        .into());
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|source| ReferencesError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    // The bundle first: a references file never names a bundle that is not there.
    let proofs: Vec<&ProofFiles> = packed.iter().filter_map(|(_, p)| p.as_ref()).collect();
    let bundle = if proofs.is_empty() {
        None
    } else {
        let name = bundle_name(out);
        write(&out.with_file_name(&name), &bundle_bytes(&proofs))?;
        Some(name)
    };
    let header = Header {
        format: REFERENCES_FORMAT.into(),
        proofs: bundle.clone(),
    };
    let mut text = json_line(&header);
    for (reference, _) in &packed {
        text += &json_line(reference);
    }
    write(out, text.as_bytes())?;
    let references: Vec<&Reference> = packed.iter().map(|(r, _)| r).collect();
    Ok(Packed {
        references: references.len(),
        named: references
            .iter()
            .filter(|r| matches!(r.instance, InstanceSource::Named(_)))
            .count(),
        certificates: references
            .iter()
            .filter(|r| r.certificate.is_some())
            .count(),
        left_out,
        answers: references.iter().filter(|r| r.answer.is_some()).count(),
        bundle: bundle.map(|name| out.with_file_name(name)),
    })
}

fn json_line(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("references serialise") + "\n"
}

/// The gzipped bundle: its header, then one line per DRCP certificate.
fn bundle_bytes(proofs: &[&ProofFiles]) -> Vec<u8> {
    let header = ProofsHeader {
        format: PROOFS_FORMAT.into(),
    };
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    let written = gz
        .write_all(json_line(&header).as_bytes())
        .and_then(|()| {
            proofs
                .iter()
                .try_for_each(|p| gz.write_all(json_line(p).as_bytes()))
        })
        .and_then(|()| gz.finish());
    written.expect("compressing into memory cannot fail")
}

/// The solution files in `dir` (not certificates, native answers or hidden files), each
/// with the native answer beside it, sorted.
fn solution_files(dir: &Path) -> Result<Vec<SolutionFile>, LoadError> {
    let entries = fs::read_dir(dir).map_err(|source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let solution = |name: &&String| {
        name.ends_with(".json")
            && !name.ends_with(".cert.json")
            && !name.contains(".answer.")
            && !name.starts_with('.')
    };
    Ok(names
        .iter()
        .filter(solution)
        .map(|name| {
            let prefix = format!("{}.answer.", &name[..name.len() - ".json".len()]);
            let answer = names.iter().find_map(|other| {
                let extension = other.strip_prefix(&prefix)?;
                Some((dir.join(other), extension.to_string()))
            });
            SolutionFile {
                path: dir.join(name),
                answer,
            }
        })
        .collect())
}

/// One solution, packed.
struct Packing {
    reference: Reference,
    /// Its DRCP proof's files.
    proof: Option<ProofFiles>,
    /// Its DRCP certificate was left out for the proof's size.
    left_out: bool,
}

fn pack_one(
    file: &SolutionFile,
    data: Option<&Path>,
    max_proof_bytes: Option<u64>,
) -> Result<Packing, ReferencesError> {
    let solution = Solution::read(&file.path)?;
    let answer = match &file.answer {
        Some((path, extension)) => Some(NativeText {
            extension: extension.clone(),
            text: input::read_text(path)?,
        }),
        None => None,
    };
    let mut left_out = false;
    let (certificate, proof_files) = match &solution.certificate {
        Some(record) => {
            let path = beside(&file.path, "certificate.file", &record.file)?;
            let (proof, files) = certificate(&path, &solution, max_proof_bytes)?;
            if kind_of(&proof) != record.kind {
                return Err(LoadError::usage(
                    &file.path,
                    "the solution file records another kind of certificate than its certificate file holds; certify again with `makespan solve … --certify --force`",
                )
                .into());
            }
            match files {
                Some(Certified::TooLarge) => {
                    left_out = true;
                    (None, None)
                }
                Some(Certified::Files(model, log)) => (Some(proof), Some((model, log))),
                None => (Some(proof), None),
            }
        }
        None => (None, None),
    };
    let source = source_of(&solution.instance.instance, data);
    let reference = Reference::of(solution, source, certificate, answer);
    let proof = proof_files.map(|(model, proof)| ProofFiles {
        name: reference.name.clone(),
        hash: reference.hash.clone(),
        model,
        proof,
    });
    Ok(Packing {
        reference,
        proof,
        left_out,
    })
}

/// A DRCP certificate's files: their texts, or too large to pack.
enum Certified {
    /// The FlatZinc model and the uncompressed proof log.
    Files(String, String),
    /// The proof file is over the cap.
    TooLarge,
}

/// The proof of the certificate file `path` of `solution` and, for a DRCP proof, its files
/// (unless the proof file is over `max_proof_bytes`).
fn certificate(
    path: &Path,
    solution: &Solution,
    max_proof_bytes: Option<u64>,
) -> Result<(Proof, Option<Certified>), LoadError> {
    let text = input::read_text(path)?;
    let certificate: Certificate =
        serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e))?;
    if certificate.instance_hash != solution.instance.hash
        || Some(certificate.bound) != solution.makespan
    {
        return Err(LoadError::usage(
            path,
            "the certificate is not its solution's (another instance or bound); certify again with `makespan solve … --certify --force`",
        ));
    }
    let files = match &certificate.proof {
        Proof::Drcp { model, proof, .. } => {
            let proof_path = beside(path, "proof.proof", proof)?;
            let bytes = input::read_bytes(&proof_path)?;
            if max_proof_bytes.is_some_and(|cap| bytes.len() as u64 > cap) {
                return Ok((certificate.proof, Some(Certified::TooLarge)));
            }
            let model = input::read_text(&beside(path, "proof.model", model)?)?;
            let log = if proof.ends_with(".gz") {
                input::gunzip_text(&proof_path, &bytes)?
            } else {
                String::from_utf8(bytes).map_err(|e| {
                    LoadError::format(
                        &proof_path,
                        format!("byte {}", e.utf8_error().valid_up_to()),
                        "the proof log is not UTF-8 text; certify again",
                    )
                })?
            };
            Some(Certified::Files(model, log))
        }
        _ => None,
    };
    Ok((certificate.proof, files))
}

/// `BENCH:NAME` when the instance is a benchmark's and that name under `data` gives the same
/// problem; the instance itself otherwise.
fn source_of(instance: &Instance, data: Option<&Path>) -> InstanceSource {
    let named = || {
        let data = data?;
        let benchmark = makespan_benchmarks::benchmark_of(instance)?;
        benchmark.lookup()?;
        let spec = format!("{}:{}", benchmark.name(), instance.name);
        let found =
            makespan_benchmarks::load_instance(&spec, Some(data), &Default::default()).ok()?;
        (problem_hash(&found) == problem_hash(instance)).then_some(spec)
    };
    named().map_or_else(
        || InstanceSource::Embedded(Box::new(instance.clone())),
        InstanceSource::Named,
    )
}
