//! The settings a user hands makespan (the instance, the benchmark's checkout, the agent
//! count, …), named in the words of the front end that runs the library.
//!
//! The library's messages tell a user what to pass; the CLI calls those settings flags
//! (`--instance`), the Python package keyword arguments (`instance=`). A message names a
//! setting through [`Setting`], never by a flag, so a Python user is not told to "pass
//! --instance". The front end says once, when it starts, whose words to use ([`speak`]): one
//! process runs one front end, so the choice is process-wide, and the CLI's words are the
//! default (the library's own tests and every Rust caller read them).
//!
//! ```
//! use makespan_model::setting::Setting;
//! assert_eq!(format!("pass {}", Setting::Instance), "pass --instance");
//! assert_eq!(Setting::Data.given("CHECKOUT").to_string(), "--data CHECKOUT");
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whose words name the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontEnd {
    /// The command line: `--instance FILE`.
    Cli,
    /// The Python package: `instance=makespan.load_instance("FILE")`.
    Python,
}

/// Whether the Python package runs the library (the CLI's words otherwise).
static PYTHON: AtomicBool = AtomicBool::new(false);

/// Names every setting in `front_end`'s words from now on, in the whole process.
pub fn speak(front_end: FrontEnd) {
    PYTHON.store(front_end == FrontEnd::Python, Ordering::Relaxed);
}

/// The front end whose words name the settings.
pub fn front_end() -> FrontEnd {
    if PYTHON.load(Ordering::Relaxed) {
        FrontEnd::Python
    } else {
        FrontEnd::Cli
    }
}

/// A setting a message may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// The instance a plan is checked against.
    Instance,
    /// The root of the user's checkout of a benchmark.
    Data,
    /// How many agents (cooks) an instance has.
    Agents,
    /// A benchmark's difficulty level (`easy`, `medium`, …).
    Level,
    /// A benchmark's mode (`abstract`, `concrete`, …).
    Mode,
    /// How many instances are solved at once.
    Jobs,
}

impl Setting {
    /// Its name: the flag without dashes, the Python keyword.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Instance => "instance",
            Setting::Data => "data",
            Setting::Agents => "agents",
            Setting::Level => "level",
            Setting::Mode => "mode",
            Setting::Jobs => "jobs",
        }
    }

    /// The setting given `value` (a path, a benchmark name, a number), as a user writes it:
    /// `--instance BENCH:NAME` or `instance=makespan.load_instance("BENCH:NAME")`.
    pub fn given(self, value: impl fmt::Display) -> Given {
        Given {
            setting: self,
            value: value.to_string(),
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match front_end() {
            FrontEnd::Cli => write!(f, "--{}", self.name()),
            FrontEnd::Python => write!(f, "{}=", self.name()),
        }
    }
}

/// A setting with its value ([`Setting::given`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    setting: Setting,
    value: String,
}

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (setting, value) = (self.setting, &self.value);
        match (front_end(), setting) {
            (FrontEnd::Cli, _) => write!(f, "--{} {value}", setting.name()),
            // Python's `instance=` takes an Instance, which `load_instance` reads from the
            // text the CLI's `--instance` takes.
            (FrontEnd::Python, Setting::Instance) => {
                write!(f, "instance=makespan.load_instance({value:?})")
            }
            (FrontEnd::Python, Setting::Jobs) => write!(f, "jobs={value}"),
            (FrontEnd::Python, _) => write!(f, "{}={value:?}", setting.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both vocabularies in one test: the choice is process-wide, and tests run in parallel
    /// threads of one process (the CLI's words are restored before the end).
    #[test]
    fn each_front_end_names_a_setting_in_its_own_words() {
        assert_eq!(Setting::Agents.to_string(), "--agents");
        assert_eq!(Setting::Jobs.given(4).to_string(), "--jobs 4");
        speak(FrontEnd::Python);
        let python = (
            Setting::Agents.to_string(),
            Setting::Instance.given("tasks.json#a").to_string(),
            Setting::Mode.given("concrete").to_string(),
            Setting::Jobs.given(4).to_string(),
        );
        speak(FrontEnd::Cli);
        assert_eq!(
            python,
            (
                "agents=".to_string(),
                "instance=makespan.load_instance(\"tasks.json#a\")".to_string(),
                "mode=\"concrete\"".to_string(),
                "jobs=4".to_string()
            )
        );
    }
}
