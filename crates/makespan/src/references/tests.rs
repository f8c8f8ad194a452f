//! Packing and unpacking on the bundled instances (no benchmark data needed): a round trip
//! gives back every solution file, certificate and proof file, and each kind of bad
//! references file is refused with its line and fix.

use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;

use super::*;
use crate::batch::{self, BatchOptions};
use crate::{Cancel, Method, SolveOptions};

/// The repository's `instances/` (the four unified ones at its top: one needs a DRCP proof).
fn bundled() -> Vec<Instance> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../instances");
    let mut instances = Vec::new();
    for name in [
        "lab-incubation",
        "three-agent-assembly",
        "three-cooks-seven-dishes",
        "two-cooks-breakfast",
    ] {
        instances
            .extend(crate::load(dir.join(format!("{name}.json")), &Default::default()).unwrap());
    }
    instances
}

/// Solves and certifies the bundled instances into `out`, as `solve --certify` does.
fn solve_into(out: &Path) {
    let options = BatchOptions {
        out: out.to_path_buf(),
        jobs: 2,
        force: false,
        emit_native: true,
        export_lp: None,
        check: false,
        certify: true,
        solve: SolveOptions::default(),
        method: Method::Exact,
    };
    batch::run(&bundled(), &options, &|_| {}, &Cancel::new()).unwrap();
}

/// A references file of the bundled instances, in a temporary folder.
fn packed() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    solve_into(&dir.path().join("solved"));
    let file = dir.path().join("refs").join("bundled.jsonl");
    pack(&dir.path().join("solved"), &file, &PackOptions::default()).unwrap();
    (dir, file)
}

#[test]
fn unpacking_a_pack_gives_back_every_solution_certificate_and_proof() {
    let (dir, file) = packed();
    let bundle = dir.path().join("refs/bundled.proofs.jsonl.gz");
    assert!(
        bundle.is_file(),
        "three-cooks-seven-dishes has a DRCP proof"
    );
    let references = References::read(&file).unwrap();
    assert_eq!(references.len(), 4);
    let out = dir.path().join("unpacked");
    let written = unpack(
        &references,
        &UnpackOptions {
            out: out.clone(),
            ..UnpackOptions::default()
        },
    )
    .unwrap();
    assert_eq!((written.solutions, written.certificates), (4, 4));
    let solved = dir.path().join("solved");
    for instance in bundled() {
        let stem = batch::file_stem(&instance.name);
        let read = |dir: &Path, ext: &str| std::fs::read(dir.join(format!("{stem}.{ext}")));
        assert_eq!(read(&out, "json").unwrap(), read(&solved, "json").unwrap());
        assert_eq!(
            read(&out, "cert.json").unwrap(),
            read(&solved, "cert.json").unwrap()
        );
        if let Ok(model) = read(&solved, "fzn") {
            assert_eq!(read(&out, "fzn").unwrap(), model);
            let log = |dir: &Path| {
                let mut text = String::new();
                let bytes = read(dir, "drcp.gz").unwrap();
                std::io::Read::read_to_string(&mut GzDecoder::new(&bytes[..]), &mut text).unwrap();
                text
            };
            assert_eq!(log(&out), log(&solved));
        }
    }
    assert!(out.join("summary.csv").is_file());
}

#[test]
fn a_reference_is_found_by_name_without_any_other_file() {
    let (_dir, file) = packed();
    let references = References::read(&file).unwrap();
    let breakfast = references.get("two-cooks-breakfast").unwrap();
    assert_eq!(breakfast.makespan, Some(21));
    assert!(matches!(breakfast.instance, InstanceSource::Embedded(_)));
    let instance = references.instance("two-cooks-breakfast", None).unwrap();
    let solution = references
        .solution("two-cooks-breakfast", &instance)
        .unwrap();
    assert_eq!(solution.schedule, breakfast.schedule);
    let err = references.instance("no-such-dish", None).unwrap_err();
    assert!(matches!(err, ReferencesError::NotFound { .. }), "{err}");
}

