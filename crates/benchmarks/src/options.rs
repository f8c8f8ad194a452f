//! What the caller wants from an import: agent counts and the cap on instances, which every
//! benchmark reads, and each benchmark's own options ([`Knob`]s: TimeArena's `combine` and
//! `constraint`, Recipe2Plan's `level`).
//!
//! A benchmark declares its knobs in its own folder ([`Benchmark::knobs`](crate::Benchmark::knobs))
//! and reads them back as its own typed options; the CLI makes each knob a flag of the
//! commands that import, Python a keyword of `load`, both through [`ImportOptions::set`],
//! which checks the values. So a new option touches its benchmark's folder and nothing else.
//! Values are kept as the text the user gave: one parse per knob, in the benchmark, and the
//! same error wherever the value came from.

use std::collections::BTreeMap;

use crate::BadValue;

/// A benchmark's own import option.
#[derive(Debug)]
pub struct Knob {
    /// Its name: the flag `--NAME` and Python's keyword `NAME`; unique over all benchmarks.
    pub name: &'static str,
    /// One line for `--help` and the Python docs.
    pub help: &'static str,
    /// The name of one value of a list (`N`, `LEVEL`), or `None` for a switch (on or off).
    pub value: Option<&'static str>,
    /// Why one value is not acceptable, if it is not (a switch's values are `true` or
    /// `false`, checked before this is asked).
    pub check: fn(&str) -> Result<(), String>,
}

impl Knob {
    /// Whether it is a switch rather than a list of values.
    pub fn is_switch(&self) -> bool {
        self.value.is_none()
    }
}

/// Most instances one file may become by default: five times the largest benchmark file
/// (AsyncHow's 1,998 graphs), so that 500 KB of crafted pickle cannot become 20,000
/// instances and hundreds of megabytes of solutions.
pub const MAX_INSTANCES_PER_FILE: usize = 10_000;

/// `Err` when `count` instances (counted, or estimated from above, before any is built) are
/// over the caller's cap: the error names the file, the count and how to raise the limit.
pub(crate) fn check_instance_count(
    path: &std::path::Path,
    count: usize,
    opts: &ImportOptions,
) -> Result<(), makespan_model::instance::LoadError> {
    let cap = opts.max_instances.unwrap_or(MAX_INSTANCES_PER_FILE);
    if count <= cap {
        return Ok(());
    }
    let count = if count == usize::MAX {
        "more than 2^64".to_string()
    } else {
        count.to_string()
    };
    Err(makespan_model::instance::LoadError::usage(
        path,
        format!(
            "the file describes {count} instances, over the limit of {cap} per file; raise it with --max-instances-per-file"
        ),
    ))
}

/// What the caller wants from an import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Agent counts to build instances for (`None` = unlimited); empty means the
    /// benchmark's own choice (ParaCook: 1, 2 and 3 cooks; AsyncHow: unlimited).
    pub agents: Vec<Option<u32>>,
    /// Most instances one file may become (`None`: [`MAX_INSTANCES_PER_FILE`]).
    pub max_instances: Option<usize>,
    /// The benchmarks' own options, as given, each value checked ([`ImportOptions::set`]).
    pub knobs: Knobs,
}

/// The values of the benchmarks' own options, by knob name; set only through
/// [`ImportOptions::set`], which checks them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Knobs(BTreeMap<&'static str, Vec<String>>);

impl ImportOptions {
    /// Sets the benchmark option `name` to `values` (a switch takes one value, `true` or
    /// `false`), after checking that some benchmark has it and that it takes every value.
    /// The error says what is wrong without naming the flag or keyword: the caller knows
    /// which it was.
    pub fn set<S: AsRef<str>>(&mut self, name: &str, values: &[S]) -> Result<(), BadValue> {
        let Some(knob) = crate::registry::knob(name) else {
            let known: Vec<&str> = crate::registry::knobs().map(|k| k.name).collect();
            return Err(BadValue(format!(
                "no benchmark has an option named \"{name}\" (options: {})",
                known.join(", ")
            )));
        };
        let values: Vec<String> = values
            .iter()
            .map(|v| v.as_ref().trim().to_string())
            .collect();
        for value in &values {
            if knob.is_switch() {
                if value != "true" && value != "false" {
                    return Err(BadValue(format!("\"{value}\" is not true or false")));
                }
            } else {
                (knob.check)(value).map_err(BadValue)?;
            }
        }
        if knob.is_switch() && values.len() > 1 {
            return Err(BadValue("a switch takes one value, true or false".into()));
        }
        self.knobs.0.insert(knob.name, values);
        Ok(())
    }

    /// [`ImportOptions::set`], for building options in one expression.
    pub fn with<S: AsRef<str>>(mut self, name: &str, values: &[S]) -> Result<Self, BadValue> {
        self.set(name, values)?;
        Ok(self)
    }

    /// The values of a list option as given (checked); empty when it is not set.
    pub fn values(&self, name: &str) -> &[String] {
        self.knobs.0.get(name).map_or(&[], Vec::as_slice)
    }

    /// Whether a switch is on.
    pub fn switch(&self, name: &str) -> bool {
        self.values(name) == ["true"]
    }
}

/// Agent counts as a user writes them: positive numbers, or `unlimited` (also `inf`,
/// `null`) for no limit.
pub fn parse_agents<S: AsRef<str>>(values: &[S]) -> Result<Vec<Option<u32>>, BadValue> {
    values
        .iter()
        .map(|v| match v.as_ref().trim() {
            "unlimited" | "inf" | "null" => Ok(None),
            n => match n.parse::<u32>() {
                Ok(m) if m > 0 => Ok(Some(m)),
                _ => Err(BadValue(format!(
                    "\"{n}\" is not a positive agent count or \"unlimited\""
                ))),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knob_takes_only_values_it_accepts() {
        let opts = ImportOptions::default()
            .with("combine", &["1", "3"])
            .unwrap();
        assert_eq!(opts.values("combine"), ["1", "3"]);
        assert!(opts.values("level").is_empty());
        let err = ImportOptions::default()
            .with("combine", &["0"])
            .unwrap_err();
        assert!(err.0.contains("at least 1"), "{err}");
        let err = ImportOptions::default().with("nope", &["1"]).unwrap_err();
        assert!(err.0.contains("options: "), "{err}");
    }

    #[test]
    fn a_switch_is_true_or_false() {
        let on = ImportOptions::default()
            .with("constraint", &["true"])
            .unwrap();
        assert!(on.switch("constraint"));
        let off = ImportOptions::default()
            .with("constraint", &["false"])
            .unwrap();
        assert!(!off.switch("constraint"));
        assert!(ImportOptions::default()
            .with("constraint", &["yes"])
            .is_err());
    }

    #[test]
    fn agents_are_positive_or_unlimited() {
        assert_eq!(
            parse_agents(&["2", " unlimited", "inf"]).unwrap(),
            vec![Some(2), None, None]
        );
        let err = parse_agents(&["0"]).unwrap_err();
        assert_eq!(
            err.0,
            "\"0\" is not a positive agent count or \"unlimited\""
        );
    }
}
