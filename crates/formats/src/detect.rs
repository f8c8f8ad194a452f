//! Recognising an input file's format from its content (and its name where content alone
//! is ambiguous), so users can pass any benchmark file without saying what it is.
//!
//! Detection is deliberately shallow: it decides which importer to call and rejects files
//! that no importer could read with a message that lists what *is* accepted. Everything
//! else (a ParaCook entry with a bad lag, a truncated instance) is the importer's to report,
//! with its place in the file.

use std::path::Path;

use serde::de::IgnoredAny;
use serde::Deserialize;

use makespan_model::instance::{LoadError, INSTANCE_FORMAT};

/// The input formats [`super::import`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A unified instance: a JSON object with `"format": "makespan-instance/1"`.
    Unified,
    /// A ParaCook abstract task file: a JSON list of `{name, time, dependencies}`.
    ParaCook,
    /// AsyncHow's normalised `instances.json`: a JSON object with an `instances` list.
    AsyncHowJson,
    /// An AsyncHow benchmark pickle (`<split>_benchmark.pkl`).
    AsyncHowPickle,
    /// TimeArena's `tasks.json`: an object with `tasks` and `dependencygraph_disagreements`.
    TimeArenaTasks,
    /// TimeArena's `dependencygraph.json` (the oracle's graph): an object of
    /// `[durations, dependencies]` pairs. It holds no instances of its own.
    TimeArenaGraph,
    /// A PSPLIB single-mode RCPSP file (`.sm`).
    Psplib,
    /// A ProGen/max RCPSP/max file (`.sch`, any case).
    RcpspMax,
    /// A job shop file in the kobe `.jss` format.
    JobShop,
    /// Robotouille's `task_graphs.json`: a JSON object with `tasks` and `semantics`.
    RobotouilleTaskGraphs,
    /// Recipe2Plan's `cooking.json`: a JSON list of lists of `{recipe, steps}` objects.
    Recipe2Plan,
}

/// The plain-text scheduling formats, recognised by file extension (any case): their
/// content has no signature beyond a line of numbers.
const TEXT_FORMATS: [(&str, Format); 3] = [
    ("sm", Format::Psplib),
    ("sch", Format::RcpspMax),
    ("jss", Format::JobShop),
];

/// The format a file extension names, if it is one of [`TEXT_FORMATS`].
pub(super) fn text_format(path: &Path) -> Option<Format> {
    let extension = path.extension()?.to_str()?;
    TEXT_FORMATS
        .iter()
        .find(|(e, _)| extension.eq_ignore_ascii_case(e))
        .map(|&(_, f)| f)
}

/// Appended to every "not recognised" error, so the user sees the alternatives.
const ACCEPTED: &str = "accepted formats: a unified instance (JSON object with \
     \"format\": \"makespan-instance/1\"), a ParaCook abstract task file (JSON list of \
     {\"name\", \"time\", \"dependencies\"}), AsyncHow instances.json (JSON object with \
     \"instances\"), an AsyncHow pickle (<split>_benchmark.pkl), TimeArena tasks.json \
     (JSON object with \"tasks\") or its dependencygraph.json, PSPLIB .sm, RCPSP/max .sch, \
     job shop .jss, Robotouille \
     task_graphs.json (JSON object with \"tasks\" and \"semantics\"), Recipe2Plan \
     cooking.json (JSON list of lists of {\"recipe\", \"steps\"})";

/// First byte of every pickle of protocol 2 or later (the `PROTO` opcode).
const PICKLE_PROTO: u8 = 0x80;

/// The top-level keys of a JSON object that tell the formats apart; other keys are skipped
/// without being stored.
#[derive(Deserialize)]
struct ObjectProbe {
    format: Option<serde_json::Value>,
    instances: Option<IgnoredAny>,
    tasks: Option<IgnoredAny>,
    dependencygraph_disagreements: Option<IgnoredAny>,
    semantics: Option<IgnoredAny>,
}

