//! The committed references (`references/*.jsonl`) against the solver and the checker: a
//! fixed sample of each file is solved again from its instance (the benchmark's data under
//! `../shared`, or the repository's `instances/`) and must give the same status, makespan
//! and problem hash, and each sampled certificate, unpacked, must pass the independent
//! checker. The example of `docs/references.md` runs here as written, and its regeneration
//! commands for the bundled instances give the committed file.

use std::path::{Path, PathBuf};

use makespan::instance::{problem_hash, Instance};
use makespan::references::{unpack, InstanceSource, Reference, References, UnpackOptions};
use makespan::solution::Solution;
use makespan::SolveOptions;

use crate::common::{makespan, text};

/// Each committed file and the data file its instances are named in (none: embedded).
const FILES: [(&str, Option<&str>); 3] = [
    ("instances", None),
    ("timearena", Some("timearena/tasks.json")),
    ("recipe2plan", Some("recipe2plan/cooking.json")),
];

/// Four references spread over the file (the first, then every quarter) and the first
/// with a DRCP certificate: the same ones on every run.
fn sample(references: &References) -> Vec<&Reference> {
    let all: Vec<&Reference> = references.iter().collect();
    let step = all.len().div_ceil(4).max(1);
    let mut sample: Vec<&Reference> = all.iter().step_by(step).copied().collect();
    let drcp = all
        .iter()
        .find(|r| r.certificate_kind() == Some("drcp"))
        .copied();
    sample.extend(drcp.filter(|d| !sample.iter().any(|r| r.name == d.name)));
    sample
}

/// The instance a reference was made for, read without the references module: `BENCH:NAME`
/// from the data, an embedded one from the repository's `instances/`.
fn instance_of(reference: &Reference, data: &Path) -> Instance {
    match &reference.instance {
        InstanceSource::Named(spec) => {
            makespan::load_instance(spec, Some(data), &Default::default()).unwrap()
        }
        InstanceSource::Embedded(_) => makespan::benchmarks::input_files(Path::new("instances"))
            .unwrap()
            .iter()
            .flat_map(|file| makespan::load(file, &Default::default()).unwrap())
            .find(|i| i.name == reference.name)
            .unwrap_or_else(|| panic!("{} is not in instances/", reference.name)),
    }
}

#[test]
fn a_sample_of_each_committed_file_solves_to_its_reference_and_its_certificates_check() {
    let data = makespan_testkit::data_dir();
    for (file, needs) in FILES {
        if needs.is_some_and(|needed| makespan_testkit::data(needed).is_none()) {
            continue;
        }
        let references = References::read(Path::new(&format!("references/{file}.jsonl"))).unwrap();
        let sample = sample(&references);
        assert!(sample.len() >= 4, "{file}");
        let out = tempfile::tempdir().unwrap();
        let options = UnpackOptions {
            out: out.path().to_path_buf(),
            data: Some(data.clone()),
            only: sample.iter().map(|r| r.name.clone()).collect(),
        };
        unpack(&references, &options).unwrap();
        for reference in sample {
            let name = &reference.name;
            let instance = instance_of(reference, &data);
            assert_eq!(problem_hash(&instance), reference.hash, "{file}: {name}");
            let solved = makespan::solve(&instance, &SolveOptions::default());
            assert_eq!(
                (solved.status, solved.makespan),
                (reference.status, reference.makespan),
                "{file}: {name}"
            );
            if reference.certificate.is_some() {
                let path = makespan::batch::solution_path(out.path(), name);
                let solution = Solution::read(&path).unwrap();
                let certified = makespan_certify_check::check(&solution, out.path())
                    .unwrap_or_else(|e| panic!("{file}: {name}: {e}"));
                assert_eq!(Some(certified.bound), reference.makespan, "{file}: {name}");
            }
        }
    }
}

/// `docs/references.md`: `show` prints what the page shows, and an unpacked reference is an
/// ordinary solution file for `verify` and `check-proof`.
#[test]
fn the_docs_example_runs_as_written() {
    let docs = std::fs::read_to_string("docs/references.md").unwrap();
    let shown = makespan(&[
        "references",
        "show",
        "references/instances.jsonl",
        "two-cooks-breakfast",
    ]);
    assert!(shown.status.success(), "{}", text(&shown));
    let printed = String::from_utf8(shown.stdout).unwrap();
    assert!(
        docs.contains(&format!("```text\n{printed}```")),
        "docs/references.md's `show` example is stale; it prints now:\n{printed}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("solutions");
    let unpacked = makespan(&[
        "references",
        "unpack",
        "references/instances.jsonl",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(unpacked.status.success(), "{}", text(&unpacked));
    assert!(docs.contains("makespan references unpack references/instances.jsonl --out solutions/"));
    let solution = out.join("two-cooks-breakfast.json");
    let verified = makespan(&["verify", solution.to_str().unwrap()]);
    assert_eq!(verified.status.code(), Some(0), "{}", text(&verified));
    let checked = makespan(&["check-proof", out.to_str().unwrap(), "-q"]);
    assert!(checked.status.success(), "{}", text(&checked));
    assert!(
        text(&checked).contains("11 solutions: 11 certified, 0 not"),
        "{}",
        text(&checked)
    );
}

/// Named instances need the data folder, and say so; a name not in the file is named.
#[test]
fn unpack_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let unknown = makespan(&[
        "references",
        "unpack",
        "references/instances.jsonl",
        "--only",
        "four-cooks",
        "--out",
        out,
    ]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        text(&unknown).contains("no reference of \"four-cooks\""),
        "{}",
        text(&unknown)
    );
    let nowhere = dir.path().join("no-data");
    let without = makespan(&[
        "references",
        "unpack",
        "references/timearena.jsonl",
        "--only",
        "cooking1",
        "--data",
        nowhere.to_str().unwrap(),
        "--out",
        out,
    ]);
    assert_eq!(without.status.code(), Some(2));
    assert!(text(&without).contains("line "), "{}", text(&without));
    assert!(text(&without).contains("no-data"), "{}", text(&without));
}

/// The first two regeneration commands of `docs/references.md`, as written but into a
/// temporary folder: the bundled instances' file comes out as committed, but for the
/// seconds each solve took and the schedules (an optimum may be another of equal makespan).
#[test]
fn regenerating_the_bundled_instances_gives_the_committed_file() {
    let docs = std::fs::read_to_string("docs/references.md").unwrap();
    assert!(docs.contains(
        "makespan solve instances/ --out $WORK/instances --certify\n\
         makespan references pack $WORK/instances --out references/instances.jsonl --max-proof-mb 1\n"
    ));
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("instances");
    let file = dir.path().join("instances.jsonl");
    let (work, file) = (work.to_str().unwrap(), file.to_str().unwrap());
    let solved = makespan(&["solve", "instances/", "--out", work, "--certify", "--quiet"]);
    assert!(solved.status.success(), "{}", text(&solved));
    let packed = makespan(&[
        "references",
        "pack",
        work,
        "--out",
        file,
        "--max-proof-mb",
        "1",
    ]);
    assert!(packed.status.success(), "{}", text(&packed));
    let lines = |path: &str| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .map(|line| {
                let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
                if let Some(fields) = value.as_object_mut() {
                    fields.remove("seconds");
                    fields.remove("schedule");
                }
                value
            })
            .collect()
    };
    assert_eq!(lines(file), lines("references/instances.jsonl"));
}
