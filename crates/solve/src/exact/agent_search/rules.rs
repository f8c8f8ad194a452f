//! The rules of a problem, indexed for the search: arcs by activity, demands, instant
//! needs, states, piece lags, the canonical-form flags and the age caps.

use crate::problem::Problem;

use super::{has, insert, Bits, Key, Piece, WORDS};

/// The rules of the problem, indexed for the search.
pub(super) struct Rules {
    pub(super) n: usize,
    pub(super) durations: Vec<i64>,
    /// Arcs `S_j ≥ S_i + w` between activities, into `j`: `(i, w)`.
    pub(super) into: Vec<Vec<(usize, i64)>>,
    /// The same arcs out of `i`: `(j, w)`.
    pub(super) out_of: Vec<Vec<(usize, i64)>>,
    /// Arcs into the end of the schedule: `(i, w)` with `C ≥ S_i + w`.
    pub(super) into_sink: Vec<Vec<i64>>,
    /// Latest start of each activity (from deadlines), `i64::MAX` if none.
    pub(super) deadline: Vec<i64>,
    /// The activities with a deadline.
    pub(super) deadlined: Vec<usize>,
    /// Every activity.
    pub(super) all: Bits,
    pub(super) earliest: Vec<i64>,
    /// Longest path from each activity's start to the end of the schedule.
    pub(super) tail: Vec<i64>,
    /// `(resource, amount, until)`: demands over `[start, start + until)`.
    pub(super) demands: Vec<Vec<(usize, i64, i64)>>,
    pub(super) capacities: Vec<i64>,
    pub(super) pool: usize,
    /// Activities that need the agent at their start instant.
    pub(super) instant: Vec<bool>,
    /// Activities that need the agent, at their start or longer.
    pub(super) needs_agent: Vec<bool>,
    /// For a chunk that may be moved later freely (only the agent, no states, no piece
    /// lags, no rule out of it but the next chunk): that next chunk.
    pub(super) free_next: Vec<Option<usize>>,
    /// Activities started as soon as they can ([`Search::eager_omitted`]).
    pub(super) eager: Vec<bool>,
    /// Activities that may be moved earlier freely, given their minimum lags allow it
    /// (only the agent for their whole duration, no states, no piece lags, nothing that
    /// must start no later than them).
    pub(super) pullable: Vec<bool>,
    /// `(state, value)` set and required at the start of each activity.
    pub(super) sets: Vec<Vec<(usize, u8)>>,
    pub(super) requires: Vec<Vec<(usize, u8)>>,
    /// The piece lags of each chunk ([`Piece`]).
    pub(super) pieces: Vec<Option<Piece>>,
    /// Activities whose age decides a piece lag: `(from, chunks)`.
    pub(super) piece_anchors: Vec<Vec<Vec<usize>>>,
    /// Activities in an order where every minimum lag points forward.
    pub(super) order: Vec<usize>,
    /// The forward arcs (minimum lags) into each activity: `(i, w)`, and out of each.
    pub(super) forward_into: Vec<Vec<(usize, i64)>>,
    pub(super) forward_out: Vec<Vec<(usize, i64)>>,
    /// Arcs between activities that are not forward (maximum lags): `(i, j, w)`, `S_j ≥ S_i + w`.
    pub(super) backward: Vec<(usize, usize, i64)>,
    /// Ages below this are exact; ages at it stand for every larger one, which behave
    /// alike for every rule.
    pub(super) cap: Vec<u16>,
}

