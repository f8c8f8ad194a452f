//! Order variables of a DRCP model: 0–1 variables that stand for one fact about a
//! schedule, named for it, through which the model states setups and holds. The checker
//! sets each to 1 exactly where its fact holds; then
//! - a row that guards a lag by it holds where the fact implies the lag (and says nothing
//!   where the variable is 0: checked against the values a schedule may take), and
//! - a row "at least one of these is 1" holds where the instance forces one of the facts.
//!
//! The facts, with the instance's indices:
//! - `b_<i>_<j>`: activity `i`'s busy time, then the setup from its station to `j`'s, ends by
//!   the start of activity `j`. Of two activities that keep the one agent busy, one comes
//!   first. When every busy activity is at a station and the setups (each pair's largest,
//!   none within one station) obey the triangle inequality, whatever the agent does in
//!   between takes at least the direct setup, so the first one's fact holds.
//! - `o_<r>_<p>_<q>`: on resource `r`, span `p` ends by the start of span `q`. A span is
//!   `h<f>t<u>` (every hold of `r` from the start of activity `f`, or time 0 for `z`, to the
//!   end of activity `u`, or of the schedule for `e`, their amounts added) or `u<j>`
//!   (activity `j`'s use of `r`). Of spans whose amounts exceed the capacity, each at least
//!   one unit long, two do not overlap: spans that overlap pairwise share the latest of
//!   their starts, where the verifier would find them over the capacity. So some order
//!   between two of them holds, and it is one that can: no span ends by the start of one
//!   from time 0 (it would end by 0), and a span to the end of the schedule ends by no start.

use std::collections::{BTreeMap, BTreeSet};

use makespan_model::instance::{Activity, Instance};

use crate::rules;

/// What an order variable stands for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fact {
    /// `b_<first>_<then>`.
    Busy { first: usize, then: usize },
    /// `o_<resource>_<before>_<after>`.
    Order {
        resource: usize,
        before: Span,
        after: Span,
    },
}

/// A span of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Span {
    /// The holds from the start of `from` (time 0 when `None`) to the end of `until` (the
    /// end of the schedule when `None`).
    Hold {
        from: Option<usize>,
        until: Option<usize>,
    },
    /// An activity's use.
    Use(usize),
}

/// `start(y) ≥ start(x) + w`, in the instance's units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lag {
    pub x: usize,
    pub y: usize,
    pub w: i64,
}

/// `fact` in words, with the instance's names.
pub fn describe(instance: &Instance, fact: &Fact) -> String {
    let id = |i: usize| &instance.activities[i].id;
    match *fact {
        Fact::Busy { first, then } => {
            format!("\"{}\", then the setup, before \"{}\"", id(first), id(then))
        }
        Fact::Order {
            resource,
            before,
            after,
        } => format!(
            "on \"{}\", {} before {}",
            instance.resources[resource].id,
            span_name(instance, before),
            span_name(instance, after)
        ),
    }
}

/// A span in words: "the hold from \"put\" until the end", "\"chop\"'s use".
fn span_name(instance: &Instance, span: Span) -> String {
    let id = |i: usize| format!("\"{}\"", instance.activities[i].id);
    match span {
        Span::Hold { from, until } => format!(
            "the hold from {} until {}",
            from.map_or("time 0".into(), id),
            until.map_or("the end".into(), id)
        ),
        Span::Use(j) => format!("{}'s use", id(j)),
    }
}

/// The fact an order variable's name stands for; `None` when the name is not an order
/// variable's.
pub fn fact(instance: &Instance, name: &str) -> Option<Result<Fact, String>> {
    let parts: Vec<&str> = name.split('_').collect();
    let malformed =
        || format!("variable \"{name}\" is not an order b_<i>_<j> or o_<r>_<span>_<span>");
    let activity = |s: &str| {
        s.parse::<usize>()
            .ok()
            .filter(|&i| i < instance.activities.len())
            .ok_or_else(malformed)
    };
    let span = |s: &str| -> Result<Span, String> {
        if let Some(j) = s.strip_prefix('u') {
            return Ok(Span::Use(activity(j)?));
        }
        let (from, until) = s
            .strip_prefix('h')
            .and_then(|rest| rest.split_once('t'))
            .ok_or_else(malformed)?;
        let end = |s: &str, none: &str| (s != none).then(|| activity(s)).transpose();
        Ok(Span::Hold {
            from: end(from, "z")?,
            until: end(until, "e")?,
        })
    };
    Some(match parts.as_slice() {
        ["b", i, j] => (|| {
            Ok(Fact::Busy {
                first: activity(i)?,
                then: activity(j)?,
            })
        })(),
        ["o", r, p, q] => (|| {
            let resource = r
                .parse::<usize>()
                .ok()
                .filter(|&r| r < instance.resources.len())
                .ok_or_else(malformed)?;
            Ok(Fact::Order {
                resource,
                before: span(p)?,
                after: span(q)?,
            })
        })(),
        ["b" | "o", ..] => Err(malformed()),
        _ => return None,
    })
}

