//! The constraint model of a problem on a horizon, as one list of rows that is both posted
//! to Pumpkin and written as FlatZinc: the proof Pumpkin logs names the rows by their place
//! in this list, so the FlatZinc a checker reads must list them in the same order.
//!
//! No variable has a single-value domain. Pumpkin takes such a variable for a constant and
//! leaves its bounds out of every explanation it logs, so the checker, which sees only the
//! logged premises, rejects each inference that relied on them. A start fixed by its window
//! gets the domain `[t, t + 1]` and the unary row `s ≤ t` instead (the makespan likewise).

use std::fmt::Write as _;

use crate::problem::Problem;

/// A variable of the model: the start of one of the problem's activities, the makespan, or
/// the 0–1 order of a pair of activities or spans (module `orders`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    Start(usize),
    Makespan,
    Order(usize),
}

/// One constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// `Σ weight · var ≤ rhs`.
    Le { terms: Vec<(i32, Var)>, rhs: i32 },
    /// At most `capacity` units at any time; each task is `(activity, duration, amount)`.
    Cumulative {
        tasks: Vec<(usize, i32, i32)>,
        capacity: i32,
    },
}

/// Start windows, the makespan's domain and the rows.
#[derive(Debug, Clone)]
pub struct CpModel {
    /// The domain of every activity's start: its window `[earliest, latest]`, widened to
    /// two values where it has one (a unary row keeps the one).
    pub windows: Vec<(i32, i32)>,
    /// The makespan is at most `horizon` (its domain is `[floor, horizon]`, or two values
    /// with a unary row when that is one).
    pub horizon: i32,
    /// The makespan is at least `floor`: a proven lower bound that spares the search from
    /// refuting shorter schedules again (0 in a proof's model, which must stand alone).
    pub floor: i32,
    pub rows: Vec<Row>,
    /// Each activity's duration (a backward search ends activities at their latest).
    pub durations: Vec<i32>,
    /// The name of each order variable (domain `0..1`), which says what it stands for.
    pub orders: Vec<String>,
    /// The FlatZinc name of each start, which names the instance's activity, not the
    /// problem's: `s<i>` for activity `i`, and `s<i>_<k>` for the start of the `k`-th
    /// unit of an activity split into unit chunks (`k ≥ 1`; its first unit is `s<i>`).
    names: Vec<String>,
}

/// Why no model was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unbuildable {
    /// Some activity cannot start inside its window: nothing ends by the horizon.
    EmptyWindow,
    /// A time exceeds [`MAX_TIME`].
    TooLarge,
}

/// The name of the makespan variable.
const MAKESPAN: &str = "makespan";

/// Times up to this fit Pumpkin's 32-bit domains with room for sums of two.
pub const MAX_TIME: i64 = 1 << 29;

