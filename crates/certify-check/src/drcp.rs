//! DRCP certificates: the FlatZinc model must be a relaxation of the instance (each of its
//! variables and rows implied by the instance's rules, times divided by the scale), and
//! `pumpkin-checker` must accept the proof that it has no solution below the bound.
//!
//! Why a scale is sound: when every time of the instance is a multiple of `g`, rounding
//! each start of a schedule down to a multiple of `g` keeps every lag (`S_b − S_a ≥ w` with
//! `g | w` survives flooring), every window and every capacity (the work running in
//! `[kg, kg + g)` after rounding was running just before `(k + 1)g` before), and does not
//! lengthen the schedule; so a schedule shorter than `bound` gives one on the grid.
//!
//! An activity split into pieces has one variable per unit of its work: `s<i>_<k>` is the
//! start of its `k`-th unit (`s<i>` the first), each unit a task of one time unit, the last
//! one ending the activity. With a scale of 1 that is exact (pieces are whole time units).
//! With a scale `g > 1` the argument above does not carry over to pieces, so a proof that
//! uses a unit of a split activity holds for the schedules whose pieces lie on the grid of
//! `g` (the model the solver optimises over: it cuts pieces on that grid only), and the
//! checker says so ([`Checked::grid`]).

use std::cell::Cell;
use std::collections::HashSet;
use std::io::BufRead;
use std::num::NonZero;
use std::path::Path;
use std::rc::Rc;

use drcp_format::reader::ProofReader;
use drcp_format::{Conclusion, IntComparison, Step};
use fzn_rs::ast::{Domain, OptimizationDirection};
use fzn_rs::{ArrayExpr, Method, TypedInstance, VariableExpr};
use makespan_model::certificate::Proof;
use makespan_model::input;
use makespan_model::instance::{Activity, Instance, Relation};
use pumpkin_checker::model::{self as checker, Constraint, Linear, Model, Objective, Term};

use crate::orders::{self, Fact};
use crate::rules;

/// What a DRCP proof established beyond its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// `Some(g)` when the proof relies on the pieces of split activities lying on the grid
    /// of `g > 1` (see the module documentation).
    pub grid: Option<i64>,
}

/// The rows `pumpkin-checker` knows; the solver writes only these two.
#[derive(Debug, fzn_rs::FlatZincConstraint)]
enum Row {
    #[name("int_lin_le")]
    LinearLeq {
        weights: ArrayExpr<i32>,
        variables: ArrayExpr<VariableExpr<i32>>,
        bound: i32,
    },
    #[name("pumpkin_cumulative")]
    Cumulative {
        start_times: ArrayExpr<VariableExpr<i32>>,
        durations: ArrayExpr<i32>,
        resource_usages: ArrayExpr<i32>,
        capacity: i32,
    },
}

type FlatZinc = TypedInstance<i32, Row>;

/// The deepest bracket nesting a certificate's FlatZinc model may have: its parser recurses
/// once per level, and 150,000 levels overflow the stack.
const MAX_MODEL_NESTING: usize = 64;

/// The one objective a certificate's model may have.
const MAKESPAN: &str = "makespan";

