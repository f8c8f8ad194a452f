//! The benchmarks, behind one trait, and the one list of them.
//!
//! Everything makespan knows about a benchmark sits in its folder and is reached through
//! [`Benchmark`]: which file shapes it imports, where `BENCH:NAME` looks names up, how its
//! native answers are read, checked and written, its own baseline and how `compare` groups its
//! instances. Callers (the CLI's `solve`, `verify` and `compare`, `BENCH:NAME` lookup) iterate
//! [`registry`]; no other place names a benchmark. Adding one is a folder and a line in
//! [`registry`].

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::Solution;
use makespan_verify::Report;

use crate::detect::Probe;
use crate::{ImportOptions, NativeAnswer};

/// One benchmark. Every method but [`Benchmark::name`] has a default that says "this
/// benchmark has no such thing".
pub trait Benchmark: Sync {
    /// Lower-case name, as in `source.benchmark` of its instances and in `BENCH:NAME`.
    fn name(&self) -> &'static str;

    /// Whether the file is one of this benchmark's: the name of its kind of file (e.g.
    /// `tasks.json`), an error when it looks like one but cannot be (a `.pkl` that is no
    /// pickle), or `None` to let the next benchmark look. Asked in the registry's order.
    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        let _ = probe;
        None
    }

    /// Its files, as listed in the error for a file no benchmark recognises.
    fn describe_files(&self) -> Option<&'static str> {
        None
    }

    /// File extensions (lower case) that make a file in a folder one of its inputs whatever
    /// it holds (`solve DIR` imports them); JSON files are looked at anyway.
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether a folder is one of its users' checkouts that is imported whole (TimeArena's
    /// task modules), rather than walked for files.
    fn is_checkout(&self, dir: &Path) -> bool {
        let _ = dir;
        false
    }

    /// Every instance of a checkout [`Benchmark::is_checkout`] recognised.
    fn import_checkout(
        &self,
        dir: &Path,
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        let _ = opts;
        Err(LoadError::usage(
            dir,
            format!("{} imports no folders", self.name()),
        ))
    }

    /// Every instance of a file [`Benchmark::detect`] recognised as `shape`.
    fn import(
        &self,
        shape: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        let _ = (bytes, opts);
        Err(LoadError::format(
            path,
            "top level",
            format!("{} does not import {shape} files", self.name()),
        ))
    }

    /// The native file, relative to the data folder, that `BENCH:NAME` looks names up in.
    fn data_file(&self) -> Option<&'static str> {
        None
    }

    /// The instance called `name` in [`Benchmark::data_file`] (found at `path`): by default
    /// the one named `name` or `<benchmark>-<name>`, or the one variant of it the options leave.
    fn find(&self, path: &Path, name: &str, opts: &ImportOptions) -> Result<Instance, LoadError> {
        crate::reference::find_by_name(self.name(), path, name, opts)
    }

    /// The schedule in this benchmark's native answer form.
    fn write_answer(
        &self,
        instance: &Instance,
        schedule: &[ScheduledActivity],
    ) -> Option<NativeAnswer> {
        let _ = (instance, schedule);
        None
    }

    /// Reads and checks a native answer. `None` when the answer is not in a form this
    /// benchmark reads (or not for one of its instances), so the next benchmark may try.
    fn check_answer(&self, answer: &Answer<'_>) -> Option<Result<NativeCheck, LoadError>> {
        let _ = answer;
        None
    }

    /// The benchmark's metrics over several checked answers ([`NativeCheck::run`]), as JSON
    /// and as text.
    fn aggregate(&self, runs: &[serde_json::Value]) -> Option<(serde_json::Value, String)> {
        let _ = runs;
        None
    }

    /// The benchmark's own baseline (its "oracle"), replayed and verified.
    fn baseline(&self) -> Option<&'static Baseline> {
        None
    }

    /// A file of the benchmark's own baseline plans, for `compare --baseline FILE`: its
    /// description and reader.
    fn baseline_file(&self) -> Option<BaselineFile> {
        None
    }

    /// Its harness's outputs (whole model runs), for `makespan score`.
    fn harness(&self) -> Option<&'static dyn crate::run::Harness> {
        None
    }

    /// The group `compare` counts this instance in (a level, a scenario), if the benchmark
    /// has its own grouping.
    fn group(&self, instance: &Instance) -> Option<String> {
        let _ = instance;
        None
    }
}

/// A benchmark shows as its name.
impl std::fmt::Debug for dyn Benchmark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Every benchmark, in the order files are recognised and native answers tried: the ones
/// that recognise a file or an answer by a signature or by the instance first, ParaCook last
/// (it reads any JSON list of objects as a task file, and per-agent lists answer any
/// instance).
pub fn registry() -> &'static [&'static dyn Benchmark] {
    &[
        &crate::asynchow::AsyncHow,
        &crate::recipe2plan::Recipe2Plan,
        &crate::robotouille::Robotouille,
        &crate::timearena::TimeArena,
        &crate::asynctool::AsyncTool,
        &crate::psplib::PSPLIB,
        &crate::rcpsp_max::RCPSP_MAX,
        &crate::jobshop::JOB_SHOP,
        &crate::paracook::ParaCook,
    ]
}

/// The benchmark called `name` (any case).
pub fn benchmark(name: &str) -> Option<&'static dyn Benchmark> {
    registry()
        .iter()
        .copied()
        .find(|b| b.name().eq_ignore_ascii_case(name))
}

