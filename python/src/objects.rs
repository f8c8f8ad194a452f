//! The Python classes: `Instance`, `Solution`, `Report`, `Violation`, `RunReport`,
//! `Explanation` and `ProofCheck`, each a frozen wrapper around the library's value. All of
//! them have a readable `repr`, equality, `to_dict`/`to_json`/`from_json` in the library's
//! JSON forms, and pickle through that JSON (so they cross process boundaries, e.g. to Dask
//! workers). `Explanation` is the one exception: the library only writes it, so it has
//! `to_dict`/`to_json` but no `from_json`, pickling or equality.
//!
//! Those methods are the same in every class but for their docstrings and how `from_json`
//! reads the value, so one macro, `pymethods_with_json!`, writes them: each class is its
//! `#[pyclass]` struct (equality is PyO3's `eq` over the value's `PartialEq`), then one
//! `pymethods_with_json!` with the docstrings, the reader and the class's own methods.

use std::path::Path;

use pyo3::prelude::*;
use serde::{Deserialize, Serialize};

use makespan::certificate::ProofKind;
use makespan::instance::{content_hash, parse_instance, problem_hash};
use makespan::verify::Comparison;
use makespan_certify_check::Certified;

use crate::convert::to_python;
use crate::errors;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Instance>()?;
    m.add_class::<Solution>()?;
    m.add_class::<Report>()?;
    m.add_class::<Violation>()?;
    m.add_class::<RunReport>()?;
    m.add_class::<Explanation>()?;
    m.add_class::<ProofCheck>()?;
    Ok(())
}

/// A solution's status as the package's `Status` enum (a `str` too).
fn status(py: Python<'_>, status: makespan::Status) -> PyResult<Bound<'_, PyAny>> {
    py.import("makespan._status")?
        .getattr("Status")?
        .call1((status.to_string(),))
}

/// The `to_pandas()` table `function` of `makespan._pandas` makes of `value` (pandas is
/// imported there, only when asked for).
fn frame<'py, T: pyo3::PyClass>(
    value: &Bound<'py, T>,
    function: &str,
    table: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let module = value.py().import("makespan._pandas")?;
    match table {
        Some(table) => module.call_method1(function, (value, table)),
        None => module.call_method1(function, (value,)),
    }
}

/// `json.dumps`-style text of a library value, pretty with `indent`.
fn json(value: &impl Serialize, indent: Option<usize>) -> PyResult<String> {
    let text = match indent {
        None => serde_json::to_string(value),
        Some(width) => {
            let indent = " ".repeat(width);
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            value
                .serialize(&mut ser)
                .map(|()| String::from_utf8(out).expect("serde_json writes UTF-8"))
        }
    };
    text.map_err(|e| errors::usage(format!("cannot write JSON: {e}")))
}

/// Where `from_json` text came from, for error messages.
const FROM_JSON: &str = "<from_json>";

fn parse<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(text)
        .map_err(|e| errors::ReadError::new_err(format!("{FROM_JSON}: not a makespan {what}: {e}")))
}

/// A string as Python writes it in a `repr`: single quotes, backslashes and quotes escaped.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

fn optional(value: Option<impl std::fmt::Display>) -> String {
    value.map_or_else(|| "None".into(), |v| v.to_string())
}

