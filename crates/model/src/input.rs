//! The one bounded layer every reader of a user's file goes through: only regular files (not
//! `/dev/zero`, a pipe or a folder: opening a FIFO would block), at most [`max_file_bytes`] of
//! them, and a gzipped file unpacks to at most as many, so a hostile path or archive cannot
//! make a reader wait for ever or take gigabytes. [`read_bytes`] and [`read_text`] read a file
//! whole; [`open`] and [`open_maybe_gzipped`] stream one (a proof log) under the same caps;
//! [`nesting_depth`] measures brackets without recursion for the parsers of other crates that
//! recurse per level. `tests/limits.rs` scans the sources for readers that bypass this module.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::instance::LoadError;

/// Largest input file read, in MiB, unless `MAKESPAN_MAX_FILE_MB` says otherwise (the
/// largest benchmark file is far below it).
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

/// The size of `path` when it is a regular file of at most [`max_file_bytes`].
fn check_file(path: &Path) -> Result<u64, LoadError> {
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
    if meta.len() > cap {
        return Err(LoadError::usage(path, too_big(meta.len(), cap)));
    }
    Ok(meta.len())
}

fn too_big(size: u64, cap: u64) -> String {
    format!(
        "the file is {size} bytes, over the limit of {} MiB; raise it with --max-file-mb (or {MAX_FILE_MB_VAR})",
        cap >> 20
    )
}

fn unpacks_past(cap: u64) -> String {
    format!(
        "unpacks to more than {} MiB; raise the limit with --max-file-mb (or {MAX_FILE_MB_VAR})",
        cap >> 20
    )
}

/// A gzipped file that unpacks past the cap: the same limit as every file read.
pub fn unpacks_too_large(path: &Path, cap: u64) -> LoadError {
    LoadError::usage(path, unpacks_past(cap))
}

/// The bytes of a regular file of at most [`max_file_bytes`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, LoadError> {
    let size = check_file(path)?;
    let mut bytes = Vec::with_capacity(size as usize);
    // Capped: a file that grows while it is read still stops at the cap.
    open_checked(path)?
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, e))?;
    Ok(bytes)
}

fn open_checked(path: &Path) -> Result<Capped<File>, LoadError> {
    let file = File::open(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Capped::new(file, max_file_bytes(), false))
}

/// A regular file of at most [`max_file_bytes`], opened for streaming: reading past the cap
/// (a file that grows) is an error naming the limit.
pub fn open(path: &Path) -> Result<Capped<File>, LoadError> {
    check_file(path)?;
    open_checked(path)
}

