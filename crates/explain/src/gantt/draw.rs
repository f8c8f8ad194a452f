//! The chart as SVG, with the `svg` crate: lanes with alternating backgrounds, bars (the
//! agent's busy part solid, the unattended rest light; the critical chain in orange),
//! hatched unforced waits, usage profiles of cumulative resources, red violation marks with
//! their message as a tooltip, and a time axis shared by the plan and the reference.
//! Colours are attributes, not a style sheet, so every SVG viewer shows them; numbers have
//! one decimal, so the same chart is the same bytes.

use svg::node::element::{Definitions, Group, Line, Path, Pattern, Rectangle, Text, Title};
use svg::Document;

use super::layout::{Bar, Lane, Section};

/// Pixel geometry: the lane-label column is at least `LEFT` wide, wider for longer labels.
const LEFT: f64 = 170.0;
/// Width of one character of the 11 px sans-serif text, a little generous, for fitting labels.
const CHAR: f64 = 6.2;
/// The widest chart drawn: a page scrolls sideways, but a wider SVG gets slow to draw.
const MAX_CHART: f64 = 16_000.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 66.0;
const LANE: f64 = 26.0;
const BAR: f64 = 18.0;
const HEADER: f64 = 24.0;
const LEGEND_LINE: f64 = 16.0;

/// Colours (Tableau 10): busy work, unattended work, critical chain, holds, profiles,
/// violations, lanes.
pub(crate) const BUSY: &str = "#4e79a7";
const UNATTENDED: &str = "#a0cbe8";
pub(crate) const CHAIN: &str = "#f28e2b";
const CHAIN_UNATTENDED: &str = "#ffbe7d";
const HELD: &str = "#bab0ac";
const PROFILE: &str = "#59a14f";
const VIOLATION: &str = "#d62728";
pub(crate) const LANES: [&str; 2] = ["#eef1f5", "#fafbfc"];

/// The picture's title line and the sections to draw; `legend` lists the violations.
pub(crate) fn document(title: &str, sections: &[Section], legend: &[String]) -> Document {
    let horizon = sections
        .iter()
        .flat_map(|s| &s.lanes)
        .flat_map(|l| {
            l.bars
                .iter()
                .map(|b| b.end)
                .chain(l.profile.iter().map(|p| p.1))
        })
        .max()
        .unwrap_or(0)
        .max(1);
    let busiest = sections
        .iter()
        .flat_map(|s| &s.lanes)
        .map(|l| l.bars.len())
        .max()
        .unwrap_or(0);
    // Wide enough for every bar's label to fit inside its bar (labels were cut to `pick…`),
    // up to MAX_CHART; what still does not fit is cut, and shown whole on hover.
    let fit = sections
        .iter()
        .flat_map(|s| &s.lanes)
        .flat_map(|l| &l.bars)
        .filter(|b| b.end > b.start)
        .map(|b| (b.text.chars().count() as f64 * CHAR + 8.0) / (b.end - b.start) as f64)
        .fold(0.0, f64::max)
        * horizon as f64;
    let chart = (36.0 * busiest as f64).max(fit).clamp(900.0, MAX_CHART);
    let scale = chart / horizon as f64;
    let longest = sections
        .iter()
        .flat_map(|s| &s.lanes)
        .map(|l| l.label.chars().count())
        .max()
        .unwrap_or(0);
    let left = LEFT.max(16.0 + longest as f64 * CHAR);
    let x = |t: i64| left + t as f64 * scale;
    let lanes: usize = sections.iter().map(|s| s.lanes.len()).sum();
    let body = sections.len() as f64 * HEADER + lanes as f64 * LANE;
    let height = TOP + body + 12.0 + legend.len() as f64 * LEGEND_LINE + 8.0;
    let (key, key_end) = key(left, sections);
    let width = (left + chart + RIGHT).max(key_end + RIGHT);
    let mut doc = Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("width", n(width))
        .set("height", n(height))
        .set("viewBox", format!("0 0 {} {}", n(width), n(height)))
        .set("font-family", "sans-serif")
        .set("font-size", 11)
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "#ffffff"),
        )
        .add(
            Definitions::new().add(
                Pattern::new()
                    .set("id", "hatch")
                    .set("patternUnits", "userSpaceOnUse")
                    .set("width", 6)
                    .set("height", 6)
                    .set("patternTransform", "rotate(45)")
                    .add(
                        Rectangle::new()
                            .set("width", 2)
                            .set("height", 6)
                            .set("fill", "#9aa3ad"),
                    ),
            ),
        )
        .add(
            text(8.0, 20.0, title)
                .set("font-size", 14)
                .set("font-weight", "bold"),
        )
        .add(key);
    // Time axis: ticks at 1, 2 or 5 × 10^k, at most about 12.
    let step = tick_step(horizon);
    let mut axis = Group::new().set("class", "axis");
    let mut t = 0;
    while t <= horizon {
        axis = axis
            .add(
                Line::new()
                    .set("x1", n(x(t)))
                    .set("x2", n(x(t)))
                    .set("y1", n(TOP - 6.0))
                    .set("y2", n(TOP + body))
                    .set("stroke", "#d5d9de")
                    .set("stroke-width", 1),
            )
            .add(
                text(x(t), TOP - 10.0, &t.to_string())
                    .set("text-anchor", "middle")
                    .set("fill", "#555"),
            );
        t += step;
    }
    doc = doc.add(axis);
    let mut y = TOP;
    let mut row = 0;
    for section in sections {
        doc = doc.add(
            text(8.0, y + HEADER - 8.0, &section.title)
                .set("font-weight", "bold")
                .set("class", "section"),
        );
        y += HEADER;
        let mut group = Group::new().set("class", format!("section {}", section.title));
        for lane in &section.lanes {
            group = group.add(lane_group(lane, y, row, &x, width));
            y += LANE;
            row += 1;
        }
        doc = doc.add(group);
    }
    let mut notes = Group::new().set("class", "legend");
    for (k, line) in legend.iter().enumerate() {
        let shown: String = if line.chars().count() > 180 {
            line.chars().take(179).chain(['…']).collect()
        } else {
            line.clone()
        };
        notes = notes.add(
            text(8.0, y + 16.0 + k as f64 * LEGEND_LINE, &shown)
                .set("fill", VIOLATION)
                .add(Title::new(line.clone())),
        );
    }
    doc.add(notes)
}