/// The `#[pymethods]` block of a wrapper class `Class(pub Value)`, `Value` serde's: the
/// class's own methods as written in `impl Class { … }`, and the JSON methods every class
/// shares, each with the docstring written above its name:
///
/// - `fn to_dict;`: `to_dict()`, the value as plain Python objects (`json.loads` of it);
/// - `fn to_json;`: `to_json(indent=None)`, the value as JSON text, pretty with `indent`;
/// - `fn from_json(text) = READ;`, where a class can be read back: the static
///   `from_json(text)`, `READ` giving the `PyResult` of the value from the `&str` `text`,
///   and `__reduce__`, which pickles an object as `(Class.from_json, (obj.to_json(),))`.
///
/// A macro around the whole block, as PyO3 allows one `#[pymethods]` block a class (more
/// need its `multiple-pymethods` feature and the `inventory` crate) and rejects macro calls
/// inside one. rustfmt leaves a macro's body as written: keep the own methods in its shape.
macro_rules! pymethods_with_json {
    (
        $(#[$to_dict:meta])* fn to_dict;
        $(#[$to_json:meta])* fn to_json;
        $($(#[$from_json:meta])* fn from_json($text:ident) = $read:expr;)?

        impl $class:ident { $($own:tt)* }
    ) => {
        #[pymethods]
        impl $class {
            $($own)*

            $(#[$to_dict])*
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_python(py, &self.0)
            }

            $(#[$to_json])*
            #[pyo3(signature = (indent=None))]
            fn to_json(&self, indent: Option<usize>) -> PyResult<String> {
                json(&self.0, indent)
            }

            $(
                $(#[$from_json])*
                #[staticmethod]
                fn from_json($text: &str) -> PyResult<$class> {
                    $read.map($class)
                }

                // `(Class.from_json, (json,))`: what `pickle` calls to rebuild the object. (A
                // doc comment would be Python's `__reduce__.__doc__`, which is `None`.)
                fn __reduce__<'py>(
                    &self,
                    py: Python<'py>,
                ) -> PyResult<(Bound<'py, PyAny>, (String,))> {
                    let from_json = py.get_type::<$class>().getattr("from_json")?;
                    Ok((from_json, (self.to_json(None)?,)))
                }
            )?
        }
    };
}

/// One scheduling problem (`makespan-instance/1`): activities, agents, resources and rules.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct Instance(pub makespan::Instance);

pymethods_with_json! {
    /// The instance as a dict in the ``makespan-instance/1`` form.
    fn to_dict;
    /// The instance as ``makespan-instance/1`` JSON text (pretty with ``indent``).
    fn to_json;
    /// Reads ``makespan-instance/1`` JSON text and validates it.
    ///
    /// Raises ``ReadError`` for text that is not an instance and ``InvalidInstanceError``
    /// for one that breaks the model's rules.
    fn from_json(text) = parse_instance(Path::new(FROM_JSON), text).map_err(errors::load);

    impl Instance {
        /// The instance's name, e.g. ``paracook-burger-seed_42-orders_num_4-2agents``.
        #[getter]
        fn name(&self) -> &str {
            &self.0.name
        }

        /// The number of agents, or ``None`` for unlimited agents.
        #[getter]
        fn agents(&self) -> Option<u32> {
            self.0.agents
        }

        /// The time unit: ``"second"``, ``"minute"`` or ``"step"``.
        #[getter]
        fn time_unit(&self) -> String {
            self.0.time_unit.to_string()
        }

        /// The ids of the activities, in the instance's order.
        #[getter]
        fn activities(&self) -> Vec<String> {
            self.0.activities.iter().map(|a| a.id.clone()).collect()
        }

        /// ``sha256:…`` of the instance's canonical JSON, as solution files record it.
        #[getter]
        fn hash(&self) -> String {
            content_hash(&self.0)
        }

        /// ``sha256:…`` of the problem: ``hash`` without the file the instance was read
        /// from, so one problem read through two paths has one. ``check_proof`` results name
        /// it.
        #[getter]
        fn problem_hash(&self) -> String {
            problem_hash(&self.0)
        }

        fn __repr__(&self) -> String {
            format!(
                "Instance({}, agents={}, activities={})",
                quoted(&self.0.name),
                optional(self.0.agents),
                self.0.activities.len()
            )
        }
    }
}

/// The result of solving an instance: ``status`` (``optimal``, ``feasible``, ``infeasible``,
/// ``error``, or ``invalid`` for a baseline's schedule), ``makespan``, the proven
/// ``lower_bound`` and ``gap``, and the verified ``schedule``.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct Solution(pub makespan::Solution);

pymethods_with_json! {
    /// The solution as a dict in the ``makespan-solution/1`` form.
    fn to_dict;
    /// The solution as ``makespan-solution/1`` JSON text, as ``makespan solve`` writes it.
    fn to_json;
    /// Reads ``makespan-solution/1`` JSON text (a solution file's content).
    fn from_json(text) =
        makespan::Solution::parse(Path::new(FROM_JSON), text).map_err(errors::load);

    impl Solution {
        /// ``Status.OPTIMAL`` only when a lower bound meets the schedule; else
        /// ``FEASIBLE``, ``INFEASIBLE``, ``ERROR`` (see ``reason``) or ``INVALID``. A
        /// ``Status`` is also its string: ``sol.status == "optimal"``.
        #[getter]
        fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            status(py, self.0.status)
        }

        /// The schedule's makespan, or ``None`` when there is no schedule.
        #[getter]
        fn makespan(&self) -> Option<i64> {
            self.0.makespan
        }

        /// The proven lower bound on every schedule's makespan.
        #[getter]
        fn lower_bound(&self) -> Option<i64> {
            self.0.lower_bound
        }

        /// ``(makespan − lower_bound) / makespan``: 0 when optimal.
        #[getter]
        fn gap(&self) -> Option<f64> {
            self.0.gap
        }

        /// Why the solution is not optimal, or why there is none.
        #[getter]
        fn reason(&self) -> Option<&str> {
            self.0.reason.as_deref()
        }

        /// The method that produced the schedule, e.g. ``heuristic:lft`` or ``milp``.
        #[getter]
        fn method(&self) -> &str {
            &self.0.method
        }

        /// Wall-clock seconds of the solve.
        #[getter]
        fn seconds(&self) -> f64 {
            self.0.seconds
        }

        /// The record of its certificate, ``{"kind": "bound" | "drcp", "file": …}`` (the
        /// file relative to the solution file's folder), or ``None``: see ``certify``.
        #[getter]
        fn certificate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.certificate)
        }

        /// The solved instance.
        #[getter]
        fn instance(&self) -> Instance {
            Instance(self.0.instance.instance.clone())
        }

        /// Per activity: ``{"activity", "agent", "pieces": [[start, end], …]}``.
        #[getter]
        fn schedule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.schedule)
        }

        /// The schedule as the benchmark's own answer (ParaCook's per-agent lists, TimeArena's
        /// decisions, Recipe2Plan's ``Step(…)`` lines, Robotouille's actions), or ``None`` where
        /// the benchmark has no answer form or there is no schedule.
        fn native_answer(&self) -> Option<String> {
            if self.0.schedule.is_empty() {
                return None;
            }
            makespan::benchmarks::export_native(&self.0.instance.instance, &self.0.schedule)
                .map(|answer| answer.text)
        }

        /// The schedule as a ``pandas.DataFrame``, one row per piece: ``activity``,
        /// ``agent``, ``start``, ``end``. Raises ``ImportError`` without pandas.
        fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            frame(slf, "schedule_frame", None)
        }

        fn __repr__(&self) -> String {
            format!(
                "Solution({}, status={}, makespan={}, lower_bound={})",
                quoted(&self.0.instance.name),
                quoted(&self.0.status.to_string()),
                optional(self.0.makespan),
                optional(self.0.lower_bound)
            )
        }
    }
}

