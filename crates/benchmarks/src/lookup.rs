//! Instances named by benchmark instead of by file: `timearena:cooking1+cooking2`,
//! `recipe2plan:Cobbler_Pancakes`, `asynchow:async-0001`, `robotouille:7`. The name is looked
//! up in the benchmark's native file under `--data DIR`, else `$MAKESPAN_DATA` (there is no
//! other default). That folder is the root of the user's checkout of the benchmark, as
//! everywhere else (`score` too): the file is looked for where the checkout keeps it
//! ([`Lookup::checkout_files`]), then in the data folder itself and in a folder holding
//! several benchmarks ([`Lookup::data_file`]). Each benchmark says how it finds a name
//! ([`Lookup::find`]); this file knows none of them. Checkouts imported whole ([`Checkout`])
//! are the other way a benchmark's own layout becomes instances.

use std::path::{Path, PathBuf};

use crate::{import, registry, ImportOptions};
use makespan_model::instance::{Instance, LoadError};
use makespan_model::setting::Setting;

/// `BENCH:NAME`: a benchmark's instances looked up by name in its native file.
pub trait Lookup: Sync {
    /// The native file names are looked up in, relative to a folder holding several
    /// benchmarks (`recipe2plan/cooking.json`); its file name alone is the data folder itself.
    fn data_file(&self) -> &'static str;

    /// Where a checkout of the benchmark, as cloned, keeps what names are looked up in,
    /// relative to its root (`data/cooking.json`); tried first.
    fn checkout_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// The instance called `name` in the data file (found at `path`).
    fn find(&self, path: &Path, name: &str, opts: &ImportOptions) -> Result<Instance, LoadError>;
}

/// A benchmark's users' checkouts, imported whole (TimeArena's task modules) rather than
/// walked for files.
pub trait Checkout: Sync {
    /// Whether a folder is one of its checkouts.
    fn recognises(&self, dir: &Path) -> bool;

