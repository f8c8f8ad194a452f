//! Ctrl-C (SIGINT) and SIGTERM (schedulers, `timeout`) during a batch, handled alike. The
//! first trips the batch's [`Cancel`] token: instances already being solved finish and are
//! written (each file atomically), the summary covers what is complete, and the next run
//! resumes from there. A second exits at once, after removing this process's temporary
//! files from the output folders (atomic writes leave no partial solution file behind).
//! Signals within [`SAME_EVENT`] of the first are that first one again: GNU `timeout` sends
//! SIGTERM to its child and then to the child's group, and a terminal's Ctrl-C reaches every
//! process of the group, so one event often arrives twice (and exited at once, losing the
//! running instance's result, in 2 of 20 runs).
//! Only the binary installs a handler: the libraries never touch signals.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use makespan::batch::temp;
use makespan::Cancel;

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_CODE: u8 = 130;

/// How close a second signal must follow the first to be the same event (the two SIGTERMs of
/// `timeout` are microseconds apart; a person presses Ctrl-C again far later).
const SAME_EVENT: Duration = Duration::from_millis(50);

/// Installs the handler (once per process) and returns the token it trips; `folders` are
/// the folders this run writes temporaries into.
pub fn install(folders: Vec<PathBuf>) -> Result<Cancel, String> {
    let token = Cancel::new();
    let tripped = token.clone();
    let first = OnceLock::new();
    match ctrlc::set_handler(move || {
        if first
            .get()
            .is_some_and(|at: &Instant| at.elapsed() < SAME_EVENT)
        {
            return;
        }
        if tripped.is_cancelled() {
            for folder in &folders {
                temp::remove_own(folder);
            }
            eprintln!("\ninterrupted again: exiting now");
            std::process::exit(i32::from(EXIT_CODE));
        }
        let _ = first.set(Instant::now());
        tripped.cancel();
        eprintln!(
            "\ninterrupted: finishing the instances being solved, then stopping (interrupt again to exit now)"
        );
    }) {
        Ok(()) => Ok(token),
        Err(e) => Err(format!("cannot install the interrupt handler: {e}")),
    }
}
