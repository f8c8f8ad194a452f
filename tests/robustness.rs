//! Bad input, one kind at a time: enormous numbers (in the parser and in the solver's sums),
//! empty files, duplicate ids and keys, cycles, negative and zero durations, non-UTF-8 bytes,
//! deeply nested JSON and unknown fields. Each is an error naming the file and the place (or,
//! where the input is meaningful, a clear `infeasible` or a solved instance), never a panic.

use std::path::Path;

use makespan::benchmarks::paracook::lists::read_agent_lists;
use makespan::benchmarks::{self, ImportOptions};
use makespan::instance::{parse_instance, Activity, Instance, LoadError, Precedence, MAX_TIME};
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::plan::read_plan;

const ONE: &str = r#"{"format": "makespan-instance/1", "name": "one", "agents": 1,
    "activities": [{"id": "a", "duration": 2}, {"id": "b", "duration": 3}],
    "precedences": [{"before": "a", "after": "b"}]}"#;

fn unified_error(text: &str) -> String {
    parse_instance(Path::new("bad.json"), text)
        .unwrap_err()
        .to_string()
}

/// Imports `bytes` as a file called `name` through the real entry point (detection included).
fn import_bytes(name: &str, bytes: &[u8]) -> Result<Vec<Instance>, LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    benchmarks::import(&path, &ImportOptions::default())
}

fn two(durations: [i64; 2], agents: Option<u32>) -> Instance {
    Instance {
        activities: vec![
            Activity::new("a", durations[0]),
            Activity::new("b", durations[1]),
        ],
        ..Instance::new("big", agents)
    }
}

#[test]
fn a_duration_of_1e18_is_an_error_at_its_json_path() {
    let text = ONE.replace("\"duration\": 2", "\"duration\": 1000000000000000000");
    let err = unified_error(&text);
    assert!(err.starts_with("bad.json: "), "{err}");
    assert!(err.contains("activities[0] (\"a\").duration"), "{err}");
    assert!(err.contains("coarser time unit"), "{err}");
    // Written as a float it is the wrong type, reported at its line and column.
    let err = unified_error(&ONE.replace("\"duration\": 2", "\"duration\": 1e18"));
    assert!(err.starts_with("bad.json: line 2, column"), "{err}");
}

#[test]
fn numbers_beyond_i64_are_errors_with_line_and_column() {
    for huge in ["9223372036854775808", "-9223372036854775809", "1e400"] {
        let err = unified_error(&ONE.replace("\"duration\": 2", &format!("\"duration\": {huge}")));
        assert!(err.starts_with("bad.json: line 2, column"), "{huge}: {err}");
    }
}

#[test]
fn a_duration_near_i64_max_gives_the_solver_a_clear_error_not_an_overflow() {
    for durations in [
        [i64::MAX, 1],
        [i64::MAX / 2 + 1, i64::MAX / 2 + 1],
        [MAX_TIME, 1],
    ] {
        for agents in [Some(1), None] {
            let s = solve(&two(durations, agents), &SolveOptions::default());
            assert_eq!(s.status, Status::Error, "{durations:?}");
            let reason = s.reason.unwrap();
            assert!(reason.contains("coarser time unit"), "{reason}");
        }
    }
}

#[test]
fn the_largest_allowed_times_are_solved_without_overflow() {
    // Just inside the limit: the sums of the bounds, heuristics and horizon stay in range,
    // and the time grid is far too large for the MILP, so the result is honest `feasible`
    // or proven by a bound.
    let quarter = MAX_TIME / 4;
    let mut instance = Instance {
        activities: vec![
            Activity::new("a", quarter),
            Activity::new("b", quarter - 7),
            Activity::new("c", quarter - 3),
        ],
        precedences: vec![Precedence::finish_to_start("a", "c", 5)],
        ..Instance::new("largest", Some(2))
    };
    instance.activities[1].release = Some(11);
    let s = solve(&instance, &SolveOptions::default());
    assert!(
        matches!(s.status, Status::Optimal | Status::Feasible),
        "{:?} {:?}",
        s.status,
        s.reason
    );
    // a, the lag of 5, then c.
    assert!(s.makespan.unwrap() >= 2 * quarter + 2);
}

#[test]
fn empty_files_are_errors_naming_the_file() {
    let err = unified_error("");
    assert!(err.starts_with("bad.json: line 1, column 0"), "{err}");
    assert!(err.contains("truncated"), "{err}");
    let err = import_bytes("empty.json", b"").unwrap_err().to_string();
    assert!(err.contains("empty.json"), "{err}");
    let err = import_bytes("async_benchmark.pkl", b"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("async_benchmark.pkl"), "{err}");
    let err = read_plan(Path::new("plan.json"), "")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("plan.json: line 1"), "{err}");
    let err = read_agent_lists(Path::new("answer.txt"), "")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("answer.txt: line 1"), "{err}");
}