    /// Every instance of a checkout it recognised.
    fn import(&self, dir: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError>;
}

/// The data folder: the flag, else `$MAKESPAN_DATA`; there is no built-in default (no
/// user has this project's own data folder).
pub fn data_dir(flag: Option<&Path>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf)
        // An empty variable is unset, not the current folder.
        .or_else(|| {
            std::env::var_os("MAKESPAN_DATA")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
}

/// The instance `spec` names if it is `BENCH:NAME` for a known benchmark (any case);
/// `None` when it is not of that form (then it is a path, even one with a colon).
fn resolve(spec: &str, data: &Path, opts: &ImportOptions) -> Option<Result<Instance, LoadError>> {
    let (benchmark, name) = spec.split_once(':')?;
    let benchmark_found = registry::benchmark(benchmark)?;
    let lookup = benchmark_found.lookup()?;
    let own = lookup.data_file();
    let bare = Path::new(own)
        .file_name()
        .map(Path::new)
        .unwrap_or(Path::new(own));
    let candidates: Vec<PathBuf> = lookup
        .checkout_files()
        .iter()
        .map(|c| data.join(c))
        .chain([data.join(own), data.join(bare)])
        .collect();
    Some(match candidates.iter().find(|p| p.exists()) {
        Some(found) => crate::check_agents(benchmark_found, found, opts)
            .and_then(|()| lookup.find(found, name, opts)),
        None => {
            let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
            Err(LoadError::usage(
                data,
                format!(
                    "no {benchmark} data here (looked for {}): give {} the root of your checkout of the benchmark, or name the file and the instance as FILE#NAME",
                    looked.join(", "),
                    Setting::Data
                ),
            ))
        }
    })
}

/// One instance: `BENCH:NAME` (looked up under [`data_dir`]`(data)`), or a file, with
/// `PATH#NAME` picking one of the instances a file holds.
pub fn load_instance(
    spec: &str,
    data: Option<&Path>,
    opts: &ImportOptions,
) -> Result<Instance, LoadError> {
    let named = spec
        .split_once(':')
        .and_then(|(b, _)| registry::benchmark(b))
        .is_some_and(|b| b.lookup().is_some());
    if named {
        let Some(dir) = data_dir(data) else {
            return Err(LoadError::usage(
                Path::new(spec),
                format!(
                    "a benchmark name needs the benchmark's own files: give {} the root of your checkout of the benchmark (or set MAKESPAN_DATA), or name the file and the instance as FILE#NAME",
                    Setting::Data
                ),
            ));
        };
        if let Some(found) = resolve(spec, &dir, opts) {
            return found;
        }
    }
    // A file whose own name holds `#` is read whole; `FILE#NAME` otherwise.
    let (path, name) = match spec.rsplit_once('#') {
        Some(_) if Path::new(spec).is_file() => (spec, None),
        Some((p, n)) => (p, Some(n)),
        None => (spec, None),
    };
    let file = Path::new(path);
    if name.is_some() && !file.exists() {
        return Err(LoadError::usage(
            Path::new(spec),
            format!(
                "no such file: {path} (the text after the last `#` names an instance in the file, FILE#NAME); \
                 a file whose name holds `#` is read whole when it exists, and FILE#NAME picks an instance in it \
                 (e.g. {spec}#NAME)"
            ),
        ));
    }
    let mut instances = import(file, opts)?;
    if let Some(name) = name {
        // By name, or by the key its benchmark's harness gives it (ParaCook's
        // `<category>/seed_<s>/agent_num_<m>/orders_num_<k>`).
        let key = |i: &Instance| {
            i.source
                .as_ref()
                .and_then(|s| s.notes.get("key"))
                .and_then(|k| k.as_str())
                .is_some_and(|k| k == name)
        };
        return match instances.iter().position(|i| i.name == name || key(i)) {
            Some(k) => Ok(instances.swap_remove(k)),
            None => Err(LoadError::usage(
                file,
                format!(
                    "no instance named \"{name}\" (it holds {})",
                    names(&instances)
                ),
            )),
        };
    }
    match instances.len() {
        1 => Ok(instances.remove(0)),
        n => Err(LoadError::usage(
            file,
            format!(
                "it holds {n} instances ({}); pick one with {}, or give {} for a native file",
                names(&instances),
                Setting::Instance.given(format!("{path}#NAME")),
                Setting::Agents
            ),
        )),
    }
}

/// The first few names, for messages.
fn names(instances: &[Instance]) -> String {
    let mut shown: Vec<&str> = instances.iter().take(3).map(|i| i.name.as_str()).collect();
    if instances.len() > 3 {
        shown.push("…");
    }
    shown.join(", ")
}

/// The instance of the file named `name`, or `<benchmark>-<name>`, or the one variant of
/// that (`…-medium`) the options leave: how [`Lookup::find`] finds names unless a benchmark
/// finds them its own way.
pub(crate) fn find_by_name(
    benchmark: &str,
    path: &Path,
    name: &str,
    opts: &ImportOptions,
) -> Result<Instance, LoadError> {
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
                    "it names {} instances ({}); pick one variant (e.g. {} for Recipe2Plan)",
                    names.len(),
                    names.join(", "),
                    Setting::Level
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `inst#1.json` was split into the file `inst` and the instance `1.json`, and a missing
    /// file said nothing of the `#` rule.
    #[test]
    fn a_file_named_with_a_hash_is_read_whole_and_a_miss_explains_file_hash_name() {
        let dir = tempfile::tempdir().unwrap();
        let source = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../instances/two-cooks-breakfast.json"
        );
        let file = dir.path().join("inst#1.json");
        std::fs::copy(source, &file).unwrap();
        let opts = ImportOptions::default();
        let spec = file.display().to_string();
        let whole = load_instance(&spec, None, &opts).unwrap();
        let named = load_instance(&format!("{spec}#{}", whole.name), None, &opts).unwrap();
        assert_eq!(whole, named);
        let missing = dir.path().join("other#1.json").display().to_string();
        let err = load_instance(&missing, None, &opts)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("FILE#NAME") && err.contains("read whole"),
            "{err}"
        );
    }

    #[test]
    fn only_known_benchmarks_are_references() {
        let Some(data) = makespan_testkit::data("") else {
            return;
        };
        let data = data.as_path();
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

    #[test]
    fn data_is_a_checkout_root_and_a_wrong_root_says_what_was_looked_for() {
        let (Some(timearena), Some(recipe2plan)) = (
            makespan_testkit::data("timearena/checkout"),
            makespan_testkit::data("recipe2plan/upstream"),
        ) else {
            return;
        };
        let opts = ImportOptions::default();
        let run = load_instance("timearena:cooking1+cooking2", Some(&timearena), &opts).unwrap();
        assert_eq!(run.name, "cooking1+cooking2");
        let medium = ImportOptions::default().with("level", &["medium"]).unwrap();
        let pair =
            load_instance("recipe2plan:Cobbler_Pancakes", Some(&recipe2plan), &medium).unwrap();
        assert_eq!(pair.name, "recipe2plan-Cobbler_Pancakes-medium");
        // A TimeArena checkout is not a Recipe2Plan one.
        let err = load_instance("recipe2plan:Cobbler_Pancakes", Some(&timearena), &medium)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("data/cooking.json") && err.contains("FILE#NAME"),
            "{err}"
        );
    }
}
