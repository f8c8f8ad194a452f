//! Reading unified instances from JSON with errors that name the file and the position, and
//! the content hash that ties a solution to the exact instance it solves.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::model::Instance;
use super::validate::ValidationError;

/// Why an input file could not be turned into an instance.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{}: cannot read the file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The file is not valid JSON or does not match the expected structure.
    #[error("{}: line {line}, column {column}: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What is wrong, without serde_json's position suffix.
        message: String,
    },
    /// The JSON parsed but the instance fails structural validation.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every structural problem found.
        source: ValidationError,
    },
    /// A native file whose content breaks its benchmark's format.
    #[error("{}: {at}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// Where in the file (a line, a key, a task).
        at: String,
        /// What is wrong there.
        message: String,
    },
    /// A readable file that cannot be used as given (a native answer without its instance, a
    /// solution of another instance); `message` says what to pass instead.
    #[error("{}: {message}", path.display())]
    Usage {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to pass instead.
        message: String,
    },
}

/// serde_json reads a whole number beyond 64 bits as a float and then reports "floating
/// point `1.8446744073709552e+19`, expected i64": say what the number is instead, as the
/// file writes it (`written`, when the text is at hand) rather than as the rounded float.
fn whole_number_message(message: String, written: Option<&str>) -> String {
    let Some(rest) = message.strip_prefix("invalid type: floating point `") else {
        return message;
    };
    let Some((value, expected)) = rest.split_once("`, expected ") else {
        return message;
    };
    if value.contains('e') {
        let value = written.unwrap_or(value);
        format!("the number {value} is beyond 64-bit whole numbers, expected {expected}")
    } else {
        format!("{value} is not a whole number, expected {expected}")
    }
}

/// The whole number that ends at 1-based `line` and `column` of `text` (where serde_json
/// reports a number it could not take), if one does.
fn number_ending_at(text: &str, line: usize, column: usize) -> Option<&str> {
    let line = text.lines().nth(line.checked_sub(1)?)?;
    let upto = line.get(..column.min(line.len()))?;
    let start = upto
        .rfind(|c: char| !c.is_ascii_digit() && c != '-')
        .map_or(0, |k| k + 1);
    let number = &upto[start..];
    let digits = number.strip_prefix('-').unwrap_or(number);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(number)
}

/// The text around 1-based `line` and byte `column` of `text`, quoted for a message: a
/// results file written on one line has its every error at line 1, where a column alone is
/// hard to find. `None` where there is no such line or it is blank.
fn excerpt(text: &str, line: usize, column: usize) -> Option<String> {
    const BEFORE: usize = 24;
    const AFTER: usize = 16;
    let line = text.lines().nth(line.checked_sub(1)?)?;
    if line.trim().is_empty() {
        return None;
    }
    let at = column.min(line.len());
    let floor = |mut k: usize| {
        while !line.is_char_boundary(k) {
            k -= 1;
        }
        k
    };
    let start = floor(at.saturating_sub(BEFORE));
    let end = floor((at + AFTER).min(line.len()));
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.push_str(line[start..end].trim_start_matches(char::is_whitespace));
    if end < line.len() {
        shown.push('…');
    }
    // Debug quoting escapes control characters: the text is the user's, the message reaches
    // a terminal.
    Some(format!("{shown:?}"))
}

impl LoadError {
    /// Wraps a serde_json error with the file it came from, keeping its line and column
    /// ([`LoadError::json_in`] is the one to call: it also quotes the text).
    fn json(path: &Path, err: &serde_json::Error) -> Self {
        let mut message = err.to_string();
        // serde_json appends " at line L column C"; the position is reported separately.
        if let Some(cut) = message.rfind(" at line ") {
            message.truncate(cut);
        }
        if err.is_eof() {
            message.push_str(" (the file ends too early: is it truncated?)");
        }
        let message = whole_number_message(message, None);
        LoadError::Json {
            path: path.to_path_buf(),
            line: err.line(),
            column: err.column(),
            message,
        }
    }

    /// A serde_json error in `text`, read from `path`: the file, the line and column, what is
    /// wrong, and the text there (except where the file ends too early). A whole number beyond
    /// 64 bits is quoted as the file writes it, not as serde_json's rounded float.
    pub fn json_in(path: &Path, text: &str, err: &serde_json::Error) -> Self {
        let mut error = Self::json(path, err);
        if let LoadError::Json { message, .. } = &mut error {
            let original = err.to_string();
            let original = original
                .rfind(" at line ")
                .map_or(original.as_str(), |cut| &original[..cut]);
            let written = number_ending_at(text, err.line(), err.column());
            if written.is_some() && original.starts_with("invalid type: floating point") {
                *message = whole_number_message(original.to_string(), written);
            }
            if !err.is_eof() {
                if let Some(there) = excerpt(text, err.line(), err.column()) {
                    message.push_str(&format!(", at {there}"));
                }
            }
        }
        error
    }