/// Which format `bytes` (the content of `path`) are in; a clear error naming the accepted
/// formats when none matches. Never panics, whatever the bytes.
pub fn detect(path: &Path, bytes: &[u8]) -> Result<Format, LoadError> {
    let not_recognised = |at: &str, what: String| {
        LoadError::format(
            path,
            at,
            format!("{what}; this is not an input makespan reads ({ACCEPTED})"),
        )
    };
    let is_pkl = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pkl"));
    if bytes.is_empty() {
        return Err(not_recognised("start of file", "the file is empty".into()));
    }
    if bytes[0] == PICKLE_PROTO && bytes.get(1).is_some_and(|&p| (2..=5).contains(&p)) {
        return Ok(Format::AsyncHowPickle);
    }
    if is_pkl {
        return Err(not_recognised(
            "start of file",
            "the name ends in .pkl but the content is not a pickle of protocol 2 to 5".into(),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = format!("byte {}", e.valid_up_to());
        not_recognised(&at, "the file is neither UTF-8 text nor a pickle".into())
    })?;
    if let Some(format) = text_format(path) {
        return Ok(format);
    }
    if super::psplib::looks_like(text) {
        return Ok(Format::Psplib);
    }
    match text.trim_start().chars().next() {
        Some('[') => detect_list(path, text),
        Some('{') => detect_object(path, text),
        Some(c) => Err(not_recognised(
            "start of file",
            format!("the text starts with {c:?}, not with a JSON object or list"),
        )),
        None => Err(not_recognised(
            "start of file",
            "the file holds only white space".into(),
        )),
    }
}

/// A JSON list is a ParaCook task file if its entries are objects. A list of lists is the
/// most likely mistake (a ParaCook *answer*), so it gets its own hint.
fn detect_list(path: &Path, text: &str) -> Result<Format, LoadError> {
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(|e| LoadError::json(path, &e))?;
    let is_recipe_pair = |e: &serde_json::Value| {
        e.as_array().is_some_and(|recipes| {
            !recipes.is_empty() && recipes.iter().all(|r| r.get("recipe").is_some())
        })
    };
    if !entries.is_empty() && entries.iter().all(is_recipe_pair) {
        return Ok(Format::Recipe2Plan);
    }
    match entries.iter().position(|e| !e.is_object()) {
        None => Ok(Format::ParaCook),
        Some(i) => {
            let hint = if entries[i].is_array() {
                "; a list of lists is a ParaCook answer (a plan): verify it against its instance"
            } else {
                ""
            };
            Err(LoadError::format(
                path,
                format!("entry {}", i + 1),
                format!(
                    "a JSON list of something other than objects is not a ParaCook task file{hint} \
                     ({ACCEPTED})"
                ),
            ))
        }
    }
}

/// A JSON object is a unified instance if it says so, AsyncHow's `instances.json` if it
/// has an `instances` list; any other `format` tag is named in the error.
fn detect_object(path: &Path, text: &str) -> Result<Format, LoadError> {
    let probe: ObjectProbe = serde_json::from_str(text).map_err(|e| LoadError::json(path, &e))?;
    match probe.format {
        Some(serde_json::Value::String(tag)) if tag == INSTANCE_FORMAT => Ok(Format::Unified),
        Some(tag) => {
            let kind = match tag.as_str() {
                Some(t) if t.starts_with("makespan-solution/") => {
                    " (a solution file: pass the instance it names, or verify the solution)"
                }
                _ => "",
            };
            Err(LoadError::format(
                path,
                "format",
                format!("the format tag is {tag}{kind}, not \"{INSTANCE_FORMAT}\" ({ACCEPTED})"),
            ))
        }
        None if probe.instances.is_some() => Ok(Format::AsyncHowJson),
        None if probe.tasks.is_some() && probe.dependencygraph_disagreements.is_some() => {
            Ok(Format::TimeArenaTasks)
        }
        None if probe.tasks.is_some() && probe.semantics.is_some() => {
            Ok(Format::RobotouilleTaskGraphs)
        }
        None if serde_json::from_str(text)
            .is_ok_and(|v| super::timearena::graph::looks_like_graph(&v)) =>
        {
            Ok(Format::TimeArenaGraph)
        }
        None => Err(LoadError::format(
            path,
            "top level",
            format!("a JSON object with neither \"format\" nor \"instances\" ({ACCEPTED})"),
        )),
    }
}

/// The format tag of a JSON object file, if it has a string one; used to skip files that
/// are clearly not instances when walking folders.
pub(super) fn format_tag(text: &str) -> Option<String> {
    let probe: ObjectProbe = serde_json::from_str(text).ok()?;
    match probe.format? {
        serde_json::Value::String(tag) => Some(tag),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_text(name: &str, text: &str) -> Result<Format, String> {
        detect(Path::new(name), text.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn each_format_is_recognised() {
        let unified = r#"{"format": "makespan-instance/1", "name": "x"}"#;
        assert_eq!(detect_text("a.json", unified), Ok(Format::Unified));
        let paracook = r#"[{"name": "subtask1", "time": 3, "dependencies": {}}]"#;
        assert_eq!(detect_text("o.json", paracook), Ok(Format::ParaCook));
        let asynchow = r#"{"source": "x", "instances": []}"#;
        assert_eq!(
            detect_text("instances.json", asynchow),
            Ok(Format::AsyncHowJson)
        );
        assert_eq!(detect_text("PSP1.SCH", "10 5 0 0"), Ok(Format::RcpspMax));
        assert_eq!(detect_text("j301_1.sm", "****"), Ok(Format::Psplib));
        assert_eq!(detect_text("ft06.jss", "# ft06\n6 6"), Ok(Format::JobShop));
        let psplib = "*****\nfile with basedata\nPRECEDENCE RELATIONS:\n";
        assert_eq!(detect_text("renamed.txt", psplib), Ok(Format::Psplib));
        let pickle = [PICKLE_PROTO, 4, 0x95];
        assert_eq!(
            detect(Path::new("async_benchmark.pkl"), &pickle).ok(),
            Some(Format::AsyncHowPickle)
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