/// The benchmark an instance came from, if it is a registered one.
pub fn benchmark_of(instance: &Instance) -> Option<&'static dyn Benchmark> {
    benchmark(&instance.source.as_ref()?.benchmark)
}

/// Every benchmark's own baseline.
pub fn baselines() -> impl Iterator<Item = &'static Baseline> {
    registry().iter().filter_map(|b| b.baseline())
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

/// A native answer, checked: the verifier's report plus what the benchmark itself measures.
#[derive(Debug, Clone)]
pub struct NativeCheck {
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
    /// This answer's metrics, for [`Benchmark::aggregate`] over several answers.
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

impl NativeCheck {
    /// A check whose only result is the verifier's report on the schedule.
    pub fn plain(schedule: Vec<ScheduledActivity>, report: Report) -> Self {
        NativeCheck {
            schedule,
            report,
            text: String::new(),
            json: NativeJson::None,
            compared: false,
            run: None,
        }
    }
}

/// A benchmark's own method of building a schedule (its "oracle"), replayed so its schedule
/// can be verified and compared with the proven optimum.
#[derive(Debug)]
pub struct Baseline {
    /// The name `solve --method` takes, e.g. `timearena-greedy`.
    pub name: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// Runs it: status `feasible` (a valid schedule), `invalid` (the schedule breaks rules;
    /// `reason` names each) or `error` (it cannot run on this instance).
    pub run: fn(&Instance) -> Solution,
}

/// Baselines are one static each: the same one is the one of the same name.
impl PartialEq for Baseline {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Baseline {}

impl Baseline {
    /// Runs the baseline on `instance`.
    pub fn solve(&self, instance: &Instance) -> Solution {
        (self.run)(instance)
    }
}

/// A reader of a file of a benchmark's baseline plans (`compare --baseline FILE`).
#[derive(Debug, Clone, Copy)]
pub struct BaselineFile {
    /// What the file is, for the error that lists the accepted ones.
    pub description: &'static str,
    /// Reads it.
    pub open: fn(&Path) -> Result<Box<dyn BaselinePlans>, LoadError>,
}

/// A benchmark's baseline plans, read from its file.
pub trait BaselinePlans {
    /// The plan's schedule for `instance`, or why the file has none.
    fn schedule(&self, instance: &Instance) -> Result<Vec<ScheduledActivity>, crate::BadValue>;
}

/// Checks a native answer with the first benchmark that reads it, and says which one did
/// (its [`Benchmark::aggregate`] sums several answers up). Without an instance only answers
/// that say which benchmark they belong to can be read, and even those need the instance to
/// be checked: the error says what to pass.
pub fn check_answer(
    answer: &Answer<'_>,
) -> Result<(&'static dyn Benchmark, NativeCheck), LoadError> {
    for &benchmark in registry() {
        if let Some(checked) = benchmark.check_answer(answer) {
            return match (checked, answer.instance) {
                (Err(e), Some(instance)) if is_malformed(&e) => {
                    Ok((benchmark, malformed_answer(instance, &e)))
                }
                (checked, _) => checked.map(|c| (benchmark, c)),
            };
        }
    }
    Err(LoadError::usage(
        answer.path,
        "a native answer does not name its instance; pass --instance (and --agents for ParaCook; e.g. robotouille:7 for Robotouille action strings)",
    ))
}

/// Whether a reader's error says the answer's text cannot be read as a plan (bad JSON, the
/// wrong shape), rather than that the file or the instance cannot be used.
fn is_malformed(error: &LoadError) -> bool {
    matches!(error, LoadError::Json { .. } | LoadError::Format { .. })
}

/// An answer that cannot be read as a plan, checked: one `malformed_answer` violation that
/// names the place (the reader's error), so a model's unreadable answer is an invalid answer
/// (exit 1), not an unreadable file (exit 2).
pub(crate) fn malformed_answer(instance: &Instance, error: &LoadError) -> NativeCheck {
    NativeCheck::plain(
        Vec::new(),
        Report::malformed_answer(
            &instance.name,
            format!("the answer cannot be read as a plan: {error}"),
            "answer in the benchmark's answer form (see the README's table of answer forms)".into(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_lower_case_and_found_in_any_case() {
        let names: Vec<&str> = registry().iter().map(|b| b.name()).collect();
        for (k, name) in names.iter().enumerate() {
            assert_eq!(*name, name.to_ascii_lowercase());
            assert!(!names[..k].contains(name), "{name} twice");
            assert_eq!(
                benchmark(&name.to_ascii_uppercase()).map(|b| b.name()),
                Some(*name)
            );
        }
        assert!(benchmark("nobench").is_none());
    }

    #[test]
    fn baselines_have_unique_names_and_their_benchmark_lists_its_files() {
        let names: Vec<&str> = baselines().map(|b| b.name).collect();
        assert!(names.contains(&"timearena-greedy"), "{names:?}");
        for (k, name) in names.iter().enumerate() {
            assert!(!names[..k].contains(name), "{name} twice");
        }
        for b in registry() {
            if b.data_file().is_some() {
                assert!(b.describe_files().is_some(), "{}", b.name());
            }
        }
    }

    #[test]
    fn an_answer_without_its_instance_says_what_to_pass() {
        let answer = Answer {
            path: Path::new("answer.json"),
            text: r#"[["a"], ["b"]]"#,
            instance: None,
            reference: None,
        };
        let err = check_answer(&answer).unwrap_err().to_string();
        assert!(
            err.starts_with("answer.json: a native answer does not name its instance"),
            "{err}"
        );
    }
}