/// What the verifier says about a plan, with the comparison to a reference solution and
/// the benchmark's own metrics, in one serialisable value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub report: makespan::Report,
    pub comparison: Option<Comparison>,
    pub benchmark: Option<String>,
    pub metrics: Option<serde_json::Value>,
}

/// The verifier's verdict on a plan: ``valid``, every ``violation``, the plan's
/// ``makespan`` and, given a reference solution, ``ratio`` and ``lost_time``.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct Report(pub Verdict);

pymethods_with_json! {
    /// ``{"report", "comparison", "benchmark", "metrics"}``.
    fn to_dict;
    /// The report as JSON text (the ``to_dict`` form).
    fn to_json;
    /// Reads the ``to_json`` form back.
    fn from_json(text) = parse(text, "report");

    impl Report {
        /// Whether the plan breaks no rule.
        #[getter]
        fn valid(&self) -> bool {
            self.0.report.valid
        }

        /// Every violated rule (never just the first).
        #[getter]
        fn violations(&self) -> Vec<Violation> {
            self.0
                .report
                .violations
                .iter()
                .cloned()
                .map(Violation)
                .collect()
        }

        /// The plan's makespan (meaningful when ``valid``).
        #[getter]
        fn makespan(&self) -> Option<i64> {
            self.0.report.makespan
        }

        /// The name of the instance the plan was checked against.
        #[getter]
        fn instance(&self) -> &str {
            &self.0.report.instance
        }

        /// Agent time not spent working before the makespan (limited agents only).
        #[getter]
        fn agent_idle_time(&self) -> Option<i64> {
            self.0.report.agent_idle_time
        }

        /// The most agents busy at one instant.
        #[getter]
        fn peak_agents(&self) -> u32 {
            self.0.report.peak_agents
        }

        /// The reference solution's makespan (the optimum when it was proven optimal).
        #[getter]
        fn optimum(&self) -> Option<i64> {
            self.0.comparison.as_ref().map(|c| c.optimum)
        }

        /// ``makespan / optimum`` for a valid plan given a reference solution, else ``None``.
        #[getter]
        fn ratio(&self) -> Option<f64> {
            self.0.comparison.as_ref().and_then(|c| c.ratio)
        }

        /// ``makespan − optimum`` for a valid plan given a reference solution, else ``None``.
        #[getter]
        fn lost_time(&self) -> Option<i64> {
            self.0.comparison.as_ref().and_then(|c| c.lost_time)
        }

        /// The benchmark whose native answer the plan was (``"paracook"``, …), ``None`` for a
        /// unified plan or a solution.
        #[getter]
        fn benchmark(&self) -> Option<&str> {
            self.0.benchmark.as_deref()
        }

        /// The benchmark's own metrics of the answer where it has them (TimeArena's progress
        /// score, Recipe2Plan's efficiencies, …), as ``makespan verify --json`` prints them.
        #[getter]
        fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.metrics)
        }

        /// The CLI's text: one line per violation, then the summary.
        fn __str__(&self) -> String {
            self.0.report.render_text()
        }

        fn __repr__(&self) -> String {
            format!(
                "Report({}, valid={}, makespan={}, violations={}, ratio={})",
                quoted(&self.0.report.instance),
                if self.0.report.valid { "True" } else { "False" },
                optional(self.0.report.makespan),
                self.0.report.violations.len(),
                optional(self.0.comparison.as_ref().and_then(|c| c.ratio))
            )
        }
    }
}

