//! Puts each deduction's hints of a DRCP proof in an order that applies.
//!
//! A deduction lists the inferences (its hints) that derive a conflict from its premises;
//! `pumpkin-checker` applies them once, in the order listed, and rejects the deduction
//! when an inference comes before the one that establishes its premise. Pumpkin 0.5.0
//! sometimes lists them so (a bound learned at the root, hinted after its first use), and
//! then a proof whose every inference is valid is rejected. This pass replays each
//! deduction's hints to a fixpoint and writes them in the order they applied, which the
//! stock checker accepts; it changes no inference, premise or conclusion, so it cannot make
//! an unsound proof pass.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::num::NonZero;
use std::path::Path;
use std::rc::Rc;

use drcp_format::reader::{ProofReader, ReadAtomic};
use drcp_format::writer::ProofWriter;
use drcp_format::{Conclusion, Deduction, Inference, IntAtomic, IntComparison, Step};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use pumpkin_checking::{AtomicConstraint, Comparison, VariableState};

/// An atomic constraint of the proof, as `pumpkin-checking` evaluates it.
#[derive(Debug, Clone)]
struct Atom(ReadAtomic<i32>);

impl AtomicConstraint for Atom {
    type Identifier = Rc<str>;

    fn identifier(&self) -> Rc<str> {
        Rc::clone(&self.0.name)
    }

    fn comparison(&self) -> Comparison {
        match self.0.comparison {
            IntComparison::GreaterEqual => Comparison::GreaterEqual,
            IntComparison::LessEqual => Comparison::LessEqual,
            IntComparison::Equal => Comparison::Equal,
            IntComparison::NotEqual => Comparison::NotEqual,
        }
    }

    fn value(&self) -> i32 {
        self.0.value
    }

    fn negate(&self) -> Self {
        Atom(!self.0.clone())
    }
}

/// The atomic with a name the writer takes.
fn owned(atomic: ReadAtomic<i32>) -> IntAtomic<String, i32> {
    IntAtomic::new(atomic.name.to_string(), atomic.comparison, atomic.value)
}

/// An inference: its premises and its consequent (`None`: a conflict).
type Fact = (Vec<Atom>, Option<Atom>);

/// Rewrites the gzipped proof `from` into `to` with every deduction's hints in an order
/// that applies (and no longer than it needs).
pub fn reorder(from: &Path, to: &Path) -> std::io::Result<()> {
    let mut reader = ProofReader::<_, i32>::new(BufReader::new(GzDecoder::new(File::open(from)?)));
    let mut out = GzEncoder::new(
        BufWriter::new(File::create(to)?),
        flate2::Compression::default(),
    );
    let mut writer = ProofWriter::<_, i32>::new(&mut out);
    // The inferences since the last deduction: a deduction may use only these.
    let mut facts: HashMap<NonZero<u32>, Fact> = HashMap::new();
    while let Some(step) = reader.next_step().map_err(std::io::Error::other)? {
        match step {
            Step::Inference(inference) => {
                let fact = (
                    inference.premises.iter().cloned().map(Atom).collect(),
                    inference.consequent.clone().map(Atom),
                );
                facts.insert(inference.constraint_id, fact);
                writer.log_inference(Inference {
                    premises: inference.premises.into_iter().map(owned).collect(),
                    consequent: inference.consequent.map(owned),
                    constraint_id: inference.constraint_id,
                    generated_by: inference.generated_by,
                    label: inference.label,
                })?;
            }
            Step::Deduction(mut deduction) => {
                if let Some(order) = applying_order(&deduction, &facts) {
                    deduction.sequence = order;
                }
                facts.clear();
                writer.log_deduction(Deduction {
                    premises: deduction.premises.into_iter().map(owned).collect(),
                    constraint_id: deduction.constraint_id,
                    sequence: deduction.sequence,
                })?;
            }
            Step::Conclusion(conclusion) => {
                writer.log_conclusion(match conclusion {
                    Conclusion::Unsat => Conclusion::Unsat,
                    Conclusion::DualBound(atomic) => Conclusion::DualBound(owned(atomic)),
                })?;
                break;
            }
        }
    }
    drop(writer);
    out.finish()?.flush()
}

/// The deduction's hints in an order that reaches a conflict when applied once each, or
/// `None` when no order does (the checker will say so).
fn applying_order(
    deduction: &Deduction<Rc<str>, i32>,
    facts: &HashMap<NonZero<u32>, Fact>,
) -> Option<Vec<NonZero<u32>>> {
    let premises = deduction.premises.iter().cloned().map(Atom);
    let Ok(mut state) = VariableState::prepare_for_conflict_check(premises, None) else {
        // Contradictory premises: the deduction holds with no hints at all.
        return Some(deduction.sequence.clone());
    };
    let mut pending: Vec<NonZero<u32>> = deduction.sequence.clone();
    let mut order = Vec::with_capacity(pending.len());
    loop {
        let before = order.len();
        let mut waiting = Vec::new();
        for id in pending {
            let (premises, consequent) = facts.get(&id)?;
            if !premises.iter().all(|p| state.is_true(p)) {
                waiting.push(id);
                continue;
            }
            order.push(id);
            match consequent {
                Some(atom) if state.apply(atom) => {}
                // A conflict: the hints so far derive it.
                _ => return Some(order),
            }
        }
        if order.len() == before {
            return None;
        }
        pending = waiting;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(name: &str, comparison: IntComparison, value: i32) -> Atom {
        Atom(IntAtomic::new(Rc::from(name), comparison, value))
    }

    fn id(k: u32) -> NonZero<u32> {
        NonZero::new(k).unwrap()
    }

    #[test]
    fn hints_listed_before_their_premise_are_put_after_it() {
        use IntComparison::{Equal, GreaterEqual, LessEqual};
        // From x ≥ 5: (1) x = 5 → y ≤ 3 needs (2) x ≤ 5 first; (3) y ≤ 3 ∧ x ≥ 5 → false.
        let facts = HashMap::from([
            (
                id(1),
                (vec![atom("x", Equal, 5)], Some(atom("y", LessEqual, 3))),
            ),
            (id(2), (vec![], Some(atom("x", LessEqual, 5)))),
            (
                id(3),
                (
                    vec![atom("y", LessEqual, 3), atom("x", GreaterEqual, 5)],
                    None,
                ),
            ),
        ]);
        let deduction = Deduction {
            constraint_id: id(4),
            premises: vec![IntAtomic::new(Rc::from("x"), GreaterEqual, 5)],
            sequence: vec![id(1), id(2), id(3)],
        };
        assert_eq!(
            applying_order(&deduction, &facts),
            Some(vec![id(2), id(1), id(3)])
        );
        // Without (2) no order reaches the conflict.
        let short = Deduction {
            sequence: vec![id(1), id(3)],
            ..deduction
        };
        assert_eq!(applying_order(&short, &facts), None);
    }
}
