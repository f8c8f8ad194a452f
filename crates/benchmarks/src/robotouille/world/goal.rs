//! The goal as upstream builds it (`create_unique_and_combination_preds`,
//! `create_combinations`, `build_goal`): every literal's typed ids are variables, and the
//! goal holds when some assignment of objects to them makes every literal true, the
//! objects of one kind being distinct (the disjunction upstream writes out in full, up to
//! hundreds of thousands of conjunctions, is searched here instead).
//!
//! Upstream's quirks, reproduced:
//! - **Candidates by substring.** The candidates of kind `K` are the objects whose name
//!   contains `K` (`arg in entity["name"]`); with Robotouille's kind names that is the kind.
//! - **Shared ids.** A literal's id names the variable of the *first* kind (in order of
//!   first appearance in the goal) that uses that id (`id_order.index(arg)`), whatever the
//!   literal's own kind: in synchronous task 1 `cheese` id 3 is also `lettuce` id 3, so
//!   the "cheese" of the goal is the lettuce, and any cheese satisfies nothing.
//! - **Placeholders.** A kind with no object in the file (the water a pot will hold) gets
//!   the names `water1`, `water2`, … (one per id); a water created later has exactly such a
//!   name, so a single-soup goal is met only by the **first** water ever made.
//! - **Too few objects.** A kind with fewer objects than ids has no grounding at all: the
//!   goal can never hold.

use serde_json::Value;

use super::kitchen::{Kitchen, StationKind};
use super::rules::{Hand, ItemPlace, State, FLAG_NAMES, NONE};

/// An object a goal literal can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Obj {
    /// A station.
    Station(u8),
    /// An item.
    Item(u8),
    /// A container.
    Container(u8),
    /// A robot.
    Robot(u8),
    /// The `k`-th water made (0-based), `water<k+1>`.
    Meal(u8),
    /// A name no object has or will have.
    Missing,
}

/// One variable: a (kind, id) of the goal.
#[derive(Debug, Clone, Default)]
pub struct Var {
    /// The kind as the goal writes it (`bread`, `table`, `water`).
    pub kind: String,
    /// Its candidates.
    pub domain: Vec<Obj>,
    /// Its kind's index (variables of one kind take distinct objects).
    pub group: usize,
    /// Whether any literal names it.
    pub used: bool,
}

/// A literal: a predicate over variables.
#[derive(Debug, Clone)]
pub struct Literal {
    /// The predicate's name.
    pub pred: String,
    /// Its variables.
    pub args: Vec<usize>,
}

/// The goal of a kitchen.
#[derive(Debug, Clone, Default)]
pub struct Goal {
    /// The variables, in upstream's order.
    pub vars: Vec<Var>,
    /// The literals, in the file's order.
    pub literals: Vec<Literal>,
    /// Per kind: how many variables, and how many of them no literal names.
    groups: Vec<(usize, usize)>,
    /// Variables named by a literal, in the order they are assigned.
    order: Vec<usize>,
    /// Per position of `order`: the literals whose last variable is assigned there.
    checks: Vec<Vec<usize>>,
}

/// The entity field of a kind (`entity_to_entity_field`).
fn field_of(kind: &str) -> Option<&'static str> {
    if super::kitchen::ITEM_KINDS.contains(&kind) || kind == "item" {
        return Some("items");
    }
    Some(match kind {
        "board" | "stove" | "table" | "fryer" | "sink" | "station" => "stations",
        "robot" | "player" => "players",
        "pot" | "bowl" | "container" => "containers",
        "water" | "boiling_water" | "soup" | "meal" => "meals",
        _ => return None,
    })
}

