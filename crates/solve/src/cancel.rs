//! Cancellation without process-global state: the caller keeps a [`Cancel`] token and trips it
//! (from a signal handler, a Python `KeyboardInterrupt`, a timeout); the library only reads it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared flag that asks long work (a batch, later a solve) to stop. Clones share the flag.
///
/// ```
/// use makespan_solve::Cancel;
/// let token = Cancel::new();
/// let seen_by_worker = token.clone();
/// assert!(!seen_by_worker.is_cancelled());
/// token.cancel();
/// assert!(seen_by_worker.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token that has not been tripped.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every holder of a clone to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on this token or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
