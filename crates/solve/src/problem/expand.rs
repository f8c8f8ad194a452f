//! Two exact rewrites of an instance before the solvers see it:
//!
//! 1. **Time scaling.** Every time (durations, `busy_for`, releases, deadlines, lags, setup
//!    times) is divided by their greatest common divisor `g`, so an instance written in
//!    seconds whose times are whole minutes becomes one in minutes (or half-minutes) and the time-indexed MILP is up to
//!    60 times smaller. Schedules are multiplied back by `g`. For non-preemptive activities
//!    this loses nothing (left-justified schedules start on sums of durations and lags); a
//!    preemptible activity is then split only at multiples of `g` (the exact model where a benchmark's
//!    clock ticks in those units; whether a finer split could ever help is not proven in general).
//! 2. **Preemption as chunks.** A preemptible activity of (scaled) duration `p ≥ 2` becomes a
//!    chain of `p` unit chunks, each holding the activity's resources. Min lags and releases
//!    bind the first chunk, finish-to-start lags leave from the last, a deadline binds the
//!    last, and a max lag into the activity binds the first chunk in the network and every
//!    later piece through a [`PieceLag`] (a disjunctive rule the heuristic and the MILP
//!    enforce). States are set and required by the first chunk. A unit chunk has
//!    no integer instant strictly inside it, so start-instant needs never collide with one,
//!    as an agent may pause a preemptible activity for zero time.

use makespan_model::instance::{Activity, AgentUse, Instance, Precedence, Relation};
use makespan_model::schedule::Piece;

/// An instance rewritten for the solvers, and the way back.
#[derive(Debug, Clone)]
pub struct Expanded {
    /// The scaled, chunked instance; its activities are the solvers' activities.
    pub instance: Instance,
    /// The factor `g` every time was divided by.
    pub scale: i64,
    /// For each original activity, its activities in `instance` (one, or its chunks in order).
    pub parts: Vec<Vec<usize>>,
    /// Max lags into chunked activities, which bind the start of every piece.
    pub piece_lags: Vec<PieceLag>,
}

/// Every piece of a chunked activity must start by `start(from) + anchor + offset`, where
/// the anchor is `from`'s duration for a finish-to-start lag and 0 for start-to-start. A
/// piece starts at a chunk that does not follow the previous one directly, and at every
/// instant inside the activity where its agent starts another activity (the agent pauses
/// for zero time: a cook may leave an interruptible step to start another). The first chunk is bound by the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceLag {
    /// The chunks, in order.
    pub chunks: Vec<usize>,
    /// The activity (in the expanded instance) the lag is measured from.
    pub from: usize,
    pub offset: i64,
    pub relation: Relation,
}

impl PieceLag {
    /// The latest allowed piece start for a start time of `from` of `start` and a duration of `d`.
    pub fn deadline(&self, start: i64, d: i64) -> i64 {
        start
            + self.offset
            + match self.relation {
                Relation::FinishToStart => d,
                Relation::StartToStart => 0,
            }
    }
}

impl Expanded {
    /// Chunks `instance` (which must be valid), dividing its times by their gcd first when
    /// `scale` is set.
    pub fn new(instance: &Instance, scale: bool) -> Expanded {
        let g = if scale { time_gcd(instance) } else { 1 };
        chunked(&scaled(instance, g), g)
    }

    /// Pieces of every original activity in original time units, from start times of the
    /// expanded activities: consecutive touching chunks merge into one piece.
    pub fn pieces(&self, starts: &[i64]) -> Vec<Vec<Piece>> {
        self.parts
            .iter()
            .map(|parts| {
                let mut pieces: Vec<Piece> = Vec::new();
                for &k in parts {
                    let (s, e) = (starts[k], starts[k] + self.instance.activities[k].duration);
                    match pieces.last_mut() {
                        Some(last) if last.1 == s && parts.len() > 1 => last.1 = e,
                        _ => pieces.push(Piece(s, e)),
                    }
                }
                pieces
                    .into_iter()
                    .map(|p| Piece(p.0 * self.scale, p.1 * self.scale))
                    .collect()
            })
            .collect()
    }
}

