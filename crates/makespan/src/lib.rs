//! makespan: provably optimal schedules for LLM planning benchmarks, and a strict verifier for
//! any plan.
//!
//! The pipeline is `import → Instance → solve → Solution` and `plan → verify → Report`. This
//! crate is the front door: a few functions over the workspace's crates, each of which can also
//! be used on its own:
//!
//! | crate | what it holds | re-exported as |
//! |---|---|---|
//! | `makespan-model` | [`Instance`], schedules, [`Solution`] and their JSON, the settings messages ask for | [`instance`], [`schedule`], [`solution`], [`certificate`], [`setting`] |
//! | `makespan-verify` | the independent checker: rules, [`Report`], metrics | [`mod@verify`] |
//! | `makespan-benchmarks` | one folder per benchmark behind one trait, and their registry | [`benchmarks`] |
//! | `makespan-solve` | bounds, heuristics, exact methods (the only crate with HiGHS) | [`mod@solve`] (its public API) |
//! | `makespan-explain` | why a plan lost time (critical chain, waits, lost time), Gantt SVG/HTML | [`mod@explain`] |
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

pub use makespan_benchmarks as benchmarks;
pub use makespan_explain as explain;
pub use makespan_model::{certificate, input, instance, schedule, setting, solution};
pub use makespan_verify as verify;

pub use makespan_benchmarks::ImportOptions;
pub use makespan_model::instance::{Instance, LoadError};
pub use makespan_model::schedule::ScheduledActivity;
pub use makespan_model::solution::{Solution, Status};
pub use makespan_solve::{Cancel, Run, SolveOptions};
pub use makespan_verify::{Report, Rule, Violation};

pub use score::page::score_html;

pub mod batch;
pub mod compare;
mod comparison;
pub mod inputs;
pub mod jobs;
pub mod references;
pub mod score;
mod solve_many;
pub mod validation;
mod worlds;

pub use comparison::{compare_to, ReferenceError};
pub use solve_many::solve_many;
pub use worlds::Drawing;

/// The solver (crate `makespan-solve`), as far as it is an API: solving with settings and a
/// run, typed failures, the exact methods' order, the `--check` cross-check and the
/// `--certify` certificates. Its stages (bounds, heuristics, the methods themselves) stay
/// inside it.
pub mod solve {
    pub use makespan_solve::{
        certify, check, check_threads, check_time_limit, exact_methods, solve, solve_detailed,
        Cancel, ExactMethodInfo, Failure, Run, SolveOptions, Stage, MAX_CHUNKS,
    };
}

/// Which method produces a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Bounds, heuristics and exact methods: optima proven where time allows.
    #[default]
    Exact,
    /// A benchmark's own baseline (its "oracle"), replayed and verified: reported `feasible`
    /// or `invalid`, never `optimal`.
    Baseline(&'static benchmarks::Baseline),
}

impl Method {
    /// `exact`, or the name of a benchmark's baseline method.
    pub fn parse(name: &str) -> Option<Method> {
        if name == "exact" {
            return Some(Method::Exact);
        }
        benchmarks::baselines()
            .find(|b| b.name == name)
            .map(Method::Baseline)
    }

    /// [`Method::parse`], with an error that lists every name (for the CLI and Python alike).
    pub fn named(name: &str) -> Result<Method, String> {
        Method::parse(name).ok_or_else(|| {
            let names: Vec<&str> = Method::all().map(|(name, _)| name).collect();
            format!("\"{name}\" is not one of {}", names.join(", "))
        })
    }

