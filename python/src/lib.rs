//! The `makespan` Python package's native module: a thin layer over the `makespan` library.
//! Each area of the API is one module with a `register` function that adds its names;
//! adding a function is one `#[pyfunction]` in its area's module, one line in its
//! `register`, and its signature in `makespan/_makespan.pyi`.

use pyo3::prelude::*;

mod certify;
mod convert;
mod errors;
mod explain;
mod interrupt;
mod load;
mod objects;
mod score;
mod solve;
mod verify;

/// Provably optimal schedules for LLM planning benchmarks, and a strict verifier for any
/// agent's plan. See `help(makespan)` and the README's "From Python".
#[pymodule]
fn _makespan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The library's messages name what to pass as this package's keyword arguments
    // (`instance=`, `data=`), not as the CLI's flags.
    makespan::setting::speak(makespan::setting::FrontEnd::Python);
    errors::register(m)?;
    objects::register(m)?;
    load::register(m)?;
    solve::register(m)?;
    verify::register(m)?;
    score::register(m)?;
    explain::register(m)?;
    certify::register(m)?;
    Ok(())
}
