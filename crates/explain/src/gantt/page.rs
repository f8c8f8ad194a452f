//! The chart as one self-contained HTML page (minijinja template `page.html`): the SVG
//! inline, hover details from each bar's tooltip text (a few lines of inline script, no
//! network), the explanation as text and a table of the activities.

use minijinja::{context, Environment};
use serde::Serialize;

use super::{svg, Chart};

const PAGE: &str = include_str!("page.html");

/// One row of the activity table.
#[derive(Serialize)]
struct Row<'a> {
    activity: &'a str,
    label: Option<&'a str>,
    agent: String,
    start: i64,
    end: i64,
    earliest: i64,
    wait: i64,
    reasons: String,
    chain: bool,
}

/// The chart as a self-contained HTML page.
pub fn html(chart: &Chart<'_>) -> String {
    let e = chart.explanation;
    let rows: Vec<Row> = e
        .activities
        .iter()
        .map(|a| Row {
            activity: &a.activity,
            label: a.label.as_deref(),
            agent: a.agent.map_or("-".into(), |g| g.to_string()),
            start: a.start,
            end: a.end,
            earliest: a.earliest,
            wait: a.wait,
            reasons: a
                .reasons
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            chain: e.chain.iter().any(|c| c.activity == a.activity),
        })
        .collect();
    let mut env = Environment::new();
    env.add_template("page.html", PAGE)
        .expect("the page template is valid (tested)");
    env.get_template("page.html")
        .and_then(|t| {
            t.render(context! {
                title => chart.title(),
                svg => svg(chart),
                makespan => e.makespan,
                unit => e.time_unit.to_string(),
                text => e.render_text(),
                activities => minijinja::value::Serde(rows),
                chain_colour => super::draw::CHAIN,
            })
        })
        .expect("the page template renders any explanation (tested)")
}
