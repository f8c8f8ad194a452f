//! Energetic reasoning on a cumulative resource, with explanations, beside Pumpkin's
//! time-tabling, which sees only the parts every task must run at fixed times.
//!
//! In a time interval `[a, b)` a task of duration `p` and demand `c` whose start lies in
//! `[est, lst]` runs at least `m = max(0, min(b − a, p, est + p − a, b − lst))` units
//! (shifted as far left or right as it may go), so it takes at least `c · m` of the
//! interval's `C · (b − a)` units of capacity. Where the tasks together need more, the
//! bounds are in conflict. Where the others leave task `i` room for only `r < p_i` units
//! and `i` cannot end by `a + r`, it cannot start before `b − r` either (the interval would
//! hold `r + 1` units of it or more): its earliest start rises. The constraint is posted a
//! second time on mirrored times (`−(s + p)`), where that rule lowers latest starts.
//!
//! The intervals run from a task's earliest start to a task's latest end (those of edge
//! finding); the free room must be smaller than some task's energy for any push. Each
//! deduction is explained by bounds as weak as the argument allows (each task's window only
//! as narrow as its share needs), so the nogoods the solver learns from them hold across
//! many nodes.
//!
//! It runs at the root of the search only (after each restart, with what was learned):
//! there it tightens every window for the whole search at no cost, while at every node it
//! made the PSPLIB j30 proofs two to three times slower (85,000 calls on j3025_4, and longer
//! nogoods). The checker of a DRCP proof does not know this rule: proofs are searched
//! without it.

use pumpkin_solver::core::declare_inference_label;
use pumpkin_solver::core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_solver::core::proof::{ConstraintTag, InferenceCode};
use pumpkin_solver::core::propagation::{
    PropagationContext, Propagator, PropagatorConstructor, PropagatorConstructorContext,
    PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_solver::core::state::{propagator_conflict, PropagationStatusCP};
use pumpkin_solver::core::variables::IntegerVariable;

use super::starts::{bound_events, start_windows};

declare_inference_label!(EnergeticOverload);
declare_inference_label!(EnergeticPush);

/// Tasks `(start, duration, demand)` on a resource of `capacity`; build the propagator
/// with [`pumpkin_solver::Solver::add_propagator`].
#[derive(Debug)]
pub(crate) struct Energetic<Var> {
    pub(crate) tasks: Vec<(Var, i32, i32)>,
    pub(crate) capacity: i32,
    pub(crate) tag: ConstraintTag,
}

/// The propagator of [`Energetic`].
#[derive(Debug, Clone)]
pub(crate) struct EnergeticPropagator<Var> {
    tasks: Vec<(Var, i32, i32)>,
    p: Vec<i32>,
    c: Vec<i32>,
    capacity: i32,
    overload: InferenceCode,
    push: InferenceCode,
}

impl<Var: IntegerVariable + 'static> PropagatorConstructor for Energetic<Var> {
    type PropagatorImpl = EnergeticPropagator<Var>;

    fn create(self, _: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        // A task of no length or no demand takes nothing from the resource.
        let tasks: Vec<(Var, i32, i32)> = self
            .tasks
            .into_iter()
            .filter(|t| t.1 > 0 && t.2 > 0)
            .collect();
        PropagatorSpec {
            registration: bound_events(tasks.iter().map(|t| &t.0)),
            checkers: RuntimeCheckers::empty(),
            propagator: EnergeticPropagator {
                p: tasks.iter().map(|t| t.1).collect(),
                c: tasks.iter().map(|t| t.2).collect(),
                tasks,
                capacity: self.capacity,
                overload: InferenceCode::new(self.tag, EnergeticOverload),
                push: InferenceCode::new(self.tag, EnergeticPush),
            },
        }
    }
}

/// The least number of time units a task of duration `p` whose start lies in `[est, lst]`
/// runs inside `[a, b)`.
fn share(a: i32, b: i32, p: i32, est: i32, lst: i32) -> i32 {
    (b - a).min(p).min(est + p - a).min(b - lst).max(0)
}

/// Bounds on a task's start, `lower ≤ s ≤ upper` (`None`: that side is not needed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) task: usize,
    pub(crate) lower: i32,
    pub(crate) upper: Option<i32>,
}

