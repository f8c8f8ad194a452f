//! Pieces that make sense on their own: inside time, in order, adding up to the duration,
//! and only one of them unless the activity may be preempted.

use std::collections::{HashMap, HashSet};

use makespan_model::instance::{Activity, Instance};
use makespan_model::schedule::{Piece, ScheduledActivity};

use crate::placed::Placements;
use crate::{Rule, Violation};

/// Malformed pieces of the first entry of each known activity. A structural problem
/// (no pieces, end before start, negative time, overlap) hides the length check, which
/// would only repeat it.
pub fn bad_pieces(instance: &Instance, schedule: &[ScheduledActivity], out: &mut Vec<Violation>) {
    let activities: HashMap<&str, &Activity> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let mut seen = HashSet::new();
    for entry in schedule {
        let Some(&activity) = activities.get(entry.activity.as_str()) else {
            continue;
        };
        if seen.insert(activity.id.as_str()) {
            check_entry(activity, &entry.pieces, out);
        }
    }
}

/// Malformed pieces reported one by one for an activity; the rest are counted in one more
/// violation (100,000 overlapping pieces are one mistake, not 100,000 lines).
const SHOWN_PER_ACTIVITY: usize = 3;

fn check_entry(activity: &Activity, pieces: &[Piece], out: &mut Vec<Violation>) {
    let mut found = Vec::new();
    check_pieces(activity, pieces, &mut found);
    let hidden = found.len().saturating_sub(SHOWN_PER_ACTIVITY);
    let first_hidden = found.get(SHOWN_PER_ACTIVITY).and_then(|v| v.time);
    out.extend(found.into_iter().take(SHOWN_PER_ACTIVITY));
    if hidden > 0 {
        let id = &activity.id;
        out.push(Violation::new(
            Rule::BadPiece,
            vec![id.clone()],
            first_hidden,
            format!("{hidden} more malformed or overlapping pieces of `{id}`"),
            format!(
                "give `{id}` disjoint pieces adding up to {}",
                activity.duration
            ),
        ));
    }
}

fn check_pieces(activity: &Activity, pieces: &[Piece], out: &mut Vec<Violation>) {
    let id = &activity.id;
    let d = activity.duration;
    let mut bad = |time: Option<i64>, message: String, hint: String| {
        out.push(Violation::new(
            Rule::BadPiece,
            vec![id.clone()],
            time,
            message,
            hint,
        ));
    };
    if pieces.is_empty() {
        bad(
            None,
            format!("`{id}` has no pieces"),
            format!("give `{id}` a start, or one piece [start, start + {d}]"),
        );
        return;
    }
    let mut structural = false;
    for p in pieces {
        let (s, e) = (p.start(), p.end());
        let problem = if e < s {
            Some((
                format!("a piece of `{id}` ends at {e}, before it starts at {s}"),
                format!(
                    "write the piece as [start, end] with end ≥ start, e.g. [{s}, {}]",
                    s.saturating_add(d)
                ),
            ))
        } else if s < 0 {
            Some((
                format!("a piece of `{id}` starts at {s}, before time 0"),
                format!("start `{id}` at 0 or later"),
            ))
        } else if s == e && d > 0 {
            Some((
                format!("`{id}` has an empty piece [{s}, {e}]"),
                format!("remove the empty piece; `{id}` takes {d}"),
            ))
        } else {
            None
        };
        if let Some((message, hint)) = problem {
            bad(Some(s), message, hint);
            structural = true;
        }
    }
    if structural {
        return;
    }
    let mut sorted = pieces.to_vec();
    sorted.sort();
    for w in sorted.windows(2) {
        if w[1].start() < w[0].end() {
            structural = true;
            bad(
                Some(w[1].start()),
                format!(
                    "pieces [{}, {}] and [{}, {}] of `{id}` overlap",
                    w[0].start(),
                    w[0].end(),
                    w[1].start(),
                    w[1].end()
                ),
                format!("make the pieces of `{id}` disjoint"),
            );
        }
    }
    if structural {
        return;
    }
    let total = sorted
        .iter()
        .fold(0i64, |sum, p| sum.saturating_add(p.end() - p.start()));
    if d == 0 && sorted.len() > 1 {
        bad(
            Some(sorted[0].start()),
            format!("`{id}` takes no time but has {} pieces", sorted.len()),
            format!("give `{id}` one piece [s, s]"),
        );
    } else if total != d {
        let s = sorted[0].start();
        bad(
            Some(s),
            format!("the pieces of `{id}` add up to {total}, but its duration is {d}"),
            if sorted.len() == 1 {
                format!("run `{id}` over [{s}, {}]", s.saturating_add(d))
            } else {
                format!("make the pieces of `{id}` add up to {d}")
            },
        );
    }
}

