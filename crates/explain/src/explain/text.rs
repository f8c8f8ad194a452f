//! The explanation as text, for `makespan explain` and `verify --explain`.

use std::fmt::Write;

use super::Explanation;
use makespan_model::instance::TimeUnit;

impl Explanation {
    /// The explanation as lines of text: violations, the critical chain, unforced waits,
    /// lost time, agents.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        // Seconds also as HH:MM:SS, as recipes and their cooks read times (5520 s, 01:32:00).
        let unit = match self.time_unit {
            TimeUnit::Second if self.makespan >= 60 => {
                let s = self.makespan;
                format!("seconds, {:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            }
            unit => format!("{unit}s"),
        };
        let _ = writeln!(
            out,
            "{}: makespan {} ({unit}), {}",
            self.instance,
            self.makespan,
            if self.valid {
                "valid plan".to_string()
            } else {
                format!("INVALID plan, {} violation(s)", self.violations.len())
            }
        );
        if !self.violations.is_empty() {
            let _ = writeln!(out, "violations on the timeline:");
            for v in &self.violations {
                let at = v.time.map_or("  -".to_string(), |t| format!("{t:>3}"));
                let _ = writeln!(out, "  at {at}  {}: {}", v.rule, v.message);
            }
            let _ = writeln!(out, "the schedule as written:");
        }
        let _ = writeln!(out, "critical chain (0 → {}):", self.makespan);
        for step in &self.chain {
            if step.link() != 0 {
                let what = match step.link() {
                    l if l < 0 => format!("overlap {} (negative lag)", -l),
                    l => format!("lag {l}"),
                };
                let _ = writeln!(
                    out,
                    "  {:>9}  {what}: {}",
                    span(step.from, step.ready),
                    step.reason
                );
            }
            if step.wait() > 0 {
                let _ = writeln!(
                    out,
                    "  {:>9}  unforced wait {}: nothing kept `{}` from starting at {}",
                    span(step.ready, step.start),
                    step.wait(),
                    step.activity,
                    step.ready
                );
            }
            let agent = step
                .agent
                .map_or(String::new(), |g| format!(" (agent {g})"));
            let why = if step.wait() > 0 {
                format!("could start at {}: {}", step.ready, step.reason)
            } else {
                step.reason.to_string()
            };
            let _ = writeln!(
                out,
                "  {:>9}  `{}`{agent}  ← {why}",
                span(step.start, step.to),
                step.activity
            );
        }
        if self.waits.is_empty() {
            let _ = writeln!(out, "unforced waits: none (no activity could start earlier with everything else unchanged)");
        } else {
            let total: i64 = self.waits.iter().map(|w| w.length).sum();
            let _ = writeln!(
                out,
                "unforced waits ({} activities, {total} in all):",
                self.waits.len()
            );
            for w in &self.waits {
                let _ = writeln!(
                    out,
                    "  `{}` waited {} ({}){}",
                    w.activity,
                    w.length,
                    span(w.from, w.to),
                    if w.on_chain {
                        ", on the critical chain"
                    } else {
                        ""
                    }
                );
            }
        }
        if let Some(lost) = self.lost.as_ref().filter(|l| l.lost < 0) {
            let _ = writeln!(
                out,
                "no time lost: the plan is {} shorter than the reference {}",
                -lost.lost, lost.reference
            );
        } else if let Some(lost) = &self.lost {
            let what = reference_word(lost.optimal);
            let _ = writeln!(
                out,
                "lost time against the {what} {}: {} = unforced waits on the chain {} + ordering choices {} + rest {}",
                lost.reference,
                lost.lost,
                lost.waits,
                lost.ordering_total(),
                lost.rest
            );
            for o in lost.ordering.iter().filter(|o| o.cost > 0) {
                let _ = writeln!(
                    out,
                    "  `{}` before `{}` ({}): {}",
                    o.before, o.after, o.reason, o.cost
                );
            }
        }
        if let Some(against) = &self.against {
            let what = reference_word(against.optimal);
            let _ = if against.lost < 0 {
                writeln!(
                    out,
                    "no time lost: the plan is {} shorter than the {what} {}",
                    -against.lost, against.reference
                )
            } else {
                writeln!(
                    out,
                    "lost time against the {what} {}: {} (the two plans share no steps: each agent's time is beside the {what}'s below)",
                    against.reference, against.lost
                )
            };
        }
        if !self.agents.is_empty() {
            let _ = writeln!(
                out,
                "agents (busy / idle, nothing ready / idle, work ready):"
            );
            let (theirs, what) = match &self.against {
                Some(a) => (&a.agents[..], reference_word(a.optimal)),
                None => (&[][..], ""),
            };
            for a in &self.agents {
                let who = match a.agent {
                    Some(g) => format!("agent {g}"),
                    None => format!("{} agents (pool)", a.agents),
                };
                let beside =
                    theirs
                        .iter()
                        .find(|r| r.agent == a.agent)
                        .map_or(String::new(), |r| {
                            format!(
                                "   ({what}: {} / {} / {})",
                                r.busy, r.idle_nothing_ready, r.idle_work_ready
                            )
                        });
                let _ = writeln!(
                    out,
                    "  {who}: {} / {} / {}{beside}",
                    a.busy, a.idle_nothing_ready, a.idle_work_ready
                );
            }
        }
        out
    }
}

/// What the text calls a reference: an optimum when it is proven.
fn reference_word(optimal: bool) -> &'static str {
    if optimal {
        "optimum"
    } else {
        "reference"
    }
}

fn span(from: i64, to: i64) -> String {
    format!("{from}–{to}")
}
