//! Python values to the library's options and back: JSON through Python's own `json`
//! module (so dicts are plain dicts), and the CLI's option values (`agents`, `level`, …).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde::Serialize;

use makespan::benchmarks::parse_agents;
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

/// One option value as the text the library parses: `None` is `unlimited` (for `agents`),
/// a bool `true`/`false` (for a switch), anything else its `str()`.
fn text(item: &Bound<'_, PyAny>) -> PyResult<String> {
    if item.is_none() {
        return Ok("unlimited".into());
    }
    if let Ok(flag) = item.extract::<bool>() {
        return Ok(flag.to_string());
    }
    Ok(item.str()?.to_string())
}

/// The import options of `load` and `load_instance`, named as the CLI's: `agents`, and
/// each benchmark's own options as keywords (`combine`, `level`, `constraint`, …), checked
/// by the library as the CLI's flags are.
pub fn import_options(
    agents: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<ImportOptions> {
    let agents = match agents {
        Some(value) => items(value)?
            .iter()
            .map(text)
            .collect::<PyResult<Vec<_>>>()?,
        None => Vec::new(),
    };
    let mut import = ImportOptions {
        agents: parse_agents(&agents).map_err(|e| errors::usage(format!("agents: {e}")))?,
        ..ImportOptions::default()
    };
    for (key, value) in options.into_iter().flatten() {
        let name: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        let values = items(&value)?
            .iter()
            .map(text)
            .collect::<PyResult<Vec<_>>>()?;
        import
            .set(&name, &values)
            .map_err(|e| errors::usage(format!("{name}: {e}")))?;
    }
    Ok(import)
}
