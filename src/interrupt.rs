//! Ctrl-C during a batch. The first interrupt asks the batch to stop taking new instances:
//! instances already being solved finish and are written (each file atomically), the summary
//! covers what is complete, and the next run resumes from there. A second interrupt exits at
//! once; atomic writes still leave no partial solution file behind.

use std::sync::atomic::{AtomicBool, Ordering};

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_CODE: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once per process; later calls do nothing).
pub fn install() -> Result<(), String> {
    match ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: exiting now");
            std::process::exit(i32::from(EXIT_CODE));
        }
        eprintln!(
            "\ninterrupted: finishing the instances being solved, then stopping (Ctrl-C again to exit now)"
        );
    }) {
        Ok(()) | Err(ctrlc::Error::MultipleHandlers) => Ok(()),
        Err(e) => Err(format!("cannot install the Ctrl-C handler: {e}")),
    }
}

/// Whether an interrupt asked the batch to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
