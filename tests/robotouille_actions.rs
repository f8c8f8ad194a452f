//! Robotouille action plans: the optimal schedule of every task and variant, exported as the
//! simulator's action strings, replays through the independent action verifier with no
//! violation and the optimal length; and each rule, broken alone by a small edit of a valid
//! plan, is reported under its name at its step.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{makespan, text};
use makespan::benchmarks::robotouille::actions::{
    parse_actions, read_actions, verify_actions, ActionReport,
};
use makespan::benchmarks::robotouille::{self, task_graph, Task};
use makespan::benchmarks::{self, ImportOptions};
use makespan::instance::Instance;
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::Rule;

/// Every task and variant of the benchmark's `task_graphs.json`, or `None` (the test is
/// skipped) where the data is absent.
fn instances() -> Option<Vec<Instance>> {
    let path = makespan_testkit::data("robotouille/task_graphs.json")?;
    Some(benchmarks::import(&path, &ImportOptions::default()).expect("import"))
}

/// The graph of the task `name` picks among `instances`.
fn task_in(instances: &[Instance], name: &str) -> Task {
    let found = robotouille::select(instances, name);
    task_graph(found[0]).expect("every instance carries its task graph")
}

/// The graph of the task `name`, or `None` (skipped) where the data is absent.
fn task(name: &str) -> Option<Task> {
    Some(task_in(&instances()?, name))
}

fn check(task: &Task, lines: &[&str]) -> ActionReport {
    verify_actions(task, &parse_actions(&lines.join("\n")))
}

/// The rules reported, each with its step.
fn rules(report: &ActionReport) -> Vec<(Rule, Option<i64>)> {
    report
        .report
        .violations
        .iter()
        .map(|v| (v.rule, v.time))
        .collect()
}

/// An optimal plan of task 0 (21 steps), as `solve --emit-native` writes it.
const TASK0: [&str; 21] = [
    "Move robot1 from table1 to table2",
    "Pick up chicken1 from table2 using robot1",
    "Move robot1 from table2 to stove1",
    "Place chicken1 on stove1 using robot1",
    "Cook chicken1 on stove1 using robot1",
    "Move robot1 from stove1 to table1",
    "Unstack bread2 from bread1 using robot1",
    "Move robot1 from table1 to table2",
    "Place bread2 on table2 using robot1",
    "Move robot1 from table2 to table3",
    "Pick up cheese1 from table3 using robot1",
    "Move robot1 from table3 to table1",
    "Stack cheese1 on top of bread1 using robot1",
    "Move robot1 from table1 to stove1",
    "Pick up chicken1 from stove1 using robot1",
    "Move robot1 from stove1 to table1",
    "Stack chicken1 on top of cheese1 using robot1",
    "Move robot1 from table1 to table2",
    "Pick up bread2 from table2 using robot1",
    "Move robot1 from table2 to table1",
    "Stack bread2 on top of chicken1 using robot1",
];

/// An optimal plan of task 5 (19 steps): the pot filled at the sink, the potato added
/// there, then boiled on the stove and served last.
const TASK5: [&str; 19] = [
    "Move robot1 from table1 to table3",
    "Pick up pot1 from table3 using robot1",
    "Move robot1 from table3 to sink1",
    "Place pot1 on sink1 using robot1",
    "Fill pot1 with water from sink1 using robot1",
    "Move robot1 from sink1 to table1",
    "Pick up potato1 from table1 using robot1",
    "Move robot1 from table1 to sink1",
    "Add potato1 into pot1 using robot1",
    "Pick up pot1 from sink1 using robot1",
    "Move robot1 from sink1 to stove1",
    "Place pot1 on stove1 using robot1",
    "Boil pot1's contents on stove1 using robot1",
    "Do nothing",
    "Do nothing",
    "Do nothing",
    "Pick up pot1 from stove1 using robot1",
    "Move robot1 from stove1 to table2",
    "Fill bowl1 with pot1's contents using robot1",
];