#[test]
fn duplicate_ids_and_duplicate_keys_are_errors_at_their_place() {
    let text = ONE.replace("\"id\": \"b\"", "\"id\": \"a\"");
    let err = unified_error(&text);
    assert!(err.contains("activities[1].id"), "{err}");
    assert!(err.contains("already the id of activities[0]"), "{err}");

    let text = ONE.replace(
        "\"name\": \"one\",",
        "\"name\": \"one\", \"name\": \"two\",",
    );
    let err = unified_error(&text);
    assert!(err.contains("duplicate field `name`"), "{err}");
    assert!(err.starts_with("bad.json: line 1, column"), "{err}");

    let paracook = br#"[{"name": "s1", "time": 1, "dependencies": {}},
                        {"name": "s1", "time": 2, "dependencies": {}}]"#;
    let err = import_bytes("orders_num_1.json", paracook)
        .unwrap_err()
        .to_string();
    assert!(err.contains("orders_num_1.json"), "{err}");
    assert!(err.contains("entry 2 (\"s1\")"), "{err}");
}

#[test]
fn a_precedence_cycle_is_infeasible_with_the_cycle_named() {
    let text = ONE.replace(
        "[{\"before\": \"a\", \"after\": \"b\"}]",
        "[{\"before\": \"a\", \"after\": \"b\"}, {\"before\": \"b\", \"after\": \"a\"}]",
    );
    let instance = parse_instance(Path::new("cycle.json"), &text).unwrap();
    let s = solve(&instance, &SolveOptions::default());
    assert_eq!(s.status, Status::Infeasible);
    let reason = s.reason.unwrap();
    assert!(
        reason.contains("\"a\"") && reason.contains("\"b\""),
        "{reason}"
    );

    let paracook = br#"[{"name": "s1", "time": 1, "dependencies": {"s2": 0}},
                        {"name": "s2", "time": 2, "dependencies": {"s1": 0}}]"#;
    for instance in import_bytes("orders_num_1.json", paracook).unwrap() {
        assert_eq!(
            solve(&instance, &SolveOptions::default()).status,
            Status::Infeasible
        );
    }
}

#[test]
fn negative_durations_are_errors_and_zero_durations_are_milestones() {
    let err = unified_error(&ONE.replace("\"duration\": 3", "\"duration\": -3"));
    assert!(err.contains("activities[1] (\"b\").duration"), "{err}");
    assert!(err.contains("-3 is negative"), "{err}");

    let zero = parse_instance(
        Path::new("zero.json"),
        &ONE.replace("\"duration\": 2", "\"duration\": 0"),
    )
    .unwrap();
    let s = solve(&zero, &SolveOptions::default());
    assert_eq!((s.status, s.makespan), (Status::Optimal, Some(3)));

    let paracook = br#"[{"name": "s1", "time": -4, "dependencies": {}}]"#;
    let err = import_bytes("orders_num_1.json", paracook)
        .unwrap_err()
        .to_string();
    assert!(err.contains("orders_num_1.json"), "{err}");
    assert!(err.contains("time") || err.contains("duration"), "{err}");
}

#[test]
fn non_utf8_bytes_are_an_error_naming_the_byte() {
    let mut bytes = ONE.as_bytes().to_vec();
    bytes.splice(40..40, [0xff, 0xfe]);
    let err = import_bytes("latin.json", &bytes).unwrap_err().to_string();
    assert!(err.contains("latin.json"), "{err}");
    assert!(err.contains("byte 40") || err.contains("UTF-8"), "{err}");
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    // Deep inside a field that holds any JSON value (a state value), past every type check.
    let nested = ONE.replace(
        "{\"id\": \"a\", \"duration\": 2}",
        &format!("{{\"id\": \"a\", \"duration\": 2, \"sets\": {{\"oven.t\": {deep}}}}}"),
    );
    let err = unified_error(&nested);
    assert!(err.contains("recursion limit"), "{err}");
    assert!(err.starts_with("bad.json: line 2, column"), "{err}");
    for name in ["deep.json", "orders_num_1.json", "instances.json"] {
        let err = import_bytes(name, deep.as_bytes()).unwrap_err().to_string();
        assert!(err.contains(name), "{err}");
    }
    let err = read_plan(Path::new("plan.json"), &deep)
        .unwrap_err()
        .to_string();
    assert!(err.contains("recursion limit"), "{err}");
    // Lists of lists of ids: the third level is already the wrong type.
    let err = read_agent_lists(Path::new("answer.txt"), &deep)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("answer.txt: line 1, column"), "{err}");
}

