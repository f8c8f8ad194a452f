//! The library's errors as Python exceptions under one base, `makespan.Error(ValueError)`,
//! with the same message (file, place, fix) as the CLI prints.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use makespan::{LoadError, ReferenceError, SolveError};

create_exception!(
    makespan,
    Error,
    PyValueError,
    "Base of every makespan error; a ValueError, carrying the CLI's message."
);
create_exception!(
    makespan,
    ReadError,
    Error,
    "A file or text that cannot be read: missing, not JSON, or breaking its benchmark's format."
);
create_exception!(
    makespan,
    InvalidInstanceError,
    Error,
    "An instance that breaks the model's rules (every problem is listed)."
);
create_exception!(
    makespan,
    UnsupportedError,
    Error,
    "An instance that uses a feature the solver does not handle yet."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add(
        "InvalidInstanceError",
        py.get_type::<InvalidInstanceError>(),
    )?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    Ok(())
}

/// The exception for a library error (a `From` impl is not allowed on foreign types).
pub fn load(err: LoadError) -> PyErr {
    let message = err.to_string();
    match err {
        LoadError::Io { .. } | LoadError::Json { .. } | LoadError::Format { .. } => {
            ReadError::new_err(message)
        }
        LoadError::Invalid { .. } => InvalidInstanceError::new_err(message),
        LoadError::Usage { .. } => Error::new_err(message),
    }
}

pub fn solve(err: SolveError) -> PyErr {
    match err {
        SolveError::Invalid(_) => InvalidInstanceError::new_err(err.to_string()),
        SolveError::Unsupported(_) => UnsupportedError::new_err(err.to_string()),
    }
}

pub fn reference(err: ReferenceError) -> PyErr {
    Error::new_err(format!("solution: {err}"))
}

/// A wrong argument, in the words of the CLI's option errors.
pub fn usage(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}
