//! The benchmarks' layer: everything makespan knows about a benchmark, one folder each, behind
//! a small core trait ([`Benchmark`]) and the powers it hands out. Each native format becomes
//! one or more unified [`Instance`]s; schedules go back out in a benchmark's own answer form;
//! native answers are verified and whole runs of its harness read. No other crate names a
//! benchmark.
//!
//! Importers only translate. Whatever a benchmark means (ParaCook's lags, AsyncHow's
//! unlimited agents and month intervals) is written into the instance, so solvers and the
//! verifier never ask where an instance came from. Facts an importer learns about the
//! benchmark's own data (its gold answer, known upstream errors) go into `source.notes`.
//!
//! One native file often holds several problems: a ParaCook task is solved for 1, 2 and 3
//! cooks, an AsyncHow file holds hundreds of tasks. [`import`] therefore returns a list.

#![warn(missing_docs)]

mod answers;
pub mod asynchow;
pub mod asynctool;
mod baseline;
mod benchmark;
mod classic;
mod detect;
pub mod generate;
pub mod harness;
pub mod jobshop;
pub mod kitchen;
mod line_fields;
mod lookup;
mod options;
pub mod paracook;
pub mod psplib;
pub mod rcpsp_max;
pub mod recipe2plan;
mod registry;
pub mod robotouille;
mod simulated;
pub mod timearena;
mod walk;

use std::path::Path;

use makespan_model::instance::{parse_instance, Instance, LoadError};

pub use answers::{
    export_native, reference_solution, unfinishable, verify_answer, Answer, Answers, NativeAnswer,
    NativeJson, VerifiedAnswer,
};
pub use baseline::{Baseline, BaselineFile, BaselinePlans};
pub use benchmark::{Benchmark, FixedAgents};
pub use detect::{detect, Format, Probe};
pub use lookup::{data_dir, load_instance, Checkout, Lookup};
pub use options::{parse_agents, ImportOptions, Knob, Knobs, MAX_INSTANCES_PER_FILE};
pub use registry::{baselines, benchmark, benchmark_of, knob, knobs, registry};
pub use simulated::{
    recheck, simulated_of, verify_schedule, Budget, BudgetVerdict, Limits, Simulated,
    WorldSolution, WORLD_NOTE,
};
pub use walk::{
    claimed_by_extension, input_files, input_files_outside, skipped_in_folder, Skipped,
};

/// A value that breaks a benchmark's rules (a time string, a level name, a note an importer
/// wrote into an instance), saying what is wrong and how to fix it. Importers place it in a
/// [`LoadError`] with the file and the position; on its own it is the whole message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadValue(pub String);

impl From<String> for BadValue {
    fn from(message: String) -> Self {
        BadValue(message)
    }
}

impl From<&str> for BadValue {
    fn from(message: &str) -> Self {
        BadValue(message.to_string())
    }
}

impl From<BadValue> for String {
    fn from(bad: BadValue) -> Self {
        bad.0
    }
}

/// Reads `path`, recognises its format by content and name ([`detect`]) and returns every
/// instance it describes, each validated. A folder that is a benchmark's checkout imported
/// whole (TimeArena's task modules) gives that benchmark's instances.
pub fn import(path: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let checkout = path.is_dir().then(|| registry::checkout_of(path)).flatten();
    let instances = match checkout {
        Some((benchmark, checkout)) => {
            check_agents(benchmark, path, opts)?;
            checkout.import(path, opts)?
        }
        None => import_file(path, opts)?,
    };
    // Importers that can multiply instances (TimeArena's combinations) count them before
    // building; this catches every other.
    options::check_instance_count(path, instances.len(), opts)?;
    // A safety net: an importer bug must surface here, not as a solver error later.
    for instance in &instances {
        instance.validate().map_err(|source| LoadError::Invalid {
            path: path.to_path_buf(),
            source,
        })?;
    }
    Ok(instances)
}

