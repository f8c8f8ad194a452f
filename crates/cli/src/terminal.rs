//! Text from inputs (instance and activity names, messages quoting them) on the terminal:
//! control characters are written as escapes (`\u{1b}`), so a name cannot move the cursor,
//! recolour the screen or hide a line. Line breaks and tabs the tool itself writes stay.
//! And the progress bar of long runs, on standard error.

use std::borrow::Cow;

use indicatif::{ProgressBar, ProgressStyle};

/// `text` with every control character but `\n` and `\t` escaped.
pub fn safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if escaped(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A name on one line: line breaks escaped too.
pub fn name(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\t']) {
        Cow::Owned(safe(text).replace('\n', "\\n").replace('\t', "\\t"))
    } else {
        safe(text)
    }
}

fn escaped(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// A progress bar on standard error, hidden with `--quiet`.
pub fn progress_bar(len: usize, quiet: bool) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(len as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_characters_but_keeps_plain_text() {
        assert_eq!(safe("plain\nline"), "plain\nline");
        assert_eq!(safe("red\u{1b}[31m"), "red\\u{1b}[31m");
        assert_eq!(name("two\nlines"), "two\\nlines");
    }
}
