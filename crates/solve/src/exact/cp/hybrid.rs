//! One search that takes turns between conflict-driven branching (Pumpkin's default: the
//! variable most active in recent conflicts, at the value of the best schedule) and
//! smallest-start branching (the activity that can start soonest, at that start), switching
//! at every restart. Both learn into one clause database: the conflicts the first learns
//! prune the second's schedule-generation sweeps, and the second's schedules guide the
//! first's values.
//!
//! Smallest-start branching has the first turn, which lasts until Pumpkin's first restart
//! (after 10,000 conflicts): on the hard PSPLIB j30 instances that turn does most of the
//! proof (j3029_4 in 2.9 s, j3013_8 in 1.5 s, where conflict-driven branching first took
//! 15.3 s and 7.3 s), while on some 60-activity instances conflict-driven branching first
//! proves sooner.

use pumpkin_solver::core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_solver::core::branching::tie_breaking::InOrderTieBreaker;
use pumpkin_solver::core::branching::value_selection::InDomainMin;
use pumpkin_solver::core::branching::variable_selection::Smallest;
use pumpkin_solver::core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_solver::core::predicates::Predicate;
use pumpkin_solver::core::results::SolutionReference;
use pumpkin_solver::core::variables::DomainId;
use pumpkin_solver::core::DefaultBrancher;

/// The brancher; see the module documentation.
#[derive(Debug)]
pub(crate) struct Hybrid {
    activity: DefaultBrancher,
    smallest: IndependentVariableValueBrancher<
        DomainId,
        Smallest<DomainId, InOrderTieBreaker<DomainId, i32>>,
        InDomainMin,
    >,
    /// Whether smallest-start branching has the turn.
    smallest_turn: bool,
}

impl Hybrid {
    /// Takes turns between `activity` and smallest-start branching over `variables`,
    /// smallest-start first.
    pub(crate) fn new(activity: DefaultBrancher, variables: &[DomainId]) -> Hybrid {
        Hybrid {
            activity,
            smallest: IndependentVariableValueBrancher::new(Smallest::new(variables), InDomainMin),
            smallest_turn: true,
        }
    }
}

impl Brancher for Hybrid {
    fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
        if self.smallest_turn {
            if let Some(decision) = self.smallest.next_decision(context) {
                return Some(decision);
            }
        }
        self.activity.next_decision(context)
    }

    fn on_conflict(&mut self) {
        self.activity.on_conflict();
    }

    fn on_backtrack(&mut self) {
        self.activity.on_backtrack();
        self.smallest.on_backtrack();
    }

    fn on_solution(&mut self, solution: SolutionReference) {
        self.activity.on_solution(solution);
        self.smallest.on_solution(solution);
    }

    fn on_unassign_integer(&mut self, variable: DomainId, value: i32) {
        self.activity.on_unassign_integer(variable, value);
        self.smallest.on_unassign_integer(variable, value);
    }

    fn on_appearance_in_conflict_predicate(&mut self, predicate: Predicate) {
        self.activity.on_appearance_in_conflict_predicate(predicate);
    }

    fn on_restart(&mut self) {
        self.activity.on_restart();
        self.smallest_turn = !self.smallest_turn;
    }

    fn synchronise(&mut self, context: &mut SelectionContext) {
        self.activity.synchronise(context);
        self.smallest.synchronise(context);
    }

    fn is_restart_pointless(&mut self) -> bool {
        false
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        vec![
            BrancherEvent::Conflict,
            BrancherEvent::Backtrack,
            BrancherEvent::Solution,
            BrancherEvent::UnassignInteger,
            BrancherEvent::AppearanceInConflictPredicate,
            BrancherEvent::Restart,
            BrancherEvent::Synchronise,
        ]
    }
}
