//! Recognising an input file's format from its content (and its name where content alone
//! is ambiguous), so users can pass any benchmark file without saying what it is.
//!
//! Detection is deliberately shallow: it decides which importer to call and rejects files
//! that no importer could read with a message that lists what *is* accepted. Everything
//! else (a ParaCook entry with a bad lag, a truncated instance) is the importer's to report,
//! with its place in the file. This file knows the unified format and the shapes of files in
//! general (binary, text, a JSON list or object); each benchmark recognises its own files
//! ([`Benchmark::detect`](crate::Benchmark::detect)), asked in the registry's order.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::registry::registry;
use makespan_model::instance::{LoadError, INSTANCE_FORMAT};

/// The input formats [`super::import`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A unified instance: a JSON object with `"format": "makespan-instance/1"`.
    Unified,
    /// A benchmark's native file: the benchmark, and its name for this kind of file.
    Native {
        /// The benchmark's name ([`Benchmark::name`](crate::Benchmark::name)).
        benchmark: &'static str,
        /// Which of its files (e.g. `tasks.json`, `pickle`).
        shape: &'static str,
    },
}

/// A file as detection sees it, computed once and shown to every benchmark in turn.
pub struct Probe<'a> {
    /// The file's path (its extension decides for the plain-text scheduling formats).
    pub path: &'a Path,
    /// The file's bytes.
    pub bytes: &'a [u8],
    /// The bytes as text, when they are UTF-8.
    pub text: Option<&'a str>,
    /// The parsed JSON, when the text is a JSON list or object.
    pub json: Option<&'a Value>,
}

impl Probe<'_> {
    /// Whether the file's extension is `extension` (any case).
    pub fn has_extension(&self, extension: &str) -> bool {
        self.path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case(extension))
    }

    /// Whether the file is a JSON object with every one of these top-level keys.
    pub fn has_keys(&self, keys: &[&str]) -> bool {
        self.json
            .and_then(Value::as_object)
            .is_some_and(|object| keys.iter().all(|k| object.contains_key(*k)))
    }

    /// The entries of a JSON list file.
    pub fn list(&self) -> Option<&[Value]> {
        self.json.and_then(Value::as_array).map(Vec::as_slice)
    }
}

/// "Not recognised" at `at`, saying `what` and listing every accepted format.
pub fn not_recognised(path: &Path, at: &str, what: &str) -> LoadError {
    LoadError::format(
        path,
        at,
        format!(
            "{what}; this is not an input makespan reads ({})",
            accepted()
        ),
    )
}

/// Appended to every "not recognised" error, so the user sees the alternatives: the unified
/// format and each benchmark's own files, in the registry's order.
pub fn accepted() -> String {
    let mut kinds =
        vec!["a unified instance (JSON object with \"format\": \"makespan-instance/1\")"];
    kinds.extend(registry().iter().filter_map(|b| b.files()));
    format!("accepted formats: {}", kinds.join(", "))
}

/// The top-level `format` tag of a JSON object, without reading the rest into memory.
#[derive(Deserialize)]
struct TagProbe {
    format: Option<Value>,
}

/// Which format `bytes` (the content of `path`) are in; a clear error naming the accepted
/// formats when none matches. Never panics, whatever the bytes.
pub fn detect(path: &Path, bytes: &[u8]) -> Result<Format, LoadError> {
    let not_recognised = |at: &str, what: String| not_recognised(path, at, &what);
    if bytes.is_empty() {
        return Err(not_recognised("start of file", "the file is empty".into()));
    }
    let text = std::str::from_utf8(bytes).ok();
    let first = text.and_then(|t| t.trim_start().chars().next());
    // A JSON syntax error is reported only if no benchmark claims the file by its name or
    // signature first (a `.sm` file is PSPLIB's, whatever it holds).
    let parsed: Option<Result<Value, serde_json::Error>> = match (first, text) {
        (Some('[') | Some('{'), Some(text)) => Some(serde_json::from_str(text)),
        _ => None,
    };
    let json = parsed.as_ref().and_then(|p| p.as_ref().ok());
    if let Some(Value::Object(object)) = json {
        match object.get("format") {
            Some(Value::String(tag)) if tag == INSTANCE_FORMAT => return Ok(Format::Unified),
            Some(tag) => {
                let kind = match tag.as_str() {
                    Some(t) if t.starts_with("makespan-solution/") => {
                        " (a solution file: pass the instance it names, or verify the solution)"
                    }
                    _ => "",
                };
                return Err(LoadError::format(
                    path,
                    "format",
                    format!(
                        "the format tag is {tag}{kind}, not \"{INSTANCE_FORMAT}\" ({})",
                        accepted()
                    ),
                ));
            }
            None => {}
        }
    }
    let probe = Probe {
        path,
        bytes,
        text,
        json,
    };
    for benchmark in registry() {
        if let Some(found) = benchmark.detect(&probe) {
            return found.map(|shape| Format::Native {
                benchmark: benchmark.name(),
                shape,
            });
        }
    }
    let Some(text) = text else {
        let valid = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |_| 0);
        let at = format!("byte {valid}");
        return Err(not_recognised(
            &at,
            "the file is neither UTF-8 text nor a pickle".into(),
        ));
    };
    if let Some(Err(e)) = &parsed {
        return Err(LoadError::json_in(path, text, e));
    }
    Err(match (first, json) {
        (_, Some(Value::Object(_))) => LoadError::format(
            path,
            "top level",
            format!(
                "a JSON object with neither \"format\" nor \"instances\" ({})",
                accepted()
            ),
        ),
        (_, Some(_)) => not_recognised("top level", "a JSON list no benchmark reads".into()),
        (Some(c), None) => not_recognised(
            "start of file",
            format!("the text starts with {c:?}, not with a JSON object or list"),
        ),
        (None, None) if text.trim().is_empty() => {
            not_recognised("start of file", "the file holds only white space".into())
        }
        (None, None) => not_recognised("start of file", "the text is not recognised".into()),
    })
}

