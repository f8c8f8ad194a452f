//! Instance names to file names, injectively. A name is used as it is when it is plainly
//! safe (ASCII letters, digits, `-_+@.`, not starting with `.`, short, without `.answer`,
//! which would meet another instance's native answer `<stem>.answer.json`); any other name keeps
//! a readable safe prefix and gains `~` and a hash of the whole name. `~` never occurs in a
//! name used as it is, so the two kinds cannot meet, and two different names differ in their
//! hash. What remains, names that differ only in letter case (one file on macOS and
//! Windows), is refused by [`dedupe`] naming both inputs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use makespan_model::instance::{problem_hash, Instance};

use super::BatchError;

/// Longest file stem written, in bytes; file systems allow 255 per name, and the stem gains
/// `.answer.json` or a temporary suffix.
pub const MAX_STEM: usize = 120;

/// The file stem of an instance's files: the name itself, or a safe prefix, `~` and a hash.
pub fn file_stem(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= MAX_STEM
        && !name.starts_with('.')
        && !name.to_ascii_lowercase().contains(".answer")
        && name.chars().all(safe);
    if plain {
        return name.to_string();
    }
    let digest = Sha256::digest(name.as_bytes());
    let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let prefix: String = name
        .chars()
        .map(|c| if safe(c) { c } else { '_' })
        .take(MAX_STEM - hash.len() - 1)
        .collect();
    // A leading `.` would hide the file (and the tool's own walker skips hidden files).
    let prefix = prefix
        .strip_prefix('.')
        .map_or(prefix.clone(), |p| format!("_{p}"));
    format!("{prefix}~{hash}")
}

fn safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_.+@".contains(c)
}

/// File name of an instance's solution: `OUT/<stem>.json` (see [`file_stem`]).
pub fn solution_path(out: &Path, name: &str) -> PathBuf {
    out.join(format!("{}.json", file_stem(name)))
}

/// Removes instances read twice (the same benchmark in two native forms) and refuses two
/// different instances with one name, or with names whose files would be one file on a
/// file system that ignores letter case; the error names both (and the file each came
/// from, where the instance records it).
pub fn dedupe(instances: Vec<Instance>) -> Result<Vec<Instance>, BatchError> {
    dedupe_files(
        instances
            .into_iter()
            .map(|instance| (input_file(&instance), instance)),
    )
}

/// [`dedupe`] for instances paired with the file each was read from.
pub fn dedupe_files(
    instances: impl IntoIterator<Item = (String, Instance)>,
) -> Result<Vec<Instance>, BatchError> {
    let mut seen: HashMap<String, (String, String, String)> = HashMap::new();
    let mut unique = Vec::new();
    for (file, instance) in instances {
        let hash = problem_hash(&instance);
        let key = file_stem(&instance.name).to_lowercase();
        match seen.get(&key) {
            Some((name, h, _)) if *name == instance.name && *h == hash => continue,
            Some((name, _, first_file)) => {
                return Err(BatchError::NameClash {
                    first: name.clone(),
                    first_file: first_file.clone(),
                    second: instance.name.clone(),
                    second_file: file,
                })
            }
            None => {
                seen.insert(key, (instance.name.clone(), hash, file));
                unique.push(instance);
            }
        }
    }
    Ok(unique)
}

fn input_file(instance: &Instance) -> String {
    instance
        .source
        .as_ref()
        .and_then(|s| s.file.clone())
        .unwrap_or_else(|| "(no file recorded)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_kept_and_others_are_distinct() {
        assert_eq!(file_stem("cooking1+cooking2"), "cooking1+cooking2");
        let stems: Vec<String> = ["a/b", "a_b", "a b", "🍳", "🥚", ".", "..", "X.answer", ""]
            .iter()
            .map(|n| file_stem(n))
            .collect();
        let unique: std::collections::HashSet<&String> = stems.iter().collect();
        assert_eq!(unique.len(), stems.len(), "{stems:?}");
        assert!(stems.iter().all(|s| !s.starts_with('.')), "{stems:?}");
        let long = "x".repeat(300);
        assert!(file_stem(&long).len() <= MAX_STEM);
        assert_ne!(file_stem(&long), file_stem(&"x".repeat(301)));
    }
}
