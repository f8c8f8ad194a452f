//! Long work without the GIL, interruptible by Ctrl-C: the work runs on its own thread
//! while the calling thread polls Python's signal handlers a few times a second; on
//! `KeyboardInterrupt` (or any exception a handler raises) it trips the [`Cancel`] token,
//! waits for the work to stop, and raises. No thread is left running.

use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use makespan::Cancel;

/// How often the waiting thread runs Python's signal handlers.
const POLL: Duration = Duration::from_millis(100);

/// Runs `work` with the GIL released; `cancel` must be the token the work watches.
pub fn run<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = std::thread::Builder::new()
                .name("makespan-solve".into())
                .stack_size(makespan::batch::WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let value = work();
                    let _ = done.send(());
                    value
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
            let mut raised = None;
            // Disconnected: the worker ended (normally or not); the join says which.
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if let Err(err) = Python::attach(|py| py.check_signals()) {
                    cancel.cancel();
                    raised = Some(err);
                    break;
                }
            }
            let value = worker
                .join()
                .map_err(|_| PyRuntimeError::new_err("internal error: the solver panicked"))?;
            match raised {
                Some(err) => Err(err),
                None => Ok(value),
            }
        })
    })
}