/// The first integer of `text` that `fits` refuses, with its 1-based line (shortened past 40
/// digits): digits that start a token, with the minus before them. Digits inside a name
/// (`x123`) or after a decimal point (`1.5`; not a range's `..`) are no integer; with
/// `comments`, neither are digits in a FlatZinc comment (`%` to the end of the line) or string.
fn oversized(text: &[u8], fits: impl Fn(&str) -> bool, comments: bool) -> Option<(usize, String)> {
    let (mut line, mut i) = (1, 0);
    while i < text.len() {
        match text[i] {
            b'\n' => line += 1,
            b'%' if comments => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' if comments => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    line += usize::from(text[i] == b'\n');
                    i += 1;
                }
            }
            b'0'..=b'9' => {
                let start = i;
                while i < text.len() && text[i].is_ascii_digit() {
                    i += 1;
                }
                let before = |k: usize| start.checked_sub(k).map(|at| text[at]);
                let in_name = before(1).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
                let fraction = before(1) == Some(b'.') && before(2) != Some(b'.');
                if in_name || fraction {
                    continue;
                }
                let signed = if before(1) == Some(b'-') {
                    start - 1
                } else {
                    start
                };
                let number = String::from_utf8_lossy(&text[signed..i]);
                if !fits(&number) {
                    let shown = if number.len() > 40 {
                        format!("{}… ({} digits)", &number[..40], i - start)
                    } else {
                        number.into_owned()
                    };
                    return Some((line, shown));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first integer literal of a FlatZinc text beyond 64 bits ([`oversized`]).
fn oversized_integer(source: &str) -> Option<(usize, String)> {
    oversized(source.as_bytes(), |n| n.parse::<i64>().is_ok(), true)
}

/// The proof format's numbers are 32-bit, and its reader overflows on longer ones (a panic, or
/// without overflow checks another number than the file's): the proof is refused at the first
/// one, by line, before it is read as a proof.
fn check_numbers(path: &Path) -> Result<(), String> {
    let mut source = input::open_maybe_gzipped(path).map_err(|e| e.to_string())?;
    let fits = |n: &str| n.trim_start_matches('-').parse::<i32>().is_ok();
    let (mut text, mut line) = (Vec::new(), 0);
    loop {
        text.clear();
        let read = source
            .read_until(b'\n', &mut text)
            .map_err(|e| input::read_error(path, e).to_string())?;
        if read == 0 {
            return Ok(());
        }
        line += 1;
        if let Some((_, number)) = oversized(&text, fits, false) {
            return Err(format!(
                "{}: line {line}: the number {number} is beyond the proof format's 32-bit integers; certify again",
                path.display()
            ));
        }
    }
}

/// Whether the DRCP `proof` shows that no schedule of `instance` is shorter than `bound`.
pub fn check(
    instance: &Instance,
    proof: &Proof,
    bound: i64,
    dir: &Path,
) -> Result<Checked, String> {
    let Proof::Drcp {
        scale,
        model,
        proof,
    } = proof
    else {
        return Err("not a DRCP proof".into());
    };
    let g = *scale;
    if g < 1 || bound % g != 0 || !times(instance).all(|t| t % g == 0) {
        return Err(format!(
            "the scale {g} does not divide every time of the instance and the bound"
        ));
    }
    let model_path = dir.join(model);
    let source = input::read_text(&model_path).map_err(|e| e.to_string())?;
    // The FlatZinc parser recurses once per bracket; the solver's models nest 2 deep.
    let depth = input::nesting_depth(&source, b"([{", b")]}");
    if depth > MAX_MODEL_NESTING {
        return Err(format!(
            "{}: brackets nest {depth} deep, over the limit of {MAX_MODEL_NESTING} (the models the solver writes nest 2 deep); certify again",
            model_path.display()
        ));
    }
    // The FlatZinc lexer panics on an integer beyond 64 bits: refused before parsing.
    if let Some((line, number)) = oversized_integer(&source) {
        return Err(format!(
            "{}: line {line}: the integer {number} is beyond 64-bit whole numbers (the models the solver writes hold times and counts); certify again",
            model_path.display()
        ));
    }
    let ast = fzn_rs::fzn::parse(&source).map_err(|e| format!("{model}: {e}"))?;
    let fzn = FlatZinc::from_ast(ast).map_err(|e| format!("{model}: {e}"))?;
    // Below the bound, in the model's units.
    let below = bound / g - 1;
    let relaxation = Relaxation {
        instance,
        g,
        below,
        on_grid: Cell::new(false),
    };
    relaxation.variables(&fzn)?;
    let mut checked = Model::default();
    for (name, variable) in &fzn.variables {
        checked.add_variable(Rc::clone(name), variable.domain.node.clone());
    }
    checked.objective = Some(Objective::Minimize(
        VariableExpr::Identifier(Rc::from(MAKESPAN)).into(),
    ));
    for (k, row) in fzn.constraints.iter().enumerate() {
        let constraint = relaxation
            .row(&fzn, &row.constraint.node)
            .map_err(|why| format!("{model}, constraint {}: {why}", k + 1))?;
        let id = NonZero::new(k as u32 + 1).expect("k + 1 ≥ 1");
        let _ = checked.add_constraint(id, constraint);
    }
    let proof_path = dir.join(proof);
    check_numbers(&proof_path)?;
    match conclusion(&proof_path)? {
        Conclusion::Unsat => {}
        Conclusion::DualBound(atomic)
            if &*atomic.name == MAKESPAN
                && atomic.comparison == IntComparison::GreaterEqual
                && i64::from(atomic.value) * g >= bound => {}
        Conclusion::DualBound(atomic) => {
            return Err(format!(
                "the proof concludes [{} {} {}], which does not reach the bound {bound}",
                atomic.name, atomic.comparison, atomic.value
            ))
        }
    }
    pumpkin_checker::verify_proof(checked, reader(&proof_path)?)
        .map_err(|e| format!("pumpkin-checker: {e}"))?;
    Ok(Checked {
        grid: (g > 1 && relaxation.on_grid.get()).then_some(g),
    })
}

/// Every time of the instance (durations, releases, deadlines, lags, busy spans).
fn times(instance: &Instance) -> impl Iterator<Item = i64> + '_ {
    let activities = instance.activities.iter().flat_map(|a| {
        [
            Some(a.duration),
            a.release,
            a.deadline,
            Some(rules::agent_time(a)),
        ]
        .into_iter()
        .flatten()
    });
    let lags = instance
        .precedences
        .iter()
        .flat_map(|p| [Some(p.min_lag), p.max_lag].into_iter().flatten());
    activities.chain(lags)
}

/// The most a unit may occupy a resource: (time, units).
type Occupancy = Box<dyn for<'u> Fn(&Unit<'u>) -> (i64, i64)>;

/// The relaxation test, in the model's units (times divided by `g`).
struct Relaxation<'a> {
    instance: &'a Instance,
    g: i64,
    /// The makespans the proof must rule out are `0..=below`.
    below: i64,
    /// Whether a row read a unit of a split activity (see [`Checked::grid`]).
    on_grid: Cell<bool>,
}

