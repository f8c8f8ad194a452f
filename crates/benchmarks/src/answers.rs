//! Native answers: a benchmark's own answer form (ParaCook's per-agent lists, TimeArena's
//! decision lists and trajectories, Recipe2Plan's `Step(…)` lines, Robotouille's action
//! strings, AsyncTool's turn lists) read, verified against the instance, written from a
//! schedule, and summed up over several answers in the benchmark's own metrics.
//!
//! An answer the model wrote that cannot be read as a plan is an invalid answer (one
//! `malformed_answer` violation, exit code 1), not an unreadable file: the model wrote it,
//! and scoring must count it.

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::setting::Setting;
use makespan_model::solution::Solution;
use makespan_verify::Report;

use crate::registry::registry;
use crate::Benchmark;

/// A benchmark's native answers.
pub trait Answers: Sync {
    /// Reads and verifies a native answer. `None` when the answer is not in a form this
    /// benchmark reads (or not for one of its instances), so the next benchmark may try.
    fn verify(&self, answer: &Answer<'_>) -> Option<Result<VerifiedAnswer, LoadError>>;

    /// The schedule in this benchmark's native answer form, where it has one to write.
    fn write(&self, instance: &Instance, schedule: &[ScheduledActivity]) -> Option<NativeAnswer>;

    /// Each scheduled activity's text as this benchmark's answer written from `schedule` names
    /// it, by activity id, where that differs from the instance's labels (a choice the
    /// schedule makes that the label leaves open, such as which of a pool's containers), so
    /// that pictures label bars with what was used. `None`: the labels say it all.
    fn labels(
        &self,
        instance: &Instance,
        schedule: &[ScheduledActivity],
    ) -> Option<std::collections::BTreeMap<String, String>> {
        let _ = (instance, schedule);
        None
    }

    /// The benchmark's metrics over several checked answers ([`VerifiedAnswer::run`]), as JSON
    /// and as text, where it has metrics over several.
    fn aggregate(&self, runs: &[serde_json::Value]) -> Option<(serde_json::Value, String)> {
        let _ = runs;
        None
    }

    /// Why the benchmark's own environment cannot complete any answer to this instance,
    /// however good (a restriction of the environment, not a rule of the task); `None` when
    /// an answer can complete it.
    fn unfinishable(&self, instance: &Instance) -> Option<String> {
        let _ = instance;
        None
    }
}

/// A schedule written in a benchmark's own answer form, ready to save beside a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeAnswer {
    /// File extension for the answer, without the dot.
    pub extension: &'static str,
    /// The answer's content, in the benchmark's own form.
    pub text: String,
}

/// A native answer to check: the file it came from, its text, the instance it answers
/// (`None` when the user named none) and a reference solution file, if one was given.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    /// The answer's file, for error messages.
    pub path: &'a Path,
    /// The answer's text, as the model wrote it.
    pub text: &'a str,
    /// The instance it answers.
    pub instance: Option<&'a Instance>,
    /// A solution of the same instance (or task) whose makespan is the reference.
    pub reference: Option<&'a Path>,
}

/// A native answer, verified: the verifier's report plus what the benchmark itself measures.
#[derive(Debug, Clone)]
pub struct VerifiedAnswer {
    /// The answer as a schedule of the instance (as written, each activity where the answer
    /// puts it), for explanations and pictures; activities the answer never reaches are
    /// absent.
    pub schedule: Vec<ScheduledActivity>,
    /// Every violated rule of the instance, and the schedule's metrics.
    pub report: Report,
    /// The benchmark's own lines, printed after the report (may be empty).
    pub text: String,
    /// The benchmark's part of the JSON output.
    pub json: NativeJson,
    /// The check already compared the answer with the reference (by the benchmark's own rule
    /// of what a reference is); otherwise the caller compares the report's makespan with it.
    pub compared: bool,
    /// This answer's metrics, for [`Answers::aggregate`] over several answers.
    pub run: Option<serde_json::Value>,
}