impl Rules {
    pub(super) fn new(problem: &Problem) -> Option<Rules> {
        let n = problem.len();
        let net = &problem.network;
        let mut into = vec![Vec::new(); n];
        let mut out_of = vec![Vec::new(); n];
        let mut into_sink = vec![Vec::new(); n];
        let mut deadline = vec![i64::MAX; n];
        let mut forward_into = vec![Vec::new(); n];
        for a in net.arcs() {
            if a.from < n && a.to < n && a.forward {
                forward_into[a.to].push((a.from, a.weight));
            }
            if a.from < n && a.to < n {
                into[a.to].push((a.from, a.weight));
                out_of[a.from].push((a.to, a.weight));
            } else if a.from < n && a.to == net.sink() {
                into_sink[a.from].push(a.weight);
            } else if a.from < n && a.to == net.origin() {
                deadline[a.from] = deadline[a.from].min(-a.weight);
            }
        }
        let horizon = problem.earliest[net.sink()];
        let latest = net.latest_starts(horizon).ok()?;
        let tail = (0..n).map(|j| horizon - latest[j]).collect();
        let pool = problem.agent_resource?;
        let mut instant = vec![false; n];
        for need in &problem.instants {
            instant[need.activity] = true;
        }
        let mut sets = vec![Vec::new(); n];
        let mut requires = vec![Vec::new(); n];
        for (s, var) in problem.states.iter().enumerate() {
            for &(j, v) in &var.setters {
                sets[j].push((s, value_index(v)?));
            }
            for &(j, v) in &var.requirers {
                requires[j].push((s, value_index(v)?));
            }
        }
        let mut pieces: Vec<Option<Piece>> = vec![None; n];
        let mut piece_anchors = vec![Vec::new(); n];
        for lag in &problem.expanded.piece_lags {
            let limit = lag.deadline(0, problem.durations[lag.from]);
            for w in lag.chunks.windows(2) {
                pieces[w[1]]
                    .get_or_insert_with(|| (w[0], Vec::new()))
                    .1
                    .push((lag.from, limit));
            }
            piece_anchors[lag.from].push(lag.chunks[1..].to_vec());
        }
        let stateless: Vec<bool> = (0..n)
            .map(|j| sets[j].is_empty() && requires[j].is_empty())
            .collect();
        let alone: Vec<bool> = (0..n)
            .map(|j| agent_only(problem, j, &pieces, &stateless))
            .collect();
        // Every age up to one past the largest threshold of a rule is kept exactly.
        let mut cap = vec![0i64; n];
        for i in 0..n {
            let mut c = problem.durations[i].max(1);
            c = c.max(out_of[i].iter().map(|&(_, w)| w).max().unwrap_or(0));
            c = c.max(into_sink[i].iter().copied().max().unwrap_or(0));
            c = c.max(into[i].iter().map(|&(_, w)| -w).max().unwrap_or(0));
            for (_, limits) in pieces.iter().flatten() {
                for &(from, limit) in limits {
                    if from == i {
                        c = c.max(limit + 1);
                    }
                }
            }
            cap[i] = c + 2;
        }
        let cap = cap
            .into_iter()
            .map(|c| u16::try_from(c).ok())
            .collect::<Option<Vec<u16>>>()?;
        let mut all = [0; WORDS];
        for j in 0..n {
            insert(&mut all, j);
        }
        Some(Rules {
            deadlined: (0..n).filter(|&j| deadline[j] < i64::MAX).collect(),
            all,
            eager: eager(problem, &into, &forward_into, &instant, &stateless),
            free_next: free_next(problem, &out_of, &alone),
            pullable: pullable(&into, &instant, &alone),
            n,
            durations: problem.durations[..n].to_vec(),
            into,
            out_of,
            into_sink,
            deadline,
            earliest: problem.earliest[..n].to_vec(),
            tail,
            demands: problem.demands[..n]
                .iter()
                .map(|ds| ds.iter().map(|d| (d.resource, d.amount, d.to)).collect())
                .collect(),
            capacities: problem.capacities.clone(),
            order: topological(&forward_into)?,
            forward_out: {
                let mut out = vec![Vec::new(); n];
                for (j, arcs) in forward_into.iter().enumerate() {
                    for &(i, w) in arcs {
                        out[i].push((j, w));
                    }
                }
                out
            },
            forward_into,
            backward: net
                .arcs()
                .iter()
                .filter(|a| a.from < n && a.to < n && !a.forward)
                .map(|a| (a.from, a.to, a.weight))
                .collect(),
            pool,
            needs_agent: (0..n)
                .map(|j| instant[j] || problem.demands[j].iter().any(|d| d.resource == pool))
                .collect(),
            instant,
            sets,
            requires,
            pieces,
            piece_anchors,
            cap,
        })
    }

    /// The chunk after a chunk done in the step before the state's instant, when nothing
    /// else depends on either and it has not started: the run a canonical schedule goes on
    /// with (`Expander::canonical`).
    pub(super) fn chunk_run(&self, key: &Key) -> Option<usize> {
        key.ages.iter().find_map(|&(c, a)| {
            let next = self.free_next[usize::from(c)]?;
            (a == 1 && !has(&key.started, next)).then_some(next)
        })
    }

    /// Whether the age of started activity `i` still matters once `started` have started.
    pub(super) fn matters(&self, i: usize, age: i64, started: &Bits) -> bool {
        age < self.durations[i]
            || self.into_sink[i].iter().any(|&w| age < w)
            || self.out_of[i].iter().any(|&(k, w)| {
                // For a pullable successor, also whether the lag was met a step ago.
                !has(started, k) && (age < w || (age == w && self.pullable[k]))
            })
            || self.pinned(i, started)
    }

