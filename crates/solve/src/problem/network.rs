//! The temporal network of an instance: every timing rule (precedence with minimum and maximum
//! lags, release, deadline, the makespan) as an arc `S_to ≥ S_from + weight` between start
//! times. Longest paths in it give earliest and latest starts; a positive cycle means no
//! schedule exists, and the cycle is the reason.

use petgraph::algo::{bellman_ford, find_negative_cycle};
use petgraph::graph::{DiGraph, NodeIndex};

/// `S_to ≥ S_from + weight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arc {
    pub from: usize,
    pub to: usize,
    pub weight: i64,
    /// `true` for arcs that order `from` before `to` (minimum lags, release, end → sink);
    /// `false` for arcs that bound a start from above (maximum lags, deadlines). Schedule
    /// generation follows forward arcs only, so maximum lags never create an eligibility cycle.
    pub forward: bool,
}

/// A positive cycle: the listed nodes cannot all be scheduled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositiveCycle {
    /// Nodes along the cycle, in order.
    pub nodes: Vec<usize>,
}

/// Nodes `0..n` are activities, `n` is the origin (time 0) and `n + 1` the sink (the end of
/// the schedule). Every activity has an arc from the origin and one to the sink.
#[derive(Debug, Clone)]
pub struct Network {
    n: usize,
    arcs: Vec<Arc>,
}

impl Network {
    /// A network over `n` activities with the given durations (origin and sink arcs added).
    pub fn new(durations: &[i64]) -> Self {
        let n = durations.len();
        let mut network = Network {
            n,
            arcs: Vec::new(),
        };
        for (j, &p) in durations.iter().enumerate() {
            network.add(n, j, 0, true);
            network.add(j, n + 1, p, true);
        }
        network
    }

    pub fn add(&mut self, from: usize, to: usize, weight: i64, forward: bool) {
        self.arcs.push(Arc {
            from,
            to,
            weight,
            forward,
        });
    }

    pub fn origin(&self) -> usize {
        self.n
    }

    pub fn sink(&self) -> usize {
        self.n + 1
    }

    pub fn nodes(&self) -> usize {
        self.n + 2
    }

    pub fn arcs(&self) -> &[Arc] {
        &self.arcs
    }

    /// Earliest start of every node (the sink's is the critical-path bound on the makespan).
    pub fn earliest_starts(&self) -> Result<Vec<i64>, PositiveCycle> {
        longest_paths(self.nodes(), self.origin(), self.arcs.iter().copied())
    }

    /// Longest paths from node `source` over the arcs `keep` accepts (`i64::MIN` at a node
    /// none reaches).
    pub fn longest_from(
        &self,
        source: usize,
        keep: impl Fn(&Arc) -> bool,
    ) -> Result<Vec<i64>, PositiveCycle> {
        longest_paths(
            self.nodes(),
            source,
            self.arcs.iter().copied().filter(|a| keep(a)),
        )
    }

    /// Latest start of every node such that the schedule ends by `horizon`; a positive cycle
    /// means no schedule ends by `horizon`.
    pub fn latest_starts(&self, horizon: i64) -> Result<Vec<i64>, PositiveCycle> {
        let deadline = Arc {
            from: self.sink(),
            to: self.origin(),
            weight: -horizon,
            forward: false,
        };
        // Longest paths *to* the origin are longest paths from it in the reversed graph.
        let reversed = self
            .arcs
            .iter()
            .chain(std::iter::once(&deadline))
            .map(|a| Arc {
                from: a.to,
                to: a.from,
                ..*a
            });
        let to_origin = longest_paths(self.nodes(), self.origin(), reversed)?;
        Ok(to_origin.into_iter().map(|d| -d).collect())
    }

    /// The same rules read backwards in time: node `j` starts at `C − S_j − p_j`. Origin and
    /// sink swap roles, so a forward schedule generator run on the mirror right-justifies.
    pub fn mirrored(&self, durations: &[i64]) -> Network {
        let p = |i: usize| if i < self.n { durations[i] } else { 0 };
        let swap = |i: usize| {
            if i == self.origin() {
                self.sink()
            } else if i == self.sink() {
                self.origin()
            } else {
                i
            }
        };
        Network {
            n: self.n,
            arcs: self
                .arcs
                .iter()
                .map(|a| Arc {
                    from: swap(a.to),
                    to: swap(a.from),
                    weight: a.weight + p(a.to) - p(a.from),
                    forward: a.forward,
                })
                .collect(),
        }
    }
}

/// Longest path lengths from `source` (all nodes are reachable through the origin arcs).
fn longest_paths(
    nodes: usize,
    source: usize,
    arcs: impl Iterator<Item = Arc>,
) -> Result<Vec<i64>, PositiveCycle> {
    let mut graph: DiGraph<(), f64> = DiGraph::with_capacity(nodes, 0);
    for _ in 0..nodes {
        graph.add_node(());
    }
    for a in arcs {
        // Longest paths are shortest paths with negated weights; times stay far below 2^53.
        graph.add_edge(
            NodeIndex::new(a.from),
            NodeIndex::new(a.to),
            -(a.weight as f64),
        );
    }
    let source = NodeIndex::new(source);
    match bellman_ford(&graph, source) {
        Ok(paths) => Ok(paths
            .distances
            .iter()
            .map(|&d| if d.is_finite() { -d as i64 } else { i64::MIN })
            .collect()),
        Err(_) => Err(PositiveCycle {
            nodes: find_negative_cycle(&graph, source)
                .unwrap_or_default()
                .into_iter()
                .map(NodeIndex::index)
                .collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_starts_follow_lags() {
        let mut net = Network::new(&[2, 3, 1]);
        net.add(0, 1, 2 + 5, true); // end(0) + 5
        net.add(1, 2, 3, true);
        let es = net.earliest_starts().unwrap();
        assert_eq!(&es[..3], &[0, 7, 10]);
        assert_eq!(es[net.sink()], 11);
    }

    #[test]
    fn latest_starts_respect_horizon_and_max_lags() {
        let mut net = Network::new(&[2, 3]);
        net.add(0, 1, 2, true);
        net.add(1, 0, -4, false); // start(1) ≤ start(0) + 4
        let ls = net.latest_starts(10).unwrap();
        assert_eq!(ls[1], 7);
        assert_eq!(ls[0], 5);
        assert!(net.latest_starts(4).is_err());
    }

    #[test]
    fn positive_cycle_is_found_and_named() {
        let mut net = Network::new(&[2, 2]);
        net.add(0, 1, 2, true);
        net.add(1, 0, 2, true);
        let cycle = net.earliest_starts().unwrap_err();
        let mut nodes = cycle.nodes.clone();
        nodes.sort();
        assert_eq!(nodes, vec![0, 1]);
    }

    #[test]
    fn mirrored_network_reverses_time() {
        // 0 (p=2) → 1 (p=3) with lag 1 after the end: mirrored, 1 precedes 0 by p1 + 1.
        let mut net = Network::new(&[2, 3]);
        net.add(0, 1, 3, true);
        let mirror = net.mirrored(&[2, 3]);
        let es = mirror.earliest_starts().unwrap();
        assert_eq!(es[1], 0);
        assert_eq!(es[0], 4);
        assert_eq!(es[mirror.sink()], 6);
    }
}