/// How a benchmark's check appears in `verify --json`.
#[derive(Debug, Clone)]
pub enum NativeJson {
    /// Only the report (and the comparison) appear.
    None,
    /// One more key beside `report` and `comparison`.
    Extra(&'static str, serde_json::Value),
    /// The whole output is this value.
    Whole(serde_json::Value),
}

impl VerifiedAnswer {
    /// A check whose only result is the verifier's report on the schedule.
    pub fn plain(schedule: Vec<ScheduledActivity>, report: Report) -> Self {
        VerifiedAnswer {
            schedule,
            report,
            text: String::new(),
            json: NativeJson::None,
            compared: false,
            run: None,
        }
    }
}

/// Verifies a native answer with the first benchmark that reads it, and says which one did
/// (its [`Answers::aggregate`] sums several answers up). Without an instance only answers
/// that say which benchmark they belong to can be read, and even those need the instance to
/// be checked: the error says what to pass.
pub fn verify_answer(
    answer: &Answer<'_>,
) -> Result<(&'static dyn Benchmark, VerifiedAnswer), LoadError> {
    for &benchmark in registry() {
        if let Some(checked) = benchmark.answers().and_then(|a| a.verify(answer)) {
            return match (checked, answer.instance) {
                (Err(e), Some(instance)) if is_malformed(&e) => {
                    Ok((benchmark, malformed_answer(instance, &e)))
                }
                (checked, _) => checked.map(|c| (benchmark, c)),
            };
        }
    }
    if is_empty_plan(answer.text) {
        return Err(LoadError::usage(
            answer.path,
            "the plan is empty: it holds no actions to check; write the plan's actions in the file (and pass --instance to say which instance it answers)",
        ));
    }
    Err(LoadError::usage(
        answer.path,
        format!(
            "a native answer does not name its instance; pass {} (and {} for ParaCook; e.g. robotouille:7 for Robotouille action strings)",
            Setting::Instance,
            Setting::Agents
        ),
    ))
}

/// Whether an answer holds nothing at all: blank, or an empty JSON list (or list of empty
/// lists), so that an error can say so instead of asking for the instance.
fn is_empty_plan(text: &str) -> bool {
    fn empty(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::Array(items) => items.iter().all(empty),
            serde_json::Value::String(s) => s.trim().is_empty(),
            serde_json::Value::Null => true,
            _ => false,
        }
    }
    text.trim().is_empty() || serde_json::from_str(text).is_ok_and(|v| empty(&v))
}

/// Whether a reader's error says the answer's text cannot be read as a plan (bad JSON, the
/// wrong shape), rather than that the file or the instance cannot be used.
fn is_malformed(error: &LoadError) -> bool {
    matches!(error, LoadError::Json { .. } | LoadError::Format { .. })
}

/// An answer that cannot be read as a plan, verified: one `malformed_answer` violation that
/// names the place (the reader's error), so a model's unreadable answer is an invalid answer
/// (exit 1), not an unreadable file (exit 2).
pub(crate) fn malformed_answer(instance: &Instance, error: &LoadError) -> VerifiedAnswer {
    VerifiedAnswer::plain(
        Vec::new(),
        Report::malformed_answer(
            &instance.name,
            format!("the answer cannot be read as a plan: {error}"),
            "answer in the benchmark's answer form (see the README's table of answer forms)".into(),
        ),
    )
}

/// A solution file given as a reference (`verify --solution`), re-checked before its
/// makespan is trusted: an edited schedule, or a makespan or bound its schedule does not
/// back, is an error, never a ratio ([`crate::recheck`]).
pub fn reference_solution(path: &Path) -> Result<Solution, LoadError> {
    let solution = Solution::read(path)?;
    crate::recheck(&solution).map_err(|why| {
        LoadError::usage(path, format!("not a trustworthy reference solution: {why}"))
    })?;
    Ok(solution)
}

/// Why the environment of the benchmark the instance came from cannot complete any answer
/// to it ([`Answers::unfinishable`]): `solve` flags such instances, and the fair metrics of a
/// run leave them out.
pub fn unfinishable(instance: &Instance) -> Option<String> {
    crate::benchmark_of(instance)?
        .answers()?
        .unfinishable(instance)
}

/// The schedule in the native answer form of the benchmark the instance came from, or
/// `None` when that benchmark has no such form (or the instance is not from a benchmark).
pub fn export_native(instance: &Instance, schedule: &[ScheduledActivity]) -> Option<NativeAnswer> {
    crate::benchmark_of(instance)?
        .answers()?
        .write(instance, schedule)
}
