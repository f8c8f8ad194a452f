//! Instances named by benchmark instead of by file: `timearena:cooking1+cooking2`,
//! `asynchow:async-0001`. The name is looked up in the benchmark's native file under a
//! data folder: `--data DIR`, else `$MAKESPAN_DATA`, else `../shared/benchmarks` (the
//! layout of this project's workspace).

use std::path::{Path, PathBuf};

use super::{import, timearena, ImportOptions};
use crate::instance::{Instance, LoadError};

/// Benchmark → its native file, relative to the data folder.
const FILES: [(&str, &str); 2] = [
    (timearena::BENCHMARK, "timearena/tasks.json"),
    (super::asynchow::BENCHMARK, "asynchow/instances.json"),
];

/// The data folder: the flag, else `$MAKESPAN_DATA`, else `../shared/benchmarks`.
pub fn data_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MAKESPAN_DATA").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("../shared/benchmarks"))
}

/// The instance `spec` names if it is `BENCH:NAME` for a known benchmark; `None` when it
/// is not of that form (then it is a path).
pub fn resolve(
    spec: &str,
    data: &Path,
    opts: &ImportOptions,
) -> Option<Result<Instance, LoadError>> {
    let (benchmark, name) = spec.split_once(':')?;
    let (_, file) = FILES.iter().find(|(b, _)| *b == benchmark)?;
    let path = data.join(file);
    Some(find(benchmark, &path, name, opts))
}

fn find(
    benchmark: &str,
    path: &Path,
    name: &str,
    opts: &ImportOptions,
) -> Result<Instance, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    if benchmark == timearena::BENCHMARK {
        let text = std::fs::read_to_string(path).map_err(io)?;
        return timearena::import_named(path, &text, name);
    }
    let mut instances = import(path, opts)?;
    match instances.iter().position(|i| i.name == name) {
        Some(k) => Ok(instances.swap_remove(k)),
        None => Err(LoadError::format(
            path,
            format!("instance \"{name}\""),
            format!(
                "no instance of that name among the {} in this file",
                instances.len()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_benchmarks_are_references() {
        let data = Path::new("../shared/benchmarks");
        let opts = ImportOptions::default();
        assert!(resolve("instances/a.json", data, &opts).is_none());
        assert!(resolve("nobench:x", data, &opts).is_none());
        let run = resolve("timearena:cooking2+cooking1", data, &opts)
            .unwrap()
            .unwrap();
        assert_eq!(run.name, "cooking2+cooking1");
        let err = resolve("timearena:cooking1+lab1", data, &opts)
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("one scenario"), "{err}");
        let err = resolve("asynchow:nope", data, &opts).unwrap().unwrap_err();
        assert!(
            err.to_string().contains("no instance of that name"),
            "{err}"
        );
    }
}