/// A start variable: the start of the `k`-th of the `units` units of an activity's work (a
/// whole activity is one unit, `k = 0`).
#[derive(Clone, Copy)]
struct Unit<'a> {
    activity: &'a Activity,
    k: i64,
    /// Units of work: the duration over the scale for a split activity, else 1.
    units: i64,
    split: bool,
}

impl Unit<'_> {
    /// The activity's start.
    fn is_start(&self) -> bool {
        self.k == 0
    }

    /// `end ≥ unit + this` in the instance's units: the work from this unit on.
    fn work_from(&self, g: i64) -> i64 {
        self.activity.duration - self.k * g
    }

    /// Whether the end is exactly the unit plus [`Unit::work_from`]: a whole activity, or
    /// the last unit of a split one.
    fn ends(&self) -> bool {
        !self.split || self.k == self.units - 1
    }
}

impl Relaxation<'_> {
    /// The unit a start variable `s<index>` or `s<index>_<k>` stands for.
    fn unit(&self, name: &str) -> Result<Unit<'_>, String> {
        let unknown = || {
            format!(
                "variable \"{name}\" is neither a start s<activity index>[_<unit>] nor {MAKESPAN}"
            )
        };
        let (index, k) = match name.strip_prefix('s').ok_or_else(unknown)?.split_once('_') {
            Some((i, k)) => (i, k.parse::<i64>().map_err(|_| unknown())?),
            None => (name.strip_prefix('s').unwrap_or(name), 0),
        };
        let activity = index
            .parse::<usize>()
            .ok()
            .and_then(|i| self.instance.activities.get(i))
            .ok_or_else(unknown)?;
        let split = rules::splittable(activity);
        let units = if split { activity.duration / self.g } else { 1 };
        if k < 0 || k >= units.max(1) {
            return Err(format!(
                "variable \"{name}\": activity \"{}\" has no unit {k}",
                activity.id
            ));
        }
        Ok(Unit {
            activity,
            k,
            units,
            split,
        })
    }

    /// The least and the greatest value a schedule ending by `below` may give a variable.
    fn values(&self, name: &str) -> Result<(i64, i64), String> {
        if name == MAKESPAN {
            return Ok((0, self.below));
        }
        if let Some(fact) = orders::fact(self.instance, name) {
            return fact.map(|_| (0, 1));
        }
        let u = self.unit(name)?;
        let after = u.work_from(self.g) / self.g;
        let mut latest = self.below - after;
        if let Some(d) = u.activity.deadline {
            latest = latest.min(d / self.g - after);
        }
        Ok((rules::release(u.activity) / self.g + u.k, latest))
    }

    /// Every domain must hold every value a schedule ending by `below` can give it.
    fn variables(&self, fzn: &FlatZinc) -> Result<(), String> {
        if !fzn.variables.contains_key(MAKESPAN) {
            return Err(format!("the model has no variable \"{MAKESPAN}\""));
        }
        match &fzn.solve.method.node {
            Method::Optimize {
                direction: OptimizationDirection::Minimize,
                objective: VariableExpr::Identifier(name),
            } if &**name == MAKESPAN => {}
            _ => return Err(format!("the model must minimise \"{MAKESPAN}\"")),
        }
        for (name, variable) in &fzn.variables {
            let Domain::Int(range) = &variable.domain.node else {
                return Err(format!("variable \"{name}\" is not a finite integer range"));
            };
            let (lo, hi) = (*range.lower_bound(), *range.upper_bound());
            let (need_lo, need_hi) = self.values(name)?;
            if !range.is_continuous() || lo > need_lo || (need_lo <= need_hi && hi < need_hi) {
                return Err(format!(
                    "the domain of \"{name}\" leaves out values in [{need_lo}, {need_hi}] that a schedule may give it"
                ));
            }
        }
        Ok(())
    }

    /// The checker's form of a row, when the instance implies it.
    fn row(&self, fzn: &FlatZinc, row: &Row) -> Result<Constraint, String> {
        let resolve = |e: &ArrayExpr<VariableExpr<i32>>| -> Result<Vec<Rc<str>>, String> {
            fzn.resolve_array(e)
                .map_err(|e| e.to_string())?
                .map(|v| match v.map_err(|e| e.to_string())? {
                    VariableExpr::Identifier(name) => Ok(name),
                    VariableExpr::Constant(c) => {
                        Err(format!("a constant {c} where a variable belongs"))
                    }
                })
                .collect()
        };
        let numbers = |e: &ArrayExpr<i32>| -> Result<Vec<i32>, String> {
            fzn.resolve_array(e)
                .map_err(|e| e.to_string())?
                .map(|v| v.map_err(|e| e.to_string()))
                .collect()
        };
        let var =
            |name: &Rc<str>| checker::Variable::from(VariableExpr::Identifier(Rc::clone(name)));
        match row {
            Row::LinearLeq {
                weights,
                variables,
                bound,
            } => {
                let (weights, names) = (numbers(weights)?, resolve(variables)?);
                if names
                    .iter()
                    .any(|n| orders::fact(self.instance, n).is_some())
                {
                    self.ordered(&weights, &names, i64::from(*bound))?;
                } else {
                    self.lag(&weights, &names, i64::from(*bound))?;
                }
                Ok(Constraint::LinearLeq(Linear {
                    terms: weights
                        .iter()
                        .zip(&names)
                        .map(|(&w, name)| Term {
                            weight: NonZero::new(w).expect("checked rows have no zero weight"),
                            variable: var(name),
                        })
                        .collect(),
                    bound: *bound,
                }))
            }
            Row::Cumulative {
                start_times,
                durations,
                resource_usages,
                capacity,
            } => {
                let names = resolve(start_times)?;
                let (durations, usages) = (numbers(durations)?, numbers(resource_usages)?);
                if durations.len() != names.len() || usages.len() != names.len() {
                    return Err("the arrays of the cumulative differ in length".into());
                }
                self.cumulative(&names, &durations, &usages, i64::from(*capacity))?;
                Ok(Constraint::Cumulative(checker::Cumulative {
                    tasks: names
                        .iter()
                        .zip(durations.iter().zip(&usages))
                        .map(|(name, (&duration, &resource_usage))| checker::Task {
                            start_time: var(name),
                            duration,
                            resource_usage,
                        })
                        .collect(),
                    capacity: *capacity,
                }))
            }
        }
    }

    /// `x − y ≤ bound`, i.e. `y ≥ x − bound`: a precedence lag between two starts, or the
    /// makespan covering an activity's end; or `±x ≤ bound`, a bound every schedule ending
    /// by `below` keeps (the model's way of fixing a variable, see [`Relaxation::values`]).
    fn lag(&self, weights: &[i32], names: &[Rc<str>], bound: i64) -> Result<(), String> {
        let (x, y) = match (weights, names) {
            ([1, -1], [x, y]) => (x, y),
            ([-1, 1], [y, x]) => (x, y),
            ([w @ (1 | -1)], [x]) => {
                let (lo, hi) = self.values(x)?;
                let kept = if *w == 1 { bound >= hi } else { -bound <= lo };
                return if kept {
                    Ok(())
                } else {
                    Err(format!("the instance does not bound {x} by {bound}"))
                };
            }
            _ => {
                return Err(
                    "only rows y − x ≥ w over two variables, or ±x ≤ b over one, are rules of an instance".into(),
                )
            }
        };
        let w = -bound * self.g;
        let x_unit = self.unit(x)?;
        let candidates = if &**y == MAKESPAN {
            vec![(x_unit.work_from(self.g), x_unit.k > 0)]
        } else {
            self.implied(&x_unit, &self.unit(y)?)
        };
        // A rule that holds for every schedule wins over one that needs the grid.
        if candidates.iter().any(|&(most, grid)| !grid && w <= most) {
            Ok(())
        } else if candidates.iter().any(|&(most, _)| w <= most) {
            self.on_grid.set(true);
            Ok(())
        } else {
            Err(format!("the instance does not make {y} ≥ {x} + {}", -bound))
        }
    }

    /// A row over order variables ([`orders`]): `x − y + m·o ≤ bound`, the lag
    /// `y ≥ x + m − bound` guarded by `o` (its fact must imply the lag, and with `o = 0` the
    /// row must hold for every value a schedule may give `x` and `y`), or with `m < 0` the
    /// lag `y ≥ x − bound` where `o = 0` (the fact's negation must imply it); or
    /// `Σ −o ≤ −1`, "at least one of these facts holds" (the instance must force one).
    fn ordered(&self, weights: &[i32], names: &[Rc<str>], bound: i64) -> Result<(), String> {
        let facts: Vec<Option<Fact>> = names
            .iter()
            .map(|n| orders::fact(self.instance, n).transpose())
            .collect::<Result<_, _>>()?;
        if facts.iter().all(Option::is_some) {
            if !(weights.iter().all(|&w| w == -1) && bound >= -1) {
                return Err("a row over order variables only is \"at least one of them\"".into());
            }
            let facts: Vec<Fact> = facts.into_iter().flatten().collect();
            // Schedules shorter than the bound end by `(below + 1)·g − 1`.
            let horizon = (self.below + 1) * self.g - 1;
            return orders::one_holds(self.instance, &facts, horizon);
        }
        let (mut x, mut y, mut guard) = (None, None, None);
        for ((&w, name), fact) in weights.iter().zip(names).zip(facts) {
            match (w, fact) {
                (m, Some(fact)) if m != 0 && guard.is_none() => guard = Some((i64::from(m), fact)),
                (1, None) if x.is_none() => x = Some(name),
                (-1, None) if y.is_none() => y = Some(name),
                _ => {
                    return Err(
                        "a row with an order variable is x − y + m·o ≤ b or at least one of them"
                            .into(),
                    )
                }
            }
        }
        let (Some(x), Some(y), Some((m, fact))) = (x, y, guard) else {
            return Err(
                "a row with an order variable is x − y + m·o ≤ b or at least one of them".into(),
            );
        };
        // The lag where the row binds: with `o = 1` for m > 0, what the fact implies; with
        // `o = 0` for m < 0, what its negation implies (the other of two orders one of
        // which always holds). Where the row does not bind, `x − y ≤ slack`.
        let (lag, w, slack) = if m > 0 {
            (orders::lag(self.instance, &fact)?, m - bound, bound)
        } else {
            let other = orders::reverse(&fact);
            let horizon = (self.below + 1) * self.g - 1;
            orders::one_holds(self.instance, &[fact.clone(), other.clone()], horizon)?;
            (orders::lag(self.instance, &other)?, -bound, bound - m)
        };
        let (ux, uy) = (self.unit(x)?, self.unit(y)?);
        let named =
            |u: &Unit, i: usize| !u.split && std::ptr::eq(u.activity, &self.instance.activities[i]);
        if !named(&ux, lag.x) || !named(&uy, lag.y) {
            return Err(format!(
                "{x} and {y} are not the starts that {} orders",
                orders::describe(self.instance, &fact)
            ));
        }
        if w * self.g > lag.w {
            return Err(format!(
                "{} makes {y} ≥ {x} + {} only, not + {w}",
                orders::describe(self.instance, &fact),
                lag.w
            ));
        }
        let ((_, hi), (lo, _)) = (self.values(x)?, self.values(y)?);
        if hi - lo > slack {
            return Err(format!(
                "with its order variable at the other value the row still bounds {x} − {y} by {slack}, which a schedule may exceed (the order: {})",
                orders::describe(self.instance, &fact)
            ));
        }
        Ok(())
    }

    /// Each `(w, grid)` such that the instance forces `y ≥ x + w` (in its own units), and
    /// whether that needs pieces on the grid (a unit after the first, or the end read off
    /// the last unit, of a split activity). The rules: units of one activity follow each
    /// other; a precedence's minimum lag, after the start or the end of `before` (which is
    /// at least a unit plus the work from it on); its maximum lag read backwards, to the start
    /// or the exact end of `before`. A maximum lag also bounds the end of `after`: every
    /// piece starts by the deadline `D`, the last one runs without a break to the end, so
    /// the end is at most `D` plus the duration, and a unit at most `D` plus the work
    /// before it.
    fn implied(&self, x: &Unit, y: &Unit) -> Vec<(i64, bool)> {
        let g = self.g;
        let mut rules = Vec::new();
        if std::ptr::eq(x.activity, y.activity) && x.split && y.k > x.k {
            rules.push(((y.k - x.k) * g, true));
        }
        for p in &self.instance.precedences {
            let anchored = |u: &Unit| match p.relation {
                Relation::StartToStart => u.is_start().then_some((0, false)),
                Relation::FinishToStart => Some((u.work_from(g), u.split && u.k > 0)),
            };
            if p.before == x.activity.id && p.after == y.activity.id && y.is_start() {
                // anchor(before) ≥ x + a, start(after) ≥ anchor(before) + min.
                if let Some((a, grid)) = anchored(x) {
                    rules.push((a + p.min_lag, grid));
                }
            }
            let exact = match p.relation {
                Relation::StartToStart => y.is_start().then_some((0, false)),
                Relation::FinishToStart => y.ends().then_some((y.work_from(g), y.split)),
            };
            if let (Some(max), true, Some((off, grid))) = (
                p.max_lag,
                p.before == y.activity.id && p.after == x.activity.id,
                exact,
            ) {
                // y + off = anchor(before) ≥ end(after) − max − duration ≥ x − k·g − max.
                rules.push((-x.k * g - max - off, grid || x.k > 0));
            }
        }
        rules
    }

    /// Tasks on one resource (or the agents), each at most the activity's use of it: a
    /// whole activity for at most its time there, a unit of a split activity for one time
    /// unit.
    fn cumulative(
        &self,
        names: &[Rc<str>],
        durations: &[i32],
        usages: &[i32],
        capacity: i64,
    ) -> Result<(), String> {
        let units: Vec<Unit> = names
            .iter()
            .map(|n| self.unit(n))
            .collect::<Result<_, _>>()?;
        // By what the variables stand for, not their names: `s3` and `s03` are one start.
        let distinct: HashSet<(&str, i64)> = units
            .iter()
            .map(|u| (u.activity.id.as_str(), u.k))
            .collect();
        if distinct.len() != units.len() {
            return Err("a unit of work appears twice in the cumulative".into());
        }
        let g = self.g;
        // Each candidate: (capacity, the most a unit may occupy: (time, units)).
        let agents = self.instance.agents.map(|m| {
            let busy: Occupancy = Box::new(move |u| {
                let time = rules::agent_time(u.activity);
                match (u.split, (u.k + 1) * g <= time) {
                    (false, _) => (time, 1),
                    (true, true) => (g, 1),
                    (true, false) => (0, 0),
                }
            });
            (i64::from(m), busy)
        });
        let resources = self.instance.resources.iter().map(|r| {
            let id = r.id.clone();
            let busy: Occupancy = Box::new(move |u| {
                let time = if u.split { g } else { u.activity.duration };
                (time, rules::units(u.activity, &id))
            });
            (i64::from(r.capacity), busy)
        });
        let fits = |(true_capacity, busy): &(i64, Occupancy)| {
            capacity >= *true_capacity
                && units
                    .iter()
                    .zip(durations.iter().zip(usages))
                    .all(|(u, (&d, &n))| {
                        let (time, most) = busy(u);
                        n <= 0 || d <= 0 || (i64::from(d) * g <= time && i64::from(n) <= most)
                    })
        };
        if agents.into_iter().chain(resources).any(|c| fits(&c)) {
            // A unit of a split activity as a task relies on pieces lying on the grid.
            if units
                .iter()
                .zip(durations.iter().zip(usages))
                .any(|(u, (&d, &n))| u.split && d > 0 && n > 0)
            {
                self.on_grid.set(true);
            }
            Ok(())
        } else {
            Err(
                "no resource of the instance (nor the agents) has these tasks and this capacity"
                    .into(),
            )
        }
    }
}