fn lane_group(lane: &Lane, y: f64, row: usize, x: &dyn Fn(i64) -> f64, right: f64) -> Group {
    let mut g = Group::new()
        .set(
            "class",
            if lane.resource {
                "lane resource"
            } else {
                "lane agent"
            },
        )
        .add(
            Rectangle::new()
                .set("x", 0)
                .set("y", n(y))
                .set("width", n(right))
                .set("height", n(LANE))
                .set("fill", LANES[row % 2]),
        )
        .add(text(8.0, y + LANE / 2.0 + 4.0, &lane.label).set("class", "lane-label"));
    let top = y + (LANE - BAR) / 2.0;
    for &(from, to, ref what) in &lane.waits {
        g = g.add(
            Rectangle::new()
                .set("class", "wait")
                .set("x", n(x(from)))
                .set("y", n(top))
                .set("width", n(x(to) - x(from)))
                .set("height", n(BAR))
                .set("fill", "url(#hatch)")
                .set("stroke", "#9aa3ad")
                .add(Title::new(what.clone())),
        );
    }
    if !lane.profile.is_empty() {
        let cap = lane.capacity.max(1) as f64;
        let mut d = String::new();
        for &(s, e, load) in &lane.profile {
            let h = BAR * (load as f64 / cap).min(1.5);
            d += &format!(
                "M{} {}h{}v{}h{}Z",
                n(x(s)),
                n(top + BAR),
                n(x(e) - x(s)),
                n(-h),
                n(x(s) - x(e))
            );
        }
        let over = lane.profile.iter().any(|p| p.2 > lane.capacity);
        g = g.add(
            Path::new()
                .set("class", "profile")
                .set("d", d)
                .set("fill", if over { VIOLATION } else { PROFILE })
                .set("fill-opacity", 0.8)
                .add(Title::new(format!(
                    "load of {} over time: {}",
                    lane.label,
                    lane.profile
                        .iter()
                        .map(|(s, e, l)| format!("{s}–{e}: {l}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
        );
    }
    for bar in &lane.bars {
        g = g.add(bar_group(bar, lane.resource, top, x));
    }
    for (t, message) in &lane.marks {
        g = g.add(
            Group::new()
                .set("class", "violation")
                .add(
                    Line::new()
                        .set("x1", n(x(*t)))
                        .set("x2", n(x(*t)))
                        .set("y1", n(y + 1.0))
                        .set("y2", n(y + LANE - 1.0))
                        .set("stroke", VIOLATION)
                        .set("stroke-width", 3),
                )
                .add(
                    Path::new()
                        .set("d", format!("M{} {}l-5 -6h10Z", n(x(*t)), n(y + 6.0)))
                        .set("fill", VIOLATION),
                )
                .add(Title::new(message.clone())),
        );
    }
    g
}

fn bar_group(bar: &Bar, in_resource: bool, top: f64, x: &dyn Fn(i64) -> f64) -> Group {
    let (solid, light) = match (bar.held, bar.chain) {
        (true, _) => (HELD, HELD),
        (false, true) => (CHAIN, CHAIN_UNATTENDED),
        (false, false) => (BUSY, UNATTENDED),
    };
    let mut class = String::from(if in_resource { "use" } else { "piece" });
    if bar.chain {
        class += " chain";
    }
    if bar.violated {
        class += " violated";
    }
    let (x0, x1, xb) = (x(bar.start), x(bar.end), x(bar.busy_end));
    let width = (x1 - x0).max(2.0);
    let mut g = Group::new()
        .set("class", class)
        .set("data-activity", bar.id.clone())
        .add(Title::new(bar.info.join("\n")));
    if x1 == x0 {
        g = g.add(rect(x0, top, width, solid));
    }
    if xb > x0 {
        g = g.add(rect(x0, top, xb - x0, solid));
    }
    if x1 > xb {
        g = g.add(rect(xb, top, x1 - xb, light));
    }
    if bar.violated {
        g = g.add(
            Rectangle::new()
                .set("x", n(x0))
                .set("y", n(top))
                .set("width", n(width))
                .set("height", n(BAR))
                .set("fill", "none")
                .set("stroke", VIOLATION)
                .set("stroke-width", 2),
        );
    }
    let room = ((width - 6.0) / CHAR).floor() as usize;
    let label: String = if bar.text.chars().count() <= room {
        bar.text.clone()
    } else if room >= 4 {
        bar.text.chars().take(room - 1).chain(['…']).collect()
    } else {
        String::new()
    };
    if !label.is_empty() {
        g = g.add(
            text(x0 + 3.0, top + BAR / 2.0 + 4.0, &label)
                .set(
                    "fill",
                    if bar.chain || bar.held {
                        "#222"
                    } else {
                        "#fff"
                    },
                )
                .set("pointer-events", "none"),
        );
    }
    g
}

fn rect(x: f64, y: f64, width: f64, fill: &str) -> Rectangle {
    Rectangle::new()
        .set("x", n(x))
        .set("y", n(y))
        .set("width", n(width))
        .set("height", n(BAR))
        .set("fill", fill)
        .set("stroke", "#ffffff")
        .set("stroke-width", 0.5)
}

/// The key to the colours, in one row below the title, and where it ends: the pools' load and the holds only
/// where the chart has them (a pool's green profile was the one colour the key left out).
fn key(left: f64, sections: &[Section]) -> (Group, f64) {
    let lanes = || sections.iter().flat_map(|s| &s.lanes);
    let mut entries = vec![
        (BUSY, "agent busy"),
        (UNATTENDED, "runs unattended"),
        (CHAIN, "critical chain"),
        ("url(#hatch)", "unforced wait"),
        (VIOLATION, "violation"),
    ];
    if lanes().any(|l| !l.profile.is_empty()) {
        entries.push((PROFILE, "pool in use (height: units used of its capacity)"));
    }
    if lanes().any(|l| l.bars.iter().any(|b| b.held)) {
        entries.push((HELD, "held across activities"));
    }
    let mut g = Group::new().set("class", "key");
    let mut x = left;
    for (fill, what) in entries {
        g = g
            .add(
                Rectangle::new()
                    .set("x", n(x))
                    .set("y", 28)
                    .set("width", 14)
                    .set("height", 10)
                    .set("fill", fill)
                    .set("stroke", "#9aa3ad")
                    .set("stroke-width", 0.5),
            )
            .add(text(x + 18.0, 37.0, what));
        x += 18.0 + what.chars().count() as f64 * CHAR + 18.0;
    }
    (g, x)
}

fn text(x: f64, y: f64, content: &str) -> Text {
    Text::new(content).set("x", n(x)).set("y", n(y))
}

/// One decimal, so output bytes do not depend on float noise.
fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// A tick spacing of 1, 2 or 5 × 10^k giving at most about 12 ticks.
fn tick_step(horizon: i64) -> i64 {
    let mut step = 1i64;
    loop {
        for m in [1, 2, 5] {
            if horizon / (step * m) <= 12 {
                return step * m;
            }
        }
        step = step.saturating_mul(10);
    }
}