/// `plan` with `lines` put in place of its (1-based) lines `from..=to` (an empty range
/// `to = from - 1` inserts before line `from`).
fn edit(
    plan: &[&'static str],
    from: usize,
    to: usize,
    lines: &[&'static str],
) -> Vec<&'static str> {
    let mut out = plan[..from - 1].to_vec();
    out.extend_from_slice(lines);
    out.extend_from_slice(&plan[to..]);
    out
}

#[test]
fn the_reference_plans_are_valid_and_as_long_as_the_optimum() {
    let Some(task_0) = task("0") else {
        return;
    };
    let Some(task_5_potato_soup) = task("5_potato_soup") else {
        return;
    };
    let r = check(&task_0, &TASK0);
    assert!(r.report.valid, "{}", r.report.render_text());
    assert_eq!((r.goal_step, r.report.makespan), (Some(21), Some(21)));
    assert_eq!((r.moves, r.waits), (10, 0));
    let r = check(&task_5_potato_soup, &TASK5);
    assert!(r.report.valid, "{}", r.report.render_text());
    assert_eq!((r.goal_step, r.waits), (Some(19), 3));
}

/// Every variant's optimum, exported, replays with no violation at its length; the best
/// variant of each task reaches the goal at the task's optimum; and the verifier agrees with
/// the solver on what is optimal: leaving out any one step of a task's best plan never gives
/// a valid shorter plan.
#[test]
fn every_exported_optimum_replays_without_violation_at_the_optimal_length() {
    let Some(instances) = instances() else {
        return;
    };
    assert_eq!(instances.len(), 45);
    // Per task: the best optimum, the earliest goal, and the plan of the best optimum.
    let mut best: BTreeMap<String, (i64, i64, String)> = BTreeMap::new();
    for instance in &instances {
        let solution = solve(instance, &SolveOptions::default());
        assert_eq!(solution.status, Status::Optimal, "{}", instance.name);
        let optimum = solution.makespan.unwrap();
        let answer = benchmarks::export_native(instance, &solution.schedule)
            .unwrap_or_else(|| panic!("{}: no action plan", instance.name));
        assert_eq!(answer.extension, "txt");
        let plan = read_actions(Path::new("answer.txt"), &answer.text).unwrap();
        let task = task_graph(instance).unwrap();
        let r = verify_actions(&task, &plan);
        assert!(
            r.report.valid,
            "{}:\n{}\n{}",
            instance.name,
            answer.text,
            r.report.render_text()
        );
        // One action per step of the schedule; the goal holds at its end, or earlier when
        // the variant ends by parking the pot (an optional step after serving).
        assert_eq!(plan.steps.len() as i64, optimum, "{}", instance.name);
        let goal = r.goal_step.unwrap();
        if instance.name.ends_with("+park-after-serve") {
            assert!(goal <= optimum, "{}", instance.name);
        } else {
            assert_eq!(goal, optimum, "{}", instance.name);
        }
        let entry = best
            .entry(task.task.clone())
            .or_insert((i64::MAX, i64::MAX, String::new()));
        if optimum < entry.0 {
            (entry.0, entry.2) = (optimum, answer.text);
        }
        entry.1 = entry.1.min(goal);
    }
    // No valid plan is shorter than the proven optimum of its task, and the best one is it.
    assert_eq!(best.len(), 10);
    for (task, (optimum, shortest, _)) in &best {
        assert_eq!(optimum, shortest, "{task}");
    }
    let optima: Vec<i64> = best.values().map(|v| v.0).collect();
    assert_eq!(optima, [21, 27, 37, 42, 46, 19, 42, 44, 66, 80]);
    for (name, (_, _, text)) in &best {
        let graph = task_in(&instances, name);
        let lines: Vec<&str> = text.lines().collect();
        for k in 0..lines.len() {
            let mut shorter = lines.clone();
            shorter.remove(k);
            let r = check(&graph, &shorter);
            assert!(
                !r.report.valid,
                "{name}: without line {} (`{}`) the plan is still valid at {} steps",
                k + 1,
                lines[k],
                shorter.len()
            );
        }
    }
}

#[test]
fn a_step_before_its_prerequisite_is_a_precedence_violation() {
    let Some(task_5) = task("5") else {
        return;
    };
    // The pot is taken from the stove before the potato is in it; the potato is added
    // after serving, into the parked pot.
    let plan = [
        "Move robot1 from table1 to table3",
        "Pick up pot1 from table3 using robot1",
        "Move robot1 from table3 to sink1",
        "Place pot1 on sink1 using robot1",
        "Fill pot1 with water from sink1 using robot1",
        "Do nothing",
        "Do nothing",
        "Do nothing",
        "Pick up pot1 from sink1 using robot1",
        "Move robot1 from sink1 to stove1",
        "Place pot1 on stove1 using robot1",
        "Boil pot1's contents on stove1 using robot1",
        "Do nothing",
        "Do nothing",
        "Do nothing",
        "Pick up pot1 from stove1 using robot1",
        "Move robot1 from stove1 to table2",
        "Fill bowl1 with pot1's contents using robot1",
        "Move robot1 from table2 to table3",
        "Place pot1 on table3 using robot1",
        "Move robot1 from table3 to table1",
        "Pick up potato1 from table1 using robot1",
        "Move robot1 from table1 to table3",
        "Add potato1 into pot1 using robot1",
    ];
    let r = check(&task_5, &plan);
    assert_eq!(rules(&r), [(Rule::PrecedenceViolated, Some(16))]);
    let v = &r.report.violations[0];
    assert_eq!(v.activities, ["pick:pot1:6", "add:potato1:5"]);
}

#[test]
fn a_placement_on_an_occupied_station_is_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(&TASK0, 8, 7, &["Place bread2 on table1 using robot1"]);
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::ResourceOverCapacity, Some(8))]);
    assert!(r.report.violations[0].message.contains("station occupied"));
    // The rejected step still counts.
    assert_eq!(r.goal_step, Some(22));
}