/// One broken rule: its ``rule`` name, the ``activities`` involved, the ``time``, a
/// ``message`` and a ``fix``.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct Violation(pub makespan::Violation);

pymethods_with_json! {
    /// ``{"rule", "activities", "time", "message", "hint"}``.
    fn to_dict;
    /// The violation as JSON text (the ``to_dict`` form).
    fn to_json;
    /// Reads the ``to_json`` form back.
    fn from_json(text) = parse(text, "violation");

    impl Violation {
        /// The rule's stable snake_case name, e.g. ``precedence_violated``.
        #[getter]
        fn rule(&self) -> &'static str {
            self.0.rule.name()
        }

        /// The activities involved.
        #[getter]
        fn activities(&self) -> Vec<String> {
            self.0.activities.clone()
        }

        /// When it happens, if at one time.
        #[getter]
        fn time(&self) -> Option<i64> {
            self.0.time
        }

        /// What is wrong.
        #[getter]
        fn message(&self) -> &str {
            &self.0.message
        }

        /// How to repair it.
        #[getter]
        fn fix(&self) -> &str {
            &self.0.hint
        }

        /// The CLI's line for it: ``rule [activities] at time: message Fix: fix``.
        fn __str__(&self) -> String {
            self.0.to_string()
        }

        fn __repr__(&self) -> String {
            format!(
                "Violation({}, activities=[{}], time={})",
                quoted(self.0.rule.name()),
                self.0
                    .activities
                    .iter()
                    .map(|a| quoted(a))
                    .collect::<Vec<_>>()
                    .join(", "),
                optional(self.0.time)
            )
        }
    }
}