#[test]
fn unknown_fields_are_errors_naming_them() {
    let err = unified_error(&ONE.replace("\"agents\"", "\"agent_count\": 3, \"agents\""));
    assert!(err.contains("unknown field `agent_count`"), "{err}");
    let plan = r#"{"format": "makespan-plan/1", "schedule": [], "colour": "red"}"#;
    let err = read_plan(Path::new("plan.json"), plan)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `colour`"), "{err}");
    let instance = parse_instance(Path::new("one.json"), ONE).unwrap();
    let mut solution = serde_json::to_value(solve(&instance, &SolveOptions::default())).unwrap();
    solution["verdict"] = "great".into();
    let err = read_plan(Path::new("solution.json"), &solution.to_string())
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `verdict`"), "{err}");
}

mod edgy_instances {
    //! The solver on valid instances full of edge values: zero durations, negative and
    //! maximum lags, start-to-start relations, releases and deadlines, times near the
    //! limit. It must never panic, and whatever it returns must be consistent.

    use makespan::instance::{Activity, Instance, Precedence, Relation, MAX_TIME};
    use makespan::solution::Status;
    use makespan::solve::{solve, SolveOptions};
    use makespan::verify::verify;
    use proptest::prelude::*;

    use crate::common::strategies::{activity, resource};

    /// A time drawn mostly from edge values, bounded so that the instance stays valid.
    fn time() -> impl Strategy<Value = i64> {
        prop_oneof![
            Just(0i64),
            Just(1),
            0i64..5,
            Just(MAX_TIME / 64),
            Just(MAX_TIME / 64 - 1),
        ]
    }

