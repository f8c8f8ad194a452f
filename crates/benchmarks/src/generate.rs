//! Seeded random families of instances shaped like the benchmarks, so agents can be
//! tested beyond the published sizes: AsyncTool chains of tool calls (no data set is
//! public) and kitchen jobs (recipes of prep, cook and plate steps for m cooks, ParaCook's
//! shape). The same seed and parameters always give the same instance.

/// An inclusive range of integers given as `N` or `A-B` on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The smallest value (inclusive).
    pub low: i64,
    /// The largest value (inclusive).
    pub high: i64,
}

impl Span {
    /// A fixed value.
    pub fn fixed(v: i64) -> Self {
        Span { low: v, high: v }
    }

    /// `low` in a name when fixed, `low-high` otherwise.
    pub fn label(&self) -> String {
        if self.low == self.high {
            self.low.to_string()
        } else {
            format!("{}-{}", self.low, self.high)
        }
    }
}

impl std::str::FromStr for Span {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let parse = |t: &str| {
            t.trim()
                .parse::<i64>()
                .ok()
                .filter(|v| *v >= 0)
                .ok_or_else(|| format!("\"{text}\" is not N or A-B with whole numbers ≥ 0"))
        };
        let span = match text.split_once('-') {
            Some((a, b)) => Span {
                low: parse(a)?,
                high: parse(b)?,
            },
            None => Span::fixed(parse(text)?),
        };
        if span.low > span.high {
            return Err(format!("\"{text}\": the range is empty (A > B)"));
        }
        Ok(span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_parse_values_and_ranges_and_reject_nonsense() {
        assert_eq!("3".parse::<Span>(), Ok(Span::fixed(3)));
        assert_eq!("1-2".parse::<Span>(), Ok(Span { low: 1, high: 2 }));
        assert!("2-1".parse::<Span>().is_err());
        assert!("x".parse::<Span>().is_err());
    }
}