/// A whole run scored (``makespan score``): one row per answer, the benchmark's headline
/// metrics original and corrected, and the answers whose two verdicts differ.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct RunReport(pub makespan::score::RunReport);

pymethods_with_json! {
    /// The report as ``makespan score --json`` writes it (``makespan-run-report/1``).
    fn to_dict;
    /// The report as JSON text (the ``to_dict`` form).
    fn to_json;
    /// Reads the ``to_json`` form (or ``makespan score --json`` output) back.
    fn from_json(text) = parse(text, "run report");

    impl RunReport {
        /// The benchmark whose harness wrote the run (``"paracook"``, ``"timearena"``, …).
        #[getter]
        fn benchmark(&self) -> &str {
            &self.0.benchmark
        }

        /// The run as given: a results file or a folder.
        #[getter]
        fn run(&self) -> &str {
            &self.0.run
        }

        /// The root of the benchmark checkout the instances were read from.
        #[getter]
        fn data(&self) -> &str {
            &self.0.data
        }

        /// What a row's ``original_score`` and ``corrected_score`` measure (``"time"``, …).
        #[getter]
        fn score_name(&self) -> &str {
            &self.0.score_name
        }

        /// One dict per answer: ``key``, ``instance``, ``valid``, ``violations`` (counts by
        /// rule), ``makespan``, ``optimum``, ``proven``, ``ratio``, ``original_valid``,
        /// ``original_score``, ``corrected_score``, ``notes`` and ``error``.
        #[getter]
        fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.rows)
        }

        /// The benchmark's headline metrics over the run, original and corrected.
        #[getter]
        fn headline<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.headline)
        }

        /// The answers whose original and strict verdicts differ: ``key``, ``original_valid``,
        /// ``valid`` and the ``reason``.
        #[getter]
        fn differences<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.differences)
        }

        /// How many rows could not be scored (each has an ``error``).
        #[getter]
        fn unscored(&self) -> usize {
            self.0.unscored()
        }

        /// How many scored answers break a rule.
        #[getter]
        fn invalid(&self) -> usize {
            self.0.invalid()
        }

        /// The rows as a ``pandas.DataFrame``, one per answer. Raises ``ImportError``
        /// without pandas.
        fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            frame(slf, "run_frame", None)
        }

        /// The CLI's text: the table of answers, the headline and the differences.
        fn __str__(&self) -> String {
            makespan::score::render_text(&self.0)
        }

        fn __repr__(&self) -> String {
            format!(
                "RunReport({}, benchmark={}, rows={}, invalid={}, unscored={}, differences={})",
                quoted(&self.0.run),
                quoted(&self.0.benchmark),
                self.0.rows.len(),
                self.0.invalid(),
                self.0.unscored(),
                self.0.differences.len()
            )
        }
    }
}

/// Why a plan took as long as it did (``makespan explain``): the critical chain, the
/// unforced waits, each agent's time and, given a reference solution, the lost time.
#[pyclass(module = "makespan", frozen)]
pub struct Explanation(pub makespan::explain::Explanation);