/// The lag `fact` implies, when the instance has what it names.
pub fn lag(instance: &Instance, fact: &Fact) -> Result<Lag, String> {
    match *fact {
        Fact::Busy { first, then } => {
            let setups = Setups::new(instance)?;
            let (a, b) = (&instance.activities[first], &instance.activities[then]);
            if first == then || !setups.busy(a) || !setups.busy(b) {
                return Err(format!(
                    "\"{}\" and \"{}\" are not two activities that keep the agent busy",
                    a.id, b.id
                ));
            }
            Ok(Lag {
                x: first,
                y: then,
                w: rules::agent_time(a) + setups.time(a, b),
            })
        }
        Fact::Order {
            resource,
            before,
            after,
        } => {
            let r = &instance.resources[resource].id;
            for span in [before, after] {
                if amount(instance, r, span) == 0 {
                    return Err(format!(
                        "resource \"{r}\" has no span {}",
                        span_name(instance, span)
                    ));
                }
            }
            match (end(instance, before), start(after)) {
                (Some((x, a)), Some((y, b))) if before != after => Ok(Lag { x, y, w: a - b }),
                _ => Err(format!(
                    "on \"{r}\", {} cannot end by the start of {}",
                    span_name(instance, before),
                    span_name(instance, after)
                )),
            }
        }
    }
}

/// The other order of the same two: `b_<j>_<i>` for `b_<i>_<j>`, `q` before `p` for `p`
/// before `q`. Where [`one_holds`] accepts the two, a fact's negation implies the other.
pub fn reverse(fact: &Fact) -> Fact {
    match *fact {
        Fact::Busy { first, then } => Fact::Busy {
            first: then,
            then: first,
        },
        Fact::Order {
            resource,
            before,
            after,
        } => Fact::Order {
            resource,
            before: after,
            after: before,
        },
    }
}

/// Whether in every schedule shorter than `horizon + 1` one of `facts` holds.
pub fn one_holds(instance: &Instance, facts: &[Fact], horizon: i64) -> Result<(), String> {
    let set: BTreeSet<&Fact> = facts.iter().collect();
    match facts.first() {
        Some(&Fact::Busy { first, then }) => {
            // Each fact implies its lag only where `lag` accepts it (busy activities,
            // setups as above).
            lag(instance, &Fact::Busy { first, then })?;
            if set.contains(&Fact::Busy {
                first: then,
                then: first,
            }) {
                Ok(())
            } else {
                Err("an order of two activities without the other order".into())
            }
        }
        Some(&Fact::Order { resource, .. }) => {
            let mut family = BTreeSet::new();
            for fact in facts {
                let Fact::Order {
                    resource: r,
                    before,
                    after,
                } = *fact
                else {
                    return Err("orders of spans and of activities in one row".into());
                };
                if r != resource {
                    return Err("orders on two resources in one row".into());
                }
                family.extend([before, after]);
            }
            let r = &instance.resources[resource];
            let total: i64 = family.iter().map(|&s| amount(instance, &r.id, s)).sum();
            if total <= i64::from(r.capacity) {
                return Err(format!(
                    "the spans named take {total} of \"{}\", within its capacity {}",
                    r.id, r.capacity
                ));
            }
            if let Some(empty) = family.iter().find(|&&s| !unit_long(instance, s, horizon)) {
                return Err(format!(
                    "{} of \"{}\" is not one unit long in every schedule",
                    span_name(instance, *empty),
                    r.id
                ));
            }
            for &s in &family {
                for &t in &family {
                    let fact = Fact::Order {
                        resource,
                        before: s,
                        after: t,
                    };
                    if s != t && can_precede(s, t) && !set.contains(&fact) {
                        return Err(format!(
                            "on \"{}\", the order {} before {} is missing",
                            r.id,
                            span_name(instance, s),
                            span_name(instance, t)
                        ));
                    }
                }
            }
            Ok(())
        }
        None => Err("an empty row".into()),
    }
}