/// The proof's conclusion (its last step).
fn conclusion(path: &Path) -> Result<Conclusion<Rc<str>, i32>, String> {
    let mut proof = reader(path)?;
    loop {
        match proof
            .next_step()
            .map_err(|e| format!("{}: {e}", path.display()))?
        {
            Some(Step::Conclusion(conclusion)) => return Ok(conclusion),
            Some(_) => {}
            None => return Err(format!("{}: the proof has no conclusion", path.display())),
        }
    }
}

/// The proof log through the bounded reader: a regular file, and at most the input cap once
/// unpacked (a 4 MB gzip can hold one 4 GiB line).
fn reader(path: &Path) -> Result<ProofReader<Box<dyn BufRead>, i32>, String> {
    let source = input::open_maybe_gzipped(path).map_err(|e| e.to_string())?;
    Ok(ProofReader::new(source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::Precedence;

    fn relaxation(instance: &Instance, g: i64) -> Relaxation<'_> {
        Relaxation {
            instance,
            g,
            below: 9,
            on_grid: Cell::new(false),
        }
    }

    /// fzn-rs's lexer unwraps its integer parse: a model with a 20-digit number panicked
    /// `check-proof` (found by the fuzz suite).
    #[test]
    fn integers_beyond_64_bits_are_found_before_the_parser_sees_them() {
        let model = "% 99999999999999999999 in a comment\nvar 0..9: x1234567890123456789012;\nconstraint int_le(x, 9223372036854775808);\n";
        assert_eq!(
            oversized_integer(model),
            Some((3, "9223372036854775808".to_string()))
        );
        let fine =
            "var -9223372036854775808..9: s;\nconstraint a(\"123456789012345678901\", 1.5e300);\n";
        assert_eq!(oversized_integer(fine), None);
        // A range's `..` is no decimal point.
        assert_eq!(
            oversized_integer("var 0..184467440737095516160: s;"),
            Some((1, "184467440737095516160".to_string()))
        );
        // The proof format's 32-bit numbers (its reader panicked on `i 4294967330 …`).
        let fits = |n: &str| n.trim_start_matches('-').parse::<i32>().is_ok();
        let step = b"i 4294967330 1 2 0 c:1 l:linear_bounds";
        assert_eq!(
            oversized(step, fits, false),
            Some((1, "4294967330".to_string()))
        );
        assert_eq!(
            oversized(b"a 1 [s9999999999 >= -2147483647]", fits, false),
            None
        );
        assert!(oversized(b"a 1 [s0 >= -2147483648]", fits, false).is_some());
        let long = format!("var 0..{}: s;", "9".repeat(50));
        assert_eq!(
            oversized_integer(&long),
            Some((1, format!("{}… (50 digits)", "9".repeat(40))))
        );
    }

    #[test]
    fn a_split_activity_is_a_task_one_unit_at_a_time() {
        let mut chop = Activity::new("chop", 4);
        let whole = Instance {
            activities: vec![chop.clone()],
            ..Instance::new("t", Some(1))
        };
        chop.preemptible = true;
        let split = Instance {
            activities: vec![chop],
            ..Instance::new("t", Some(1))
        };
        let task = |instance, name: &str, duration| {
            let relaxation = relaxation(instance, 1);
            relaxation
                .cumulative(&[Rc::from(name)], &[duration], &[1], 1)
                .map(|()| relaxation.on_grid.get())
        };
        assert_eq!(task(&whole, "s0", 4), Ok(false));
        assert!(
            task(&split, "s0", 4).is_err(),
            "a split activity is no block"
        );
        // It reads a unit, which ties the proof to the grid only on a scale above 1.
        assert_eq!(task(&split, "s0_3", 1), Ok(true));
        assert!(task(&split, "s0_4", 1).is_err(), "chop has 4 units");
        assert!(
            task(&whole, "s0_1", 1).is_err(),
            "a whole activity has one unit"
        );
        // One unit twice, under two names, would count its work twice.
        let twice = [Rc::from("s0_1"), Rc::from("s0_01")];
        let counted = relaxation(&split, 1).cumulative(&twice, &[1, 1], &[1, 1], 1);
        assert!(counted.is_err());
        // On a scale of 2, a unit is 2 time units.
        let relaxation = relaxation(&split, 2);
        assert!(relaxation
            .cumulative(&[Rc::from("s0_1")], &[1], &[1], 1)
            .is_ok());
        assert!(relaxation
            .cumulative(&[Rc::from("s0_2")], &[1], &[1], 1)
            .is_err());
    }

    #[test]
    fn a_maximum_lag_bounds_the_units_of_a_split_activity_through_its_end() {
        let mut stir = Activity::new("stir", 3);
        stir.preemptible = true;
        let instance = Instance {
            activities: vec![Activity::new("boil", 2), stir],
            precedences: vec![Precedence {
                max_lag: Some(1),
                ..Precedence::finish_to_start("boil", "stir", 0)
            }],
            ..Instance::new("t", Some(1))
        };
        let row = |x: &str, y: &str, w: i64| {
            let relaxation = relaxation(&instance, 1);
            relaxation.lag(&[1, -1], &[Rc::from(x), Rc::from(y)], -w)
        };
        // Every piece of stir starts by end(boil) + 1, so stir ends by end(boil) + 4 and
        // its unit k starts by end(boil) + 1 + k: s0 ≥ s1_k − k − 1 − 2.
        assert!(row("s1_2", "s0", -5).is_ok());
        assert!(row("s1_2", "s0", -4).is_err());
        // The units follow each other, and the last one ends the activity.
        assert!(row("s1", "s1_2", 2).is_ok());
        assert!(row("s1", "s1_2", 3).is_err());
        assert!(row("s1_2", "makespan", 1).is_ok());
        assert!(row("s1_1", "makespan", 3).is_err());
    }
}
