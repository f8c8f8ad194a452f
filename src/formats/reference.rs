//! Instances named by benchmark: `BENCH:NAME` (e.g. `recipe2plan:Cobbler_Pancakes`) is
//! resolved against a data folder (`--data DIR`, else `$MAKESPAN_DATA`, else
//! `../shared/benchmarks`) to the benchmark's native file, which is imported and the
//! instance of that name picked. The table below is the only benchmark knowledge here.

use std::path::{Path, PathBuf};

use super::{import, ImportOptions};
use crate::instance::{Instance, LoadError};

/// Benchmark name → its native instance file, relative to the data folder.
const NATIVE_FILES: &[(&str, &str)] = &[("recipe2plan", "recipe2plan/cooking.json")];

/// The data folder used when neither `--data` nor `$MAKESPAN_DATA` is given.
pub const DEFAULT_DATA: &str = "../shared/benchmarks";

/// A parsed `BENCH:NAME`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub benchmark: String,
    pub name: String,
}

impl Reference {
    /// `Some` when `spec` is `BENCH:NAME` with a benchmark of the table; anything else
    /// (a path, even one with a colon) is left to the caller.
    pub fn parse(spec: &str) -> Option<Reference> {
        let (benchmark, name) = spec.split_once(':')?;
        let benchmark = benchmark.to_ascii_lowercase();
        NATIVE_FILES
            .iter()
            .any(|(b, _)| *b == benchmark)
            .then(|| Reference {
                benchmark,
                name: name.to_string(),
            })
    }

    /// The native file of the benchmark under `data`.
    pub fn file(&self, data: &Path) -> PathBuf {
        let relative = NATIVE_FILES
            .iter()
            .find(|(b, _)| *b == self.benchmark)
            .map_or("", |(_, f)| f);
        data.join(relative)
    }

    /// Imports the benchmark file and picks the instance: its full name, or the benchmark
    /// prefix plus `NAME` (`recipe2plan-Cobbler_Pancakes`), or one variant of that
    /// (`…-medium`) when the options leave only one.
    pub fn resolve(&self, data: &Path, opts: &ImportOptions) -> Result<Instance, LoadError> {
        let file = self.file(data);
        let instances = import(&file, opts)?;
        let prefixed = format!("{}-{}", self.benchmark, self.name);
        let variant = format!("{prefixed}-");
        let mut matches: Vec<Instance> = instances
            .into_iter()
            .filter(|i| i.name == self.name || i.name == prefixed || i.name.starts_with(&variant))
            .collect();
        match matches.len() {
            1 => Ok(matches.remove(0)),
            0 => Err(LoadError::format(
                &file,
                &self.name,
                format!(
                    "no {} instance is named \"{}\"; check the spelling (names are case-sensitive)",
                    self.benchmark, self.name
                ),
            )),
            _ => {
                let names: Vec<&str> = matches.iter().map(|i| i.name.as_str()).collect();
                Err(LoadError::format(
                    &file,
                    &self.name,
                    format!(
                        "\"{}\" names {} instances ({}); pick one variant (e.g. --level for Recipe2Plan)",
                        self.name,
                        names.len(),
                        names.join(", ")
                    ),
                ))
            }
        }
    }
}

/// The data folder: the explicit one, else `$MAKESPAN_DATA`, else [`DEFAULT_DATA`].
pub fn data_dir(explicit: Option<&Path>) -> PathBuf {
    match explicit {
        Some(dir) => dir.to_path_buf(),
        None => std::env::var_os("MAKESPAN_DATA")
            .map_or_else(|| PathBuf::from(DEFAULT_DATA), PathBuf::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_benchmarks_are_references() {
        let r = Reference::parse("Recipe2Plan:Cobbler_Pancakes").unwrap();
        assert_eq!(r.benchmark, "recipe2plan");
        assert_eq!(r.name, "Cobbler_Pancakes");
        assert_eq!(
            r.file(Path::new("data")),
            Path::new("data/recipe2plan/cooking.json")
        );
        assert!(Reference::parse("C:/plans/x.json").is_none());
        assert!(Reference::parse("plan.json").is_none());
    }
}
