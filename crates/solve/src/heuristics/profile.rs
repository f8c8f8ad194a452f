//! Resource usage over time as a step function, with breakpoints only where usage changes,
//! so its size does not depend on the horizon (some instances span decades in seconds).

/// Usage of one resource: `points[i] = (t, u)` means usage `u` from `t` until the next point.
#[derive(Debug, Clone)]
pub struct Profile {
    points: Vec<(i64, i64)>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            points: vec![(i64::MIN, 0)],
        }
    }
}

impl Profile {
    /// Highest usage anywhere in `[a, b)` (0 for an empty interval).
    pub fn peak(&self, a: i64, b: i64) -> i64 {
        if a >= b {
            return 0;
        }
        let first = self.segment(a);
        self.points[first..]
            .iter()
            .take_while(|&&(t, _)| t < b)
            .map(|&(_, u)| u)
            .max()
            .unwrap_or(0)
    }

    /// Adds `amount` over `[a, b)`.
    pub fn add(&mut self, a: i64, b: i64, amount: i64) {
        if a >= b || amount == 0 {
            return;
        }
        let ia = self.split(a);
        let ib = self.split(b);
        for p in &mut self.points[ia..ib] {
            p.1 += amount;
        }
    }

    /// Times at which usage drops: the only places a blocked demand can start to fit.
    pub fn releases(&self) -> impl Iterator<Item = i64> + '_ {
        self.points
            .windows(2)
            .filter(|w| w[1].1 < w[0].1)
            .map(|w| w[1].0)
    }

    /// Index of the segment containing `t`.
    fn segment(&self, t: i64) -> usize {
        self.points.partition_point(|&(s, _)| s <= t) - 1
    }

    /// Ensures a breakpoint at `t` and returns its index.
    fn split(&mut self, t: i64) -> usize {
        let i = self.segment(t);
        if self.points[i].0 == t {
            return i;
        }
        let usage = self.points[i].1;
        self.points.insert(i + 1, (t, usage));
        i + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_and_releases_follow_additions() {
        let mut p = Profile::default();
        p.add(2, 6, 1);
        p.add(4, 8, 2);
        assert_eq!(p.peak(0, 2), 0);
        assert_eq!(p.peak(0, 3), 1);
        assert_eq!(p.peak(5, 6), 3);
        assert_eq!(p.peak(6, 100), 2);
        assert_eq!(p.peak(8, 9), 0);
        assert_eq!(p.releases().collect::<Vec<_>>(), vec![6, 8]);
    }
}