#[test]
fn another_problem_is_refused_by_its_hash() {
    let (_dir, file) = packed();
    let references = References::read(&file).unwrap();
    let mut instance = references.instance("two-cooks-breakfast", None).unwrap();
    instance.agents = Some(3);
    let err = references
        .solution("two-cooks-breakfast", &instance)
        .unwrap_err();
    assert!(matches!(err, ReferencesError::OtherProblem { .. }), "{err}");
    assert!(err.to_string().contains("line "), "{err}");
}

/// Rewrites line `line` (1-based) of `file` with `edit`.
fn edit_line(file: &Path, line: usize, edit: impl Fn(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut value: serde_json::Value = serde_json::from_str(&lines[line - 1]).unwrap();
    edit(&mut value);
    lines[line - 1] = value.to_string();
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

#[test]
fn an_edited_makespan_never_becomes_a_solution_file() {
    let (dir, file) = packed();
    edit_line(&file, 2, |v| {
        v["makespan"] = serde_json::json!(v["makespan"].as_i64().unwrap() - 1);
    });
    let references = References::read(&file).unwrap();
    let out = dir.path().join("unpacked");
    let options = UnpackOptions {
        out: out.clone(),
        ..UnpackOptions::default()
    };
    let err = unpack(&references, &options).unwrap_err();
    assert!(
        matches!(err, ReferencesError::Untrusted { line: 2, .. }),
        "{err}"
    );
    assert!(!out.join("lab-incubation.json").exists());
}

#[test]
fn bad_lines_are_named_with_their_line_and_the_fix() {
    let (_dir, file) = packed();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{\"name\": \"x\",";
    std::fs::write(&file, lines.join("\n")).unwrap();
    let err = References::read(&file).unwrap_err().to_string();
    assert!(err.contains("line 3, column"), "{err}");
    assert!(err.contains("makespan references pack"), "{err}");

    std::fs::write(&file, "{\"format\": \"makespan-solution/1\"}\n").unwrap();
    let err = References::read(&file).unwrap_err().to_string();
    assert!(err.contains("not a makespan-references/1 file"), "{err}");

    std::fs::write(
        &file,
        "{\"format\": \"makespan-references/1\", \"proofs\": \"../elsewhere.gz\"}\n",
    )
    .unwrap();
    let err = References::read(&file).unwrap_err().to_string();
    assert!(err.contains("not a plain file name"), "{err}");
}

#[test]
fn a_named_instance_is_looked_up_in_the_data_folder_given() {
    let (dir, file) = packed();
    edit_line(&file, 2, |v| v["instance"] = "timearena:cooking1".into());
    let references = References::read(&file).unwrap();
    let data = dir.path().join("no-data");
    let err = references
        .instance("lab-incubation", Some(&data))
        .unwrap_err();
    assert!(
        matches!(err, ReferencesError::Instance { line: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("no-data"), "{err}");
}

#[test]
fn a_bundle_without_the_proof_files_is_named() {
    let (dir, file) = packed();
    let bundle = dir.path().join("refs/bundled.proofs.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, b"{\"format\": \"makespan-proofs/1\"}\n").unwrap();
    std::fs::write(&bundle, gz.finish().unwrap()).unwrap();
    let references = References::read(&file).unwrap();
    let options = UnpackOptions {
        out: dir.path().join("unpacked"),
        only: vec!["three-cooks-seven-dishes".into()],
        ..UnpackOptions::default()
    };
    let err = unpack(&references, &options).unwrap_err();
    assert!(matches!(err, ReferencesError::MissingProof { .. }), "{err}");
}

#[test]
fn a_drcp_proof_over_the_cap_is_left_out_with_its_certificate() {
    let dir = tempfile::tempdir().unwrap();
    solve_into(&dir.path().join("solved"));
    let file = dir.path().join("capped.jsonl");
    let options = PackOptions {
        max_proof_bytes: Some(0),
        ..PackOptions::default()
    };
    let packed = pack(&dir.path().join("solved"), &file, &options).unwrap();
    assert_eq!((packed.certificates, packed.left_out), (3, 1));
    assert_eq!(packed.bundle, None);
    let references = References::read(&file).unwrap();
    let three = references.get("three-cooks-seven-dishes").unwrap();
    assert_eq!((three.certificate_kind(), three.makespan), (None, Some(14)));
}