pymethods_with_json! {
    /// The explanation as ``makespan explain --json`` prints it.
    fn to_dict;
    /// The explanation as JSON text (the ``to_dict`` form).
    fn to_json;

    impl Explanation {
        /// The instance's name.
        #[getter]
        fn instance(&self) -> &str {
            &self.0.instance
        }

        /// The plan's makespan: the latest end of any placed activity.
        #[getter]
        fn makespan(&self) -> i64 {
            self.0.makespan
        }

        /// Whether the plan breaks no rule.
        #[getter]
        fn valid(&self) -> bool {
            self.0.valid
        }

        /// The violations, in time order.
        #[getter]
        fn violations(&self) -> Vec<Violation> {
            self.0.violations.iter().cloned().map(Violation).collect()
        }

        /// The critical chain from 0 to the makespan, in time order: one dict per step.
        #[getter]
        fn chain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.chain)
        }

        /// Every unforced wait (an activity that could have started earlier with everything
        /// else unchanged), in time order.
        #[getter]
        fn waits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.waits)
        }

        /// Each agent's busy time, idle time with nothing ready and idle time with work ready
        /// (empty with unlimited agents).
        #[getter]
        fn agents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.agents)
        }

        /// Every placed activity: its place, earliest start, wait and the rules that hold it.
        #[getter]
        fn activities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.activities)
        }

        /// The time lost against the reference solution (``lost``), split into unforced
        /// ``waits``, ``ordering`` choices and the ``rest``; ``None``
        /// without one.
        #[getter]
        fn lost<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.lost)
        }

        /// Against a reference that shares no steps with the plan (a simulated kitchen's
        /// two plans): the ``reference`` makespan, whether it is ``optimal``, the ``lost``
        /// time and the reference's ``agents`` beside the plan's; ``None`` otherwise.
        #[getter]
        fn against<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_python(py, &self.0.against)
        }

        /// One of the tables as a ``pandas.DataFrame``: ``"activities"`` (one row per
        /// placed activity), ``"chain"``, ``"waits"`` or ``"agents"``. Raises
        /// ``ImportError`` without pandas.
        #[pyo3(signature = (table="activities"))]
        fn to_pandas<'py>(slf: &Bound<'py, Self>, table: &str) -> PyResult<Bound<'py, PyAny>> {
            frame(slf, "explanation_frame", Some(table))
        }

        /// The CLI's text (``makespan explain``).
        fn __str__(&self) -> String {
            self.0.render_text()
        }

        fn __repr__(&self) -> String {
            format!(
                "Explanation({}, valid={}, makespan={}, chain={}, waits={}, lost={})",
                quoted(&self.0.instance),
                if self.0.valid { "True" } else { "False" },
                self.0.makespan,
                self.0.chain.len(),
                self.0.waits.len(),
                optional(self.0.lost.as_ref().map(|l| l.lost))
            )
        }
    }
}

/// What `check_proof` found, in one serialisable value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProofVerdict {
    /// The solution file, or the instance's name for a `Solution` object.
    pub solution: String,
    /// The name of the instance the solution carries.
    #[serde(default)]
    pub instance: Option<String>,
    /// The problem hash of that instance (`sha256:…`, as `makespan check-proof` prints it):
    /// what to compare with the instance the claim should be about.
    #[serde(default)]
    pub problem_hash: Option<String>,
    /// The certificate proves the bound and the schedule breaks no rule.
    pub certified: bool,
    /// The kind proven, or for a rejected certificate the kind the solution records.
    pub kind: Option<ProofKind>,
    /// The bound proven, when certified.
    pub bound: Option<i64>,
    /// The grid the proof needs the pieces of split activities on, if any.
    #[serde(default)]
    pub grid: Option<i64>,
    /// The checker's message, when not certified.
    pub reason: Option<String>,
    /// Time of the check.
    pub seconds: f64,
}

/// The re-check of a solution's certificate (``check_proof``): ``certified``, the
/// ``kind`` of proof and the ``bound`` it proves, or the ``reason`` it does not.
#[pyclass(module = "makespan", frozen, eq)]
#[derive(PartialEq)]
pub struct ProofCheck(pub ProofVerdict);