/// Units of `resource` the span holds (0: no such span).
fn amount(instance: &Instance, resource: &str, span: Span) -> i64 {
    let id = |i: Option<usize>| i.map(|i| instance.activities[i].id.as_str());
    match span {
        Span::Hold { from, until } => instance
            .holds
            .iter()
            .filter(|h| {
                h.resource == resource
                    && h.from.as_deref() == id(from)
                    && h.until.as_deref() == id(until)
            })
            .map(|h| i64::from(h.amount))
            .sum(),
        Span::Use(j) => {
            let a = &instance.activities[j];
            if a.duration > 0 && !rules::splittable(a) {
                rules::units(a, resource)
            } else {
                0
            }
        }
    }
}

/// The start of a span as an offset from an activity's start; `None` for time 0.
fn start(span: Span) -> Option<(usize, i64)> {
    match span {
        Span::Hold { from, .. } => from.map(|f| (f, 0)),
        Span::Use(j) => Some((j, 0)),
    }
}

/// The end of a span as an offset from an activity's start (which it is only for an
/// activity in one block); `None` for the end of the schedule or a split activity.
fn end(instance: &Instance, span: Span) -> Option<(usize, i64)> {
    let j = match span {
        Span::Hold { until, .. } => until?,
        Span::Use(j) => j,
    };
    let a = &instance.activities[j];
    (!rules::splittable(a)).then_some((j, a.duration))
}

/// Whether `s` can end by the start of `t` (both at least a unit long).
fn can_precede(s: Span, t: Span) -> bool {
    let to_the_end = matches!(s, Span::Hold { until: None, .. });
    let from_zero = matches!(t, Span::Hold { from: None, .. });
    !to_the_end && !from_zero
}

/// Whether the span is at least one unit long in every schedule that ends by `horizon`.
fn unit_long(instance: &Instance, span: Span, horizon: i64) -> bool {
    match span {
        Span::Use(j) => instance.activities[j].duration > 0,
        Span::Hold { until: None, .. } => true,
        Span::Hold {
            from: None,
            until: Some(u),
        } => instance.activities[u].duration > 0,
        Span::Hold {
            from: Some(f),
            until: Some(u),
        } => rules::longest_walk(instance, horizon, f, u).is_some_and(|gap| gap >= 1),
    }
}

/// The setups as the verifier reads them, when they make the orders of busy activities
/// exact.
struct Setups<'a> {
    times: BTreeMap<(&'a str, &'a str), i64>,
}