/// A non-preemptible activity split into several pieces, even touching ones: such an
/// activity is one action in every benchmark, and a split would hide a pause.
pub fn not_preemptible(placements: &Placements, out: &mut Vec<Violation>) {
    for p in placements
        .all
        .iter()
        .filter(|p| !p.activity.preemptible && p.pieces.len() > 1)
    {
        let id = p.id();
        let d = p.activity.duration;
        out.push(Violation::new(
            Rule::NotPreemptible,
            vec![id.to_string()],
            p.pieces.get(1).map(Piece::start),
            format!(
                "`{id}` may not be interrupted but is split into {} pieces (the second starts at {})",
                p.pieces.len(),
                p.pieces[1].start()
            ),
            format!("run `{id}` in one piece, e.g. [{}, {}]", p.start(), p.start().saturating_add(d)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{at, instance, pieces, rules};
    use crate::Rule;

    #[test]
    fn end_before_start_is_a_bad_piece() {
        let inst = instance(Some(1), &[("a", 2)], &[]);
        assert_eq!(
            rules(&inst, &[pieces("a", Some(0), &[(5, 3)])]),
            [Rule::BadPiece]
        );
    }

    #[test]
    fn negative_start_is_a_bad_piece() {
        let inst = instance(Some(1), &[("a", 2)], &[]);
        assert_eq!(rules(&inst, &[at("a", Some(0), -1, 2)]), [Rule::BadPiece]);
    }

    #[test]
    fn wrong_total_length_is_a_bad_piece() {
        let inst = instance(Some(1), &[("a", 2)], &[]);
        let report = crate::verify(&inst, &[at("a", Some(0), 0, 3)]);
        assert_eq!(report.violations.len(), 1);
        assert_eq!(report.violations[0].rule, Rule::BadPiece);
        assert_eq!(report.violations[0].hint, "run `a` over [0, 2]");
    }

    #[test]
    fn no_pieces_and_empty_pieces_are_bad() {
        let inst = instance(Some(1), &[("a", 2), ("b", 2)], &[]);
        let plan = [
            pieces("a", Some(0), &[]),
            pieces("b", Some(0), &[(0, 0), (0, 2)]),
        ];
        assert_eq!(rules(&inst, &plan), [Rule::BadPiece, Rule::BadPiece]);
    }

    #[test]
    fn zero_duration_activity_has_one_empty_piece() {
        let inst = instance(Some(1), &[("done", 0)], &[]);
        assert!(rules(&inst, &[at("done", Some(0), 4, 0)]).is_empty());
        assert_eq!(
            rules(&inst, &[pieces("done", Some(0), &[(4, 4), (5, 5)])]),
            [Rule::BadPiece, Rule::NotPreemptible]
        );
    }

    #[test]
    fn overlapping_pieces_of_one_activity_are_bad() {
        let mut inst = instance(Some(1), &[("a", 4)], &[]);
        inst.activities[0].preemptible = true;
        assert_eq!(
            rules(&inst, &[pieces("a", Some(0), &[(0, 3), (2, 3)])]),
            [Rule::BadPiece]
        );
    }

    #[test]
    fn split_non_preemptible_activity_is_reported() {
        let inst = instance(Some(1), &[("a", 4)], &[]);
        assert_eq!(
            rules(&inst, &[pieces("a", Some(0), &[(0, 2), (5, 7)])]),
            [Rule::NotPreemptible]
        );
    }

    #[test]
    fn split_preemptible_activity_is_clean() {
        let mut inst = instance(Some(1), &[("a", 4)], &[]);
        inst.activities[0].preemptible = true;
        assert!(rules(&inst, &[pieces("a", Some(0), &[(5, 7), (0, 2)])]).is_empty());
    }
}
