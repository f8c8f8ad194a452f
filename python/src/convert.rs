//! Python values to the library's options and back: JSON through Python's own `json`
//! module (so dicts are plain dicts), and the CLI's option values (`agents`, `level`, …).

use pyo3::prelude::*;
use pyo3::types::PyString;
use serde::Serialize;

use makespan::formats::recipe2plan::Level;
use makespan::ImportOptions;

use crate::errors;

/// A serialisable value as plain Python objects (dicts, lists, numbers, strings, None).
pub fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| errors::usage(format!("cannot convert to JSON: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A Python object (dict, list, …) as JSON text.
pub fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value
        .py()
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()
}

/// A single value or a sequence of them, as a list.
fn items<'py>(value: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if value.is_instance_of::<PyString>() || !value.hasattr("__iter__")? {
        return Ok(vec![value.clone()]);
    }
    value.try_iter()?.collect()
}

/// `agents`: a count, `None` or `"unlimited"` for unlimited agents, or a list of them.
fn agents(value: &Bound<'_, PyAny>) -> PyResult<Vec<Option<u32>>> {
    let one = |item: &Bound<'_, PyAny>| -> PyResult<Option<u32>> {
        if item.is_none() {
            return Ok(None);
        }
        if let Ok(text) = item.extract::<String>() {
            return match text.trim() {
                "unlimited" | "inf" | "null" => Ok(None),
                other => other
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .map(Some)
                    .ok_or_else(|| {
                        errors::usage(format!(
                            "agents: \"{other}\" is not a positive agent count or \"unlimited\""
                        ))
                    }),
            };
        }
        match item.extract::<i64>() {
            Ok(n) if n > 0 && n <= i64::from(u32::MAX) => Ok(Some(n as u32)),
            _ => Err(errors::usage(format!(
                "agents: {} is not a positive agent count or \"unlimited\"",
                item.repr()?
            ))),
        }
    };
    items(value)?.iter().map(one).collect()
}

/// `level`: `"easy"`, `"medium"` or a list of them (Recipe2Plan).
fn levels(value: &Bound<'_, PyAny>) -> PyResult<Vec<Level>> {
    items(value)?
        .iter()
        .map(|item| {
            let text: String = item.extract()?;
            Level::parse(&text).map_err(|e| errors::usage(format!("level: {e}")))
        })
        .collect()
}

/// `combine`: a number of tasks per run, or a list of them (TimeArena).
fn combine(value: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    items(value)?
        .iter()
        .map(|item| match item.extract::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(errors::usage(format!(
                "combine: {} is not a number of tasks per run (at least 1)",
                item.repr()?
            ))),
        })
        .collect()
}

/// The import options of `load` and `load_instance`, named as the CLI's.
pub fn import_options(
    agents_: Option<&Bound<'_, PyAny>>,
    combine_: Option<&Bound<'_, PyAny>>,
    level: Option<&Bound<'_, PyAny>>,
    constraint: bool,
) -> PyResult<ImportOptions> {
    Ok(ImportOptions {
        agents: agents_.map(agents).transpose()?.unwrap_or_default(),
        combine: combine_.map(combine).transpose()?.unwrap_or_default(),
        constraint,
        levels: level.map(levels).transpose()?.unwrap_or_default(),
        ..ImportOptions::default()
    })
}
