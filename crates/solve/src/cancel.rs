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
pub struct Cancel {
    own: Arc<AtomicBool>,
    /// The token this one was made from ([`Cancel::child`]): tripping it trips this one.
    parent: Option<Box<Cancel>>,
}

impl Cancel {
    /// A token that has not been tripped.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// A token that is cancelled with this one, and can also be cancelled alone (one of two
    /// methods racing stops the other without stopping the caller).
    ///
    /// ```
    /// use makespan_solve::Cancel;
    /// let caller = Cancel::new();
    /// let (a, b) = (caller.child(), caller.child());
    /// a.cancel();
    /// assert!(a.is_cancelled() && !b.is_cancelled() && !caller.is_cancelled());
    /// caller.cancel();
    /// assert!(b.is_cancelled());
    /// ```
    pub fn child(&self) -> Cancel {
        Cancel {
            own: Arc::default(),
            parent: Some(Box::new(self.clone())),
        }
    }

    /// Asks every holder of a clone (and of its children) to stop.
    pub fn cancel(&self) {
        self.own.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on this token, a clone of it, or the token it
    /// is a child of.
    pub fn is_cancelled(&self) -> bool {
        self.own.load(Ordering::SeqCst) || self.parent.as_ref().is_some_and(|p| p.is_cancelled())
    }
}
