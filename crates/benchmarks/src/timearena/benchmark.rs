//! TimeArena behind the [`Benchmark`] trait: `tasks.json` runs, decision lists and
//! `LLM_test.py` trajectories checked with the benchmark's metrics, its greedy oracle as a
//! baseline, scenarios as `compare` groups.

use std::path::Path;
use std::time::Instant;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::setting::Setting;
use makespan_model::solution::{Solution, Status};

use super::log::{aggregate, is_decision_log, read_decisions, verify_decisions, RunMetrics};
use crate::{
    Answer, Answers, Baseline, Benchmark, Checkout, ImportOptions, Knob, Lookup, NativeAnswer,
    NativeJson, Probe, VerifiedAnswer,
};

/// TimeArena: household, cooking and lab tasks for one agent, decision-list answers.
pub struct TimeArena;

/// Its task file, which holds the instances.
const TASKS: &str = "tasks.json";
/// The oracle's graph, read beside the task file.
const GRAPH: &str = "dependencygraph.json";

/// TimeArena's own greedy oracle (`solve --method timearena-greedy`).
static GREEDY: Baseline = Baseline {
    name: "timearena-greedy",
    about: "TimeArena's own greedy oracle, replayed and verified: a baseline, reported `feasible` or `invalid`, never `optimal`",
    run: greedy,
};

impl Benchmark for TimeArena {
    fn name(&self) -> &'static str {
        super::BENCHMARK
    }

    /// `tasks.json` (an object with `tasks` and `dependencygraph_disagreements`) or the
    /// oracle's `dependencygraph.json` (an object of `[durations, dependencies]` pairs).
    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        if probe.has_keys(&["tasks", "dependencygraph_disagreements"]) {
            return Some(Ok(TASKS));
        }
        let graph = probe.json.is_some_and(super::graph::looks_like_graph);
        graph.then_some(Ok(GRAPH))
    }

    fn files(&self) -> Option<&'static str> {
        Some("TimeArena tasks.json (JSON object with \"tasks\") or its dependencygraph.json")
    }

    fn fixed_agents(&self) -> Option<crate::FixedAgents> {
        Some(crate::FixedAgents {
            count: Some(1),
            why: "TimeArena runs have one agent: the environment has a single player, and its decision lists cannot give work to a second",
        })
    }

    fn import(
        &self,
        shape: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        match shape {
            // The oracle's graph is read beside tasks.json; on its own it holds no instances.
            GRAPH => Ok(Vec::new()),
            _ => super::import(path, crate::utf8(path, bytes)?, opts),
        }
    }

    fn knobs(&self) -> &'static [Knob] {
        super::KNOBS
    }

    fn answers(&self) -> Option<&dyn Answers> {
        Some(self)
    }

    fn lookup(&self) -> Option<&dyn Lookup> {
        Some(self)
    }

    fn checkout(&self) -> Option<&dyn Checkout> {
        Some(self)
    }

    fn harness(&self) -> Option<&'static dyn crate::harness::Harness> {
        Some(&super::TimeArenaHarness)
    }

    fn baseline(&self) -> Option<&'static Baseline> {
        Some(&GREEDY)
    }

    fn grouping(&self) -> Option<fn(&Instance) -> Option<String>> {
        Some(group)
    }
}

impl Checkout for TimeArena {
    /// A checkout's root or its `TimeArena/specificTasks` folder of task modules.
    fn recognises(&self, dir: &Path) -> bool {
        super::modules_folder(dir).is_some()
    }

    fn import(&self, dir: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
        super::import_checkout(dir, opts)
    }
}

impl Lookup for TimeArena {
    fn data_file(&self) -> &'static str {
        "timearena/tasks.json"
    }

    /// A checkout's task modules, read as the checkout import reads them.
    fn checkout_files(&self) -> &'static [&'static str] {
        &["TimeArena/specificTasks"]
    }

    /// Runs are built from the tasks named, in the order named (`cooking1+cooking2`), from
    /// `tasks.json` or a checkout's task modules.
    fn find(&self, path: &Path, name: &str, _: &ImportOptions) -> Result<Instance, LoadError> {
        if path.is_dir() {
            return super::checkout_named(path, name);
        }
        let text = makespan_model::input::read_text(path)?;
        super::import_named(path, &text, name)
    }
}

impl Answers for TimeArena {
    fn write(&self, instance: &Instance, schedule: &[ScheduledActivity]) -> Option<NativeAnswer> {
        Some(NativeAnswer {
            extension: "json",
            text: super::decisions(instance, schedule),
        })
    }

    /// Its container restriction: a run whose actions it rejects with every container.
    fn unfinishable(&self, instance: &Instance) -> Option<String> {
        super::harness::unfinishable(instance)
    }

    /// A pooled container's slot (`fry beef in {fryer}`) filled with the instance the decision
    /// list written from the schedule names.
    fn labels(
        &self,
        instance: &Instance,
        schedule: &[ScheduledActivity],
    ) -> Option<std::collections::BTreeMap<String, String>> {
        Some(super::native::concrete_labels(instance, schedule))
    }

