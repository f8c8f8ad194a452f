//! Detectable precedences and not-first reasoning on a machine (tasks that never overlap),
//! with explanations, beside Pumpkin's edge finding, which deduces neither.
//!
//! - Detectable precedences: where task `i` cannot end by the latest start of `j`
//!   (`est_i + p_i > lst_j`), `j` precedes `i`; so `i` starts after the earliest end of all
//!   such `j` together.
//! - Not-first: where `i` cannot precede a set `Ω` (`est_i + p_i + p_Ω > lct_Ω`), some task
//!   of `Ω` precedes it; so `i` starts after the earliest end of any of them.
//!
//! Both deduce lower bounds; the constraint is posted a second time on mirrored times
//! (`−(s + p)`), where they become the upper bounds (and not-first becomes not-last).
//!
//! Each deduction is explained by bounds as weak as the rule allows (the tasks' windows
//! widened to what the argument needs), so the nogoods the solver learns from them hold
//! across many nodes. The checker of a DRCP proof does not know these rules: proofs are
//! searched without them.

use pumpkin_solver::core::declare_inference_label;
use pumpkin_solver::core::predicates::PropositionalConjunction;
use pumpkin_solver::core::proof::{ConstraintTag, InferenceCode};
use pumpkin_solver::core::propagation::{
    PropagationContext, Propagator, PropagatorConstructor, PropagatorConstructorContext,
    PropagatorSpec, RuntimeCheckers,
};
use pumpkin_solver::core::state::PropagationStatusCP;
use pumpkin_solver::core::variables::IntegerVariable;

use super::starts::{bound_events, start_windows};

declare_inference_label!(DetectablePrecedence);
declare_inference_label!(NotFirst);

/// Tasks `(start, duration)` of which no two overlap; build the propagator with
/// [`pumpkin_solver::Solver::add_propagator`].
#[derive(Debug)]
pub(crate) struct Unary<Var> {
    pub(crate) tasks: Vec<(Var, i32)>,
    pub(crate) tag: ConstraintTag,
}

/// The propagator of [`Unary`].
#[derive(Debug, Clone)]
pub(crate) struct UnaryPropagator<Var> {
    tasks: Vec<(Var, i32)>,
    precedence: InferenceCode,
    not_first: InferenceCode,
}

impl<Var: IntegerVariable + 'static> PropagatorConstructor for Unary<Var> {
    type PropagatorImpl = UnaryPropagator<Var>;

    fn create(self, _: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        // A task of no length takes no time on the machine: it constrains nothing here.
        let tasks: Vec<(Var, i32)> = self.tasks.into_iter().filter(|t| t.1 > 0).collect();
        PropagatorSpec {
            registration: bound_events(tasks.iter().map(|t| &t.0)),
            checkers: RuntimeCheckers::empty(),
            propagator: UnaryPropagator {
                tasks,
                precedence: InferenceCode::new(self.tag, DetectablePrecedence),
                not_first: InferenceCode::new(self.tag, NotFirst),
            },
        }
    }
}

impl<Var: IntegerVariable + 'static> Propagator for UnaryPropagator<Var> {
    fn name(&self) -> &str {
        "UnaryPrecedencesNotFirst"
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let n = self.tasks.len();
        if n < 2 {
            return Ok(());
        }
        let p: Vec<i32> = self.tasks.iter().map(|t| t.1).collect();
        let (est, lst) = start_windows(&context, self.tasks.iter().map(|t| &t.0));
        let mut by_est: Vec<usize> = (0..n).collect();
        by_est.sort_unstable_by_key(|&j| est[j]);
        let mut by_lct: Vec<usize> = (0..n).collect();
        by_lct.sort_unstable_by_key(|&j| lst[j] + p[j]);
        for i in 0..n {
            if let Some((bound, reason)) = self.precedences(i, &est, &lst, &p, &by_est) {
                let var = &self.tasks[i].0;
                context.post(var.lower_bound_predicate(bound), (reason, &self.precedence))?;
            }
            if let Some((bound, reason)) = self.not_first(i, &est, &lst, &p, &by_lct) {
                let var = &self.tasks[i].0;
                context.post(var.lower_bound_predicate(bound), (reason, &self.not_first))?;
            }
        }
        Ok(())
    }
}

impl<Var: IntegerVariable> UnaryPropagator<Var> {
    /// The earliest start of `i` after the tasks that must precede it (`est_i + p_i > lst_j`),
    /// where that is later than `est_i`, and its explanation.
    ///
    /// Those tasks from the one of earliest start `e` on (in order of earliest start) end no
    /// sooner than `e + Σ p`; the maximum of that over `e` is where `i` can start. Explanation:
    /// `s_i ≥ max lst_j − p_i + 1` (so `i` cannot end by any of their starts), and for each
    /// of them `s_j ≥ e` and `s_j ≤ lst_j`.
    fn precedences(
        &self,
        i: usize,
        est: &[i32],
        lst: &[i32],
        p: &[i32],
        by_est: &[usize],
    ) -> Option<(i32, PropositionalConjunction)> {
        let before = |j: usize| j != i && est[i] + p[i] > lst[j];
        let (mut sum, mut best, mut from) = (0i32, est[i], None);
        for &j in by_est.iter().rev().filter(|&&j| before(j)) {
            sum += p[j];
            if est[j] + sum > best {
                best = est[j] + sum;
                from = Some(est[j]);
            }
        }
        let from = from?;
        let members: Vec<usize> = (0..est.len())
            .filter(|&j| before(j) && est[j] >= from)
            .collect();
        let latest = members.iter().map(|&j| lst[j]).max()?;
        let mut reason = vec![self.tasks[i].0.lower_bound_predicate(latest - p[i] + 1)];
        for &j in &members {
            let var = &self.tasks[j].0;
            reason.push(var.lower_bound_predicate(from));
            reason.push(var.upper_bound_predicate(lst[j]));
        }
        Some((best, reason.into()))
    }

    /// The earliest start of `i` when it cannot precede every task of some `Ω` (the tasks of
    /// latest end up to some time, in that order, the first such set), where that is later
    /// than `est_i`, and its explanation.
    ///
    /// If `i` went first, all of `Ω` would run between `s_i + p_i` and `lct_Ω`; it does not
    /// fit, so some task of `Ω` ends before `i` starts. Explanation: `s_i ≥ lct_Ω − p_Ω −
    /// p_i + 1`, and for each task of `Ω` `s_j ≤ lct_Ω − p_j` and `s_j ≥ bound − p_j`.
    fn not_first(
        &self,
        i: usize,
        est: &[i32],
        lst: &[i32],
        p: &[i32],
        by_lct: &[usize],
    ) -> Option<(i32, PropositionalConjunction)> {
        let (mut sum, mut earliest_end) = (0i32, i32::MAX);
        for (k, &j) in by_lct.iter().enumerate() {
            if j == i {
                continue;
            }
            sum += p[j];
            earliest_end = earliest_end.min(est[j] + p[j]);
            let lct = lst[j] + p[j];
            if est[i] + p[i] + sum <= lct {
                continue;
            }
            if earliest_end <= est[i] {
                // A larger set only lowers the earliest end.
                return None;
            }
            let mut reason = vec![self.tasks[i].0.lower_bound_predicate(lct - sum - p[i] + 1)];
            for &m in by_lct[..=k].iter().filter(|&&m| m != i) {
                let var = &self.tasks[m].0;
                reason.push(var.upper_bound_predicate(lct - p[m]));
                reason.push(var.lower_bound_predicate(earliest_end - p[m]));
            }
            return Some((earliest_end, reason.into()));
        }
        None
    }
}
