//! A concrete plan: one action list per cook, in the harness's vocabulary
//! (`{"action": "MoveTo", "target": [x, y]}`, `Interact`/`Process` with a station name,
//! `Wait` with a `duration`, `Finish`).
//!
//! The game reads each action only when the cook reaches it, so an action it cannot run
//! (an unknown type, a missing field) is kept as [`Action::Invalid`] and fails there, at its
//! index and time, instead of making the whole plan unreadable.

use serde_json::{Map, Value};

use super::super::kitchen::Cell;

/// One action of a cook.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Walk a shortest path to a floor cell.
    MoveTo(Cell),
    /// Pick up, put down, combine, serve: zero time, at a 4-adjacent station.
    Interact(String),
    /// Chop on a board, wash at the sink (or, refused, cook on a stove): the cook stays.
    Process(String),
    /// Do nothing for a while (the game accepts any number, fractions included).
    Wait(f64),
    /// Say the cook is done (the game does not stop the cook).
    Finish,
    /// Something the game cannot run; it fails when the cook reaches it.
    Invalid(Invalid),
}

/// Why an action cannot run, in the game's words.
#[derive(Debug, Clone, PartialEq)]
pub enum Invalid {
    /// An `action` the game does not know.
    UnknownType(String),
    /// A `MoveTo` target that is no cell of the map (the game finds no path to it).
    NoPath,
    /// A `Wait` whose duration is not a number.
    BadDuration,
    /// A target that names nothing (`str()` of it as the game prints it).
    NoSuchObject(String),
    /// The entry is not an action object, or misses a field (the game crashes on it).
    Malformed(String),
}

impl Action {
    /// The action as the harness writes it.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_string(), v);
        };
        match self {
            Action::MoveTo((x, y)) => {
                put("action", "MoveTo".into());
                put("target", Value::from(vec![*x, *y]));
            }
            Action::Interact(t) => {
                put("action", "Interact".into());
                put("target", t.as_str().into());
            }
            Action::Process(t) => {
                put("action", "Process".into());
                put("target", t.as_str().into());
            }
            Action::Wait(d) => {
                put("action", "Wait".into());
                put("duration", number(*d));
            }
            Action::Finish => put("action", "Finish".into()),
            Action::Invalid(_) => put("action", "Invalid".into()),
        }
        Value::Object(m)
    }

    /// Reads one entry of an action list the way the game does when it reaches it.
    pub fn from_json(v: &Value) -> Action {
        let Some(obj) = v.as_object() else {
            return Action::Invalid(Invalid::Malformed(format!(
                "an action is an object with an \"action\" field, not {}",
                py_repr(v)
            )));
        };
        let Some(kind) = obj.get("action") else {
            return Action::Invalid(Invalid::Malformed("'action'".into()));
        };
        let target = || obj.get("target");
        match kind.as_str() {
            Some("MoveTo") => match target() {
                None => Action::Invalid(Invalid::Malformed("'target'".into())),
                Some(t) => match cell(t) {
                    Some(c) => Action::MoveTo(c),
                    None => Action::Invalid(Invalid::NoPath),
                },
            },
            Some(k @ ("Interact" | "Process")) => match target() {
                None => Action::Invalid(Invalid::Malformed("'target'".into())),
                Some(Value::String(s)) => {
                    if k == "Interact" {
                        Action::Interact(s.clone())
                    } else {
                        Action::Process(s.clone())
                    }
                }
                Some(t @ (Value::Array(_) | Value::Object(_))) => {
                    Action::Invalid(Invalid::Malformed(format!(
                        "unhashable type: '{}'",
                        if t.is_array() { "list" } else { "dict" }
                    )))
                }
                Some(t) => Action::Invalid(Invalid::NoSuchObject(py_str(t))),
            },
            Some("Wait") => match obj.get("duration") {
                None => Action::Wait(1.0),
                Some(Value::Bool(b)) => Action::Wait(if *b { 1.0 } else { 0.0 }),
                Some(Value::Number(n)) => match n.as_f64() {
                    Some(d) => Action::Wait(d),
                    None => Action::Invalid(Invalid::BadDuration),
                },
                Some(_) => Action::Invalid(Invalid::BadDuration),
            },
            Some("Finish") => Action::Finish,
            _ => Action::Invalid(Invalid::UnknownType(py_str(kind))),
        }
    }

    /// The harness's name of the action type.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::MoveTo(_) => "MoveTo",
            Action::Interact(_) => "Interact",
            Action::Process(_) => "Process",
            Action::Wait(_) => "Wait",
            Action::Finish => "Finish",
            Action::Invalid(_) => "Invalid",
        }
    }
}

