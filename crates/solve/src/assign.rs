//! Concrete agents for a schedule whose agent use never exceeds the agent count: greedy
//! interval colouring by start time, which is optimal on interval graphs, so the solver
//! can treat agents as one pool and still name who does what.

use crate::problem::Problem;

/// The agent of each activity (`None` for activities that need no agent, or when agents are
/// unlimited), or `None` overall if more than the available agents would be needed.
pub fn agents(problem: &Problem, starts: &[i64]) -> Option<Vec<Option<u32>>> {
    let mut assignment = vec![None; problem.len()];
    let Some(pool) = problem.agent_resource else {
        return Some(assignment);
    };
    let mut spans: Vec<(i64, i64, usize)> = (0..problem.len())
        .flat_map(|j| {
            problem.demands[j]
                .iter()
                .filter(|d| d.resource == pool)
                .map(move |d| (starts[j] + d.from, starts[j] + d.to, j))
        })
        .collect();
    spans.sort_unstable();
    let mut free_at = vec![i64::MIN; problem.capacities[pool] as usize];
    let mut busy: Vec<(i64, i64, usize)> = Vec::with_capacity(spans.len());
    for (start, end, j) in spans {
        let agent = free_at.iter().position(|&f| f <= start)?;
        free_at[agent] = end;
        assignment[j] = Some(agent as u32);
        busy.push((start, end, agent));
    }
    // An instant need goes to an agent that is not in the middle of a task then.
    for need in problem.instants.iter().filter(|i| i.resource == pool) {
        let t = starts[need.activity] + need.offset;
        let agent = (0..free_at.len())
            .find(|&a| !busy.iter().any(|&(s, e, b)| b == a && s < t && t < e))?;
        assignment[need.activity] = Some(agent as u32);
    }
    Some(assignment)
}
