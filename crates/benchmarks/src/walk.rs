//! Expanding a folder into the input files it holds, in a fixed order, so a batch over a
//! benchmark folder always sees the same files in the same order on every machine.

use std::fs;
use std::path::{Path, PathBuf};

use super::detect::format_tag;
use makespan_model::instance::{LoadError, INSTANCE_FORMAT};

/// The input files under `path`: `path` itself if it is a file (the user named it, so it is
/// never filtered), else every `.json` and `.pkl` file below it, recursively, sorted by
/// path (plus the plain-text scheduling formats `.sm`, `.sch`, `.jss`). Skipped: hidden files and folders (`.git`), folders reached through symbolic links
/// (they can form loops), and JSON files whose `"format"` tag names another makespan file
/// kind (`makespan-solution/1` and the like), which sit beside instances in output folders.
/// Files of other extensions (`LICENSE`, `summary.csv`, `README.md`) are never inputs.
pub fn input_files(path: &Path) -> Result<Vec<PathBuf>, LoadError> {
    input_files_outside(path, None)
}

/// [`input_files`] without the folder `skip` (a batch's output folder inside its input
/// folder: its solution files are skipped anyway, but its native answer files are not
/// instances, and a second run would try to import them).
pub fn input_files_outside(path: &Path, skip: Option<&Path>) -> Result<Vec<PathBuf>, LoadError> {
    let skip = skip.and_then(|s| s.canonicalize().ok());
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| LoadError::Io { path: p, source }
    };
    if !fs::metadata(path).map_err(io(path))?.is_dir()
        || crate::registry::checkout_of(path).is_some()
    {
        // A file, or a benchmark checkout that is imported whole.
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).map_err(io(&dir))? {
            let entry = entry.map_err(io(&dir))?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let entry_path = entry.path();
            let kind = entry.file_type().map_err(io(&entry_path))?;
            if kind.is_dir() {
                let skipped = skip
                    .as_ref()
                    .is_some_and(|s| entry_path.canonicalize().is_ok_and(|p| p == *s));
                if !skipped {
                    pending.push(entry_path);
                }
            } else if (kind.is_file() || fs::metadata(&entry_path).is_ok_and(|m| m.is_file()))
                && is_input(&entry_path)?
            {
                files.push(entry_path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A file found in a folder that is not an instance after all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// A benchmark's own baseline plans (Recipe2Plan's `plan.json`): `compare --baseline`
    /// reads it.
    Baseline(&'static str),
    /// No benchmark recognises it (a configuration file, a result or asset of the clone):
    /// why not.
    Unrelated(String),
}

/// Whether a file found while walking a folder is to be skipped: a benchmark's baseline file,
/// or a file no benchmark recognises. `None` for a file some format claims (its import then
/// reports what is wrong with it). A checkout as cloned holds many such files beside its
/// instances; a file the user names is never skipped.
pub fn skipped_in_folder(path: &Path) -> Option<Skipped> {
    if claimed_by_extension(path) {
        return None;
    }
    let bytes = makespan_model::input::read_bytes(path).ok()?;
    let why = match crate::detect(path, &bytes) {
        Ok(_) => return None,
        Err(e) => e.to_string(),
    };
    let baseline = crate::registry().iter().find(|b| {
        b.baseline_file()
            .is_some_and(|file| (file.open)(path).is_ok())
    });
    Some(match baseline {
        Some(b) => Skipped::Baseline(b.name()),
        None => Skipped::Unrelated(why),
    })
}

/// Whether a benchmark claims the file by its extension (a `.pkl`, a `.sm`): such a file is
/// meant as an input whatever it holds, so when it cannot be read that is an error naming it,
/// never a file skipped as unrelated.
pub fn claimed_by_extension(path: &Path) -> bool {
    let extension = path.extension().map(|e| e.to_ascii_lowercase());
    extension
        .as_ref()
        .and_then(|e| e.to_str())
        .is_some_and(|e| {
            crate::registry()
                .iter()
                .any(|b| b.extensions().contains(&e))
        })
}

/// Whether a file found in a folder should be imported.
fn is_input(path: &Path) -> Result<bool, LoadError> {
    if claimed_by_extension(path) {
        return Ok(true);
    }
    let extension = path.extension().map(|e| e.to_ascii_lowercase());
    match extension.as_ref().and_then(|e| e.to_str()) {
        Some("json") => {
            let text = makespan_model::input::read_bytes(path)?;
            let tag = std::str::from_utf8(&text).ok().and_then(format_tag);
            // Unreadable or tag-less JSON stays in: importing it gives the real error.
            Ok(match tag {
                Some(tag) => tag == INSTANCE_FORMAT || !tag.starts_with("makespan-"),
                None => true,
            })
        }
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_sorted_keeps_instances_and_skips_what_is_not_one() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let p = root.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        write("b/seed_1/orders_num_2.json", "[]");
        write("a/x.pkl", "");
        write("a/inst.json", r#"{"format": "makespan-instance/1"}"#);
        write("a/sol.json", r#"{"format": "makespan-solution/1"}"#);
        write("a/broken.json", "{");
        write("a/summary.csv", "x");
        write("LICENSE", "MIT");
        write(".hidden/y.json", "[]");
        write("a/.z.json", "[]");
        let found: Vec<String> = input_files(root)
            .unwrap()
            .iter()
            .map(|p| {
                p.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect();
        assert_eq!(
            found,
            [
                "a/broken.json",
                "a/inst.json",
                "a/x.pkl",
                "b/seed_1/orders_num_2.json"
            ]
        );
    }

    #[test]
    fn the_output_folder_inside_the_input_folder_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("x.answer.json"), "[[\"a\"]]").unwrap();
        fs::write(dir.path().join("x.json"), "[]").unwrap();
        let found = input_files_outside(dir.path(), Some(&out)).unwrap();
        assert_eq!(found, vec![dir.path().join("x.json")]);
        assert_eq!(input_files(dir.path()).unwrap().len(), 2);
    }

    #[test]
    fn a_clones_other_files_are_skipped_and_its_baseline_is_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("gui_config.json");
        fs::write(&config, r#"{"width": 800, "theme": "dark"}"#).unwrap();
        assert!(matches!(
            skipped_in_folder(&config),
            Some(Skipped::Unrelated(_))
        ));
        let plan = dir.path().join("plan.json");
        fs::write(
            &plan,
            r#"{"A_B": {"plan_wo_restriction": [[0, "A", 60, 0]], "plan_w_restriction": null}}"#,
        )
        .unwrap();
        assert_eq!(
            skipped_in_folder(&plan),
            Some(Skipped::Baseline("recipe2plan"))
        );
        let paracook = dir.path().join("orders_num_1.json");
        fs::write(
            &paracook,
            r#"[{"name": "subtask1", "time": 3, "dependencies": {}}]"#,
        )
        .unwrap();
        assert_eq!(skipped_in_folder(&paracook), None);
    }

    #[test]
    fn a_named_file_is_kept_whatever_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("notes.txt");
        fs::write(&p, "x").unwrap();
        assert_eq!(input_files(&p).unwrap(), vec![p]);
    }

    #[test]
    fn a_missing_path_is_an_io_error_naming_it() {
        let err = input_files(Path::new("no/such/folder"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("no/such/folder: cannot read"), "{err}");
    }
}
