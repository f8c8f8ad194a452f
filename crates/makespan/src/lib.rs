//! makespan: provably optimal schedules for LLM planning benchmarks, and a strict verifier for
//! any plan.
//!
//! The pipeline is `import → Instance → solve → Solution` and `plan → verify → Report`. This
//! crate is the front door: a few functions over the workspace's crates, each of which can also
//! be used on its own:
//!
//! | crate | what it holds | re-exported as |
//! |---|---|---|
//! | `makespan-model` | [`Instance`], schedules, [`Solution`] and their JSON | [`instance`], [`schedule`], [`solution`], [`certificate`] |
//! | `makespan-verify` | the independent checker: rules, [`Report`], metrics | [`mod@verify`] |
//! | `makespan-formats` | one folder per benchmark behind one trait, and their registry | [`formats`] |
//! | `makespan-solve` | bounds, heuristics, exact methods (the only crate with HiGHS) | [`mod@solve`] |
//! | `makespan-report` | why a plan lost time (critical chain, waits, lost time), Gantt SVG/HTML | [`report`] |
//!
//! The libraries print nothing, install no signal handler and never exit the process:
//! cancellation is a [`Cancel`] token, progress a callback.
//!
//! ```
//! use makespan::{Instance, Status};
//! use makespan::instance::{Activity, Precedence};
//!
//! // Two cooks; the sauce must wait for the chopping.
//! let instance = Instance {
//!     activities: vec![Activity::new("chop", 4), Activity::new("sauce", 6), Activity::new("rice", 9)],
//!     precedences: vec![Precedence::finish_to_start("chop", "sauce", 0)],
//!     ..Instance::new("dinner", Some(2))
//! };
//! let solution = makespan::solve(&instance, &makespan::SolveOptions::default());
//! assert_eq!((solution.status, solution.makespan), (Status::Optimal, Some(10)));
//!
//! // Any schedule can be checked; every broken rule is named.
//! let report = makespan::verify(&instance, &solution.schedule);
//! assert!(report.valid);
//! ```

#![warn(missing_docs)]

use std::path::Path;

pub use makespan_formats as formats;
pub use makespan_model::{certificate, input, instance, schedule, solution};
pub use makespan_report as report;
pub use makespan_solve as solve;
pub use makespan_verify as verify;

pub use makespan_formats::ImportOptions;
pub use makespan_model::instance::{Instance, LoadError};
pub use makespan_model::schedule::ScheduledActivity;
pub use makespan_model::solution::{Solution, Status};
pub use makespan_solve::{Cancel, SolveOptions};
pub use makespan_verify::{Report, Rule, Violation};

pub use score_html::score_html;

pub mod batch;
pub mod compare;
mod many;
mod reference;
pub mod references;
pub mod score;
mod score_html;
pub mod validation;

pub use many::solve_many;
pub use reference::{compare_to, ReferenceError};

/// Which method produces a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Bounds, heuristics and exact methods: optima proven where time allows.
    #[default]
    Exact,
    /// A benchmark's own baseline (its "oracle"), replayed and verified: reported `feasible`
    /// or `invalid`, never `optimal`.
    Baseline(&'static formats::Baseline),
}

impl Method {
    /// `exact`, or the name of a benchmark's baseline (e.g. `timearena-greedy`).
    pub fn parse(name: &str) -> Option<Method> {
        if name == "exact" {
            return Some(Method::Exact);
        }
        formats::baselines()
            .find(|b| b.name == name)
            .map(Method::Baseline)
    }
}

/// Every instance a file describes (a unified instance or any benchmark's native file,
/// recognised by content), each validated.
///
/// ```
/// # let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
/// # std::env::set_current_dir(root).unwrap();
/// let instances = makespan::load("instances/two-cooks-breakfast.json", &Default::default())?;
/// assert_eq!(instances[0].name, "two-cooks-breakfast");
/// # Ok::<(), makespan::LoadError>(())
/// ```
pub fn load(path: impl AsRef<Path>, options: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    formats::import(path.as_ref(), options)
}

/// One instance: `BENCH:NAME` looked up in the benchmark's native file under `data` (default:
/// `$MAKESPAN_DATA`; there is no other), or a file, `PATH#NAME` picking one of the
/// instances a file holds.
pub fn load_instance(
    spec: &str,
    data: Option<&Path>,
    options: &ImportOptions,
) -> Result<Instance, LoadError> {
    formats::load_instance(spec, data, options)
}

/// Solves one instance: `optimal` only when a lower bound meets a verified schedule, else
/// `feasible` with bound and gap, `infeasible` or `error` with the reason. Never panics on bad
/// input.
pub fn solve(instance: &Instance, options: &SolveOptions) -> Solution {
    makespan_solve::solve(instance, options)
}

/// Why [`try_solve`] refused an instance: what [`solve()`] reports as an `error` solution,
/// told apart for callers that raise on it (the Python binding).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The instance breaks the model's rules (every problem listed).
    #[error("invalid instance: {0}")]
    Invalid(#[from] instance::ValidationError),
    /// The instance uses a feature the solver does not handle yet.
    #[error("not supported yet: {0}")]
    Unsupported(String),
}