/// What energetic reasoning deduces from the tasks' windows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Deduced {
    /// The tasks need more than the resource holds while every start lies in its window.
    Overload(Vec<Window>),
    /// Where every start lies in its window, `task` starts at `bound` or later.
    Pushes(Vec<(usize, i32, Vec<Window>)>),
}

/// Energetic reasoning on tasks of durations `p` and demands `c` whose starts lie in
/// `[est, lst]`, on a resource of `capacity`: an overload, or the earliest starts it raises
/// (each with the windows that explain it).
pub(crate) fn deduce(p: &[i32], c: &[i32], capacity: i32, est: &[i32], lst: &[i32]) -> Deduced {
    let n = p.len();
    let mut pushes = Vec::new();
    if n < 2 {
        return Deduced::Pushes(pushes);
    }
    let mut starts: Vec<i32> = est.to_vec();
    starts.sort_unstable();
    starts.dedup();
    let mut ends: Vec<i32> = (0..n).map(|j| lst[j] + p[j]).collect();
    ends.sort_unstable();
    ends.dedup();
    // No task can be pushed where the free room holds any task whole.
    let largest = (0..n)
        .map(|j| i64::from(p[j]) * i64::from(c[j]))
        .max()
        .unwrap_or(0);
    let mut shares = vec![0i32; n];
    let mut raised = est.to_vec();
    for &a in &starts {
        for &b in ends.iter().filter(|&&b| b > a) {
            let mut energy = 0i64;
            for j in 0..n {
                shares[j] = share(a, b, p[j], est[j], lst[j]);
                energy += i64::from(shares[j]) * i64::from(c[j]);
            }
            let room = i64::from(capacity) * i64::from(b - a);
            if energy > room {
                return Deduced::Overload(windows(a, b, p, &shares, None));
            }
            if room - energy >= largest {
                continue;
            }
            for i in 0..n {
                let ci = i64::from(c[i]);
                let free = room - (energy - i64::from(shares[i]) * ci);
                // At most `r` units of `i` fit in the interval.
                let r = i32::try_from(free / ci).unwrap_or(i32::MAX);
                if r >= p[i] || r >= b - a || est[i] + p[i] <= a + r || raised[i] >= b - r {
                    continue;
                }
                raised[i] = b - r;
                let mut why = windows(a, b, p, &shares, Some(i));
                why.push(Window {
                    task: i,
                    lower: a + r + 1 - p[i],
                    upper: None,
                });
                pushes.push((i, b - r, why));
            }
        }
    }
    Deduced::Pushes(pushes)
}

/// Why each task but `except` runs at least its `shares` in `[a, b)`: its start lies in the
/// widest window that still gives it that share.
fn windows(a: i32, b: i32, p: &[i32], shares: &[i32], except: Option<usize>) -> Vec<Window> {
    (0..p.len())
        .filter(|&j| shares[j] > 0 && Some(j) != except)
        .map(|j| Window {
            task: j,
            lower: a + shares[j] - p[j],
            upper: Some(b - shares[j]),
        })
        .collect()
}