impl<'a> Setups<'a> {
    /// The setup times, each pair's largest (none within a station: consecutive work at one
    /// station never overlaps on one agent anyway), when the instance has one agent, every
    /// activity that keeps it busy is at a station and none is split, and the times obey
    /// the triangle inequality.
    fn new(instance: &'a Instance) -> Result<Setups<'a>, String> {
        if instance.agents != Some(1) {
            return Err("orders of busy activities need exactly one agent".into());
        }
        if let Some(a) = instance
            .activities
            .iter()
            .find(|a| rules::agent_time(a) > 0 && (a.station.is_none() || rules::splittable(a)))
        {
            return Err(format!(
                "activity \"{}\" keeps the agent busy without a station, or split",
                a.id
            ));
        }
        let mut times: BTreeMap<(&str, &str), i64> = BTreeMap::new();
        for s in instance.setups.iter().filter(|s| s.from != s.to) {
            let t = times.entry((s.from.as_str(), s.to.as_str())).or_insert(0);
            *t = (*t).max(s.time);
        }
        let setups = Setups { times };
        let stations: BTreeSet<&str> = instance
            .activities
            .iter()
            .filter_map(|a| a.station.as_deref())
            .collect();
        for &u in &stations {
            for &v in &stations {
                for &w in &stations {
                    if setups.between(u, w) > setups.between(u, v) + setups.between(v, w) {
                        return Err(format!(
                            "the setups break the triangle inequality: \"{u}\" → \"{w}\" takes more than via \"{v}\""
                        ));
                    }
                }
            }
        }
        Ok(setups)
    }

    fn between(&self, from: &str, to: &str) -> i64 {
        self.times.get(&(from, to)).copied().unwrap_or(0)
    }

    /// The setup from `a`'s station to `b`'s.
    fn time(&self, a: &Activity, b: &Activity) -> i64 {
        match (a.station.as_deref(), b.station.as_deref()) {
            (Some(u), Some(v)) => self.between(u, v),
            _ => 0,
        }
    }

    /// Whether `a` keeps the agent busy (so it is at a station, and in one block).
    fn busy(&self, a: &Activity) -> bool {
        rules::agent_time(a) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Hold, Precedence, Resource, Setup};

    /// One agent; `a` and `b` at stations x and y (setups x → y 2, y → x 1), `c` at x;
    /// `c` follows `a`. A shelf (capacity 1) held from `a` to `c` and from time 0 to `b`.
    fn kitchen() -> Instance {
        let at = |id: &str, station: &str| Activity {
            station: Some(station.into()),
            ..Activity::new(id, 1)
        };
        Instance {
            activities: vec![at("a", "x"), at("b", "y"), at("c", "x")],
            precedences: vec![Precedence::finish_to_start("a", "c", 0)],
            setups: vec![
                Setup {
                    from: "x".into(),
                    to: "y".into(),
                    time: 2,
                },
                Setup {
                    from: "y".into(),
                    to: "x".into(),
                    time: 1,
                },
            ],
            resources: vec![Resource {
                id: "shelf".into(),
                capacity: 1,
                states: vec![],
            }],
            holds: vec![
                Hold {
                    resource: "shelf".into(),
                    amount: 1,
                    from: Some("a".into()),
                    until: Some("c".into()),
                },
                Hold {
                    resource: "shelf".into(),
                    amount: 1,
                    from: None,
                    until: Some("b".into()),
                },
            ],
            ..Instance::new("t", Some(1))
        }
    }

    fn facts(instance: &Instance, names: &[&str]) -> Vec<Fact> {
        names
            .iter()
            .map(|n| fact(instance, n).unwrap().unwrap())
            .collect()
    }

    #[test]
    fn names_say_what_an_order_stands_for() {
        let k = kitchen();
        assert_eq!(fact(&k, "s0"), None);
        assert_eq!(fact(&k, "makespan"), None);
        assert_eq!(
            fact(&k, "b_0_1"),
            Some(Ok(Fact::Busy { first: 0, then: 1 }))
        );
        assert_eq!(
            fact(&k, "o_0_hzt1_h0t2"),
            Some(Ok(Fact::Order {
                resource: 0,
                before: Span::Hold {
                    from: None,
                    until: Some(1)
                },
                after: Span::Hold {
                    from: Some(0),
                    until: Some(2)
                },
            }))
        );
        for bad in ["b_0_9", "b_0", "o_1_u0_u1", "o_0_x0_u1", "o_0_h0_u1"] {
            assert!(matches!(fact(&k, bad), Some(Err(_))), "{bad}");
        }
    }

    #[test]
    fn a_busy_order_implies_the_busy_time_and_the_setup() {
        let k = kitchen();
        let lag = |name| lag(&k, &facts(&k, &[name])[0]);
        assert_eq!(lag("b_0_1"), Ok(Lag { x: 0, y: 1, w: 3 }));
        assert_eq!(lag("b_1_0"), Ok(Lag { x: 1, y: 0, w: 2 }));
        assert_eq!(lag("b_0_2"), Ok(Lag { x: 0, y: 2, w: 1 }));
        assert!(lag("b_0_0").is_err());
        assert!(one_holds(&k, &facts(&k, &["b_0_1", "b_1_0"]), 9).is_ok());
        assert!(one_holds(&k, &facts(&k, &["b_0_1"]), 9).is_err());
        // Two agents, an activity busy without a station, or a detour shorter than the
        // direct setup: the orders are not rules.
        let mut two = kitchen();
        two.agents = Some(2);
        let mut unplaced = kitchen();
        unplaced.activities[2].station = None;
        let mut detour = kitchen();
        detour.activities[2].station = Some("z".into());
        detour.setups.push(Setup {
            from: "x".into(),
            to: "z".into(),
            time: 0,
        });
        for broken in [two, unplaced] {
            assert!(super::lag(&broken, &facts(&broken, &["b_0_1"])[0]).is_err());
        }
        // x → y takes 2, but x → z → y only 0 + 0.
        assert!(super::lag(&detour, &facts(&detour, &["b_0_1"])[0]).is_err());
    }

    #[test]
    fn spans_over_the_capacity_leave_one_of_the_orders_that_can_happen() {
        let k = kitchen();
        // The hold from time 0 comes first: only its order before the other can happen.
        let first = facts(&k, &["o_0_hzt1_h0t2"]);
        assert_eq!(lag(&k, &first[0]), Ok(Lag { x: 1, y: 0, w: 1 }));
        assert!(one_holds(&k, &first, 9).is_ok());
        let other = facts(&k, &["o_0_h0t2_hzt1"]);
        assert!(lag(&k, &other[0]).is_err(), "nothing ends by time 0");
        // Within the capacity, the spans may overlap.
        let mut roomy = kitchen();
        roomy.resources[0].capacity = 2;
        assert!(one_holds(&roomy, &first, 9).is_err());
        // A hold that may be empty overlaps nothing.
        let mut empty = kitchen();
        empty.precedences.clear();
        assert!(one_holds(&empty, &first, 9).is_err());
        // No such span.
        assert!(lag(&k, &facts(&k, &["o_0_h1t2_hzt1"])[0]).is_err());
    }
}
