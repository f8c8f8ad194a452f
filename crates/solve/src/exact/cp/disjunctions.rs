//! One literal per two tasks that can never overlap, saying which goes first, and a
//! brancher that decides only those literals (then every start at its earliest).
//!
//! Once every order on the machines is fixed, the rest is a network of lags whose
//! earliest starts propagation finds, so deciding orders alone is a complete search. Its
//! nogoods are over orders and bounds: they stay valid however far the tasks' times move,
//! where nogoods over start times hold only near the times they name. This is how
//! constraint solvers prove job shops (Grimes and Hebrard: weighted choices on disjunctions,
//! restarts, guided by the best schedule); the literals are chosen by how often they take
//! part in conflicts, most recently weighted most (as VSIDS does for all predicates).

use pumpkin_solver::core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_solver::core::branching::tie_breaking::InOrderTieBreaker;
use pumpkin_solver::core::branching::value_selection::InDomainMin;
use pumpkin_solver::core::branching::variable_selection::Smallest;
use pumpkin_solver::core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_solver::core::predicates::Predicate;
use pumpkin_solver::core::results::{ProblemSolution, SolutionReference};
use pumpkin_solver::core::variables::{DomainId, Literal, TransformableVariable};
use pumpkin_solver::Solver;
use rustc_hash::FxHashMap;

/// "Activity `first` ends by the start of activity `second`" where `literal` is true, and
/// the reverse where it is false.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Disjunction {
    first: usize,
    second: usize,
    literal: Literal,
    starts: (DomainId, DomainId),
}

/// Posts one [`Disjunction`] per two of `tasks` (activity and duration, no two overlapping)
/// of positive length; `starts` holds each activity's start.
pub(crate) fn post(
    solver: &mut Solver,
    tasks: &[(usize, i32)],
    starts: &[DomainId],
) -> Vec<Disjunction> {
    let timed: Vec<_> = tasks.iter().filter(|t| t.1 > 0).collect();
    let mut posted = Vec::new();
    for (k, a) in timed.iter().enumerate() {
        for b in &timed[k + 1..] {
            let literal = solver.new_literal();
            for (before, after, literal) in [(a, b, literal), (b, a, !literal)] {
                let tag = solver.new_constraint_tag();
                solver
                    .add_constraint(pumpkin_solver::less_than_or_equals(
                        [starts[before.0].scaled(1), starts[after.0].scaled(-1)],
                        -before.1,
                        tag,
                    ))
                    .implied_by(literal);
            }
            posted.push(Disjunction {
                first: a.0,
                second: b.0,
                literal,
                starts: (starts[a.0], starts[b.0]),
            });
        }
    }
    posted
}

/// How much a conflict's weight grows over the previous one's (VSIDS decay 0.95).
const GROWTH: f64 = 1.0 / 0.95;

/// Decides the unfixed [`Disjunction`] that took part in the most (recent) conflicts,
/// the way the best schedule found has it (before one, the task that can start sooner
/// first); once all are fixed, each other variable at its least value.
#[derive(Debug)]
pub(crate) struct OrderBrancher {
    disjunctions: Vec<Disjunction>,
    /// The disjunction of each literal's domain.
    index: FxHashMap<DomainId, usize>,
    weights: Vec<f64>,
    increment: f64,
    /// Each literal's value in the best schedule found.
    phase: Vec<Option<bool>>,
    rest: IndependentVariableValueBrancher<
        DomainId,
        Smallest<DomainId, InOrderTieBreaker<DomainId, i32>>,
        InDomainMin,
    >,
}

impl OrderBrancher {
    /// A brancher on `disjunctions`, then on `rest` (the model's other variables), first
    /// following `guide` (starts of a schedule).
    pub(crate) fn new(
        disjunctions: Vec<Disjunction>,
        rest: &[DomainId],
        guide: Option<&[i64]>,
    ) -> OrderBrancher {
        let index = disjunctions
            .iter()
            .enumerate()
            .map(|(k, d)| (d.literal.get_true_predicate().get_domain(), k))
            .collect();
        let n = disjunctions.len();
        let phase = match guide {
            Some(starts) => disjunctions
                .iter()
                .map(|d| Some(starts[d.first] <= starts[d.second]))
                .collect(),
            None => vec![None; n],
        };
        OrderBrancher {
            disjunctions,
            index,
            weights: vec![0.0; n],
            increment: 1.0,
            phase,
            rest: IndependentVariableValueBrancher::new(Smallest::new(rest), InDomainMin),
        }
    }
}

impl Brancher for OrderBrancher {
    fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
        let mut chosen: Option<usize> = None;
        for (k, d) in self.disjunctions.iter().enumerate() {
            if context.is_predicate_assigned(d.literal.get_true_predicate()) {
                continue;
            }
            if chosen.is_none_or(|c| self.weights[k] > self.weights[c]) {
                chosen = Some(k);
            }
        }
        let Some(k) = chosen else {
            return self.rest.next_decision(context);
        };
        let d = self.disjunctions[k];
        let first_first = self.phase[k]
            .unwrap_or_else(|| context.lower_bound(d.starts.0) <= context.lower_bound(d.starts.1));
        Some(if first_first {
            d.literal.get_true_predicate()
        } else {
            d.literal.get_false_predicate()
        })
    }

    fn on_conflict(&mut self) {
        self.increment *= GROWTH;
        if self.increment > 1e100 {
            for w in &mut self.weights {
                *w /= 1e100;
            }
            self.increment /= 1e100;
        }
    }

    fn on_appearance_in_conflict_predicate(&mut self, predicate: Predicate) {
        if let Some(&k) = self.index.get(&predicate.get_domain()) {
            self.weights[k] += self.increment;
        }
    }

    fn on_solution(&mut self, solution: SolutionReference) {
        for (phase, d) in self.phase.iter_mut().zip(&self.disjunctions) {
            *phase = Some(solution.get_literal_value(d.literal));
        }
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        [
            BrancherEvent::Conflict,
            BrancherEvent::Solution,
            BrancherEvent::AppearanceInConflictPredicate,
        ]
        .into_iter()
        .chain(self.rest.subscribe_to_events())
        .collect()
    }
}