impl<Var: IntegerVariable + 'static> Propagator for EnergeticPropagator<Var> {
    fn name(&self) -> &str {
        "EnergeticReasoning"
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        if context.get_checkpoint() > 0 {
            return Ok(());
        }
        let (est, lst) = start_windows(&context, self.tasks.iter().map(|t| &t.0));
        let reason = |windows: Vec<Window>| -> PropositionalConjunction {
            let mut predicates: Vec<Predicate> = Vec::with_capacity(2 * windows.len());
            for w in windows {
                let var = &self.tasks[w.task].0;
                predicates.push(var.lower_bound_predicate(w.lower));
                if let Some(upper) = w.upper {
                    predicates.push(var.upper_bound_predicate(upper));
                }
            }
            predicates.into()
        };
        match deduce(&self.p, &self.c, self.capacity, &est, &lst) {
            Deduced::Overload(windows) => propagator_conflict(reason(windows), &self.overload),
            Deduced::Pushes(pushes) => {
                for (task, bound, windows) in pushes {
                    let var = &self.tasks[task].0;
                    context.post(
                        var.lower_bound_predicate(bound),
                        (reason(windows), &self.push),
                    )?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether tasks at `starts` (durations `p`, demands `c`) fit in `capacity` everywhere.
    fn fits(starts: &[i32], p: &[i32], c: &[i32], capacity: i32) -> bool {
        starts.iter().all(|&t| {
            let used: i32 = (0..p.len())
                .filter(|&j| starts[j] <= t && t < starts[j] + p[j])
                .map(|j| c[j])
                .sum();
            used <= capacity
        })
    }

    /// Whether some placement of the tasks named in `windows` (each start within its
    /// window and within `[-20, 30]`; `task` below `bound` where given) fits: a sound
    /// explanation leaves none.
    fn placement_exists(
        windows: &[Window],
        p: &[i32],
        c: &[i32],
        capacity: i32,
        pushed: Option<(usize, i32)>,
    ) -> bool {
        let tasks: Vec<usize> = windows.iter().map(|w| w.task).collect();
        let range = |k: usize| {
            let w = windows[k];
            let mut hi = w.upper.unwrap_or(30).min(30);
            if let Some((task, bound)) = pushed {
                if task == w.task {
                    hi = hi.min(bound - 1);
                }
            }
            (w.lower.max(-20), hi)
        };
        let (pp, cc): (Vec<i32>, Vec<i32>) = tasks.iter().map(|&j| (p[j], c[j])).unzip();
        let mut starts: Vec<i32> = (0..tasks.len()).map(|k| range(k).0).collect();
        if (0..tasks.len()).any(|k| range(k).0 > range(k).1) {
            return false;
        }
        loop {
            if fits(&starts, &pp, &cc, capacity) {
                return true;
            }
            let mut k = 0;
            loop {
                if k == starts.len() {
                    return false;
                }
                if starts[k] < range(k).1 {
                    starts[k] += 1;
                    break;
                }
                starts[k] = range(k).0;
                k += 1;
            }
        }
    }

    fn windows_of_tasks() -> impl Strategy<Value = (Vec<(i32, i32, i32, i32)>, i32)> {
        (
            proptest::collection::vec((1i32..=4, 1i32..=3, 0i32..=6, 0i32..=4), 2..=5),
            2i32..=4,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Every deduction is implied by its explanation alone: no placement of the tasks
        /// it names, inside the windows it states, fits the resource (with the pushed task
        /// before its new bound).
        #[test]
        fn every_explanation_implies_its_deduction((tasks, capacity) in windows_of_tasks()) {
            let p: Vec<i32> = tasks.iter().map(|t| t.0).collect();
            let c: Vec<i32> = tasks.iter().map(|t| t.1.min(capacity)).collect();
            let est: Vec<i32> = tasks.iter().map(|t| t.2).collect();
            let lst: Vec<i32> = tasks.iter().map(|t| t.2 + t.3).collect();
            match deduce(&p, &c, capacity, &est, &lst) {
                Deduced::Overload(windows) => {
                    for w in &windows {
                        prop_assert!(w.lower <= est[w.task]);
                        prop_assert!(w.upper.is_some_and(|u| u >= lst[w.task]));
                    }
                    prop_assert!(!placement_exists(&windows, &p, &c, capacity, None));
                }
                Deduced::Pushes(pushes) => {
                    for (task, bound, windows) in pushes {
                        prop_assert!(bound > est[task]);
                        for w in &windows {
                            prop_assert!(w.lower <= est[w.task]);
                            prop_assert!(w.upper.is_none_or(|u| u >= lst[w.task]));
                        }
                        prop_assert!(windows.iter().any(|w| w.task == task));
                        prop_assert!(!placement_exists(&windows, &p, &c, capacity, Some((task, bound))));
                    }
                }
            }
        }
    }

    #[test]
    fn a_full_interval_pushes_a_task_past_it() {
        // Two tasks of length 2 that start in [0, 2] fill [0, 4) of a resource of 1
        // together; a third that could start at 0 must wait until 4. No task has a part
        // fixed in time, so time-tabling sees nothing.
        let deduced = deduce(&[2, 2, 1], &[1, 1, 1], 1, &[0, 0, 0], &[2, 2, 10]);
        let Deduced::Pushes(pushes) = deduced else {
            panic!("{deduced:?}")
        };
        assert!(
            pushes
                .iter()
                .any(|&(task, bound, _)| task == 2 && bound == 4),
            "{pushes:?}"
        );
    }
}