    /// Whether the age of started activity `i` always matters once `started` have started
    /// and must be equal in a state that dominates (`dominance`): it bounds a start from
    /// above (a maximum lag into `i` from an activity not started), or a piece lag reads it.
    pub(super) fn pinned(&self, i: usize, started: &Bits) -> bool {
        self.into[i]
            .iter()
            .any(|&(k, w)| !has(started, k) && w <= 0)
            || self.piece_anchors[i]
                .iter()
                .any(|chunks| chunks.iter().any(|&c| !has(started, c)))
            || self.out_of[i].iter().any(|&(k, _)| {
                !has(started, k) && self.pieces[k].as_ref().is_some_and(|p| p.0 == i)
            })
    }
}

/// A topological order of the forward arcs (`None` if they have a cycle, which compiled
/// problems never have).
fn topological(into: &[Vec<(usize, i64)>]) -> Option<Vec<usize>> {
    let n = into.len();
    let mut waiting: Vec<usize> = into.iter().map(Vec::len).collect();
    let mut out = vec![Vec::new(); n];
    for (j, arcs) in into.iter().enumerate() {
        for &(i, _) in arcs {
            out[i].push(j);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&j| waiting[j] == 0).collect();
    let mut k = 0;
    while k < order.len() {
        for &j in &out[order[k]] {
            waiting[j] -= 1;
            if waiting[j] == 0 {
                order.push(j);
            }
        }
        k += 1;
    }
    (order.len() == n).then_some(order)
}

/// Whether activity `j` keeps only the agent busy, over its whole duration, and touches no
/// state and no piece lag: moving it in time changes nothing but its own start.
fn agent_only(problem: &Problem, j: usize, pieces: &[Option<Piece>], stateless: &[bool]) -> bool {
    let pool = problem.agent_resource;
    problem.demands[j]
        .iter()
        .all(|d| Some(d.resource) == pool && d.to == problem.durations[j])
        && !problem.demands[j].is_empty()
        && stateless[j]
        && pieces[j].is_none()
        && pieces
            .iter()
            .flatten()
            .all(|(prev, limits)| *prev != j && limits.iter().all(|&(from, _)| from != j))
}

/// [`Rules::free_next`].
/// `alone[j]`: [`agent_only`] holds for `j`.
fn free_next(
    problem: &Problem,
    out_of: &[Vec<(usize, i64)>],
    alone: &[bool],
) -> Vec<Option<usize>> {
    let mut chained = vec![None; problem.len()];
    for parts in &problem.expanded.parts {
        for w in parts.windows(2) {
            chained[w[0]] = Some(w[1]);
        }
    }
    (0..problem.len())
        .map(|c| {
            let next = chained[c]?;
            let alone = out_of[c] == [(next, 1)] && alone[c] && alone[next];
            alone.then_some(next)
        })
        .collect()
}

/// [`Rules::pullable`].
fn pullable(into: &[Vec<(usize, i64)>], instant: &[bool], alone: &[bool]) -> Vec<bool> {
    (0..into.len())
        .map(|j| into[j].iter().all(|&(_, w)| w > 0) && !instant[j] && alone[j])
        .collect()
}

/// [`Rules::eager`].
fn eager(
    problem: &Problem,
    into: &[Vec<(usize, i64)>],
    forward_into: &[Vec<(usize, i64)>],
    instant: &[bool],
    stateless: &[bool],
) -> Vec<bool> {
    let n = problem.len();
    let mut successors = vec![Vec::new(); n];
    for (j, arcs) in forward_into.iter().enumerate() {
        for &(i, _) in arcs {
            successors[i].push(j);
        }
    }
    (0..n)
        .map(|x| {
            if !instant[x] || into[x].iter().any(|&(_, w)| w <= 0) || !stateless[x] {
                return false;
            }
            // Every other user of x's resources comes after x.
            let mut after = vec![false; n];
            let mut stack = vec![x];
            while let Some(i) = stack.pop() {
                for &j in &successors[i] {
                    if !after[j] {
                        after[j] = true;
                        stack.push(j);
                    }
                }
            }
            problem.demands[x].iter().all(|d| {
                (0..n).all(|j| {
                    j == x
                        || after[j]
                        || problem.demands[j].iter().all(|e| e.resource != d.resource)
                })
            })
        })
        .collect()
}

/// A state value's index as kept in a search state (`u8::MAX` stands for "no value yet").
fn value_index(v: usize) -> Option<u8> {
    u8::try_from(v).ok().filter(|&v| v < u8::MAX)
}
