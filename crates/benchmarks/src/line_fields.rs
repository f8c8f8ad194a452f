//! Line-and-field reading for the whitespace-separated scheduling formats (PSPLIB `.sm`,
//! ProGen/max `.sch`, job shop `.jss`), so every malformed number is reported with its file,
//! line and field instead of a generic parse error.

use std::path::Path;

use makespan_model::instance::LoadError;

/// The largest duration, lag or amount accepted: far beyond any benchmark, and small enough
/// that sums over thousands of activities cannot overflow an `i64`.
pub const MAX_VALUE: i64 = 1_000_000_000;

/// One non-blank line, split into fields, with its 1-based line number.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    pub number: usize,
    pub fields: Vec<&'a str>,
}

/// Reads the lines of one file in order and turns bad content into [`LoadError::Format`]s
/// that say where.
pub struct Reader<'a> {
    path: &'a Path,
    lines: Vec<Line<'a>>,
    next: usize,
}

impl<'a> Reader<'a> {
    /// The non-blank lines of `text` (lines that `skip` accepts are dropped too, e.g. comments).
    pub fn new(path: &'a Path, text: &'a str, skip: impl Fn(&str) -> bool) -> Self {
        let lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !skip(l.trim_start()))
            .map(|(i, l)| Line {
                number: i + 1,
                fields: l.split_whitespace().collect(),
            })
            .collect();
        Reader {
            path,
            lines,
            next: 0,
        }
    }

    /// The next line, or an error saying what was expected when the file ends.
    pub fn line(&mut self, expected: &str) -> Result<Line<'a>, LoadError> {
        match self.lines.get(self.next) {
            Some(line) => {
                self.next += 1;
                Ok(line.clone())
            }
            None => Err(self.error(
                "end of file",
                format!("the file ends before {expected}; is it truncated?"),
            )),
        }
    }

    /// Skips lines up to and including the first one for which `pred` holds; an error naming
    /// `what` if there is none.
    pub fn seek(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Result<Line<'a>, LoadError> {
        while let Some(line) = self.lines.get(self.next) {
            self.next += 1;
            if pred(&line.fields.join(" ")) {
                return Ok(line.clone());
            }
        }
        Err(self.error(
            "end of file",
            format!("no {what} found; is this the right kind of file?"),
        ))
    }

    /// The next line without consuming it.
    pub fn peek(&self) -> Option<&Line<'a>> {
        self.lines.get(self.next)
    }

    /// A format error at a place in this file.
    pub fn error(&self, at: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError::format(self.path, at, message)
    }

    /// Field `k` (0-based) of `line` as an integer in `[min, MAX_VALUE]`; `what` names it in
    /// the error.
    pub fn int(&self, line: &Line<'_>, k: usize, what: &str, min: i64) -> Result<i64, LoadError> {
        let at = format!("line {}, field {}", line.number, k + 1);
        let Some(text) = line.fields.get(k) else {
            return Err(self.error(
                at,
                format!(
                    "the line ends before the {what}; expected more fields than the {} it has",
                    line.fields.len()
                ),
            ));
        };
        let value: i64 = text.parse().map_err(|_| {
            self.error(
                at.clone(),
                format!("the {what} is \"{text}\", not a whole number"),
            )
        })?;
        if value < min || value > MAX_VALUE {
            return Err(self.error(
                at,
                format!("the {what} is {value}; it must be between {min} and {MAX_VALUE}"),
            ));
        }
        Ok(value)
    }

    /// Like [`Reader::int`], for a 0- or 1-based index below `count + base`.
    pub fn index(
        &self,
        line: &Line<'_>,
        k: usize,
        what: &str,
        base: i64,
        count: usize,
    ) -> Result<usize, LoadError> {
        let value = self.int(line, k, what, base)?;
        let last = base + count as i64 - 1;
        if value > last {
            return Err(self.error(
                format!("line {}, field {}", line.number, k + 1),
                format!("the {what} is {value}, but the file declares only {base}..{last}"),
            ));
        }
        Ok((value - base) as usize)
    }

    /// An error unless `line` has exactly `count` fields.
    pub fn expect_fields(
        &self,
        line: &Line<'_>,
        count: usize,
        what: &str,
    ) -> Result<(), LoadError> {
        if line.fields.len() == count {
            return Ok(());
        }
        Err(self.error(
            format!("line {}", line.number),
            format!("{what} has {} fields; expected {count}", line.fields.len()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_with_their_place() {
        let path = Path::new("x.sch");
        let mut r = Reader::new(path, "# c\n\n1 -2 x\n", |l| l.starts_with('#'));
        let line = r.line("the header").unwrap();
        assert_eq!(line.number, 3);
        assert_eq!(r.int(&line, 0, "count", 0).unwrap(), 1);
        let err = r.int(&line, 1, "duration", 0).unwrap_err().to_string();
        assert_eq!(
            err,
            "x.sch: line 3, field 2: the duration is -2; it must be between 0 and 1000000000"
        );
        let err = r.int(&line, 2, "lag", 0).unwrap_err().to_string();
        assert!(err.contains("\"x\", not a whole number"), "{err}");
        let err = r.int(&line, 3, "lag", 0).unwrap_err().to_string();
        assert!(
            err.contains("field 4: the line ends before the lag"),
            "{err}"
        );
        let err = r.index(&line, 0, "machine", 0, 1).unwrap_err().to_string();
        assert!(err.contains("declares only 0..0"), "{err}");
        let err = r.line("the jobs").unwrap_err().to_string();
        assert!(err.contains("ends before the jobs"), "{err}");
    }
}