    /// Every method's name and what it is: `exact`, then each benchmark's baseline.
    pub fn all() -> impl Iterator<Item = (&'static str, &'static str)> {
        let exact = (
            "exact",
            "Bounds, heuristics and the MILP: optima proven where time allows",
        );
        std::iter::once(exact).chain(benchmarks::baselines().map(|b| (b.name, b.about)))
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
    benchmarks::import(path.as_ref(), options)
}

/// One instance: `BENCH:NAME` looked up in the benchmark's native file under `data` (default:
/// `$MAKESPAN_DATA`; there is no other), or a file, `PATH#NAME` picking one of the
/// instances a file holds.
pub fn load_instance(
    spec: &str,
    data: Option<&Path>,
    options: &ImportOptions,
) -> Result<Instance, LoadError> {
    benchmarks::load_instance(spec, data, options)
}

/// Solves one instance: `optimal` only when a lower bound meets a verified schedule, else
/// `feasible` with bound and gap, `infeasible` or `error` with the reason. Never panics on bad
/// input.
pub fn solve(instance: &Instance, options: &SolveOptions) -> Solution {
    solve_detailed(instance, options, &Run::default()).0
}

/// The solver's [`solve::solve_detailed`], with simulated worlds (instances whose benchmark's
/// simulator is their rule book) searched by that simulator, bounded by the scheduling engine
/// on their relaxation.
pub(crate) fn solve_detailed(
    instance: &Instance,
    options: &SolveOptions,
    run: &Run,
) -> (Solution, Option<solve::Failure>) {
    match benchmarks::simulated_of(instance) {
        Some(simulator) => (worlds::solve(instance, simulator, options, run), None),
        None => makespan_solve::solve_detailed(instance, options, run),
    }
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

/// [`solve()`] in `run` (stopped by its [`Cancel`] token), with an invalid instance or an
/// unsupported feature as an error instead of an `error` solution. Infeasible instances and
/// limits are still solutions (`infeasible`, `feasible`); so is an `error` for any other
/// reason (the solver failing).
///
/// ```
/// use makespan::instance::Activity;
/// use makespan::{Instance, Run, SolveError, SolveOptions};
///
/// let broken = Instance {
///     activities: vec![Activity::new("boil", -1)],
///     ..Instance::new("broken", Some(1))
/// };
/// let err = makespan::try_solve(&broken, &SolveOptions::default(), &Run::default()).unwrap_err();
/// assert!(matches!(err, SolveError::Invalid(_)));
/// ```
pub fn try_solve(
    instance: &Instance,
    options: &SolveOptions,
    run: &Run,
) -> Result<Solution, SolveError> {
    match solve_detailed(instance, options, run) {
        (_, Some(solve::Failure::Invalid(invalid))) => Err(SolveError::Invalid(invalid)),
        (_, Some(solve::Failure::Unsupported(what))) => Err(SolveError::Unsupported(what)),
        (solution, _) => Ok(solution),
    }
}

/// [`solve()`] by the chosen method: the exact pipeline or a benchmark's baseline.
pub fn solve_with(instance: &Instance, method: Method, options: &SolveOptions) -> Solution {
    match method {
        Method::Exact => solve(instance, options),
        Method::Baseline(baseline) => baseline.solve(instance),
    }
}

/// Verifies a schedule against every rule of the instance and measures it (a simulated
/// world's plan is replayed by its benchmark's simulator).
pub fn verify(instance: &Instance, schedule: &[ScheduledActivity]) -> Report {
    benchmarks::verify_schedule(instance, schedule)
}

/// A plan, verified: the instance it was verified against, the benchmark whose native answer
/// it was (`None` for a unified plan or a solution file), and the verdict itself.
#[derive(Debug, Clone)]
pub struct VerifiedPlan {
    /// The instance: the one given, or the one the unified plan names or embeds.
    pub instance: Instance,
    /// The benchmark that read the native answer.
    pub benchmark: Option<&'static dyn benchmarks::Benchmark>,
    /// The report, and the benchmark's own metrics.
    pub answer: benchmarks::VerifiedAnswer,
}

impl VerifiedPlan {
    /// The benchmark's own metrics of the answer, as `verify --json` prints them beside the
    /// report (progress, completion, efficiencies, steps to the goal: whatever the
    /// benchmark scores); `None` where the verifier's report is all there is.
    pub fn metrics(&self) -> Option<serde_json::Value> {
        match &self.answer.json {
            benchmarks::NativeJson::None => None,
            benchmarks::NativeJson::Extra(_, value) => Some(value.clone()),
            benchmarks::NativeJson::Whole(value) => {
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

/// Verifies any plan text `makespan verify` reads: a unified plan or a solution file (a JSON
/// object, which names or embeds its instance; `instance` overrides it), or a benchmark's
/// native answer (per-agent lists, decision logs, step lines, action strings, tool-call
/// turns: whatever the benchmark's agents write), which needs `instance`. `reference` is a solution
/// file the benchmark may compare with by its own rules (see [`benchmarks::VerifiedAnswer::compared`]).
/// `path` names the plan in errors.
pub fn verify_plan(
    path: &Path,
    text: &str,
    instance: Option<&Instance>,
    reference: Option<&Path>,
) -> Result<VerifiedPlan, LoadError> {
    // A simulated world's native answer may be a JSON object too (per-agent action lists):
    // without a format tag it is that, not a plan file.
    let world_answer = instance.is_some_and(|i| benchmarks::simulated_of(i).is_some())
        && serde_json::from_str::<serde_json::Value>(text)
            .map_or(true, |v| v.get("format").is_none());
    if text.trim_start().starts_with('{') && !world_answer {
        let resolved = verify::plan::read_plan(path, text)?.resolve(instance.cloned())?;
        let report = verify(&resolved.instance, &resolved.schedule);
        return Ok(VerifiedPlan {
            instance: resolved.instance,
            benchmark: None,
            answer: benchmarks::VerifiedAnswer::plain(resolved.schedule, report),
        });
    }
    let answer = benchmarks::Answer {
        path,
        text,
        instance,
        reference,
    };
    let (benchmark, verified) = benchmarks::verify_answer(&answer)?;
    let instance = instance.cloned().ok_or_else(|| {
        let needs = format!(
            "a native answer needs its instance ({})",
            setting::Setting::Instance
        );
        LoadError::usage(path, needs)
    })?;
    Ok(VerifiedPlan {
        instance,
        benchmark: Some(benchmark),
        answer: verified,
    })
}

/// Explains a verified plan (any form [`verify_plan`] reads): its schedule as written, its
/// violations on the timeline, the critical chain, unforced waits and agents' time, and the
/// time lost against `reference` (a solution of the same instance; the caller checks that it
/// is) when given. See [`mod@explain`] for the definitions. A simulated world's plan is
/// explained as its [`Drawing`] (its numbered steps as activities); its lost time against a reference
/// is not split by activity, since two plans of a world share no activities: the explanation
/// sets each agent's time in the reference beside the plan's instead
/// ([`explain::Explanation::against`]).
pub fn explain_plan(
    checked: &VerifiedPlan,
    reference: Option<&Solution>,
) -> Result<explain::Explanation, explain::ExplainError> {
    let drawing = Drawing::new(
        &checked.instance,
        &checked.answer.schedule,
        reference.map(|s| s.schedule.as_slice()),
    );
    let as_reference = |s: &Solution, schedule| explain::Reference {
        schedule,
        makespan: s
            .makespan
            .unwrap_or_else(|| schedule::makespan(&s.schedule)),
        optimal: s.status == Status::Optimal,
    };
    let shared = reference
        .filter(|_| drawing.comparable)
        .map(|s| as_reference(s, &s.schedule));
    let mut explanation = explain::explain(
        &drawing.instance,
        &drawing.schedule,
        &checked.answer.report.violations,
        shared,
    )?;
    if let (Some(s), Some(drawn), false) = (reference, &drawing.reference, drawing.comparable) {
        explanation.compare_unshared(&drawing.instance, as_reference(s, drawn));
    }
    Ok(explanation)
}

/// The README's Rust examples, compiled and run as doctests so the front door cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The Rust examples of `docs/library.md` (using the crate from Rust), run the same way.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct LibraryDocDoctests;
