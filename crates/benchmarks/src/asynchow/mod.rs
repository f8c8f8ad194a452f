//! AsyncHow (Lin et al., ICML 2024): "how to" tasks whose steps have durations and
//! precedences, asked with unlimited agents, so the answer is the critical path.
//!
//! Two readers, one translation: the upstream pickles (`<split>_benchmark.pkl`,
//! [`import_pickle`]) and the project's normalised `instances.json` ([`import_json`]) both
//! become one internal task, and a single function turns a task into instances. That is
//! what makes an instance read from either file equal (apart from `source.file`), which
//! the batch runner relies on to drop duplicates.
//!
//! Instances of task `<id>` (e.g. `async-0163`): `asynchow-<id>` with the `hi` durations
//! and unlimited agents (the benchmark's question); `asynchow-<id>-lo` with the `lo`
//! durations where a month or year makes them differ; and `-m<k>` variants of both for
//! each requested agent count. Activity ids are the step numbers, labels the step texts,
//! and the time unit is the second.
//!
//! Durations are read from the duration *text* by our own parser (every component summed;
//! months and years as [lo, hi] intervals), never from upstream's parsed values, because
//! upstream misread compound texts. `source.notes` holds `id`, `split`, `index`, `title`,
//! `duration_end` (`"hi"`/`"lo"`), the benchmark's gold (`gold_seconds_lo`/`_hi`) and
//! what we find wrong with the upstream data: `upstream_misread_steps`, `gold_error`,
//! `plan_type_error` (found by computation, see the `upstream` module).

mod duration;
mod json;
mod nesting;
mod pickle;
mod unpickle;
mod upstream;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{agent_counts, ImportOptions};
use makespan_model::instance::{Activity, Instance, Precedence, Source, TimeUnit};

pub use duration::{parse_duration_text, upstream_duration_reading};
pub use json::import_json;
pub use pickle::import_pickle;

/// `source.benchmark` of every AsyncHow instance.
pub const BENCHMARK: &str = "asynchow";

/// `source.notes` of an instance.
type Notes = BTreeMap<String, Value>;

/// One benchmark task, as either reader delivers it, already checked.
struct Task {
    /// `<split>-<index:04>`, e.g. `async-0163`.
    id: String,
    split: String,
    index: usize,
    title: String,
    /// Step `k` (1-based, as in the benchmark) is `steps[k - 1]`.
    steps: Vec<Step>,
    /// `(before, after)` step numbers, each in `1..=steps.len()`.
    edges: Vec<(usize, usize)>,
    /// The benchmark's gold answer `[lo, hi]` in seconds, when the file has one.
    gold: Option<(i64, i64)>,
}

/// One step with both readings of its duration text.
struct Step {
    text: String,
    duration_text: String,
    /// `(lo, hi)` seconds, every component summed: what the prompt means.
    full: (i64, i64),
    /// `(lo, hi)` seconds as upstream read it (last component only): what its gold used.
    upstream: (i64, i64),
}

impl Step {
    /// Reads the duration text both ways; the error is the parser's, without a place.
    fn new(text: String, duration_text: String) -> Result<Step, String> {
        let full = parse_duration_text(&duration_text)?;
        let upstream = upstream_duration_reading(&duration_text)?;
        Ok(Step {
            text,
            duration_text,
            full,
            upstream,
        })
    }
}

/// Checks that an edge joins two existing steps.
fn check_edge((before, after): (usize, usize), steps: usize) -> Result<(), String> {
    for step in [before, after] {
        if step == 0 || step > steps {
            return Err(format!(
                "step {step} does not exist; this task's steps are numbered 1 to {steps}"
            ));
        }
    }
    Ok(())
}

/// The instances of one task: with `hi` durations, and also with `lo` durations when a
/// month or year makes them differ; each unlimited (the benchmark's question) and with
/// every requested agent count.
fn instances(task: &Task, file: &Path, opts: &ImportOptions) -> Vec<Instance> {
    let mut edges = task.edges.clone();
    edges.sort_unstable();
    edges.dedup();
    let precedences: Vec<Precedence> = edges
        .iter()
        .map(|&(a, b)| Precedence::finish_to_start(a.to_string(), b.to_string(), 0))
        .collect();
    let notes = upstream::notes(task, &edges);

    let mut ends = vec![("hi", "")];
    if task.steps.iter().any(|s| s.full.0 != s.full.1) {
        ends.push(("lo", "-lo"));
    }
    let limited = agent_counts(opts, &[]).into_iter().flatten().map(Some);
    let agent_variants: Vec<Option<u32>> = std::iter::once(None).chain(limited).collect();

    let mut out = Vec::new();
    for (end, end_suffix) in ends {
        let activities: Vec<Activity> = task
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let duration = if end == "lo" {
                    step.full.0
                } else {
                    step.full.1
                };
                let mut activity = Activity::new((i + 1).to_string(), duration);
                activity.label = Some(step.text.clone());
                activity
            })
            .collect();
        let mut notes = notes.clone();
        notes.insert("duration_end".to_string(), Value::from(end));
        for &agents in &agent_variants {
            let agents_suffix = agents.map(|m| format!("-m{m}")).unwrap_or_default();
            out.push(Instance {
                time_unit: TimeUnit::Second,
                activities: activities.clone(),
                precedences: precedences.clone(),
                source: Some(Source {
                    benchmark: BENCHMARK.to_string(),
                    file: Some(file.display().to_string()),
                    notes: notes.clone(),
                }),
                ..Instance::new(
                    format!("{BENCHMARK}-{}{end_suffix}{agents_suffix}", task.id),
                    agents,
                )
            });
        }
    }
    out
}