impl CpModel {
    /// The model of "a schedule of `problem` that ends by `horizon`".
    pub fn build(problem: &Problem, horizon: i64) -> Result<CpModel, Unbuildable> {
        let n = problem.len();
        let (origin, sink) = (problem.network.origin(), problem.network.sink());
        if horizon < 0 {
            return Err(Unbuildable::EmptyWindow);
        }
        if horizon > MAX_TIME {
            return Err(Unbuildable::TooLarge);
        }
        let small = |t: i64| {
            if t.abs() <= MAX_TIME {
                Ok(t as i32)
            } else {
                Err(Unbuildable::TooLarge)
            }
        };
        let mut windows: Vec<(i64, i64)> = (0..n)
            .map(|j| (0, horizon - problem.durations[j]))
            .collect();
        let mut rows = Vec::new();
        let var = |i: usize| {
            if i == sink {
                Var::Makespan
            } else {
                Var::Start(i)
            }
        };
        // "A hold ends no earlier than it starts" is the solver's arc, not a rule of the
        // instance (an empty hold holds nothing); the holds the model takes are at least a
        // unit long by the instance's own timing rules, which imply it.
        let hold_arcs: Vec<(usize, usize, i64)> = problem
            .holds
            .iter()
            .filter_map(|h| Some((h.from?, h.until?, -problem.durations[h.until?])))
            .collect();
        for a in problem.network.arcs() {
            if hold_arcs.contains(&(a.from, a.to, a.weight)) {
                continue;
            }
            // S_to ≥ S_from + weight.
            match (a.from == origin, a.to == origin) {
                (true, false) if a.to < n => windows[a.to].0 = windows[a.to].0.max(a.weight),
                (false, true) if a.from < n => windows[a.from].1 = windows[a.from].1.min(-a.weight),
                (false, false) if a.from != sink => {
                    let weight = small(a.weight)?;
                    // The arcs to the sink that only say "the makespan covers the end" are
                    // the ones the makespan needs; every other arc is a lag.
                    rows.push(Row::Le {
                        terms: vec![(1, var(a.from)), (-1, var(a.to))],
                        rhs: -weight,
                    });
                }
                // Arcs between origin and sink, or out of the sink, do not occur.
                _ => {}
            }
        }
        if windows.iter().any(|&(lo, hi)| lo > hi) {
            return Err(Unbuildable::EmptyWindow);
        }
        for (j, window) in windows.iter_mut().enumerate() {
            if window.0 == window.1 {
                rows.push(Row::Le {
                    terms: vec![(1, Var::Start(j))],
                    rhs: small(window.1)?,
                });
                window.1 += 1;
            }
        }
        for (r, &capacity) in problem.capacities.iter().enumerate() {
            let tasks: Vec<(usize, i32, i32)> = problem.demands[..n]
                .iter()
                .enumerate()
                .flat_map(|(j, ds)| ds.iter().map(move |d| (j, d)))
                .filter(|(_, d)| d.resource == r && d.amount > 0 && d.to > d.from)
                .map(|(j, d)| Ok((j, small(d.to)?, small(d.amount)?)))
                .collect::<Result<_, _>>()?;
            // A resource that all its users together cannot overload needs no row.
            if tasks.iter().map(|t| i64::from(t.2)).sum::<i64>() > capacity {
                rows.push(Row::Cumulative {
                    tasks,
                    capacity: small(capacity)?,
                });
            }
        }
        // Setups and holds, where the problem has them (a proof's relaxation keeps only those
        // these rows state exactly: see `orders`).
        let orders = super::orders::Orders::new(problem, horizon);
        for (terms, rhs) in orders.rows {
            let terms = terms
                .into_iter()
                .map(|(w, v)| Ok((small(w)?, v)))
                .collect::<Result<_, _>>()?;
            rows.push(Row::Le {
                terms,
                rhs: small(rhs)?,
            });
        }
        let mut names = vec![String::new(); n];
        for (i, part) in problem.expanded.parts.iter().enumerate() {
            for (k, &j) in part.iter().enumerate() {
                names[j] = if k == 0 {
                    format!("s{i}")
                } else {
                    format!("s{i}_{k}")
                };
            }
        }
        Ok(CpModel {
            windows: windows
                .into_iter()
                .map(|(lo, hi)| Ok((small(lo)?, small(hi)?)))
                .collect::<Result<_, _>>()?,
            horizon: horizon as i32,
            floor: 0,
            rows,
            durations: problem.durations[..n]
                .iter()
                .map(|&d| small(d))
                .collect::<Result<_, _>>()?,
            orders: orders.names,
            names,
        }
        .fixing_the_makespan())
    }

    /// The model with the makespan at least `floor` (a proven lower bound).
    pub fn with_floor(mut self, floor: i64) -> CpModel {
        self.floor = floor.clamp(0, i64::from(self.horizon)) as i32;
        self.fixing_the_makespan()
    }