#[test]
fn a_second_thing_in_a_full_hand_is_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(
        &TASK0,
        3,
        3,
        &[
            "Move robot1 from table2 to table1",
            "Unstack bread2 from bread1 using robot1",
            "Move robot1 from table1 to stove1",
        ],
    );
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::ResourceOverCapacity, Some(4))]);
    assert!(r.report.violations[0].message.contains("hand full"));
}

#[test]
fn putting_down_what_the_robot_does_not_hold_is_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(
        &TASK0,
        5,
        4,
        &["Stack cheese1 on top of chicken1 using robot1"],
    );
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::StateViolated, Some(5))]);
    assert!(r.report.violations[0].message.contains("hand empty"));
}

#[test]
fn a_result_used_before_it_is_ready_is_reported() {
    let Some(task_5) = task("5") else {
        return;
    };
    let plan = [
        "Move robot1 from table1 to table3",
        "Pick up pot1 from table3 using robot1",
        "Move robot1 from table3 to sink1",
        "Place pot1 on sink1 using robot1",
        "Fill pot1 with water from sink1 using robot1",
        "Pick up pot1 from sink1 using robot1",
        "Move robot1 from sink1 to stove1",
        "Place pot1 on stove1 using robot1",
        "Boil pot1's contents on stove1 using robot1",
        "Move robot1 from stove1 to table1",
        "Pick up potato1 from table1 using robot1",
        "Move robot1 from table1 to stove1",
        "Add potato1 into pot1 using robot1",
        "Pick up pot1 from stove1 using robot1",
        "Move robot1 from stove1 to table2",
        "Fill bowl1 with pot1's contents using robot1",
    ];
    let r = check(&task_5, &plan);
    assert_eq!(rules(&r), [(Rule::ResultNotArrived, Some(6))]);
    let v = &r.report.violations[0];
    assert_eq!(v.activities, ["pick:pot1:2", "fill:pot1"]);
    assert!(v.message.contains("ready only for step 9"), "{}", v.message);
}

#[test]
fn an_action_away_from_the_robot_is_a_missing_move_reported_once() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(&TASK0, 3, 3, &[]);
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::SetupViolated, Some(3))]);
    assert!(r.report.violations[0]
        .hint
        .contains("Move robot1 from table2 to stove1"));
}

#[test]
fn unknown_objects_stations_and_robots_are_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(
        &TASK0,
        2,
        1,
        &[
            "Pick up tomato1 from table2 using robot1",
            "Move robot1 from table2 to fridge1",
            "Pick up chicken1 from table2 using robot2",
        ],
    );
    let r = check(&task_0, &plan);
    assert_eq!(
        rules(&r),
        [
            (Rule::UnknownActivity, Some(2)),
            (Rule::UnknownActivity, Some(3)),
            (Rule::UnknownActivity, Some(4)),
        ]
    );
    let messages: Vec<&str> = r
        .report
        .violations
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    assert!(messages[0].contains("no object `tomato1`"), "{messages:?}");
    assert!(messages[1].contains("no station `fridge1`"), "{messages:?}");
    assert!(messages[2].contains("no robot `robot2`"), "{messages:?}");
    assert_eq!(r.goal_step, Some(24));
}