    /// A file that cannot be used as given; `message` says what to do instead.
    pub fn usage(path: &Path, message: impl Into<String>) -> Self {
        LoadError::Usage {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// A format error at a place inside a native file.
    pub fn format(path: &Path, at: impl Into<String>, message: impl Into<String>) -> Self {
        LoadError::Format {
            path: path.to_path_buf(),
            at: at.into(),
            message: message.into(),
        }
    }
}

/// Parses and validates a unified instance; `path` is used only in error messages.
pub fn parse_instance(path: &Path, text: &str) -> Result<Instance, LoadError> {
    let instance: Instance =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    instance.validate().map_err(|source| LoadError::Invalid {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(instance)
}

/// SHA-256 of the instance's canonical JSON, as `sha256:<hex>`. Two instances with the same
/// hash are the same problem; solutions record it so stale ones are never reused.
pub fn content_hash(instance: &Instance) -> String {
    let canonical = serde_json::to_vec(instance).expect("an Instance always serialises");
    let digest = Sha256::digest(&canonical);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// [`content_hash`] of the instance without the name of the file it was read from, which
/// does not change the problem: one problem read through two paths has one problem hash.
pub fn problem_hash(instance: &Instance) -> String {
    let mut copy = instance.clone();
    if let Some(source) = &mut copy.source {
        source.file = None;
    }
    content_hash(&copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2^64 was reported as serde_json's rounded float, `1.8446744073709552e+19`.
    #[test]
    fn a_number_beyond_64_bits_is_quoted_as_written() {
        let text = "{\"format\": \"makespan-instance/1\", \"name\": \"k\",\n \"activities\": [{\"id\": \"a\", \"duration\": 18446744073709551616}]}";
        let err = parse_instance(Path::new("k.json"), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the number 18446744073709551616 is beyond 64-bit whole numbers"),
            "{err}"
        );
        assert!(!err.contains("e+19"), "{err}");
        let err = parse_instance(
            Path::new("k.json"),
            &text.replace("18446744073709551616", "2.5"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("2.5 is not a whole number"), "{err}");
    }

    /// A file written on one line (as harnesses write results) had every error at "line 1,
    /// column 4181": the text there is quoted, control characters escaped; a file that ends too
    /// early says so instead.
    #[test]
    fn an_error_quotes_the_text_where_it_is() {
        let padding = "{\"k\": 1}, ".repeat(400);
        let text = format!("[{padding}{{\"time\": ,\u{1b}]2;x \"action\": \"pick rice\"}}]");
        let err: serde_json::Error = serde_json::from_str::<serde_json::Value>(&text).unwrap_err();
        let shown = LoadError::json_in(Path::new("run.json"), &text, &err).to_string();
        assert!(
            shown.starts_with("run.json: line 1, column 4011: expected value, at \"…"),
            "{shown}"
        );
        assert!(shown.contains("{\\\"time\\\": ,\\u{1b}]2;x"), "{shown}");
        assert!(!shown.contains('\u{1b}'), "{shown}");
        let truncated = &text[..100];
        let err = serde_json::from_str::<serde_json::Value>(truncated).unwrap_err();
        let shown = LoadError::json_in(Path::new("run.json"), truncated, &err).to_string();
        assert!(
            shown.ends_with("(the file ends too early: is it truncated?)"),
            "{shown}"
        );
    }

    const TWO_COOKS: &str = r#"{
        "format": "makespan-instance/1",
        "name": "k",
        "time_unit": "minute",
        "agents": 2,
        "resources": [{"id": "oven"}],
        "activities": [
            {"id": "chop", "duration": 4},
            {"id": "bake", "duration": 30, "agent": "none", "uses": ["oven"]},
            {"id": "fry", "duration": 5, "agent": {"busy_for": 1}, "uses": [{"resource": "oven", "amount": 1}]}
        ],
        "precedences": [{"before": "chop", "after": "bake", "max_lag": 2}]
    }"#;

    #[test]
    fn reads_every_agent_and_resource_use_form() {
        use crate::instance::AgentUse;
        let inst = parse_instance(Path::new("k.json"), TWO_COOKS).unwrap();
        assert_eq!(inst.agents, Some(2));
        assert_eq!(inst.activities[1].agent, AgentUse::None);
        assert_eq!(inst.activities[2].agent, AgentUse::BusyFor(1));
        assert_eq!(inst.activities[2].uses[0].resource, "oven");
        assert_eq!(inst.precedences[0].max_lag, Some(2));
    }

    #[test]
    fn round_trip_keeps_the_hash() {
        let inst = parse_instance(Path::new("k.json"), TWO_COOKS).unwrap();
        let again = serde_json::to_string_pretty(&inst).unwrap();
        let back = parse_instance(Path::new("k2.json"), &again).unwrap();
        assert_eq!(inst, back);
        assert_eq!(content_hash(&inst), content_hash(&back));
    }

    #[test]
    fn truncated_json_names_file_line_and_truncation() {
        let err = parse_instance(Path::new("cut.json"), &TWO_COOKS[..120]).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("cut.json: line"), "{text}");
        assert!(text.contains("truncated"), "{text}");
    }

    #[test]
    fn unknown_field_is_an_error_naming_it() {
        let text = TWO_COOKS.replace("\"time_unit\"", "\"timeunit\"");
        let err = parse_instance(Path::new("k.json"), &text).unwrap_err();
        assert!(
            err.to_string().contains("unknown field `timeunit`"),
            "{err}"
        );
    }

    #[test]
    fn bad_agent_use_is_explained() {
        let text = TWO_COOKS.replace("\"none\"", "\"sometimes\"");
        let err = parse_instance(Path::new("k.json"), &text).unwrap_err();
        assert!(err.to_string().contains("agent"), "{err}");
    }
}
