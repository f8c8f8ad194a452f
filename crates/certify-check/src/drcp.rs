//! DRCP certificates: the FlatZinc model must be a relaxation of the instance (each of its
//! variables and rows implied by the instance's rules, times divided by the scale), and
//! `pumpkin-checker` must accept the proof that it has no solution below the bound.
//!
//! Why a scale is sound: when every time of the instance is a multiple of `g`, rounding
//! each start of a schedule down to a multiple of `g` keeps every lag (`S_b − S_a ≥ w` with
//! `g | w` survives flooring), every window and every capacity (the work running in
//! `[kg, kg + g)` after rounding was running just before `(k + 1)g` before), and does not
//! lengthen the schedule; so a schedule shorter than `bound` gives one on the grid.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::num::NonZero;
use std::path::Path;
use std::rc::Rc;

use drcp_format::reader::ProofReader;
use drcp_format::{Conclusion, IntComparison, Step};
use fzn_rs::ast::{Domain, OptimizationDirection};
use fzn_rs::{ArrayExpr, Method, TypedInstance, VariableExpr};
use makespan_model::certificate::Proof;
use makespan_model::instance::{Activity, Instance};
use pumpkin_checker::model::{self as checker, Constraint, Linear, Model, Objective, Term};

use crate::rules;

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

/// The one objective a certificate's model may have.
const MAKESPAN: &str = "makespan";

/// Whether the DRCP `proof` shows that no schedule of `instance` is shorter than `bound`.
pub fn check(instance: &Instance, proof: &Proof, bound: i64, dir: &Path) -> Result<(), String> {
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
    let source = std::fs::read_to_string(dir.join(model))
        .map_err(|e| format!("{}: {e}", dir.join(model).display()))?;
    let ast = fzn_rs::fzn::parse(&source).map_err(|e| format!("{model}: {e}"))?;
    let fzn = FlatZinc::from_ast(ast).map_err(|e| format!("{model}: {e}"))?;
    // Below the bound, in the model's units.
    let below = bound / g - 1;
    let relaxation = Relaxation { instance, g, below };
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
        .map_err(|e| format!("pumpkin-checker: {e}"))
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

/// The most an activity may occupy a resource: (time, units).
type Occupancy = Box<dyn Fn(&Activity) -> (i64, i64)>;

/// The relaxation test, in the model's units (times divided by `g`).
struct Relaxation<'a> {
    instance: &'a Instance,
    g: i64,
    /// The makespans the proof must rule out are `0..=below`.
    below: i64,
}

impl Relaxation<'_> {
    /// The activity a start variable `s<index>` stands for.
    fn activity(&self, name: &str) -> Result<&Activity, String> {
        name.strip_prefix('s')
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| self.instance.activities.get(i))
            .ok_or_else(|| {
                format!("variable \"{name}\" is neither a start s<activity index> nor {MAKESPAN}")
            })
    }

    /// The least and the greatest value a schedule ending by `below` may give a variable.
    fn values(&self, name: &str) -> Result<(i64, i64), String> {
        if name == MAKESPAN {
            return Ok((0, self.below));
        }
        let a = self.activity(name)?;
        let mut latest = self.below - a.duration / self.g;
        if let Some(d) = a.deadline {
            latest = latest.min((d - a.duration) / self.g);
        }
        Ok((rules::release(a) / self.g, latest))
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
                self.lag(&weights, &names, i64::from(*bound))?;
                Ok(Constraint::LinearLeq(Linear {
                    terms: weights
                        .iter()
                        .zip(&names)
                        .map(|(&w, name)| Term {
                            weight: NonZero::new(w).expect("lag rows have weights ±1"),
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
        let a = self.activity(x)?;
        let implied = if &**y == MAKESPAN {
            Some(a.duration)
        } else {
            rules::lag(self.instance, &a.id, &self.activity(y)?.id)
        };
        match implied {
            Some(most) if w <= most => Ok(()),
            _ => Err(format!("the instance does not make {y} ≥ {x} + {}", -bound)),
        }
    }

    /// Tasks on one resource (or the agents), each at most the activity's use of it.
    fn cumulative(
        &self,
        names: &[Rc<str>],
        durations: &[i32],
        usages: &[i32],
        capacity: i64,
    ) -> Result<(), String> {
        let activities: Vec<&Activity> = names
            .iter()
            .map(|n| self.activity(n))
            .collect::<Result<_, _>>()?;
        let distinct: HashSet<&str> = activities.iter().map(|a| a.id.as_str()).collect();
        if distinct.len() != activities.len() {
            return Err("an activity appears twice in the cumulative".into());
        }
        // Each candidate: (capacity, the most an activity may occupy: (time, units)).
        let agents = self.instance.agents.map(|m| {
            let busy: Occupancy = Box::new(|a| (rules::agent_time(a), 1));
            (i64::from(m), busy)
        });
        let resources = self.instance.resources.iter().map(|r| {
            let id = r.id.clone();
            let busy: Occupancy = Box::new(move |a| (a.duration, rules::units(a, &id)));
            (i64::from(r.capacity), busy)
        });
        let fits = |(true_capacity, busy): &(i64, Occupancy)| {
            capacity >= *true_capacity
                && activities
                    .iter()
                    .zip(durations.iter().zip(usages))
                    .all(|(a, (&d, &u))| {
                        let (time, units) = busy(a);
                        // A task is one block of time: a split activity's pieces are not.
                        u <= 0
                            || d <= 0
                            || (i64::from(d) * self.g <= time
                                && i64::from(u) <= units
                                && !rules::splittable(a))
                    })
        };
        if agents.into_iter().chain(resources).any(|c| fits(&c)) {
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

fn reader(path: &Path) -> Result<ProofReader<Box<dyn BufRead>, i32>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let source: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    Ok(ProofReader::new(source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_activity_is_no_task_of_a_cumulative() {
        let mut chop = Activity::new("chop", 2);
        let whole = Instance {
            activities: vec![chop.clone()],
            ..Instance::new("t", Some(1))
        };
        chop.preemptible = true;
        let split = Instance {
            activities: vec![chop],
            ..Instance::new("t", Some(1))
        };
        let task = |instance| {
            let relaxation = Relaxation {
                instance,
                g: 1,
                below: 9,
            };
            relaxation.cumulative(&[Rc::from("s0")], &[2], &[1], 1)
        };
        assert!(task(&whole).is_ok());
        assert!(task(&split).is_err());
    }
}