/// AsyncHow: its pickles and the normalised `instances.json`.
pub struct AsyncHow;

/// First byte of every pickle of protocol 2 or later (the `PROTO` opcode).
const PICKLE_PROTO: u8 = 0x80;
/// Its benchmark pickles.
const PICKLE: &str = "pickle";

impl crate::Benchmark for AsyncHow {
    fn name(&self) -> &'static str {
        BENCHMARK
    }

    /// A benchmark pickle (`<split>_benchmark.pkl`, protocol 2 to 5), or the normalised
    /// `instances.json` (an object with `instances`).
    fn detect(
        &self,
        probe: &crate::Probe<'_>,
    ) -> Option<Result<&'static str, makespan_model::instance::LoadError>> {
        let bytes = probe.bytes;
        if bytes.first() == Some(&PICKLE_PROTO) && bytes.get(1).is_some_and(|p| (2..=5).contains(p))
        {
            return Some(Ok(PICKLE));
        }
        if probe.has_extension("pkl") {
            return Some(Err(crate::detect::not_recognised(
                probe.path,
                "start of file",
                "the name ends in .pkl but the content is not a pickle of protocol 2 to 5",
            )));
        }
        probe
            .has_keys(&["instances"])
            .then_some(Ok("instances.json"))
    }

    fn files(&self) -> Option<&'static str> {
        Some("AsyncHow instances.json (JSON object with \"instances\"), an AsyncHow pickle (<split>_benchmark.pkl)")
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["pkl"]
    }

    fn import(
        &self,
        shape: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, makespan_model::instance::LoadError> {
        match shape {
            PICKLE => import_pickle(path, bytes, opts),
            _ => import_json(path, crate::utf8(path, bytes)?, opts),
        }
    }

    fn lookup(&self) -> Option<&dyn crate::Lookup> {
        Some(self)
    }
}

impl crate::Lookup for AsyncHow {
    fn data_file(&self) -> &'static str {
        "asynchow/instances.json"
    }

    /// The instance named `name` or `<benchmark>-<name>`, or the one variant of it the
    /// options leave.
    fn find(
        &self,
        path: &Path,
        name: &str,
        opts: &crate::ImportOptions,
    ) -> Result<Instance, makespan_model::instance::LoadError> {
        crate::lookup::find_by_name(BENCHMARK, path, name, opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn task(durations: &[&str], edges: &[(usize, usize)]) -> Task {
        Task {
            id: "async-0007".into(),
            split: "async".into(),
            index: 7,
            title: "How to test".into(),
            steps: durations
                .iter()
                .enumerate()
                .map(|(i, d)| Step::new(format!("step {}", i + 1), d.to_string()).unwrap())
                .collect(),
            edges: edges.to_vec(),
            gold: None,
        }
    }

    #[test]
    fn one_unlimited_instance_when_no_step_has_an_interval() {
        let t = task(&["30 min", "2 hours 30 minutes"], &[(1, 2), (1, 2)]);
        let insts = instances(&t, Path::new("i.json"), &ImportOptions::default());
        assert_eq!(insts.len(), 1);
        let inst = &insts[0];
        assert_eq!(inst.name, "asynchow-async-0007");
        assert_eq!(inst.agents, None);
        assert_eq!(inst.time_unit, TimeUnit::Second);
        assert_eq!(inst.activities[1].id, "2");
        assert_eq!(inst.activities[1].duration, 9_000);
        assert_eq!(inst.activities[1].label.as_deref(), Some("step 2"));
        assert_eq!(
            inst.precedences,
            vec![Precedence::finish_to_start("1", "2", 0)]
        );
        assert_eq!(inst.source.as_ref().unwrap().notes["duration_end"], "hi");
    }

    #[test]
    fn months_add_a_lo_variant_and_agent_counts_add_limited_ones() {
        let t = task(&["1 month", "1 day"], &[]);
        let opts = ImportOptions {
            agents: vec![Some(2), None, Some(2)],
            ..ImportOptions::default()
        };
        let insts = instances(&t, Path::new("i.json"), &opts);
        let names: Vec<&str> = insts.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "asynchow-async-0007",
                "asynchow-async-0007-m2",
                "asynchow-async-0007-lo",
                "asynchow-async-0007-lo-m2"
            ]
        );
        assert_eq!(insts[0].activities[0].duration, 31 * 86_400);
        assert_eq!(insts[2].activities[0].duration, 28 * 86_400);
        assert_eq!(insts[3].agents, Some(2));
        assert_eq!(
            insts[3].source.as_ref().unwrap().notes["duration_end"],
            "lo"
        );
    }

    #[test]
    fn edges_must_join_existing_steps() {
        assert!(check_edge((1, 3), 3).is_ok());
        let err = check_edge((0, 2), 3).unwrap_err();
        assert!(err.contains("step 0 does not exist"), "{err}");
        assert!(check_edge((2, 4), 3).unwrap_err().contains("1 to 3"));
    }
}