    /// A unary row `makespan ≤ horizon` when its domain would be one value (see the module
    /// documentation), once.
    fn fixing_the_makespan(mut self) -> CpModel {
        let row = Row::Le {
            terms: vec![(1, Var::Makespan)],
            rhs: self.horizon,
        };
        if self.floor == self.horizon && !self.rows.contains(&row) {
            self.rows.push(row);
        }
        self
    }

    /// The FlatZinc name of a variable (also its name in the proof).
    pub fn name(&self, var: Var) -> String {
        match var {
            Var::Start(j) => self.names[j].clone(),
            Var::Makespan => MAKESPAN.into(),
            Var::Order(k) => self.orders[k].clone(),
        }
    }

    /// Whether `starts` and `makespan` keep every window and row, so that tests can check a
    /// schedule against the model itself rather than against the problem it came from. Order
    /// variables have no value here: a model with setups or holds is never true.
    #[cfg(any(test, feature = "internals"))]
    pub fn holds(&self, starts: &[i64], makespan: i64) -> bool {
        let value = |v: Var| match v {
            Var::Start(j) => Some(starts[j]),
            Var::Makespan => Some(makespan),
            Var::Order(_) => None,
        };
        let windows = self
            .windows
            .iter()
            .zip(starts)
            .all(|(&(lo, hi), &s)| i64::from(lo) <= s && s <= i64::from(hi));
        let rows = self.rows.iter().all(|row| match row {
            Row::Le { terms, rhs } => terms
                .iter()
                .map(|&(w, v)| value(v).map(|x| i64::from(w) * x))
                .sum::<Option<i64>>()
                .is_some_and(|sum| sum <= i64::from(*rhs)),
            Row::Cumulative { tasks, capacity } => tasks.iter().all(|&(j, _, _)| {
                let at = starts[j];
                let used: i64 = tasks
                    .iter()
                    .filter(|&&(k, d, _)| starts[k] <= at && at < starts[k] + i64::from(d))
                    .map(|t| i64::from(t.2))
                    .sum();
                used <= i64::from(*capacity)
            }),
        });
        windows && rows && makespan <= i64::from(self.horizon)
    }

    /// The makespan's domain, `[floor, max(horizon, floor + 1)]`: never a single value.
    pub fn makespan_domain(&self) -> (i32, i32) {
        (self.floor, self.horizon.max(self.floor + 1))
    }

    /// The model as FlatZinc, in the dialect `pumpkin-checker` reads (`int_lin_le`,
    /// `pumpkin_cumulative`), rows in order.
    pub fn flatzinc(&self) -> String {
        let mut out = String::new();
        for (j, (lo, hi)) in self.windows.iter().enumerate() {
            let _ = writeln!(out, "var {lo}..{hi}: {};", self.name(Var::Start(j)));
        }
        let (lo, hi) = self.makespan_domain();
        let _ = writeln!(out, "var {lo}..{hi}: {MAKESPAN};");
        for name in &self.orders {
            let _ = writeln!(out, "var 0..1: {name};");
        }
        let list = |items: Vec<String>| format!("[{}]", items.join(","));
        for row in &self.rows {
            let _ = match row {
                Row::Le { terms, rhs } => writeln!(
                    out,
                    "constraint int_lin_le({},{},{rhs});",
                    list(terms.iter().map(|t| t.0.to_string()).collect()),
                    list(terms.iter().map(|t| self.name(t.1)).collect()),
                ),
                Row::Cumulative { tasks, capacity } => writeln!(
                    out,
                    "constraint pumpkin_cumulative({},{},{},{capacity});",
                    list(tasks.iter().map(|t| self.name(Var::Start(t.0))).collect()),
                    list(tasks.iter().map(|t| t.1.to_string()).collect()),
                    list(tasks.iter().map(|t| t.2.to_string()).collect()),
                ),
            };
        }
        let _ = writeln!(out, "solve minimize {MAKESPAN};");
        out
    }
}
