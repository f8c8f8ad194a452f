//! The score pages' templates. Each extends `base.html`, which holds the head and the styles
//! they share, so a run's page and a leaderboard look alike and are styled in one place.

use minijinja::{Environment, Value};

const BASE: &str = include_str!("base.html");

/// Renders `page`, a template extending `base.html`, with `context`. Its `.html` name turns on
/// HTML escaping of every value. Panics only on a template error, which the pages' tests catch.
pub(crate) fn render(name: &'static str, page: &'static str, context: Value) -> String {
    let mut env = Environment::new();
    env.add_template("base.html", BASE)
        .expect("the base template is valid (tested through both pages)");
    env.add_template(name, page)
        .and_then(|()| env.get_template(name))
        .and_then(|t| t.render(context))
        .unwrap_or_else(|e| panic!("the {name} template renders plain data: {e}"))
}