    fn instances() -> impl Strategy<Value = Instance> {
        let one_activity = (time(), 0u8..4, any::<bool>(), proptest::option::of(time()));
        let precedence = (
            0usize..6,
            0usize..6,
            any::<bool>(),
            -3i64..3,
            proptest::option::of(0i64..4),
        );
        (
            proptest::collection::vec(one_activity, 1..6),
            proptest::collection::vec(precedence, 0..6),
            proptest::option::of(1u32..3),
        )
            .prop_map(|(acts, precs, agents)| {
                let n = acts.len();
                let activities = acts
                    .iter()
                    .enumerate()
                    .map(|(i, &(p, kind, tool, release))| Activity {
                        release,
                        ..activity(i, p, kind, tool)
                    })
                    .collect();
                let precedences = precs
                    .iter()
                    .filter(|&&(i, j, ..)| i % n != j % n)
                    .map(|&(i, j, start, min_lag, extra)| Precedence {
                        before: format!("a{}", i % n),
                        after: format!("a{}", j % n),
                        relation: if start {
                            Relation::StartToStart
                        } else {
                            Relation::FinishToStart
                        },
                        min_lag,
                        max_lag: extra.map(|e| min_lag + e),
                    })
                    .collect();
                Instance {
                    resources: vec![resource("tool", 1)],
                    activities,
                    precedences,
                    ..Instance::new("edgy", agents)
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Found a hang: nearly fixed starts far out in time passed the variable-count guard,
        /// and the capacity rows were built for every time unit of a 2^34-unit horizon.
        #[test]
        fn the_solver_never_panics_or_hangs_and_its_answers_are_consistent(instance in instances()) {
            let options = SolveOptions { time_limit: 1.0, ..SolveOptions::default() };
            let s = solve(&instance, &options);
            match s.status {
                Status::Optimal | Status::Feasible => {
                    let makespan = s.makespan.unwrap();
                    prop_assert!(s.lower_bound.unwrap() <= makespan);
                    prop_assert!(verify(&instance, &s.schedule).valid);
                    if s.status == Status::Optimal {
                        prop_assert_eq!(s.lower_bound, Some(makespan));
                    }
                }
                Status::Infeasible => prop_assert!(s.reason.is_some() && s.schedule.is_empty()),
                // Only the solver's honest "no schedule within the limits" is acceptable.
                Status::Error => {
                    let reason = s.reason.unwrap_or_default();
                    prop_assert!(reason.contains("limit") || reason.contains("variables"), "{}", reason);
                }
                Status::Invalid => prop_assert!(false, "the exact pipeline never reports invalid"),
            }
        }
    }
}

/// A folder holding the solution of the bundled breakfast instance, solved here.
fn solved_breakfast() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let run = crate::common::makespan(&[
        "solve",
        "instances/two-cooks-breakfast.json",
        "-q",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", crate::common::text(&run));
    let file = dir.path().join("two-cooks-breakfast.json");
    (dir, file)
}

/// The solution file `file` claiming `makespan` (and a bound of it) over its own schedule.
fn claim(file: &Path, makespan: i64) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    value["makespan"] = makespan.into();
    value["lower_bound"] = makespan.into();
    std::fs::write(file, value.to_string()).unwrap();
}

/// `compare` took a solution claiming less than its schedule's end as the optimum (a ratio of
/// 7.000 against a fake): an optimum read from a file is re-checked, and one its schedule
/// does not back is no reference. Names reach the terminal escaped.
#[test]
fn compare_rechecks_the_optima_it_reads_and_escapes_names() {
    let (optima, file) = solved_breakfast();
    let (baseline, _) = solved_breakfast();
    claim(&file, 1);
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    value["instance"]["name"] = "breakfast\u{1b}[2J".into();
    std::fs::write(&file, value.to_string()).unwrap();
    let run = crate::common::makespan(&[
        "compare",
        optima.path().to_str().unwrap(),
        "--baseline",
        baseline.path().to_str().unwrap(),
    ]);
    let said = crate::common::text(&run);
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains("the optimum's file is not trustworthy"),
        "{said}"
    );
    assert!(
        !said.contains("1.000") && !said.contains('\u{1b}'),
        "{said:?}"
    );
    assert!(said.contains("breakfast\\u{1b}[2J"), "{said}");
}

/// `score --solutions` took a cached solution as the optimum without its re-check: a file
/// claiming less than its schedule is solved again (and rewritten).
#[test]
fn score_rechecks_cached_optima() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let solutions = tempfile::tempdir().unwrap();
    let options = makespan::score::ScoreOptions {
        data: Some(data),
        solutions: Some(solutions.path().to_path_buf()),
        ..makespan::score::ScoreOptions::default()
    };
    let run = Path::new("tests/fixtures/score/paracook/results/abstract/model-x.json");
    let optimum = |report: &makespan::score::RunReport| {
        report
            .rows
            .iter()
            .find(|r| r.key.starts_with("burger/seed_42/agent_num_2"))
            .and_then(|r| r.optimum)
    };
    let first = makespan::score::score_run(run, &options).unwrap();
    let real = optimum(&first).unwrap();
    claim(
        &solutions.path().join("paracook-burger-s42-o1-m2.json"),
        real - 5,
    );
    let again = makespan::score::score_run(run, &options).unwrap();
    assert_eq!(optimum(&again), Some(real));
}

/// `score --out` wrote harness keys as they are: a key starting with `=` is a formula to a
/// spreadsheet. Text cells get a leading `'`, and the terminal gets escapes.
#[test]
fn score_csv_cells_are_spreadsheet_safe_and_the_terminal_escaped() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("paracook/results/abstract");
    std::fs::create_dir_all(&results).unwrap();
    let fixture =
        std::fs::read_to_string("tests/fixtures/score/paracook/results/abstract/model-x.json")
            .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&fixture).unwrap();
    value["=HYPERLINK(\"http://x\")\u{1b}]0;t\u{7}"] =
        serde_json::json!({"done": true, "time": 3, "answer": []});
    let file = results.join("model-x.json");
    std::fs::write(&file, value.to_string()).unwrap();
    let csv = dir.path().join("r.csv");
    let run = crate::common::makespan(&[
        "score",
        file.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    let said = crate::common::text(&run);
    assert!(!said.contains('\u{1b}'), "{said:?}");
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(table.contains("\"'=HYPERLINK("), "{table}");
    assert!(
        !table
            .lines()
            .any(|l| l.starts_with("=") || l.starts_with("\"=")),
        "{table}"
    );
}

/// `explain` printed activity names raw: an ESC in a name reaches the terminal escaped.
#[test]
fn explain_escapes_control_characters_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("evil.json");
    std::fs::write(
        &instance,
        r#"{"format": "makespan-instance/1", "name": "evil", "agents": 1,
            "activities": [{"id": "a\u001b[2J", "duration": 2}, {"id": "b", "duration": 3}],
            "precedences": [{"before": "a\u001b[2J", "after": "b"}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = crate::common::makespan(&[
        "solve",
        instance.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", crate::common::text(&run));
    let run = crate::common::makespan(&["explain", out.join("evil.json").to_str().unwrap()]);
    let said = crate::common::text(&run);
    assert!(run.status.success(), "{said}");
    assert!(!said.contains('\u{1b}'), "{said:?}");
    assert!(said.contains("`a\\u{1b}[2J`"), "{said}");
}

/// `verify SOLUTION.json` reported "valid plan, makespan 21" for a file claiming 3: a
/// solution whose `makespan` is not its schedule's end is an error naming both.
#[test]
fn verify_refuses_a_solution_whose_makespan_is_not_its_schedules() {
    let (_dir, file) = solved_breakfast();
    claim(&file, 3);
    let run = crate::common::makespan(&["verify", file.to_str().unwrap()]);
    let said = crate::common::text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("makespan: the file claims 3, but its schedule ends at 21"),
        "{said}"
    );
}