/// A target `[x, y]` of whole numbers (`2.0` counts, as in the game's cell lookup).
fn cell(t: &Value) -> Option<Cell> {
    let list = t.as_array()?;
    let [x, y] = list.as_slice() else { return None };
    let whole = |v: &Value| {
        let f = v.as_f64()?;
        (f.fract() == 0.0 && f.abs() < 1e9).then_some(f as i32)
    };
    Some((whole(x)?, whole(y)?))
}

/// A duration as the game writes it: whole numbers without a fraction.
pub(crate) fn number(d: f64) -> Value {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        Value::from(d as i64)
    } else {
        Value::from(d)
    }
}

/// One cook's actions.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentPlan {
    /// The cook's name (a key of the plan object).
    pub name: String,
    /// Its actions in order.
    pub actions: Vec<Action>,
    /// The entries as written, when the plan was read from JSON (the game prints them in
    /// its errors and world snapshots).
    pub raw: Option<Vec<Value>>,
    /// Why the cook's entry is no action list, when it is not (the game refuses the plan).
    pub not_a_list: bool,
}

impl AgentPlan {
    /// A cook's actions, built rather than read.
    pub fn new(name: impl Into<String>, actions: Vec<Action>) -> AgentPlan {
        AgentPlan {
            name: name.into(),
            actions,
            raw: None,
            not_a_list: false,
        }
    }

    /// Entry `i` as written (or as the harness would write it).
    pub fn raw(&self, i: usize) -> Value {
        self.raw
            .as_ref()
            .and_then(|r| r.get(i).cloned())
            .unwrap_or_else(|| self.actions[i].to_json())
    }
}

/// A plan: per cook, in the plan object's order (cooks it leaves out stay idle).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// The cooks' action lists.
    pub agents: Vec<AgentPlan>,
}

impl Plan {
    /// Reads a plan object `{"agent1": [...], ...}`, unwrapping `{"plan": {...}}` as the
    /// harness does; `Err` when it is no object.
    pub fn from_json(v: &Value) -> Result<Plan, String> {
        let Some(mut obj) = v.as_object() else {
            return Err("a plan is a JSON object with one action list per cook".into());
        };
        if let Some(Value::Object(inner)) = obj.get("plan") {
            obj = inner;
        } else if obj.contains_key("plan") {
            return Err("\"plan\" must be an object with one action list per cook".into());
        }
        Ok(Plan {
            agents: obj
                .iter()
                .map(|(name, list)| match list.as_array() {
                    Some(entries) => AgentPlan {
                        name: name.clone(),
                        actions: entries.iter().map(Action::from_json).collect(),
                        raw: Some(entries.clone()),
                        not_a_list: false,
                    },
                    None => AgentPlan {
                        name: name.clone(),
                        actions: Vec::new(),
                        raw: Some(Vec::new()),
                        not_a_list: true,
                    },
                })
                .collect(),
        })
    }

    /// The plan as the harness writes it.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.agents
                .iter()
                .map(|a| {
                    let list = (0..a.actions.len()).map(|i| a.raw(i)).collect();
                    (a.name.clone(), Value::Array(list))
                })
                .collect(),
        )
    }
}

/// Python's `repr` of a JSON value, as the game prints actions and dishes in its errors.
pub fn py_repr(v: &Value) -> String {
    match v {
        Value::String(s) => py_str_repr(s),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", py_str_repr(k), py_repr(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => py_str(other),
    }
}

/// Python's `str` of a JSON value.
pub fn py_str(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() < 1e16 {
                format!("{f:.1}")
            } else {
                format!("{f}")
            }
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => py_repr(other),
    }
}

fn py_str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}