impl Goal {
    /// The goal of an environment file, over the kitchen's objects.
    pub fn build(env: &Value, k: &Kitchen) -> Result<Goal, String> {
        let list = env
            .get("goal")
            .and_then(Value::as_array)
            .ok_or("goal: expected a list of literals")?;
        // (kind, its candidates, its ids in order of first use)
        let mut kinds: Vec<(String, Vec<Obj>, Vec<String>)> = Vec::new();
        let mut raw: Vec<(String, Vec<String>)> = Vec::new();
        for (n, lit) in list.iter().enumerate() {
            let at = format!("goal[{n}]");
            let pred = lit
                .get("predicate")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{at}.predicate: expected a string"))?;
            if !PREDICATES.iter().any(|(p, _)| *p == pred) {
                return Err(format!(
                    "{at}.predicate: \"{pred}\" is no predicate of the release domain"
                ));
            }
            let args = lit
                .get("args")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{at}.args: expected a list"))?;
            let ids = lit
                .get("ids")
                .and_then(Value::as_array)
                .filter(|ids| ids.len() == args.len())
                .ok_or_else(|| format!("{at}.ids: expected a list as long as args"))?;
            let mut named = Vec::new();
            for (a, (arg, id)) in args.iter().zip(ids).enumerate() {
                let arg = arg
                    .as_str()
                    .ok_or_else(|| format!("{at}.args[{a}]: expected a string"))?;
                let id = match id {
                    Value::Number(x) if x.is_u64() => x.to_string(),
                    Value::String(s) if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) => s.clone(),
                    _ => {
                        return Err(format!(
                            "{at}.ids[{a}]: {id} is not a numeric id (goals that name one object by an `id` field are not Robotouille's)"
                        ))
                    }
                };
                let field = field_of(arg)
                    .ok_or_else(|| format!("{at}.args[{a}]: unknown kind \"{arg}\""))?;
                let entry = match kinds.iter().position(|(kind, ..)| kind == arg) {
                    Some(e) => e,
                    None => {
                        kinds.push((arg.to_string(), candidates(k, field, arg), Vec::new()));
                        kinds.len() - 1
                    }
                };
                if !kinds[entry].2.contains(&id) {
                    kinds[entry].2.push(id.clone());
                }
                named.push(id);
            }
            raw.push((pred.to_string(), named));
        }
        let mut goal = Goal::default();
        for (group, (kind, domain, ids)) in kinds.iter().enumerate() {
            let domain = if domain.is_empty() {
                // Placeholders: `kind1`, `kind2`, … one per id.
                (0..ids.len())
                    .map(|n| {
                        if field_of(kind) == Some("meals") {
                            Obj::Meal(n as u8)
                        } else {
                            Obj::Missing
                        }
                    })
                    .collect()
            } else {
                domain.clone()
            };
            for _ in ids {
                goal.vars.push(Var {
                    kind: kind.clone(),
                    domain: domain.clone(),
                    group,
                    used: false,
                });
            }
            goal.groups.push((ids.len(), 0));
        }
        // A literal's id names the first kind's variable with that id.
        let var_of = |id: &str| -> usize {
            let mut base = 0;
            for (_, _, ids) in &kinds {
                if let Some(p) = ids.iter().position(|x| x == id) {
                    return base + p;
                }
                base += ids.len();
            }
            unreachable!("every id was recorded under its kind")
        };
        for (pred, ids) in raw {
            let args: Vec<usize> = ids.iter().map(|id| var_of(id)).collect();
            goal.literals.push(Literal { pred, args });
        }
        goal.index();
        Ok(goal)
    }

    /// The goal made of the literals `keep` accepts (by index), over the same variables: a
    /// part of the goal for a planner that reaches it piece by piece. The variables only the
    /// other literals name still need distinct objects of their kind to be left.
    pub fn part(&self, keep: impl Fn(usize) -> bool) -> Goal {
        let mut goal = Goal {
            vars: self.vars.clone(),
            literals: (self.literals.iter().enumerate())
                .filter(|(l, _)| keep(*l))
                .map(|(_, lit)| lit.clone())
                .collect(),
            groups: self.groups.iter().map(|&(ids, _)| (ids, 0)).collect(),
            ..Goal::default()
        };
        goal.index();
        goal
    }

    /// Marks the variables the literals name, counts the others per kind, and orders the
    /// named ones with the literals checked at each.
    fn index(&mut self) {
        for v in &mut self.vars {
            v.used = false;
        }
        for lit in &self.literals {
            for &a in &lit.args {
                self.vars[a].used = true;
            }
        }
        for v in &self.vars {
            if !v.used {
                self.groups[v.group].1 += 1;
            }
        }
        self.order = (0..self.vars.len())
            .filter(|&v| self.vars[v].used)
            .collect();
        self.checks = vec![Vec::new(); self.order.len()];
        for (l, lit) in self.literals.iter().enumerate() {
            let last = lit
                .args
                .iter()
                .map(|a| self.order.iter().position(|o| o == a).unwrap_or(0))
                .max()
                .unwrap_or(0);
            self.checks[last].push(l);
        }
    }

    /// Whether some grounding holds in `state`.
    pub fn reached(&self, k: &Kitchen, state: &State) -> bool {
        if self.order.is_empty() {
            return self.literals.is_empty() && self.spare(&[]);
        }
        let mut chosen = vec![Obj::Missing; self.vars.len()];
        self.extend(k, state, 0, &mut chosen)
    }

    fn extend(&self, k: &Kitchen, state: &State, depth: usize, chosen: &mut Vec<Obj>) -> bool {
        if depth == self.order.len() {
            let used: Vec<usize> = self.order.iter().map(|&v| self.vars[v].group).collect();
            return self.spare(&used);
        }
        let v = self.order[depth];
        let var = &self.vars[v];
        'candidates: for &obj in &var.domain {
            for &w in &self.order[..depth] {
                if self.vars[w].group == var.group && chosen[w] == obj {
                    continue 'candidates;
                }
            }
            chosen[v] = obj;
            for &l in &self.checks[depth] {
                let lit = &self.literals[l];
                let mut args = [Obj::Missing; 2];
                for (slot, &a) in args.iter_mut().zip(&lit.args) {
                    *slot = chosen[a];
                }
                if !holds(k, state, &lit.pred, &args[..lit.args.len().min(2)]) {
                    continue 'candidates;
                }
            }
            if self.extend(k, state, depth + 1, chosen) {
                return true;
            }
        }
        false
    }

    /// Whether the variables no literal names can still take distinct objects of their kind.
    fn spare(&self, used_groups: &[usize]) -> bool {
        self.groups.iter().enumerate().all(|(g, &(ids, unused))| {
            let size = self
                .vars
                .iter()
                .find(|v| v.group == g)
                .map_or(0, |v| v.domain.len());
            let taken = used_groups.iter().filter(|&&u| u == g).count();
            unused == 0 || size >= taken + unused || ids == 0
        })
    }
}

