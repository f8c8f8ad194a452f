//! Ctrl-C during a batch (unix: the test sends SIGINT to the binary). The first interrupt
//! lets the running instance finish and stops; only complete solution files remain, the
//! summary lists them, the exit code is 130, and the next run resumes. A second interrupt
//! exits at once, still without partial files.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use makespan::solution::Solution;

/// Six 15 × 15 job shops that each take their whole 1 s limit (the constraint model proves
/// 8 × 8 ones in a fraction of it, which would end the batch before a second interrupt).
fn inputs(dir: &Path) -> PathBuf {
    let folder = dir.join("instances");
    std::fs::create_dir(&folder).unwrap();
    for seed in 1..=6 {
        crate::common::write(
            &folder,
            &crate::common::job_shop(&format!("js{seed}"), 15, 15, seed),
        );
    }
    folder
}

fn start(inputs: &Path, out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args([
            "solve",
            "--quiet",
            "--jobs",
            "1",
            "--time-limit",
            "1",
            "--out",
        ])
        .arg(out)
        .arg(inputs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Every file in `out`: the solution files must all parse, and nothing else but the summary
/// may be there (no temporary or half-written files).
fn solutions(out: &Path) -> Vec<Solution> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(out).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "summary.csv" {
            continue;
        }
        assert!(name.ends_with(".json"), "unexpected file {name}");
        let text = std::fs::read_to_string(&path).unwrap();
        found.push(serde_json::from_str(&text).expect("a complete solution file"));
    }
    found
}

/// Waits until the first solution file is written (the handler is installed by then).
fn wait_for_first_solution(out: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_dir(out)
        .map(|d| {
            d.filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "json"))
        })
        .unwrap_or(false)
    {
        assert!(Instant::now() < deadline, "no solution written within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_stops_the_batch_keeps_complete_files_and_the_next_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let out = dir.path().join("out");
    let child = start(&inputs, &out);
    wait_for_first_solution(&out);
    interrupt(&child);
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("run the same command again"), "{stderr}");

    let done = solutions(&out);
    assert!(!done.is_empty() && done.len() < 6, "{} solved", done.len());
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + done.len(), "{summary}");
    for s in &done {
        assert!(
            summary.contains(&format!("{},", s.instance.name)),
            "{summary}"
        );
    }

    let resumed = Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(["solve", "--jobs", "1", "--time-limit", "1", "--out"])
        .arg(&out)
        .arg(&inputs)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(resumed.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("({} kept from an earlier run)", done.len())),
        "{stdout}"
    );
    assert_eq!(solutions(&out).len(), 6);
    for s in &done {
        let again = solutions(&out)
            .into_iter()
            .find(|t| t.instance.name == s.instance.name)
            .unwrap();
        assert_eq!(&again, s, "a kept solution is not rewritten");
    }
}

#[test]
fn a_second_ctrl_c_exits_at_once_without_partial_files() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let out = dir.path().join("out");
    let child = start(&inputs, &out);
    wait_for_first_solution(&out);
    interrupt(&child);
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    interrupt(&child);
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("exiting now"), "{stderr}");
    // Without the second interrupt the running instance would take its full second.
    assert!(
        sent.elapsed() < Duration::from_millis(900),
        "{:?}",
        sent.elapsed()
    );
    assert!(!solutions(&out).is_empty());
}

#[test]
fn sigterm_stops_the_batch_like_the_first_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let out = dir.path().join("out");
    let child = start(&inputs, &out);
    wait_for_first_solution(&out);
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("run the same command again"), "{stderr}");
    let done = solutions(&out);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + done.len(), "{summary}");
}

/// GNU `timeout` sends SIGTERM to its child and then to the child's group: two signals
/// microseconds apart are one event, not "interrupt again" (which exited at once and lost the
/// running instance's result).
#[test]
fn two_sigterms_at_once_are_one_interrupt() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let out = dir.path().join("out");
    let child = start(&inputs, &out);
    wait_for_first_solution(&out);
    let pid = child.id().to_string();
    let sent = Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}; kill -TERM {pid}")])
        .status()
        .unwrap();
    assert!(sent.success());
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("run the same command again") && !stderr.contains("exiting now"),
        "{stderr}"
    );
}
