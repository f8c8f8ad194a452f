//! Ctrl-C (SIGINT) and SIGTERM (schedulers, `timeout`) during a batch, handled alike. The
//! first trips the batch's [`Cancel`] token: instances already being solved finish and are
//! written (each file atomically), the summary covers what is complete, and the next run
//! resumes from there. A second exits at once, after removing this process's temporary
//! files from the output folders (atomic writes leave no partial solution file behind).
//! Only the binary installs a handler: the libraries never touch signals.

use std::path::PathBuf;

use makespan::batch::temp;
use makespan::Cancel;

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_CODE: u8 = 130;

/// Installs the handler (once per process) and returns the token it trips; `folders` are
/// the folders this run writes temporaries into.
pub fn install(folders: Vec<PathBuf>) -> Result<Cancel, String> {
    let token = Cancel::new();
    let tripped = token.clone();
    match ctrlc::set_handler(move || {
        if tripped.is_cancelled() {
            for folder in &folders {
                temp::remove_own(folder);
            }
            eprintln!("\ninterrupted again: exiting now");
            std::process::exit(i32::from(EXIT_CODE));
        }
        tripped.cancel();
        eprintln!(
            "\ninterrupted: finishing the instances being solved, then stopping (interrupt again to exit now)"
        );
    }) {
        Ok(()) => Ok(token),
        Err(e) => Err(format!("cannot install the interrupt handler: {e}")),
    }
}
