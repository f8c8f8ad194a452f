//! The instances of the inputs a user names, as `makespan solve` and Python's `load` read
//! them: a file, or a folder walked for its input files, a benchmark's checkout as cloned
//! included. A clone holds many files that are not instances (configuration, assets, the
//! benchmark's own results): those are skipped and counted, never an error, and a
//! benchmark's baseline file is recognised as one. A file the user names is never skipped.

use std::path::{Path, PathBuf};

use crate::benchmarks::{self, Skipped};
use crate::{ImportOptions, Instance, LoadError};

/// What the inputs hold, in the order read.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Each instance, with the file it came from.
    pub instances: Vec<(String, Instance)>,
    /// A benchmark's baseline plans found in a folder (`compare --baseline` reads them): the
    /// file and the benchmark.
    pub baselines: Vec<(PathBuf, &'static str)>,
    /// Why each other skipped file is not an instance (the message names the file).
    pub unrelated: Vec<String>,
}

/// Whether `file` is read without the agent counts asked and refused with them: an instance
/// file of a benchmark whose agents are fixed, not a file that only looks like one.
fn refuses_agents(file: &Path, options: &ImportOptions) -> bool {
    let without = ImportOptions {
        agents: Vec::new(),
        ..options.clone()
    };
    !options.agents.is_empty() && benchmarks::import(file, &without).is_ok()
}

impl Inputs {
    /// Adds the instances of `input` (a file or a folder), leaving out the folder `out` (a
    /// batch's output folder inside its input). Fails on a file the user named, or one a
    /// benchmark claims by its extension, that cannot be imported.
    pub fn add(
        &mut self,
        input: &Path,
        options: &ImportOptions,
        out: Option<&Path>,
    ) -> Result<(), LoadError> {
        let walked = input.is_dir();
        for file in benchmarks::input_files_outside(input, out)? {
            if walked && file != input {
                match benchmarks::skipped_in_folder(&file) {
                    Some(Skipped::Baseline(b)) => {
                        self.baselines.push((file, b));
                        continue;
                    }
                    Some(Skipped::Unrelated(why)) => {
                        self.unrelated.push(why);
                        continue;
                    }
                    None => {}
                }
            }
            let name = file.display().to_string();
            match benchmarks::import(&file, options) {
                Ok(found) => self
                    .instances
                    .extend(found.into_iter().map(|i| (name.clone(), i))),
                // A file of a clone that looks like an instance but is not one (a game's
                // configuration files can be lists of named objects too); a file a benchmark
                // claims by its extension is an input, and its error is the user's to see, as
                // is a benchmark's refusal of the agent counts asked.
                Err(e)
                    if walked
                        && file != input
                        && !benchmarks::claimed_by_extension(&file)
                        && !refuses_agents(&file, options) =>
                {
                    self.unrelated.push(e.to_string())
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
