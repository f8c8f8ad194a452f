//! Solving a list of instances in memory, in parallel: what a script or a binding wants
//! (no files, unlike [`batch`](crate::batch)), stopped between instances and inside each
//! solve by the run's [`Cancel`](crate::Cancel) token.

use rayon::prelude::*;

use crate::batch::{BatchError, WORKER_STACK};
use crate::{Instance, Run, Solution, SolveOptions};

/// Solves every instance in `run`, `jobs` at a time (at least one, at most one per
/// instance), in the order given. Once `run.cancel` is tripped, instances not yet started
/// are `None` and those running stop at their next check ([`Run::cancel`]). Fails only when
/// the worker threads cannot start (an address-space or thread limit).
///
/// ```
/// use makespan::instance::Activity;
/// use makespan::{Instance, Run, SolveOptions, Status};
///
/// let kitchens: Vec<Instance> = (1..=3)
///     .map(|cooks| Instance {
///         activities: vec![Activity::new("chop", 4), Activity::new("boil", 6)],
///         ..Instance::new(format!("kitchen-{cooks}"), Some(cooks))
///     })
///     .collect();
/// let solutions = makespan::solve_many(&kitchens, &SolveOptions::default(), &Run::default(), 2).unwrap();
/// let makespans: Vec<_> = solutions.iter().map(|s| s.as_ref().unwrap().makespan).collect();
/// assert_eq!(makespans, [Some(10), Some(6), Some(6)]);
/// ```
pub fn solve_many(
    instances: &[Instance],
    options: &SolveOptions,
    run: &Run,
    jobs: usize,
) -> Result<Vec<Option<Solution>>, BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.clamp(1, instances.len().max(1)))
        .stack_size(WORKER_STACK)
        .build()
        .map_err(|e| BatchError::Workers {
            jobs,
            message: e.to_string(),
        })?;
    Ok(pool.install(|| {
        instances
            .par_iter()
            .map(|instance| {
                (!run.cancel.is_cancelled())
                    .then(|| crate::solve_detailed(instance, options, run).0)
            })
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Activity;

    fn chain(name: &str) -> Instance {
        Instance {
            activities: vec![Activity::new("a", 2), Activity::new("b", 3)],
            ..Instance::new(name, Some(1))
        }
    }

    #[test]
    fn results_keep_the_order_of_the_instances() {
        let instances: Vec<Instance> = (0..8).map(|i| chain(&format!("c{i}"))).collect();
        let names: Vec<String> =
            solve_many(&instances, &SolveOptions::default(), &Run::default(), 3)
                .unwrap()
                .into_iter()
                .map(|s| s.unwrap().instance.name)
                .collect();
        let expected: Vec<String> = instances.iter().map(|i| i.name.clone()).collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn a_tripped_token_starts_nothing() {
        let run = Run::default();
        run.cancel.cancel();
        let solutions =
            solve_many(&[chain("x"), chain("y")], &SolveOptions::default(), &run, 2).unwrap();
        assert!(solutions.iter().all(Option::is_none));
    }
}