/// [`open`], unpacked when the name ends in `.gz`: the unpacked stream fails past
/// [`max_file_bytes`] too (a small gzip can unpack to gigabytes, on one line).
pub fn open_maybe_gzipped(path: &Path) -> Result<Box<dyn BufRead>, LoadError> {
    let file = open(path)?;
    Ok(if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(Capped::new(
            flate2::read::GzDecoder::new(file),
            max_file_bytes(),
            true,
        )))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// A gzipped file's text (its bytes already read through [`read_bytes`]), unpacked to at most
/// [`max_file_bytes`].
pub fn gunzip_text(path: &Path, bytes: &[u8]) -> Result<String, LoadError> {
    let mut text = String::new();
    Capped::new(flate2::read::GzDecoder::new(bytes), max_file_bytes(), true)
        .read_to_string(&mut text)
        .map_err(|e| match over_cap(&e) {
            Some(message) => LoadError::usage(path, message),
            None => LoadError::format(
                path,
                "gzip stream",
                format!("{e}: not gzipped UTF-8 text; write the file again"),
            ),
        })?;
    Ok(text)
}

/// An error of reading `path`: a cap's message as it is, others as I/O errors.
pub fn read_error(path: &Path, e: std::io::Error) -> LoadError {
    match over_cap(&e) {
        Some(message) => LoadError::usage(path, message),
        None => LoadError::Io {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

/// The limit's message when `e` is a [`Capped`] reader's stop.
fn over_cap(e: &std::io::Error) -> Option<String> {
    e.get_ref()?.downcast_ref::<OverCap>().map(|o| o.0.clone())
}

/// A [`Capped`] reader's stop, carried through `std::io`: the limit and how to raise it.
#[derive(Debug)]
struct OverCap(String);

impl std::fmt::Display for OverCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OverCap {}

/// A reader that fails, naming the limit, once more than its cap of bytes would come
/// through it (where `take` would end the stream silently, as if the file were shorter).
pub struct Capped<R> {
    inner: R,
    left: u64,
    cap: u64,
    unpacked: bool,
}

impl<R> Capped<R> {
    fn new(inner: R, cap: u64, unpacked: bool) -> Self {
        Capped {
            inner,
            left: cap,
            cap,
            unpacked,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // One byte past the cap is read to tell a stream of exactly `cap` bytes from a longer one.
        let room = (self.left + 1).min(buf.len() as u64) as usize;
        let n = self.inner.read(&mut buf[..room])?;
        if n as u64 > self.left {
            let message = if self.unpacked {
                unpacks_past(self.cap)
            } else {
                too_big(self.cap + 1, self.cap)
            };
            return Err(std::io::Error::other(OverCap(message)));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// `name` resolved in `folder`, when it lies there or below it after following links: no
/// absolute path, no `..`, no link out. For files that one input names (a certificate, a proof
/// log), which would otherwise make a reader open any file its user can read.
pub fn confined(folder: &Path, name: &str) -> Result<PathBuf, String> {
    let relative = Path::new(name);
    let outside = || {
        format!("\"{name}\" is outside the folder of the file that names it; such files must lie beside it or below it")
    };
    if name.is_empty()
        || relative
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(outside());
    }
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let path = folder.join(relative);
    // A missing file is reported by its reader; a present one must not be a link out.
    if let (Ok(real), Ok(root)) = (path.canonicalize(), folder.canonicalize()) {
        if !real.starts_with(root) {
            return Err(outside());
        }
    }
    Ok(path)
}

/// The deepest nesting of `open`/`close` brackets in `text` outside `"…"` strings (with `\`
/// escapes), counted without recursion: for parsers of other crates that recurse once per
/// level, which a checker must not hand a file nested thousands deep.
pub fn nesting_depth(text: &str, open: &[u8], close: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if open.contains(&b) {
            depth += 1;
            deepest = deepest.max(depth);
        } else if close.contains(&b) {
            depth = depth.saturating_sub(1);
        }
    }
    deepest
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

    #[test]
    fn a_capped_stream_fails_past_its_cap_instead_of_ending_early() {
        let bytes = [7u8; 100];
        let mut exact = Vec::new();
        Capped::new(&bytes[..], 100, false)
            .read_to_end(&mut exact)
            .unwrap();
        assert_eq!(exact.len(), 100);
        let err = Capped::new(&bytes[..], 99, false)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        let err = read_error(Path::new("x"), err).to_string();
        assert!(
            err.starts_with("x: the file is 100 bytes, over the limit"),
            "{err}"
        );
    }

    #[test]
    fn a_gzip_that_unpacks_past_the_cap_is_refused_by_name() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![b'a'; 1 << 16]).unwrap();
        let packed = gz.finish().unwrap();
        let mut reader = Capped::new(flate2::read::GzDecoder::new(&packed[..]), 1 << 10, true);
        let err = reader.read_to_end(&mut Vec::new()).unwrap_err();
        let err = read_error(Path::new("p.gz"), err).to_string();
        assert!(
            err.starts_with("p.gz: unpacks to more than 0 MiB; raise the limit with --max-file-mb"),
            "{err}"
        );
        assert_eq!(
            gunzip_text(Path::new("p.gz"), &packed).unwrap().len(),
            1 << 16
        );
    }

    #[test]
    fn nesting_is_counted_outside_strings_without_recursion() {
        assert_eq!(nesting_depth("a([1,[2]]) \"((((\" {x}", b"([{", b")]}"), 3);
        let deep = format!("{}{}", "(".repeat(1_000_000), ")".repeat(1_000_000));
        assert_eq!(nesting_depth(&deep, b"(", b")"), 1_000_000);
    }

    #[test]
    fn files_named_by_an_input_stay_in_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        assert_eq!(
            confined(dir.path(), "a.json").unwrap(),
            dir.path().join("a.json")
        );
        for outside in ["/etc/passwd", "../a.json", "sub/../../a.json", ""] {
            assert!(confined(dir.path(), outside).is_err(), "{outside}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", dir.path().join("link")).unwrap();
            assert!(confined(dir.path(), "link/passwd").is_err());
        }
    }
}
