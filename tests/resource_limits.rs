//! Bounded resources on hostile input (issue 18): preemption expanded into unit chunks only
//! up to a limit, one deadline per instance shared by every phase, deeply nested pickles,
//! oversized and special files, generator sizes, worker stacks and thread counts. Speed is
//! not asserted here (see the closing note of issue 18 and `docs/limits.md` for figures);
//! what is asserted is which path the solver takes and what it says.

use makespan::instance::{Activity, Instance};
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;

use crate::common::{makespan, text};

/// One agent: `q` (2) must run in [3, 5), so preemptible `p` (10) fits only split around
/// it: 12 with preemption, 15 without.
fn split_around() -> Instance {
    let mut p = Activity::new("p", 10);
    p.preemptible = true;
    let mut q = Activity::new("q", 2);
    q.release = Some(3);
    q.deadline = Some(5);
    Instance {
        activities: vec![p, q],
        ..Instance::new("split", Some(1))
    }
}

#[test]
fn preemption_beyond_the_chunk_limit_is_scheduled_whole_and_said_so() {
    let instance = split_around();
    let full = solve(&instance, &SolveOptions::default());
    assert_eq!((full.status, full.makespan), (Status::Optimal, Some(12)));
    let limited = SolveOptions {
        max_chunks: 5,
        ..SolveOptions::default()
    };
    let s = solve(&instance, &limited);
    assert_eq!(s.status, Status::Feasible, "{:?}", s.reason);
    assert_eq!((s.makespan, s.lower_bound), (Some(15), Some(12)));
    let reason = s.reason.unwrap();
    assert!(
        reason.contains("10 unit chunks (limit 5, raise with --max-chunks)"),
        "{reason}"
    );
    assert!(verify(&instance, &s.schedule).valid);
}

#[test]
fn a_huge_preemptible_activity_is_proven_by_its_load_without_chunks() {
    for duration in [10_007, 1_000_000_000] {
        let mut p = Activity::new("p", duration);
        p.preemptible = true;
        let instance = Instance {
            activities: vec![p, Activity::new("q", 3)],
            ..Instance::new("huge", Some(1))
        };
        let s = solve(&instance, &SolveOptions::default());
        assert_eq!(
            (s.status, s.makespan),
            (Status::Optimal, Some(duration + 3))
        );
    }
}

#[test]
fn a_time_limit_of_zero_keeps_the_first_schedule_and_names_the_limit() {
    // A 15 × 15 job shop: the heuristics alone would sample for seconds, the exact methods longer.
    let instance = crate::common::hard();
    for heuristic_only in [false, true] {
        let options = SolveOptions {
            time_limit: 0.0,
            heuristic_only,
            ..SolveOptions::default()
        };
        let s = solve(&instance, &options);
        assert_eq!(s.status, Status::Feasible, "{:?}", s.reason);
        // Stopped after the first priority rule: no sampling, no local search.
        assert_eq!(s.method, "heuristic:serial-lft");
        assert!(verify(&instance, &s.schedule).valid);
        if !heuristic_only {
            let reason = s.reason.unwrap();
            assert!(
                reason.contains("time limit of 0 s ran out before the exact methods"),
                "{reason}"
            );
        }
    }
}

#[test]
fn a_deeply_nested_pickle_is_an_error_naming_the_file_in_solve_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let n = 200_000;
    let mut bytes = vec![0x80, 2];
    bytes.extend(std::iter::repeat_n(b']', n));
    bytes.extend(std::iter::repeat_n(b'a', n - 1));
    bytes.push(b'.');
    let pickle = dir.path().join("async_benchmark.pkl");
    std::fs::write(&pickle, bytes).unwrap();
    let out = dir.path().join("out");
    let solved = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        dir.path().to_str().unwrap(),
    ]);
    let said = text(&solved);
    assert_eq!(solved.status.code(), Some(2), "{said}");
    assert!(
        said.contains("async_benchmark.pkl") && said.contains("deeper than 200"),
        "{said}"
    );
    let verified = makespan(&[
        "verify",
        "plan.json",
        "--instance",
        pickle.to_str().unwrap(),
    ]);
    let said = text(&verified);
    assert_eq!(verified.status.code(), Some(2), "{said}");
    assert!(said.contains("deeper than 200"), "{said}");
}

#[test]
fn a_plan_may_not_name_an_instance_outside_its_folder_nor_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let plans = dir.path().join("plans");
    std::fs::create_dir_all(&plans).unwrap();
    // An instance that exists, one folder up from the plans.
    std::fs::copy(
        "instances/two-cooks-breakfast.json",
        dir.path().join("inst.json"),
    )
    .unwrap();
    for (name, instance) in [
        ("zero", "/dev/zero"),
        ("up", "../inst.json"),
        ("missing", "../../nowhere.json"),
    ] {
        let plan = plans.join(format!("{name}.json"));
        let json =
            format!(r#"{{"format": "makespan-plan/1", "instance": "{instance}", "schedule": []}}"#);
        std::fs::write(&plan, json).unwrap();
        let run = makespan(&["verify", plan.to_str().unwrap()]);
        let said = text(&run);
        assert_eq!(run.status.code(), Some(2), "{said}");
        assert!(
            said.contains("outside the plan's folder") && said.contains("--instance"),
            "{said}"
        );
    }
    #[cfg(unix)]
    {
        let run = makespan(&[
            "solve",
            "--out",
            dir.path().join("o").to_str().unwrap(),
            "/dev/zero",
        ]);
        let said = text(&run);
        assert_eq!(run.status.code(), Some(2), "{said}");
        assert!(said.contains("/dev/zero: not a regular file"), "{said}");
    }
}

