//! Instances named by benchmark instead of by file: `timearena:cooking1+cooking2`,
//! `recipe2plan:Cobbler_Pancakes`, `asynchow:async-0001`, `robotouille:7` (a task by number
//! or name: its first variant, which carries the task graph that action plans are checked
//! on; a full instance name picks that variant). The name is looked up in the
//! benchmark's native file under a data folder: `--data DIR`, else `$MAKESPAN_DATA`, else
//! `../shared/benchmarks` (the layout of this project's workspace). The table below is the
//! only benchmark knowledge here.

use std::path::{Path, PathBuf};

use super::{import, robotouille, timearena, ImportOptions};
use crate::instance::{Instance, LoadError};

/// Benchmark → its native file, relative to the data folder.
const FILES: [(&str, &str); 4] = [
    (timearena::BENCHMARK, "timearena/tasks.json"),
    (super::recipe2plan::BENCHMARK, "recipe2plan/cooking.json"),
    (super::asynchow::BENCHMARK, "asynchow/instances.json"),
    (robotouille::BENCHMARK, "robotouille/task_graphs.json"),
];

/// The data folder used when neither `--data` nor `$MAKESPAN_DATA` is given.
pub const DEFAULT_DATA: &str = "../shared/benchmarks";

/// The data folder: the flag, else `$MAKESPAN_DATA`, else [`DEFAULT_DATA`].
pub fn data_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MAKESPAN_DATA").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA))
}

/// The instance `spec` names if it is `BENCH:NAME` for a known benchmark (any case);
/// `None` when it is not of that form (then it is a path, even one with a colon).
pub fn resolve(
    spec: &str,
    data: &Path,
    opts: &ImportOptions,
) -> Option<Result<Instance, LoadError>> {
    let (benchmark, name) = spec.split_once(':')?;
    let benchmark = benchmark.to_ascii_lowercase();
    let (_, file) = FILES.iter().find(|(b, _)| *b == benchmark)?;
    Some(find(&benchmark, &data.join(file), name, opts))
}

/// The instance of the file named `name`, or `<benchmark>-<name>`, or the one variant of
/// that (`…-medium`) the options leave. TimeArena runs are built in the order named.
fn find(
    benchmark: &str,
    path: &Path,
    name: &str,
    opts: &ImportOptions,
) -> Result<Instance, LoadError> {
    if benchmark == timearena::BENCHMARK {
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        return timearena::import_named(path, &text, name);
    }
    if benchmark == robotouille::BENCHMARK {
        let instances = import(path, opts)?;
        return match robotouille::select(&instances, name).first() {
            Some(found) => Ok((*found).clone()),
            None => Err(LoadError::format(
                path,
                format!("task \"{name}\""),
                "no Robotouille task of that number or name; use e.g. robotouille:7 or robotouille:7_tomato_soup_and_lettuce_chicken_sandwich",
            )),
        };
    }
    let prefixed = format!("{benchmark}-{name}");
    let variant = format!("{prefixed}-");
    let mut matches: Vec<Instance> = import(path, opts)?
        .into_iter()
        .filter(|i| i.name == name || i.name == prefixed || i.name.starts_with(&variant))
        .collect();
    match matches.len() {
        1 => Ok(matches.remove(0)),
        0 => Err(LoadError::format(
            path,
            format!("instance \"{name}\""),
            format!("no {benchmark} instance of that name; check the spelling (names are case-sensitive)"),
        )),
        _ => {
            let names: Vec<&str> = matches.iter().map(|i| i.name.as_str()).collect();
            Err(LoadError::format(
                path,
                format!("instance \"{name}\""),
                format!(
                    "it names {} instances ({}); pick one variant (e.g. --level for Recipe2Plan)",
                    names.len(),
                    names.join(", ")
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_benchmarks_are_references() {
        let data = Path::new(DEFAULT_DATA);
        let opts = ImportOptions::default();
        assert!(resolve("instances/a.json", data, &opts).is_none());
        assert!(resolve("nobench:x", data, &opts).is_none());
        assert!(resolve("C:/plans/x.json", data, &opts).is_none());
        let run = resolve("TimeArena:cooking2+cooking1", data, &opts)
            .unwrap()
            .unwrap();
        assert_eq!(run.name, "cooking2+cooking1");
        let err = resolve("timearena:cooking1+lab1", data, &opts)
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("one scenario"), "{err}");
        let err = resolve("asynchow:nope", data, &opts).unwrap().unwrap_err();
        assert!(err.to_string().contains("no asynchow instance"), "{err}");
        // A Robotouille task by number, short or full name; a variant by its full name.
        for name in [
            "7",
            "7_tomato_soup_and_lettuce_chicken_sandwich",
            "asynchronous/7_tomato_soup_and_lettuce_chicken_sandwich",
        ] {
            let task = resolve(&format!("robotouille:{name}"), data, &opts)
                .unwrap()
                .unwrap();
            assert!(
                task.name
                    .starts_with("robotouille-7_tomato_soup_and_lettuce_chicken_sandwich+"),
                "{}",
                task.name
            );
        }
        let variant =
            "robotouille-7_tomato_soup_and_lettuce_chicken_sandwich+add-stove1+serve-last";
        let picked = resolve(&format!("robotouille:{variant}"), data, &opts)
            .unwrap()
            .unwrap();
        assert_eq!(picked.name, variant);
        let err = resolve("robotouille:3.1", data, &opts)
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("no Robotouille task"), "{err}");
    }
}