/// The format tag of a JSON object file, if it has a string one; used to skip files that
/// are clearly not instances when walking folders.
pub(super) fn format_tag(text: &str) -> Option<String> {
    let probe: TagProbe = serde_json::from_str(text).ok()?;
    match probe.format? {
        Value::String(tag) => Some(tag),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_text(name: &str, text: &str) -> Result<Format, String> {
        detect(Path::new(name), text.as_bytes()).map_err(|e| e.to_string())
    }

    fn native(benchmark: &'static str, shape: &'static str) -> Format {
        Format::Native { benchmark, shape }
    }

    #[test]
    fn each_format_is_recognised() {
        let unified = r#"{"format": "makespan-instance/1", "name": "x"}"#;
        assert_eq!(detect_text("a.json", unified), Ok(Format::Unified));
        let paracook = r#"[{"name": "subtask1", "time": 3, "dependencies": {}}]"#;
        assert_eq!(
            detect_text("o.json", paracook),
            Ok(native("paracook", "task file"))
        );
        let asynchow = r#"{"source": "x", "instances": []}"#;
        assert_eq!(
            detect_text("instances.json", asynchow),
            Ok(native("asynchow", "instances.json"))
        );
        assert_eq!(
            detect_text("PSP1.SCH", "10 5 0 0"),
            Ok(native("rcpsp-max", "sch"))
        );
        assert_eq!(detect_text("j301_1.sm", "****"), Ok(native("psplib", "sm")));
        assert_eq!(
            detect_text("ft06.jss", "# ft06\n6 6"),
            Ok(native("jobshop", "jss"))
        );
        let psplib = "*****\nfile with basedata\nPRECEDENCE RELATIONS:\n";
        assert_eq!(
            detect_text("renamed.txt", psplib),
            Ok(native("psplib", "sm"))
        );
        let pickle = [0x80, 4, 0x95];
        assert_eq!(
            detect(Path::new("async_benchmark.pkl"), &pickle).ok(),
            Some(native("asynchow", "pickle"))
        );
    }

    #[test]
    fn empty_and_blank_files_are_errors_listing_the_formats() {
        let err = detect_text("e.json", "").unwrap_err();
        assert!(
            err.contains("e.json: start of file: the file is empty"),
            "{err}"
        );
        assert!(err.contains("accepted formats"), "{err}");
        assert!(detect_text("e.json", " \n ")
            .unwrap_err()
            .contains("white space"));
    }

    #[test]
    fn garbage_and_non_utf8_bytes_are_errors() {
        let err = detect_text("g.json", "hello").unwrap_err();
        assert!(err.contains("starts with 'h'"), "{err}");
        let err = detect(Path::new("b.json"), &[b'{', 0xff, 0xfe])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("byte 1: the file is neither UTF-8 text nor a pickle"),
            "{err}"
        );
    }

    #[test]
    fn pkl_name_with_other_content_is_an_error() {
        let err = detect_text("async_benchmark.pkl", "{}").unwrap_err();
        assert!(err.contains("not a pickle"), "{err}");
    }

    #[test]
    fn other_json_objects_are_named() {
        let err = detect_text("s.json", r#"{"format": "makespan-solution/1"}"#).unwrap_err();
        assert!(err.contains("a solution file"), "{err}");
        let err = detect_text("o.json", r#"{"format": 3}"#).unwrap_err();
        assert!(err.contains("the format tag is 3"), "{err}");
        let err = detect_text("o.json", r#"{"tasks": []}"#).unwrap_err();
        assert!(
            err.contains("neither \"format\" nor \"instances\""),
            "{err}"
        );
    }

    #[test]
    fn a_list_of_lists_is_called_an_answer() {
        let err = detect_text("a.json", r#"[["subtask1"], []]"#).unwrap_err();
        assert!(err.contains("entry 1"), "{err}");
        assert!(err.contains("ParaCook answer"), "{err}");
    }

    #[test]
    fn truncated_json_names_the_line() {
        let err = detect_text("cut.json", "{\n\"format\": \"makespan-inst").unwrap_err();
        assert!(err.starts_with("cut.json: line 2"), "{err}");
        assert!(err.contains("truncated"), "{err}");
    }

    #[test]
    fn format_tag_reads_only_string_tags() {
        assert_eq!(
            format_tag(r#"{"format": "makespan-solution/1", "x": [1]}"#).as_deref(),
            Some("makespan-solution/1")
        );
        assert_eq!(format_tag(r#"{"format": 1}"#), None);
        assert_eq!(format_tag("[1]"), None);
    }
}