#[test]
fn an_action_the_recipe_does_not_have_is_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let Some(task_1) = task("1") else {
        return;
    };
    // Putting the chicken back where it was: the simulator allows it, the recipe has no
    // such step (its next step for the chicken is the stove).
    let plan = edit(&TASK0, 3, 2, &["Place chicken1 on table2 using robot1"]);
    let r = check(&task_0, &plan);
    let first = &r.report.violations[0];
    assert_eq!((first.rule, first.time), (Rule::UnknownActivity, Some(3)));
    assert!(
        first.message.contains("`put:chicken1:1`"),
        "{}",
        first.message
    );
    // A fourth cut of the lettuce: the world allows it, the recipe has three.
    let lettuce = [
        "Move robot1 from table1 to table3",
        "Pick up lettuce1 from table3 using robot1",
        "Move robot1 from table3 to board1",
        "Place lettuce1 on board1 using robot1",
        "Cut lettuce1 on board1 using robot1",
        "Cut lettuce1 on board1 using robot1",
        "Cut lettuce1 on board1 using robot1",
        "Cut lettuce1 on board1 using robot1",
    ];
    let r = check(&task_1, &lettuce);
    let found: Vec<(Rule, Option<i64>)> = rules(&r)
        .into_iter()
        .filter(|(rule, _)| *rule != Rule::MissingActivity)
        .collect();
    assert_eq!(found, [(Rule::DuplicateActivity, Some(8))]);
}

#[test]
fn an_action_on_the_wrong_kind_of_station_is_reported() {
    let Some(task_0) = task("0") else {
        return;
    };
    let plan = edit(&TASK0, 11, 10, &["Cook cheese1 on table3 using robot1"]);
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::StateViolated, Some(11))]);
    assert!(r.report.violations[0]
        .message
        .contains("table3 is not a stove"));
}

#[test]
fn malformed_lines_are_reported_with_their_line_and_count_as_steps() {
    let Some(task_0) = task("0") else {
        return;
    };
    let mut plan: Vec<&str> = TASK0.to_vec();
    plan.insert(5, "Walk over to the stove");
    plan.insert(5, "");
    let r = check(&task_0, &plan);
    assert_eq!(rules(&r), [(Rule::MalformedAction, Some(6))]);
    assert!(r.report.violations[0].message.contains("(line 7)"));
    assert_eq!(r.goal_step, Some(22));
}

#[test]
fn a_plan_that_stops_early_misses_the_goal() {
    let Some(task_0) = task("0") else {
        return;
    };
    let r = check(&task_0, &TASK0[..20]);
    assert_eq!(rules(&r), [(Rule::MissingActivity, None)]);
    assert_eq!(r.report.violations[0].activities, ["final:bread2"]);
    assert_eq!(r.goal_step, None);
    assert!(r.report.violations[0].message.contains("goal not reached"));
}

#[test]
fn every_violation_is_reported_not_just_the_first() {
    let Some(task_0) = task("0") else {
        return;
    };
    let mut plan = edit(&TASK0, 3, 3, &[]);
    plan.insert(0, "Dance");
    plan.pop();
    let r = check(&task_0, &plan);
    let found: Vec<Rule> = rules(&r).into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(
        found,
        [
            Rule::MalformedAction,
            Rule::SetupViolated,
            Rule::MissingActivity
        ]
    );
}

#[test]
fn a_json_list_reads_like_lines_and_names_its_entries() {
    let Some(task_0) = task("0") else {
        return;
    };
    let mut plan: Vec<String> = TASK0.iter().map(|s| s.to_string()).collect();
    plan[3] = "Place chicken1 onto stove1".into();
    let json = serde_json::to_string(&plan).unwrap();
    let parsed = read_actions(Path::new("plan.json"), &json).unwrap();
    assert!(parsed.entries);
    let r = verify_actions(&task_0, &parsed);
    assert!(r.report.violations[0].message.contains("(entry 4)"));
    let err = read_actions(Path::new("plan.json"), "[1, 2").unwrap_err();
    assert!(err.to_string().starts_with("plan.json: line 1"), "{err}");
}

#[test]
fn the_cli_verifies_an_action_plan_by_task_reference() {
    if makespan_testkit::data("robotouille/task_graphs.json").is_none() {
        return;
    }
    let data = makespan_testkit::data_dir();
    let data = data.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("plan.txt");
    std::fs::write(&good, TASK0.join("\n")).unwrap();
    let out = makespan(&[
        "verify",
        good.to_str().unwrap(),
        "--instance",
        "robotouille:0",
        "--data",
        data,
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("21 step(s), goal reached at step 21"),
        "{}",
        text(&out)
    );
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, TASK0[..20].join("\n")).unwrap();
    let out = makespan(&[
        "verify",
        bad.to_str().unwrap(),
        "--instance",
        "robotouille:0_cheese_chicken_sandwich",
        "--data",
        data,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("missing_activity [final:bread2]"),
        "{}",
        text(&out)
    );
    let out = makespan(&[
        "verify",
        bad.to_str().unwrap(),
        "--instance",
        "robotouille:12",
        "--data",
        data,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no Robotouille task"), "{}", text(&out));
}