#[test]
fn input_files_over_the_size_cap_are_refused_until_the_flag_raises_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = "instances/two-cooks-breakfast.json";
    let refused = makespan(&[
        "solve",
        "--max-file-mb",
        "0",
        "--out",
        out.to_str().unwrap(),
        input,
    ]);
    let said = text(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(
        said.contains("over the limit of 0 MiB; raise it with --max-file-mb"),
        "{said}"
    );
    let read = makespan(&[
        "solve",
        "--max-file-mb",
        "1",
        "--out",
        out.to_str().unwrap(),
        input,
    ]);
    assert!(read.status.success(), "{}", text(&read));
}

#[test]
fn generator_sizes_and_instances_per_file_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for args in [
        &[
            "generate",
            "asynctool",
            "--chains",
            "100000000",
            "--length",
            "3",
            "--out",
            out,
        ][..],
        &[
            "generate",
            "kitchen",
            "--recipes",
            "100000000",
            "--out",
            out,
        ][..],
    ] {
        let run = makespan(args);
        let said = text(&run);
        assert_eq!(run.status.code(), Some(2), "{said}");
        assert!(
            said.contains("over the limit of 100000; raise it with --max-activities"),
            "{said}"
        );
    }
    let run = makespan(&[
        "solve",
        "--agents",
        "1,2,3",
        "--max-instances-per-file",
        "2",
        "--out",
        out,
        "instances/two-cooks-breakfast.json",
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("3 instances, over the limit of 2 per file"),
        "{said}"
    );
}

#[test]
fn thread_counts_beyond_the_machine_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = makespan(&[
        "solve",
        "--threads",
        "2000",
        "--out",
        out,
        "instances/two-cooks-breakfast.json",
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--threads 2000: at most the number of cores"),
        "{said}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn jobs_that_do_not_fit_the_address_space_limit_are_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "ulimit -v 4000000 && exec {} solve --jobs 16 --quiet --out {} instances/two-cooks-breakfast.json",
        env!("CARGO_BIN_EXE_makespan"),
        dir.path().join("a").display()
    );
    let run = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--jobs 16: each worker reserves 256 MiB") && said.contains("lower --jobs"),
        "{said}"
    );
    // The default fits the limit.
    let script = script.replace("--jobs 16 ", "").replace("/a ", "/b ");
    let run = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run));
}

/// A TimeArena task module (the literal subset the reader takes) named `name`, one object.
fn task_module(name: &str, dependency: &str) -> String {
    format!(
        "class {name}:\n    def __init__(self):\n        self.name = 'Wash the cup.'\n    def add_actions(self):\n        self.actions = [MetaAction('wash', 'wash OBJ', True)]\n    def add_objects(self):\n        self.objects = [MetaObject(\"cup\", {{\"wash\": 1}}, {dependency})]\n"
    )
}

/// 50,000 nested lists in a 100 KB task module aborted `solve` (the reader and the drop of
/// what it read recursed per level): now an error naming the file, the line and the limit.
#[test]
fn a_deeply_nested_task_module_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let n = 50_000;
    let deep = format!("{{\"wash\": {}{}}}", "[".repeat(n), "]".repeat(n));
    std::fs::write(
        dir.path().join("cooking1.py"),
        task_module("cooking1", &deep),
    )
    .unwrap();
    let run = makespan(&[
        "solve",
        dir.path().to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("cooking1.py: line 7: dicts and lists nest deeper than 32 levels"),
        "{said}"
    );
}

/// 120 tasks of one scenario make 288,100 runs of 1, 2 and 3 tasks: they are counted and
/// refused before any is built (building them took 5 GB and 34 s before the cap's error).
#[test]
fn timearena_runs_are_counted_before_they_are_built() {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=120 {
        let name = format!("cooking{i}");
        std::fs::write(
            dir.path().join(format!("{name}.py")),
            task_module(&name, "{}"),
        )
        .unwrap();
    }
    let started = std::time::Instant::now();
    let run = makespan(&[
        "solve",
        dir.path().to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("describes 288100 instances, over the limit of 10000 per file"),
        "{said}"
    );
    assert!(started.elapsed().as_secs() < 15, "{:?}", started.elapsed());
    // Sizes given on the command line are counted the same way, beyond 64 bits too.
    let run = makespan(&[
        "solve",
        dir.path().to_str().unwrap(),
        "--combine",
        "60",
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("over the limit of 10000 per file"), "{said}");
}