/// The objects of `field` whose name contains `kind`.
fn candidates(k: &Kitchen, field: &str, kind: &str) -> Vec<Obj> {
    match field {
        "stations" => k
            .stations
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| n.contains(kind))
            .map(|(s, _)| Obj::Station(s as u8))
            .collect(),
        "items" => k
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| i.name.contains(kind))
            .map(|(i, _)| Obj::Item(i as u8))
            .collect(),
        "containers" => k
            .containers
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| n.contains(kind))
            .map(|(c, _)| Obj::Container(c as u8))
            .collect(),
        "players" => k
            .robots
            .iter()
            .enumerate()
            .filter(|(_, n)| n.contains(kind))
            .map(|(p, _)| Obj::Robot(p as u8))
            .collect(),
        _ => Vec::new(),
    }
}

/// The release domain's predicates and their parameter types.
pub const PREDICATES: [(&str, &[&str]); 42] = [
    ("istable", &["station"]),
    ("isstove", &["station"]),
    ("isboard", &["station"]),
    ("isfryer", &["station"]),
    ("issink", &["station"]),
    ("isrobot", &["player"]),
    ("istopbun", &["item"]),
    ("isbottombun", &["item"]),
    ("isbread", &["item"]),
    ("islettuce", &["item"]),
    ("isonion", &["item"]),
    ("istomato", &["item"]),
    ("ispatty", &["item"]),
    ("ischicken", &["item"]),
    ("ischeese", &["item"]),
    ("ispotato", &["item"]),
    ("isfryable", &["item"]),
    ("isfryableifcut", &["item"]),
    ("isfried", &["item"]),
    ("iscookable", &["item"]),
    ("iscooking", &["item"]),
    ("iscooked", &["item"]),
    ("iscuttable", &["item"]),
    ("iscut", &["item"]),
    ("ispot", &["container"]),
    ("isbowl", &["container"]),
    ("iswater", &["meal"]),
    ("isboiling", &["meal"]),
    ("loc", &["player", "station"]),
    ("item_at", &["item", "station"]),
    ("nothing", &["player"]),
    ("station_empty", &["station"]),
    ("container_empty", &["container"]),
    ("item_on", &["item", "station"]),
    ("vacant", &["station"]),
    ("clear", &["item"]),
    ("atop", &["item", "item"]),
    ("has_item", &["player", "item"]),
    ("has_container", &["player", "container"]),
    ("in", &["meal", "container"]),
    ("addedto", &["item", "meal"]),
    ("container_at", &["container", "station"]),
];

