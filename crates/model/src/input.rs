//! Reading an input file with bounds: only regular files (not `/dev/zero`, a pipe or a
//! folder), and at most [`max_file_bytes`] of them, so a hostile path cannot make a reader
//! take gigabytes. Every reader of a user's file goes through [`read_bytes`] or
//! [`read_text`].

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::instance::LoadError;

/// Largest input file read, in MiB, unless `MAKESPAN_MAX_FILE_MB` says otherwise (the
/// largest benchmark file, AsyncHow's `instances.json`, is far below it).
pub const DEFAULT_MAX_FILE_MB: u64 = 256;

/// The environment variable (set by the CLI's `--max-file-mb`) that raises the cap.
pub const MAX_FILE_MB_VAR: &str = "MAKESPAN_MAX_FILE_MB";

/// The cap on input files in bytes: `$MAKESPAN_MAX_FILE_MB` MiB, else [`DEFAULT_MAX_FILE_MB`].
pub fn max_file_bytes() -> u64 {
    let mb = std::env::var(MAX_FILE_MB_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_MAX_FILE_MB);
    mb.saturating_mul(1 << 20)
}

/// The bytes of a regular file of at most [`max_file_bytes`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Checked before opening: opening a FIFO would block.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a device, pipe or socket)"
        };
        return Err(LoadError::usage(
            path,
            format!("{what}; give a file (inputs are read whole)"),
        ));
    }
    let cap = max_file_bytes();
    let too_big = |size: u64| {
        LoadError::usage(
            path,
            format!(
                "the file is {size} bytes, over the limit of {} MiB; raise it with --max-file-mb (or {MAX_FILE_MB_VAR})",
                cap >> 20
            ),
        )
    };
    if meta.len() > cap {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // `take`: a file that grows while it is read still stops at the cap.
    File::open(path)
        .map_err(io)?
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_bytes`] as UTF-8 text; other bytes are an error naming the first bad byte.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        LoadError::format(
            path,
            format!("byte {}", e.utf8_error().valid_up_to()),
            "the file is not UTF-8 text; save it as UTF-8",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_folders_are_refused_before_reading() {
        #[cfg(unix)]
        {
            let err = read_bytes(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(err.starts_with("/dev/zero: not a regular file"), "{err}");
        }
        let dir = std::env::temp_dir();
        let err = read_bytes(&dir).unwrap_err().to_string();
        assert!(err.contains("a folder"), "{err}");
    }
}