/// [`solve()`], with an invalid instance or an unsupported feature as an error instead of an
/// `error` solution. Infeasible instances and limits are still solutions (`infeasible`,
/// `feasible`); so is an `error` for any other reason (the solver failing).
///
/// ```
/// use makespan::instance::Activity;
/// use makespan::{Instance, SolveError, SolveOptions};
///
/// let broken = Instance {
///     activities: vec![Activity::new("boil", -1)],
///     ..Instance::new("broken", Some(1))
/// };
/// let err = makespan::try_solve(&broken, &SolveOptions::default()).unwrap_err();
/// assert!(matches!(err, SolveError::Invalid(_)));
/// ```
pub fn try_solve(instance: &Instance, options: &SolveOptions) -> Result<Solution, SolveError> {
    let solution = solve(instance, options);
    if solution.status == Status::Error {
        // Ask again why, by the same checks the solve ran, only on this rare path.
        instance.validate()?;
        if let Err(solve::problem::Refusal::Unsupported(what)) =
            solve::problem::Problem::compile_scaled(instance)
        {
            return Err(SolveError::Unsupported(what));
        }
    }
    Ok(solution)
}

/// [`solve()`] by the chosen method: the exact pipeline or a benchmark's baseline.
pub fn solve_with(instance: &Instance, method: Method, options: &SolveOptions) -> Solution {
    match method {
        Method::Exact => solve(instance, options),
        Method::Baseline(baseline) => baseline.solve(instance),
    }
}

/// Checks a schedule against every rule of the instance and measures it.
pub fn verify(instance: &Instance, schedule: &[ScheduledActivity]) -> Report {
    makespan_verify::verify(instance, schedule)
}

/// A plan, checked: the instance it was checked against, the benchmark whose native answer
/// it was (`None` for a unified plan or a solution file), and the check itself.
#[derive(Debug, Clone)]
pub struct CheckedPlan {
    /// The instance: the one given, or the one the unified plan names or embeds.
    pub instance: Instance,
    /// The benchmark that read the native answer.
    pub benchmark: Option<&'static dyn formats::Benchmark>,
    /// The report, and the benchmark's own metrics.
    pub check: formats::NativeCheck,
}

impl CheckedPlan {
    /// The benchmark's own metrics of the answer, as `verify --json` prints them beside the
    /// report (TimeArena's progress score and completion, Recipe2Plan's efficiencies,
    /// Robotouille's steps to the goal); `None` where the verifier's report is all there is.
    pub fn metrics(&self) -> Option<serde_json::Value> {
        match &self.check.json {
            formats::NativeJson::None => None,
            formats::NativeJson::Extra(_, value) => Some(value.clone()),
            formats::NativeJson::Whole(value) => {
                let mut value = value.clone();
                if let Some(fields) = value.as_object_mut() {
                    fields.remove("report");
                    fields.remove("comparison");
                }
                Some(value)
            }
        }
    }
}

/// Checks any plan text `makespan verify` reads: a unified plan or a solution file (a JSON
/// object, which names or embeds its instance; `instance` overrides it), or a benchmark's
/// native answer (ParaCook lists, TimeArena decision logs, Recipe2Plan `Step(…)` lines,
/// Robotouille actions, AsyncTool turns), which needs `instance`. `reference` is a solution
/// file the benchmark may compare with by its own rules (see [`formats::NativeCheck::compared`]).
/// `path` names the plan in errors.
pub fn verify_plan(
    path: &Path,
    text: &str,
    instance: Option<&Instance>,
    reference: Option<&Path>,
) -> Result<CheckedPlan, LoadError> {
    if text.trim_start().starts_with('{') {
        let resolved = verify::plan::read_plan(path, text)?.resolve(instance.cloned())?;
        let report = verify(&resolved.instance, &resolved.schedule);
        return Ok(CheckedPlan {
            instance: resolved.instance,
            benchmark: None,
            check: formats::NativeCheck::plain(resolved.schedule, report),
        });
    }
    let answer = formats::Answer {
        path,
        text,
        instance,
        reference,
    };
    let (benchmark, check) = formats::check_answer(&answer)?;
    let instance = instance
        .cloned()
        .ok_or_else(|| LoadError::usage(path, "a native answer needs its instance (--instance)"))?;
    Ok(CheckedPlan {
        instance,
        benchmark: Some(benchmark),
        check,
    })
}

/// Explains a checked plan (any form [`verify_plan`] reads): its schedule as written, its
/// violations on the timeline, the critical chain, unforced waits and agents' time, and the
/// time lost against `reference` (a solution of the same instance; the caller checks that it
/// is) when given. See [`report`] for the definitions.
pub fn explain_plan(
    checked: &CheckedPlan,
    reference: Option<&Solution>,
) -> Result<report::Explanation, report::ExplainError> {
    let reference = reference.map(|s| report::Reference {
        schedule: &s.schedule,
        makespan: s
            .makespan
            .unwrap_or_else(|| schedule::makespan(&s.schedule)),
        optimal: s.status == Status::Optimal,
    });
    report::explain(
        &checked.instance,
        &checked.check.schedule,
        &checked.check.report.violations,
        reference,
    )
}

/// The README's Rust examples, compiled and run as doctests so the front door cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