    /// A decision list or an `LLM_test.py` trajectory, recognised by its records; any answer
    /// to a TimeArena run (one that does not parse is a malformed answer).
    fn verify(&self, answer: &Answer<'_>) -> Option<Result<VerifiedAnswer, LoadError>> {
        let ours = answer
            .instance
            .and_then(|i| i.source.as_ref())
            .is_some_and(|s| s.benchmark == super::BENCHMARK);
        let value: Option<serde_json::Value> = serde_json::from_str(answer.text).ok();
        if !ours && !value.as_ref().is_some_and(is_decision_log) {
            return None;
        }
        let Some(instance) = answer.instance else {
            return Some(Err(LoadError::usage(
                answer.path,
                format!(
                    "a TimeArena decision list does not name its run; pass {}, e.g. {}",
                    Setting::Instance,
                    Setting::Instance.given("timearena:cooking1+cooking2")
                ),
            )));
        };
        Some(read_decisions(answer.path, answer.text).map(|log| {
            let verdict = verify_decisions(instance, &log);
            let mut text = String::new();
            for warning in &verdict.warnings {
                text += &format!("warning: {warning}\n");
            }
            let m = &verdict.metrics;
            text += &format!(
                "TimeArena: progress score {}, completion time {} min, completion speed {:.2}/min, completed: {}\n",
                m.progress_score,
                m.completion_time,
                m.completion_speed,
                if m.completed { "yes" } else { "no" }
            );
            if let Some((time, score, completed)) = log.final_record {
                text += &format!(
                    "the trajectory's final record says: total_time {time}, total_score {score}, isCompleted {completed}\n"
                );
            }
            let extra = serde_json::json!({"metrics": verdict.metrics, "warnings": verdict.warnings});
            VerifiedAnswer {
                run: Some(serde_json::to_value(&verdict.metrics).expect("metrics serialise")),
                report: verdict.report,
                schedule: verdict.schedule,
                text,
                json: NativeJson::Extra("timearena", extra),
                compared: false,
            }
        }))
    }

    /// The paper's AS, CS, CR and CT over the runs.
    fn aggregate(&self, runs: &[serde_json::Value]) -> Option<(serde_json::Value, String)> {
        let runs: Vec<RunMetrics> = runs
            .iter()
            .filter_map(|r| serde_json::from_value(r.clone()).ok())
            .collect();
        if runs.is_empty() {
            return None;
        }
        let total = aggregate(&runs);
        let text = format!(
            "TimeArena over {} runs: average progress score {:.2}, completion speed {:.2}/min, completion rate {:.1}%, average completion time {}\n",
            total.runs,
            total.average_progress_score,
            total.completion_speed,
            total.completion_rate,
            total
                .average_completion_time
                .map_or("- (no run completed)".into(), |t| format!("{t:.2} min"))
        );
        Some((serde_json::json!({ "timearena_aggregate": total }), text))
    }
}

/// The scenario and number of tasks (`cooking ×2`, `+constraint` for that variant).
fn group(instance: &Instance) -> Option<String> {
    let notes = &instance
        .source
        .as_ref()
        .filter(|s| s.benchmark == super::BENCHMARK)?
        .notes;
    let scenario = notes
        .get("scenario")
        .and_then(|v| v.as_str())
        .unwrap_or("?");
    let tasks = notes
        .get("tasks")
        .and_then(|v| v.as_array())
        .map_or(0, Vec::len);
    let constraint = notes.get("constraint").and_then(|v| v.as_bool()) == Some(true);
    Some(format!(
        "{scenario} ×{tasks}{}",
        if constraint { " +constraint" } else { "" }
    ))
}

/// Replays the greedy oracle ([`super::greedy`]) and verifies its schedule: `feasible`, or
/// `invalid` with every broken rule (a baseline's schedule is never repaired), or `error`
/// when the oracle cannot run on the instance.
fn greedy(instance: &Instance) -> Solution {
    let clock = Instant::now();
    let mut solution = Solution::new(instance, Status::Error, GREEDY.name);
    match super::greedy::run(instance) {
        Err(message) => solution.reason = Some(message.0),
        Ok(outcome) => {
            let report = makespan_verify::verify(instance, &outcome.schedule);
            let mut problems: Vec<String> = outcome
                .unmapped
                .iter()
                .map(|a| format!("the oracle schedules {a}, which the environment does not have"))
                .collect();
            problems.extend(
                report
                    .violations
                    .iter()
                    .map(|v| format!("{}: {}", v.rule, v.message)),
            );
            solution.status = if problems.is_empty() {
                Status::Feasible
            } else {
                Status::Invalid
            };
            solution.reason = (!problems.is_empty()).then(|| problems.join("; "));
            solution.makespan = Some(outcome.value);
            solution.schedule = outcome.schedule;
        }
    }
    solution.seconds = clock.elapsed().as_secs_f64();
    solution
}