/// Unit chunks [`Expanded::new`] would create (times divided by their gcd), computed
/// without creating them, so the pipeline can refuse an expansion too large to build.
pub fn chunk_count(instance: &Instance) -> u64 {
    let g = time_gcd(instance);
    instance
        .activities
        .iter()
        .filter(|a| a.preemptible && a.duration / g >= 2)
        .map(|a| u64::try_from(a.duration / g).unwrap_or(0))
        .fold(0, u64::saturating_add)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The gcd of every time in the instance (1 when there is none or it is 0).
pub fn time_gcd(instance: &Instance) -> i64 {
    let mut g = 0;
    for a in &instance.activities {
        g = gcd(g, a.duration);
        if let AgentUse::BusyFor(k) = a.agent {
            g = gcd(g, k);
        }
        for t in [a.release, a.deadline].into_iter().flatten() {
            g = gcd(g, t);
        }
    }
    for p in &instance.precedences {
        g = gcd(g, p.min_lag);
        if let Some(m) = p.max_lag {
            g = gcd(g, m);
        }
    }
    for s in &instance.setups {
        g = gcd(g, s.time);
    }
    g.max(1)
}

fn scaled(instance: &Instance, g: i64) -> Instance {
    let mut out = instance.clone();
    if g == 1 {
        return out;
    }
    for a in &mut out.activities {
        a.duration /= g;
        if let AgentUse::BusyFor(k) = &mut a.agent {
            *k /= g;
        }
        a.release = a.release.map(|t| t / g);
        a.deadline = a.deadline.map(|t| t / g);
    }
    for p in &mut out.precedences {
        p.min_lag /= g;
        p.max_lag = p.max_lag.map(|m| m / g);
    }
    for s in &mut out.setups {
        s.time /= g;
    }
    out
}

fn chunked(instance: &Instance, scale: i64) -> Expanded {
    let mut activities = Vec::new();
    let mut parts = Vec::with_capacity(instance.activities.len());
    let mut chain = Vec::new();
    for a in &instance.activities {
        if !a.preemptible || a.duration < 2 {
            parts.push(vec![activities.len()]);
            activities.push(Activity {
                preemptible: false,
                ..a.clone()
            });
            continue;
        }
        let first = activities.len();
        for k in 0..a.duration {
            let agent = match a.agent {
                AgentUse::Whole => AgentUse::Whole,
                AgentUse::BusyFor(b) if k < b => AgentUse::Whole,
                AgentUse::StartInstant if k == 0 => AgentUse::StartInstant,
                _ => AgentUse::None,
            };
            let edge = |keep: bool, v| if keep { v } else { Default::default() };
            activities.push(Activity {
                id: format!("{}#{}/{}", a.id, k + 1, a.duration),
                duration: 1,
                agent,
                preemptible: false,
                uses: a.uses.clone(),
                sets: edge(k == 0, a.sets.clone()),
                requires: edge(k == 0, a.requires.clone()),
                release: a.release.filter(|_| k == 0),
                deadline: a.deadline.filter(|_| k == a.duration - 1),
                station: a.station.clone(),
                label: None,
            });
            if k > 0 {
                chain.push(Precedence::finish_to_start(
                    activities[first + k as usize - 1].id.clone(),
                    activities[first + k as usize].id.clone(),
                    0,
                ));
            }
        }
        parts.push((first..activities.len()).collect());
    }
    let id = |i: usize, last: bool| {
        let p = &parts[i];
        activities[if last { p[p.len() - 1] } else { p[0] }]
            .id
            .clone()
    };
    let index = instance.activity_index();
    let index_of = |id: &str| activities.iter().position(|a| a.id == id).unwrap_or(0);
    let mut piece_lags = Vec::new();
    let mut precedences = chain;
    for p in &instance.precedences {
        let (i, j) = (index[p.before.as_str()], index[p.after.as_str()]);
        let before = id(i, p.relation == Relation::FinishToStart);
        let (first, last) = (id(j, false), id(j, true));
        precedences.push(Precedence {
            before: before.clone(),
            after: first.clone(),
            ..p.clone()
        });
        if let (Some(max), true) = (p.max_lag, first != last) {
            // The first piece is bound above; the later ones are a rule of their own.
            piece_lags.push(PieceLag {
                chunks: parts[j].clone(),
                from: index_of(&before),
                offset: max,
                relation: p.relation,
            });
        }
    }
    Expanded {
        instance: Instance {
            activities,
            precedences,
            ..instance.clone()
        },
        scale,
        parts,
        piece_lags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_divided_by_their_gcd_and_pieces_scaled_back() {
        let mut inst = Instance::new("t", Some(1));
        inst.activities = vec![Activity::new("a", 120), Activity::new("b", 180)];
        inst.activities[1].preemptible = true;
        inst.precedences = vec![Precedence {
            max_lag: Some(60),
            ..Precedence::finish_to_start("a", "b", 0)
        }];
        let e = Expanded::new(&inst, true);
        assert_eq!(e.scale, 60);
        // a, then b as three unit chunks.
        assert_eq!(e.instance.activities.len(), 4);
        assert_eq!(e.parts, vec![vec![0], vec![1, 2, 3]]);
        // The lag binds the first chunk; the later pieces are a piece lag.
        let max_lagged: Vec<&str> = e
            .instance
            .precedences
            .iter()
            .filter(|p| p.max_lag == Some(1))
            .map(|p| p.after.as_str())
            .collect();
        assert_eq!(max_lagged, ["b#1/3"]);
        assert_eq!(e.piece_lags.len(), 1);
        assert_eq!((e.piece_lags[0].from, e.piece_lags[0].offset), (0, 1));
        assert_eq!(e.piece_lags[0].deadline(0, 2), 3);
        let pieces = e.pieces(&[0, 2, 4, 5]);
        assert_eq!(pieces[0], [Piece(0, 120)]);
        assert_eq!(pieces[1], [Piece(120, 180), Piece(240, 360)]);
    }
}