/// Every instance of one file, by the format [`detect`] recognises.
fn import_file(path: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let bytes = makespan_model::input::read_bytes(path)?;
    Ok(match detect(path, &bytes)? {
        Format::Unified => import_unified(path, utf8(path, &bytes)?, opts)?,
        Format::Native { benchmark, shape } => match registry::benchmark(benchmark) {
            Some(benchmark) => {
                check_agents(benchmark, path, opts)?;
                benchmark.import(shape, path, &bytes, opts)?
            }
            None => {
                return Err(LoadError::format(
                    path,
                    "top level",
                    format!("no benchmark named {benchmark} in the registry"),
                ))
            }
        },
    })
}

/// Agent counts a benchmark cannot use are refused with its reason
/// ([`Benchmark::fixed_agents`]), never ignored: solving the benchmark's own count under a
/// name that asked for another would be a wrong answer to the question asked. The count its
/// instances have (TimeArena's one agent) changes nothing and is accepted.
pub(crate) fn check_agents(
    benchmark: &dyn Benchmark,
    path: &Path,
    opts: &ImportOptions,
) -> Result<(), LoadError> {
    let Some(FixedAgents { count, why }) = benchmark.fixed_agents() else {
        return Ok(());
    };
    if opts.agents.iter().all(|&m| count.is_some() && m == count) {
        return Ok(());
    }
    let own = count.map_or(String::new(), |m| format!(", or give {m}"));
    Err(LoadError::usage(
        path,
        format!(
            "{why}, so agent counts do not apply: drop {}{own}",
            makespan_model::setting::Setting::Agents
        ),
    ))
}

/// A unified instance, once per requested agent count if any were requested.
fn import_unified(
    path: &Path,
    text: &str,
    opts: &ImportOptions,
) -> Result<Vec<Instance>, LoadError> {
    let instance = parse_instance(path, text)?;
    if opts.agents.is_empty() {
        return Ok(vec![instance]);
    }
    Ok(agent_counts(opts, &[])
        .into_iter()
        .map(|agents| Instance {
            name: format!("{}{}", instance.name, agents_suffix(agents)),
            agents,
            ..instance.clone()
        })
        .collect())
}

/// The requested agent counts in the order given, without repeats (which would produce
/// two instances of one name), or `default` when none were requested.
fn agent_counts(opts: &ImportOptions, default: &[Option<u32>]) -> Vec<Option<u32>> {
    let requested = if opts.agents.is_empty() {
        default
    } else {
        &opts.agents
    };
    let mut counts = Vec::new();
    for &agents in requested {
        if !counts.contains(&agents) {
            counts.push(agents);
        }
    }
    counts
}

/// Name suffix of an agent-count variant: `-m3`, or `-unlimited`.
fn agents_suffix(agents: Option<u32>) -> String {
    match agents {
        Some(m) => format!("-m{m}"),
        None => "-unlimited".to_string(),
    }
}

/// The file name without its extension, for instance names.
fn file_stem(path: &Path) -> String {
    path.file_stem().map_or_else(
        || "instance".to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The bytes as text; [`detect`] has already checked this for every text format, but the
/// importers take `&str` and must not panic if called on their own.
pub(crate) fn utf8<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, LoadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        LoadError::format(
            path,
            format!("byte {}", e.valid_up_to()),
            "the file is not UTF-8 text; save it as UTF-8",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_counts_default_only_when_none_requested_and_drop_repeats() {
        let none = ImportOptions::default();
        assert_eq!(
            agent_counts(&none, &[Some(1), Some(2)]),
            vec![Some(1), Some(2)]
        );
        let some = ImportOptions {
            agents: vec![Some(3), None, Some(3)],
            ..ImportOptions::default()
        };
        assert_eq!(agent_counts(&some, &[Some(1)]), vec![Some(3), None]);
    }

    #[test]
    fn suffixes_name_the_agent_count() {
        assert_eq!(agents_suffix(Some(2)), "-m2");
        assert_eq!(agents_suffix(None), "-unlimited");
    }
}