pymethods_with_json! {
    /// ``{"solution", "instance", "problem_hash", "certified", "kind", "bound", "grid",
    /// "reason", "seconds"}``.
    fn to_dict;
    /// The check as JSON text (the ``to_dict`` form).
    fn to_json;
    /// Reads the ``to_json`` form back.
    fn from_json(text) = parse(text, "proof check");

    impl ProofCheck {
        /// The solution file checked, or the instance's name for a ``Solution`` object.
        #[getter]
        fn solution(&self) -> &str {
            &self.0.solution
        }

        /// The name of the instance the solution carries.
        #[getter]
        fn instance(&self) -> Option<&str> {
            self.0.instance.as_deref()
        }

        /// ``sha256:…``, the problem hash of the instance the solution carries (as
        /// ``makespan check-proof`` prints it; ``Instance.problem_hash`` of the instance the
        /// claim should be about must equal it). ``check_proof(instance=)`` compares them.
        #[getter]
        fn problem_hash(&self) -> Option<&str> {
            self.0.problem_hash.as_deref()
        }

        /// Whether the certificate proves the solution's makespan a lower bound, and the
        /// schedule breaks no rule.
        #[getter]
        fn certified(&self) -> bool {
            self.0.certified
        }

        /// ``"bound"`` (a critical path or a load) or ``"drcp"`` (a search proof); for a
        /// rejected certificate the kind the solution records; ``None`` without a record.
        #[getter]
        fn kind(&self) -> Option<&'static str> {
            self.0.kind.map(kind_name)
        }

        /// The lower bound proven (the makespan) when ``certified``, else ``None``.
        #[getter]
        fn bound(&self) -> Option<i64> {
            self.0.bound
        }

        /// ``g`` when the proof holds for the schedules whose split activities' pieces lie on
        /// the grid of ``g`` time units (Recipe2Plan's exact model), ``None`` when it holds for
        /// every schedule or is not certified.
        #[getter]
        fn grid(&self) -> Option<i64> {
            self.0.grid
        }

        /// Why it is not certified (the certificate missing, unreadable or rejected, and
        /// where), as ``makespan check-proof`` prints it; ``None`` when ``certified``.
        #[getter]
        fn reason(&self) -> Option<&str> {
            self.0.reason.as_deref()
        }

        /// Wall-clock seconds of the check (the schedule and the proof).
        #[getter]
        fn seconds(&self) -> f64 {
            self.0.seconds
        }

        /// The CLI's line: ``FILE: certified (makespan M proven optimal by a K proof,
        /// instance NAME HASH, T ms)`` or ``FILE: not certified: REASON``.
        fn __str__(&self) -> String {
            let v = &self.0;
            let instance = match (&v.instance, &v.problem_hash) {
                (Some(name), Some(hash)) => format!(", instance {name} {hash}"),
                _ => String::new(),
            };
            match (&v.reason, v.bound, v.kind) {
                (None, Some(bound), Some(kind)) => format!(
                    "{}: certified ({}{instance}, {:.1} ms)",
                    v.solution,
                    Certified {
                        kind,
                        bound,
                        grid: v.grid
                    },
                    v.seconds * 1000.0
                ),
                (reason, _, _) => format!(
                    "{}: not certified: {}",
                    v.solution,
                    reason.as_deref().unwrap_or("no reason recorded")
                ),
            }
        }

        fn __repr__(&self) -> String {
            format!(
                "ProofCheck({}, certified={}, kind={}, bound={})",
                quoted(&self.0.solution),
                if self.0.certified { "True" } else { "False" },
                self.0
                    .kind
                    .map_or_else(|| "None".into(), |k| quoted(kind_name(k))),
                optional(self.0.bound)
            )
        }
    }
}

/// The kind's name in the certificate and solution files.
fn kind_name(kind: ProofKind) -> &'static str {
    match kind {
        ProofKind::Bound => "bound",
        ProofKind::Drcp => "drcp",
    }
}
