//! Resources held across activities (`holds`): the resource is in use from the start of
//! `from` (time 0 without one) to the end of `until` (for ever without one), together with
//! the activities that use it directly. Resources with holds are checked here, the others
//! by `resources`.

use crate::placed::Placements;
use crate::{Rule, Violation};

/// A user of a resource over `[start, end)`, by name, for the message.
struct Span {
    start: i64,
    end: i64,
    amount: i64,
    who: String,
}

/// One violation per instant at which a hold or an activity starts and pushes a resource
/// with holds over its capacity.
pub fn over_capacity(placements: &Placements, out: &mut Vec<Violation>) {
    let instance = placements.instance;
    for resource in &instance.resources {
        let holds: Vec<_> = instance
            .holds
            .iter()
            .filter(|h| h.resource == resource.id)
            .collect();
        if holds.is_empty() {
            continue;
        }
        let mut spans = Vec::new();
        for p in &placements.all {
            let amount: i64 = p
                .activity
                .uses
                .iter()
                .filter(|u| u.resource == resource.id)
                .map(|u| i64::from(u.amount))
                .sum();
            if amount > 0 {
                for piece in p.pieces.iter().filter(|x| x.start() < x.end()) {
                    spans.push(Span {
                        start: piece.start(),
                        end: piece.end(),
                        amount,
                        who: format!("`{}`", p.id()),
                    });
                }
            }
        }
        for h in holds {
            // A hold whose activities are missing is already a missing activity.
            let start = match h.from.as_deref() {
                None => Some(0),
                Some(id) => placements.get(id).map(|p| p.start()),
            };
            let end = match h.until.as_deref() {
                None => Some(i64::MAX),
                Some(id) => placements.get(id).map(|p| p.end()),
            };
            if let (Some(start), Some(end)) = (start, end) {
                let from = h.from.as_deref().unwrap_or("time 0");
                let until = h.until.as_deref().unwrap_or("the end");
                spans.push(Span {
                    start,
                    end,
                    amount: i64::from(h.amount),
                    who: format!("the hold from `{from}` until `{until}`"),
                });
            }
        }
        let capacity = i64::from(resource.capacity);
        let mut starts: Vec<i64> = spans.iter().map(|s| s.start).collect();
        starts.sort_unstable();
        starts.dedup();
        for t in starts {
            let holding: Vec<&Span> = spans.iter().filter(|s| s.start <= t && t < s.end).collect();
            let load: i64 = holding.iter().map(|s| s.amount).sum();
            if load <= capacity {
                continue;
            }
            let who: Vec<String> = holding
                .iter()
                .map(|s| format!("{} ({})", s.who, s.amount))
                .collect();
            let activities: Vec<String> = holding
                .iter()
                .map(|s| s.who.trim_matches('`').to_string())
                .collect();
            out.push(Violation::new(
                Rule::ResourceOverCapacity,
                activities,
                Some(t),
                format!(
                    "resource `{}` (capacity {capacity}) is in use by {load} units at {t}: {}",
                    resource.id,
                    who.join(", ")
                ),
                format!(
                    "release `{}` (end the activity that frees it) before starting what needs it",
                    resource.id
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, rules};
    use crate::Rule;
    use makespan_model::instance::{Hold, Resource};

    /// Two items put on one board and picked up again.
    fn board() -> makespan_model::instance::Instance {
        let mut inst = instance(
            Some(1),
            &[("put-a", 1), ("pick-a", 1), ("put-b", 1), ("pick-b", 1)],
            &[("put-a", "pick-a", 0), ("put-b", "pick-b", 0)],
        );
        inst.resources.push(Resource {
            id: "board".into(),
            capacity: 1,
            states: vec![],
        });
        for item in ["a", "b"] {
            inst.holds.push(Hold {
                resource: "board".into(),
                amount: 1,
                from: Some(format!("put-{item}")),
                until: Some(format!("pick-{item}")),
            });
        }
        inst
    }

    #[test]
    fn holds_one_after_the_other_are_clean() {
        let plan = [
            at("put-a", None, 0, 1),
            at("pick-a", None, 1, 1),
            at("put-b", None, 2, 1),
            at("pick-b", None, 3, 1),
        ];
        assert_valid(&board(), &plan);
    }

    #[test]
    fn a_put_while_the_board_holds_an_item_is_reported() {
        let plan = [
            at("put-a", None, 0, 1),
            at("put-b", None, 1, 1),
            at("pick-a", None, 2, 1),
            at("pick-b", None, 3, 1),
        ];
        assert_eq!(rules(&board(), &plan), [Rule::ResourceOverCapacity]);
    }
}
