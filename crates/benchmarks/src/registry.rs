//! The one list of benchmarks, and lookups over it. Nothing else: what a benchmark is and
//! can do is [`Benchmark`] and its powers; this file names every benchmark so that no other
//! file needs to. Adding one is a folder and a line in [`registry`].

use std::path::Path;

use makespan_model::instance::Instance;

use crate::baseline::Baseline;
use crate::lookup::Checkout;
use crate::options::Knob;
use crate::Benchmark;

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

/// The benchmark whose checkout a folder is, if one recognises it (imported whole, not
/// walked), with that power.
pub(crate) fn checkout_of(dir: &Path) -> Option<(&'static dyn Benchmark, &'static dyn Checkout)> {
    registry()
        .iter()
        .filter_map(|&b| Some((b, b.checkout()?)))
        .find(|(_, c)| c.recognises(dir))
}

/// Every benchmark's own baseline.
pub fn baselines() -> impl Iterator<Item = &'static Baseline> {
    registry().iter().filter_map(|b| b.baseline())
}

/// Every benchmark's own import options, in the registry's order.
pub fn knobs() -> impl Iterator<Item = &'static Knob> {
    registry().iter().flat_map(|b| b.knobs())
}

/// The import option called `name`.
pub fn knob(name: &str) -> Option<&'static Knob> {
    knobs().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::{verify_answer, Answer};

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
    fn knobs_have_unique_names_that_are_not_common_flags() {
        let names: Vec<&str> = knobs().map(|k| k.name).collect();
        for (k, name) in names.iter().enumerate() {
            assert!(!names[..k].contains(name), "{name} twice");
            assert!(
                !["agents", "out", "data", "instance"].contains(name),
                "{name}"
            );
        }
    }

    #[test]
    fn baselines_have_unique_names_and_their_benchmark_lists_its_files() {
        let names: Vec<&str> = baselines().map(|b| b.name).collect();
        assert!(names.contains(&"timearena-greedy"), "{names:?}");
        for (k, name) in names.iter().enumerate() {
            assert!(!names[..k].contains(name), "{name} twice");
        }
        for b in registry() {
            if b.lookup().is_some() {
                assert!(b.files().is_some(), "{}", b.name());
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
        let err = verify_answer(&answer).unwrap_err().to_string();
        assert!(
            err.starts_with("answer.json: a native answer does not name its instance"),
            "{err}"
        );
    }

    /// An empty file or `[]` was answered "does not name its instance".
    #[test]
    fn an_empty_plan_is_called_empty() {
        for text in ["", " \n", "[]", "[[], []]"] {
            let answer = Answer {
                path: Path::new("answer.json"),
                text,
                instance: None,
                reference: None,
            };
            let err = verify_answer(&answer).unwrap_err().to_string();
            assert!(
                err.starts_with("answer.json: the plan is empty"),
                "{text:?}: {err}"
            );
        }
    }
}