/// Whether predicate `pred` holds of `args` in `state` (false for objects of the wrong
/// type, or that do not exist yet, as upstream's lookup of an unknown predicate).
pub fn holds(k: &Kitchen, state: &State, pred: &str, args: &[Obj]) -> bool {
    use Obj::*;
    let meal = |m: u8| state.meals.get(m as usize);
    match (pred, args) {
        (_, [Station(s)]) if pred.starts_with("is") && pred.len() > 2 => {
            let kind = k.stations[*s as usize].1;
            matches!(
                (&pred[2..], kind),
                ("table", StationKind::Table)
                    | ("stove", StationKind::Stove)
                    | ("board", StationKind::Board)
                    | ("fryer", StationKind::Fryer)
                    | ("sink", StationKind::Sink)
            )
        }
        ("vacant", [Station(s)]) => state.vacant(*s),
        ("station_empty", [Station(s)]) => state.station_empty & (1 << s) != 0,
        ("isrobot", [Robot(_)]) => true,
        ("loc", [Robot(p), Station(s)]) => state.robots[*p as usize].at == *s,
        ("nothing", [Robot(p)]) => state.robots[*p as usize].hand == Hand::Nothing,
        ("has_item", [Robot(p), Item(i)]) => state.robots[*p as usize].hand == Hand::Item(*i),
        ("has_container", [Robot(p), Container(c)]) => {
            state.robots[*p as usize].hand == Hand::Container(*c)
        }
        ("item_on", [Item(i), Station(s)]) => state.items[*i as usize].place == ItemPlace::On(*s),
        ("item_at", [Item(i), Station(s)]) => state.items[*i as usize].place.station() == Some(*s),
        ("atop", [Item(i), Item(j)]) => {
            matches!(state.items[*i as usize].place, ItemPlace::Atop(b, _) if b == *j)
        }
        ("clear", [Item(i)]) => state.clear(*i),
        (_, [Item(i)]) => {
            if let Some((f, _)) = FLAG_NAMES.iter().find(|(_, n)| *n == pred) {
                return state.items[*i as usize].flags & f != 0;
            }
            pred.strip_prefix("is") == Some(k.items[*i as usize].kind.as_str())
        }
        ("ispot", [Container(c)]) => k.containers[*c as usize].1,
        ("isbowl", [Container(c)]) => !k.containers[*c as usize].1,
        ("container_at", [Container(c), Station(s)]) => {
            state.containers[*c as usize].at == *s && *s != NONE
        }
        ("container_empty", [Container(c)]) => state.containers[*c as usize].empty,
        ("iswater", [Meal(m)]) => meal(*m).is_some(),
        ("isboiling", [Meal(m)]) => meal(*m).is_some_and(|x| x.boiling),
        ("in", [Meal(m), Container(c)]) => meal(*m).is_some_and(|x| x.container == *c),
        ("addedto", [Item(i), Meal(m)]) => meal(*m).is_some_and(|x| x.added & (1 << i) != 0),
        _ => false,
    }
}
