//! AsyncHow duration texts (`"30 min"`, `"2 hours 30 minutes"`, `"1 month"`) in integer
//! seconds.
//!
//! Two readings exist because upstream got compound texts wrong: [`parse_duration_text`]
//! sums every component, as the prompt shows the text to the model, while
//! [`upstream_duration_reading`] keeps only the last component, as upstream's
//! `get_timedelta_interval` did when it computed the gold. Comparing the two is how the
//! importer finds the steps the gold misread, instead of trusting a hard-coded list.

/// Seconds in a day.
const DAY: i64 = 86_400;

/// One `N unit` component as `(lo, hi)` seconds: a month is 28..31 days and a year
/// 365..366 days, every other unit is exact.
fn component(count: &str, unit: &str) -> Result<(i64, i64), String> {
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "\"{count}\" is not a whole number of {unit}; write durations as \"N unit\""
        ));
    }
    let too_large = || format!("{count} {unit} does not fit in 64-bit seconds");
    let n: i64 = count.parse().map_err(|_| too_large())?;
    let (lo, hi) = match unit.to_ascii_lowercase().as_str() {
        "sec" | "secs" | "second" | "seconds" => (1, 1),
        "min" | "mins" | "minute" | "minutes" => (60, 60),
        "hour" | "hours" => (3_600, 3_600),
        "day" | "days" => (DAY, DAY),
        "week" | "weeks" => (7 * DAY, 7 * DAY),
        "month" | "months" => (28 * DAY, 31 * DAY),
        "year" | "years" => (365 * DAY, 366 * DAY),
        other => {
            return Err(format!(
                "unknown time unit \"{other}\"; use sec, min, hour, day, week, month or year \
                 (singular or plural)"
            ))
        }
    };
    match (n.checked_mul(lo), n.checked_mul(hi)) {
        (Some(lo), Some(hi)) => Ok((lo, hi)),
        _ => Err(too_large()),
    }
}

/// Every `N unit` component of `text`, in order.
fn components(text: &str) -> Result<Vec<(i64, i64)>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Err("the duration is empty; write it as \"N unit\", e.g. \"30 min\"".into());
    }
    if !words.len().is_multiple_of(2) {
        return Err(format!(
            "\"{text}\" is not a sequence of \"N unit\" pairs, e.g. \"2 hours 30 minutes\""
        ));
    }
    words
        .chunks(2)
        .map(|pair| component(pair[0], pair[1]))
        .collect()
}

/// The duration a text means, as `(lo, hi)` seconds with every component summed:
/// `"2 hours 30 minutes"` is `(9000, 9000)`, `"1 month"` is `(2419200, 2678400)`.
///
/// ```
/// use makespan_benchmarks::asynchow::parse_duration_text;
/// assert_eq!(parse_duration_text("2 hours 30 minutes"), Ok((9_000, 9_000)));
/// assert!(parse_duration_text("3 fortnights").unwrap_err().0.contains("fortnights"));
/// ```
pub fn parse_duration_text(text: &str) -> Result<(i64, i64), crate::BadValue> {
    components(text)?
        .into_iter()
        .try_fold((0i64, 0i64), |(lo, hi), (a, b)| {
            lo.checked_add(a).zip(hi.checked_add(b))
        })
        .ok_or_else(|| format!("\"{text}\" does not fit in 64-bit seconds").into())
}

/// The duration upstream's parser read from a text: only the **last** component, so
/// `"2 hours 30 minutes"` is `(1800, 1800)`. Used only to explain upstream's gold.
pub fn upstream_duration_reading(text: &str) -> Result<(i64, i64), crate::BadValue> {
    components(text)?
        .last()
        .copied()
        .ok_or_else(|| format!("\"{text}\" has no duration").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_spelling_of_the_benchmark_is_read() {
        for (text, secs) in [
            ("45 sec", 45),
            ("5 seconds", 5),
            ("3 min", 180),
            ("10 minutes", 600),
            ("1 hour", 3_600),
            ("2 hours", 7_200),
            ("1 day", DAY),
            ("3 days", 3 * DAY),
            ("2 week", 14 * DAY),
            ("0 min", 0),
        ] {
            assert_eq!(parse_duration_text(text), Ok((secs, secs)), "{text}");
        }
    }

    #[test]
    fn month_and_year_are_intervals() {
        assert_eq!(parse_duration_text("1 month"), Ok((28 * DAY, 31 * DAY)));
        assert_eq!(parse_duration_text("2 year"), Ok((730 * DAY, 732 * DAY)));
    }

    #[test]
    fn compound_texts_sum_every_component() {
        assert_eq!(
            parse_duration_text("2 hours 30 minutes"),
            Ok((9_000, 9_000))
        );
        assert_eq!(
            parse_duration_text("8 days 8 hours"),
            Ok((8 * DAY + 28_800, 8 * DAY + 28_800))
        );
    }

    #[test]
    fn upstream_reading_keeps_only_the_last_component() {
        assert_eq!(
            upstream_duration_reading("2 hours 30 minutes"),
            Ok((1_800, 1_800))
        );
        assert_eq!(upstream_duration_reading("30 minutes"), Ok((1_800, 1_800)));
    }

    #[test]
    fn unknown_unit_is_named_with_the_accepted_ones() {
        let err = parse_duration_text("3 fortnights").unwrap_err().0;
        assert!(err.contains("unknown time unit \"fortnights\""), "{err}");
        assert!(err.contains("month"), "{err}");
    }

    #[test]
    fn malformed_texts_are_explained() {
        assert!(parse_duration_text("").unwrap_err().0.contains("empty"));
        assert!(parse_duration_text("2 hours 30")
            .unwrap_err()
            .0
            .contains("pairs"));
        assert!(parse_duration_text("1.5 hours")
            .unwrap_err()
            .0
            .contains("whole number"));
        assert!(parse_duration_text("-2 hours")
            .unwrap_err()
            .0
            .contains("whole number"));
        assert!(parse_duration_text("99999999999999 year")
            .unwrap_err()
            .0
            .contains("64-bit"));
    }
}
