//! Format detection and import errors through the public API, on files written to a
//! temporary folder and on the real benchmark files: every input gets an instance or a
//! clear error, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use makespan::benchmarks::{detect, import, Format, ImportOptions};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

fn import_error(path: &Path) -> String {
    match import(path, &ImportOptions::default()) {
        Ok(insts) => panic!("{} imported {} instances", path.display(), insts.len()),
        Err(e) => e.to_string(),
    }
}

const UNIFIED: &str = r#"{"format": "makespan-instance/1", "name": "tiny", "agents": 1,
    "activities": [{"id": "a", "duration": 2}, {"id": "b", "duration": 3}],
    "precedences": [{"before": "a", "after": "b"}]}"#;

#[test]
fn each_benchmark_file_is_detected_by_content() {
    for (file, format) in [
        (
            "paracook/abstract/burger/seed_42/orders_num_1.json",
            ("paracook", "task file"),
        ),
        ("asynchow/instances.json", ("asynchow", "instances.json")),
        ("asynchow/seq_benchmark.pkl", ("asynchow", "pickle")),
        ("timearena/tasks.json", ("timearena", "tasks.json")),
        (
            "timearena/dependencygraph.json",
            ("timearena", "dependencygraph.json"),
        ),
        ("recipe2plan/cooking.json", ("recipe2plan", "cooking.json")),
        (
            "robotouille/task_graphs.json",
            ("robotouille", "task_graphs.json"),
        ),
    ] {
        let Some(path) = makespan_testkit::data(file) else {
            return;
        };
        let format = Format::Native {
            benchmark: format.0,
            shape: format.1,
        };
        assert_eq!(
            detect(&path, &fs::read(&path).unwrap()).unwrap(),
            format,
            "{file}"
        );
    }
}

#[test]
fn unified_instances_are_read_once_per_requested_agent_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "tiny.json", UNIFIED.as_bytes());
    assert_eq!(detect(&path, UNIFIED.as_bytes()).unwrap(), Format::Unified);
    let insts = import(&path, &ImportOptions::default()).unwrap();
    assert_eq!(insts.len(), 1);
    assert_eq!(insts[0].name, "tiny");
    let opts = ImportOptions {
        agents: vec![Some(2), None],
        ..ImportOptions::default()
    };
    let insts = import(&path, &opts).unwrap();
    let got: Vec<(&str, Option<u32>)> = insts.iter().map(|i| (i.name.as_str(), i.agents)).collect();
    assert_eq!(got, [("tiny-m2", Some(2)), ("tiny-unlimited", None)]);
}

#[test]
fn unreadable_inputs_give_errors_that_name_the_file_and_the_accepted_formats() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 6] = [
        ("empty.json", b"", "the file is empty"),
        (
            "garbage.json",
            b"\xff\xd8\xff\xe0 JFIF",
            "neither UTF-8 text nor a pickle",
        ),
        (
            "latin1.json",
            b"[{\"name\": \"caf\xe9\"}]",
            "neither UTF-8 text nor a pickle",
        ),
        ("words.txt", b"make me a schedule", "starts with 'm'"),
        (
            "other.json",
            br#"{"tasks": [1, 2]}"#,
            "neither \"format\" nor \"instances\"",
        ),
        (
            "solution.json",
            br#"{"format": "makespan-solution/1"}"#,
            "a solution file",
        ),
    ];
    for (name, bytes, needle) in cases {
        let path = write(dir.path(), name, bytes);
        let err = import_error(&path);
        assert!(err.starts_with(&path.display().to_string()), "{err}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.contains("accepted formats"), "{name}: {err}");
    }
}

#[test]
fn truncated_files_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        (
            "cut-unified.json",
            &UNIFIED[..UNIFIED.find("\"b\"").unwrap()],
        ),
        (
            "cut-paracook.json",
            "[\n{\"name\": \"subtask1\", \"time\": 3,",
        ),
        (
            "cut-asynchow.json",
            "{\"instances\": [\n{\"id\": \"async-0000\",",
        ),
    ] {
        let err = import_error(&write(dir.path(), name, text.as_bytes()));
        assert!(err.contains(": line 2, column"), "{name}: {err}");
        assert!(err.contains("truncated"), "{name}: {err}");
    }
}

#[test]
fn a_truncated_pickle_is_an_error_not_a_panic() {
    let Some(pickle) = makespan_testkit::data("asynchow/seq_benchmark.pkl") else {
        return;
    };
    let bytes = fs::read(pickle).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "seq_benchmark.pkl", &bytes[..bytes.len() / 2]);
    let err = import_error(&path);
    assert!(err.contains("seq_benchmark.pkl: pickle byte "), "{err}");
    assert!(err.contains("truncated"), "{err}");
}

#[test]
fn an_invalid_unified_instance_is_reported_by_validation() {
    let dir = tempfile::tempdir().unwrap();
    let text = UNIFIED.replace("\"after\": \"b\"", "\"after\": \"c\"");
    let err = import_error(&write(dir.path(), "bad.json", text.as_bytes()));
    assert!(err.contains("precedences[0]"), "{err}");
}
