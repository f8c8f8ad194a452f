//! TimeArena's task modules read straight from a checkout (`TimeArena/specificTasks/*.py`),
//! never evaluated: a small reader for the literal subset those files use. It looks for
//! `class NAME:`, `self.name = '…'` (the description), `MetaAction(name, usage, occupy)` (the
//! action text is built from the name, `fry in` → `fry X in Y`, as the environment parses it) and
//! `MetaObject(name, {todo}, {dependencies})`; their arguments may only be strings, integers,
//! `True`/`False`, dicts and lists of those. Anything else inside them is an error naming the
//! file and the line. The rest of the file (imports, `def`, `return`) is not looked at.
//!
//! [`derive`] then builds each task as the environment's classes do: objects named
//! `name_1 … name_n` when a name occurs more than once in the task; one action per object and
//! state key that is not a container role (`…_2`); a two-object action's container is the first
//! other object with the matching `_2` key (every such object is accepted), a pooled container
//! (`pot`, `fryer`, `oven`) named by its first instance; its dependencies are the union of the
//! subject's dependency for the key and the container's for its `_2` key, sorted.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::de::IgnoredAny;

use super::tasks::{Action, Object, Task};
use makespan_model::instance::LoadError;

/// The container kinds whose instances form a pool.
const POOLS: [&str; 3] = ["pot", "fryer", "oven"];

/// The most possible containers all actions of a module may list together (see [`derive`]).
const MAX_CONTAINER_ENTRIES: usize = 100_000;

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
enum Literal {
    Str(String),
    Int(i64),
    Bool(bool),
    Dict(Vec<(Literal, Literal)>),
    List(Vec<Literal>),
}

/// One token and the line it starts on.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    Int(i64),
    Punct(char),
}

fn tokens(path: &Path, text: &str) -> Result<Vec<(Token, usize)>, LoadError> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    while let Some((_, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '#' => {
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            '\'' | '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, q)) if q == c => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, 'n')) => s.push('\n'),
                            Some((_, e)) => s.push(e),
                            None => break,
                        },
                        Some((_, '\n')) | None => {
                            return Err(LoadError::format(
                                path,
                                format!("line {line}"),
                                "a string is not closed on its line",
                            ))
                        }
                        Some((_, ch)) => s.push(ch),
                    }
                }
                out.push((Token::Str(s), line));
            }
            c if c.is_ascii_digit() || c == '-' => {
                let mut s = c.to_string();
                while let Some((_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                    s.push(*d);
                    chars.next();
                }
                match s.parse() {
                    Ok(n) => out.push((Token::Int(n), line)),
                    Err(_) if s.len() > 1 => {
                        return Err(LoadError::format(
                            path,
                            format!("line {line}"),
                            format!(
                                "the integer {}{} ({} digits) is beyond 64 bits; task modules give minutes",
                                &s[..s.len().min(40)],
                                if s.len() > 40 { "…" } else { "" },
                                s.trim_start_matches('-').len()
                            ),
                        ))
                    }
                    Err(_) => out.push((Token::Punct(c), line)),
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut s = c.to_string();
                while let Some((_, d)) = chars
                    .peek()
                    .filter(|(_, d)| d.is_alphanumeric() || *d == '_')
                {
                    s.push(*d);
                    chars.next();
                }
                out.push((Token::Ident(s), line));
            }
            c => out.push((Token::Punct(c), line)),
        }
    }
    Ok(out)
}

/// The deepest nesting of dicts and lists in a literal (TimeArena's modules nest 2 deep): the
/// reader recurses once per level, and so does dropping what it built, so 50,000 levels in
/// 100 KB would overflow the stack. Checked at each `[` and `{` as they are read.
const MAX_NESTING: usize = 32;

/// A reader over the tokens of one file.
struct Reader<'a> {
    path: &'a Path,
    tokens: Vec<(Token, usize)>,
    at: usize,
    /// Dicts and lists open around the literal being read.
    depth: usize,
}

impl Reader<'_> {
    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.1)
    }

    fn error(&self, message: impl Into<String>) -> LoadError {
        LoadError::format(self.path, format!("line {}", self.line()), message)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).map(|t| t.0.clone());
        self.at += 1;
        t
    }

    fn expect(&mut self, c: char) -> Result<(), LoadError> {
        match self.next() {
            Some(Token::Punct(p)) if p == c => Ok(()),
            _ => {
                self.at -= 1;
                Err(self.error(format!("expected `{c}` here")))
            }
        }
    }

    /// A literal; anything else is refused, never evaluated.
    fn literal(&mut self) -> Result<Literal, LoadError> {
        let opens = self.closes('{') || self.closes('[');
        if opens {
            if self.depth == MAX_NESTING {
                return Err(self.error(format!(
                    "dicts and lists nest deeper than {MAX_NESTING} levels here (TimeArena's modules nest 2 deep); the file is not a task module"
                )));
            }
            self.depth += 1;
        }
        let value = self.value();
        if opens {
            self.depth -= 1;
        }
        value
    }

    /// One literal, its dicts and lists read by [`Reader::literal`].
    fn value(&mut self) -> Result<Literal, LoadError> {
        match self.next() {
            Some(Token::Str(s)) => Ok(Literal::Str(s)),
            Some(Token::Int(n)) => Ok(Literal::Int(n)),
            Some(Token::Ident(b)) if b == "True" || b == "False" => Ok(Literal::Bool(b == "True")),
            Some(Token::Punct('{')) => {
                let mut entries = Vec::new();
                while !self.closes('}') {
                    let key = self.literal()?;
                    self.expect(':')?;
                    entries.push((key, self.literal()?));
                    if !self.closes('}') {
                        self.expect(',')?;
                    }
                }
                self.at += 1;
                Ok(Literal::Dict(entries))
            }
            Some(Token::Punct('[')) => {
                let mut items = Vec::new();
                while !self.closes(']') {
                    items.push(self.literal()?);
                    if !self.closes(']') {
                        self.expect(',')?;
                    }
                }
                self.at += 1;
                Ok(Literal::List(items))
            }
            other => {
                self.at -= 1;
                Err(self.error(format!(
                    "{} is not a literal makespan reads (strings, integers, True/False, dicts, lists); the file is never evaluated",
                    match other {
                        Some(Token::Ident(i)) => format!("`{i}`"),
                        Some(Token::Punct(p)) => format!("`{p}`"),
                        _ => "the end of the file".into(),
                    }
                )))
            }
        }
    }

    fn closes(&self, c: char) -> bool {
        matches!(self.tokens.get(self.at), Some((Token::Punct(p), _)) if *p == c)
    }

    /// The arguments of a call whose `(` is next.
    fn arguments(&mut self) -> Result<Vec<Literal>, LoadError> {
        self.expect('(')?;
        let mut args = Vec::new();
        while !self.closes(')') {
            args.push(self.literal()?);
            if !self.closes(')') {
                self.expect(',')?;
            }
        }
        self.at += 1;
        Ok(args)
    }
}

/// What one task module declares.
#[derive(Debug, Default)]
struct Module {
    class: Option<String>,
    description: Option<String>,
    /// `(name, occupies the agent)`.
    actions: Vec<(String, bool)>,
    /// The objects, in file order.
    objects: Vec<DeclaredObject>,
}

/// A `MetaObject(name, todo, dependencies)`: its name, its state keys with their minutes and
/// its dependencies per state key, in file order.
type DeclaredObject = (String, Vec<(String, i64)>, Vec<(String, Literal)>);

fn read_module(path: &Path, text: &str) -> Result<Module, LoadError> {
    let mut r = Reader {
        path,
        tokens: tokens(path, text)?,
        at: 0,
        depth: 0,
    };
    let mut module = Module::default();
    while let Some(token) = r.next() {
        let Token::Ident(word) = token else { continue };
        match word.as_str() {
            "class" if module.class.is_none() => match r.next() {
                Some(Token::Ident(name)) => module.class = Some(name),
                _ => return Err(r.error("expected the class name after `class`")),
            },
            "self" if module.description.is_none() && r.closes('.') => {
                r.at += 1;
                if matches!(r.next(), Some(Token::Ident(n)) if n == "name") && r.closes('=') {
                    r.at += 1;
                    match r.literal()? {
                        Literal::Str(s) => module.description = Some(s),
                        _ => {
                            return Err(
                                r.error("self.name must be a string: the task's description")
                            )
                        }
                    }
                }
            }
            "MetaAction" => {
                let line = r.line();
                let args = r.arguments()?;
                match &args[..] {
                    [Literal::Str(name), Literal::Str(_usage), Literal::Bool(occupy), ..] => {
                        module.actions.push((name.clone(), *occupy))
                    }
                    _ => {
                        return Err(LoadError::format(
                            path,
                            format!("line {line}"),
                            "MetaAction needs (name, usage, occupy): two strings and True/False",
                        ))
                    }
                }
            }
            "MetaObject" => {
                let line = r.line();
                let bad = |m: &str| LoadError::format(path, format!("line {line}"), m.to_string());
                let args = r.arguments()?;
                let [Literal::Str(name), Literal::Dict(todo), Literal::Dict(deps)] = &args[..]
                else {
                    return Err(bad(
                        "MetaObject needs (name, {state key: minutes}, {state key: dependency})",
                    ));
                };
                let todo = todo
                    .iter()
                    .map(|(k, v)| match (k, v) {
                        (Literal::Str(k), Literal::Int(n)) => Ok((k.clone(), *n)),
                        _ => Err(bad("a todo entry must be \"state key\": minutes")),
                    })
                    .collect::<Result<_, _>>()?;
                let deps = deps
                    .iter()
                    .map(|(k, v)| match k {
                        Literal::Str(k) => Ok((k.clone(), v.clone())),
                        _ => Err(bad("a dependency key must be a string")),
                    })
                    .collect::<Result<_, _>>()?;
                module.objects.push((name.clone(), todo, deps));
            }
            _ => {}
        }
    }
    Ok(module)
}

/// The task modules of a `specificTasks` folder (every `*.py` but `__init__.py`), derived into
/// tasks in the order cooking1..10, household1..10, lab1..10 (scenario, then number).
pub fn read_folder(dir: &Path) -> Result<Vec<Task>, LoadError> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| LoadError::Io {
            path: dir.to_path_buf(),
            source,
        })?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .filter(|p| p.file_name().is_some_and(|n| n != "__init__.py"))
        .collect();
    let order = |p: &std::path::PathBuf| {
        let stem = p
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let digits = stem.trim_start_matches(|c: char| !c.is_ascii_digit());
        (
            stem[..stem.len() - digits.len()].to_string(),
            digits.parse::<u32>().unwrap_or(0),
        )
    };
    files.sort_by_key(order);
    if files.is_empty() {
        return Err(LoadError::usage(
            dir,
            "no task modules (*.py) in this folder",
        ));
    }
    files
        .iter()
        .map(|path| {
            let text = makespan_model::input::read_text(path)?;
            derive(path, &read_module(path, &text)?)
        })
        .collect()
}

/// Builds one task as the environment's classes do (see the module docs).
fn derive(path: &Path, module: &Module) -> Result<Task, LoadError> {
    let bad = |at: &str, m: String| LoadError::format(path, at.to_string(), m);
    let name = module
        .class
        .clone()
        .ok_or_else(|| bad("top level", "no `class NAME:` in the file".into()))?;
    let description = module.description.clone().ok_or_else(|| {
        bad(
            &name,
            "no `self.name = '…'` (the task's description)".into(),
        )
    })?;
    let scenario = name
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .to_string();
    // Object names: a name that occurs more than once in the task gets `_1 … _n`.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let counts: BTreeMap<&str, usize> = module.objects.iter().fold(BTreeMap::new(), |mut m, o| {
        *m.entry(o.0.as_str()).or_default() += 1;
        m
    });
    let names: Vec<String> = module
        .objects
        .iter()
        .map(|(base, _, _)| {
            let k = seen.entry(base).or_default();
            *k += 1;
            if counts[base.as_str()] > 1 {
                format!("{base}_{k}")
            } else {
                base.clone()
            }
        })
        .collect();
    let mut pools: BTreeMap<String, u32> = BTreeMap::new();
    for (base, _, _) in &module.objects {
        if POOLS.contains(&base.as_str()) {
            *pools.entry(base.clone()).or_default() += 1;
        }
    }
    let base_of = |i: usize| module.objects[i].0.as_str();
    // Indexes, so that deriving is linear in the module (each lookup by a scan made 40,000
    // objects take minutes): the first object of each name, the objects carrying each state
    // key, each verb, each object's dependency per key.
    let mut first_of: HashMap<&str, usize> = HashMap::new();
    let mut carriers: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut depends: HashMap<(usize, &str), &Literal> = HashMap::new();
    for (i, (base, todo, deps)) in module.objects.iter().enumerate() {
        first_of.entry(base).or_insert(i);
        for (key, _) in todo {
            let list = carriers.entry(key).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
        for (key, value) in deps {
            depends.entry((i, key)).or_insert(value);
        }
    }
    let mut verbs: HashMap<String, &(String, bool)> = HashMap::new();
    for action in &module.actions {
        verbs.entry(action.0.replace(' ', "_")).or_insert(action);
    }
    // The action that completes `key` of the object first named `base`.
    let action_of = |base: &str, key: &str| -> Option<(usize, String)> {
        Some((*first_of.get(base)?, key.to_string()))
    };
    // Every container an action may use is listed: refused before building when the lists
    // would hold more than the cap in all (n objects with one role make n² entries).
    let listed: usize = module
        .objects
        .iter()
        .flat_map(|(_, todo, _)| todo)
        .filter_map(|(key, _)| key.strip_suffix("_1"))
        .map(|stem| {
            carriers
                .get(format!("{stem}_2").as_str())
                .map_or(0, Vec::len)
        })
        .fold(0usize, usize::saturating_add);
    if listed > MAX_CONTAINER_ENTRIES {
        return Err(bad(
            &name,
            format!(
                "the actions would list {listed} possible containers in all, over the limit of {MAX_CONTAINER_ENTRIES} (TimeArena's tasks list a few dozen); the file is not a task module"
            ),
        ));
    }
    struct Planned {
        subject: usize,
        key: String,
        duration: i64,
        verb: (String, bool),
        container: Option<usize>,
        allowed: Vec<usize>,
    }
    let mut planned = Vec::new();
    for (i, (_, todo, _)) in module.objects.iter().enumerate() {
        for (key, duration) in todo {
            if key.ends_with("_2") {
                continue;
            }
            let two = key.strip_suffix("_1");
            let verb_key = two.unwrap_or(key);
            let verb = verbs.get(verb_key).ok_or_else(|| {
                bad(
                    &format!("{name}: object {}", names[i]),
                    format!("no MetaAction for the state key \"{key}\""),
                )
            })?;
            let (container, allowed) = match two {
                None => (None, Vec::new()),
                Some(stem) => {
                    let role = format!("{stem}_2");
                    let allowed: Vec<usize> = carriers
                        .get(role.as_str())
                        .into_iter()
                        .flatten()
                        .copied()
                        .filter(|&j| j != i)
                        .collect();
                    let first = *allowed.first().ok_or_else(|| {
                        bad(
                            &format!("{name}: object {}", names[i]),
                            format!("no object carries \"{role}\", the container of \"{key}\""),
                        )
                    })?;
                    (Some(first), allowed)
                }
            };
            planned.push(Planned {
                subject: i,
                key: key.clone(),
                duration: *duration,
                verb: (*verb).clone(),
                container,
                allowed,
            });
        }
    }
    // The first action completing each key of each object.
    let mut completes: HashMap<(usize, &str), usize> = HashMap::new();
    for (k, p) in planned.iter().enumerate() {
        completes.entry((p.subject, p.key.as_str())).or_insert(k);
    }
    let text_of = |p: &Planned, container: Option<&str>| -> String {
        // The environment reads `verb OBJ` or `verb OBJ1 prep OBJ2` from the action's name (the
        // usage string is only shown: lab9's `cool` has no OBJ in it).
        let subject = &names[p.subject];
        match (container, p.verb.0.split_once(' ')) {
            (Some(c), Some((verb, prep))) => format!("{verb} {subject} {prep} {c}"),
            _ => format!("{} {subject}", p.verb.0),
        }
    };
    let action_name = |p: &Planned| text_of(p, p.container.map(|c| names[c].as_str()));
    // A dependency value: another key of the same object, or {object: key}.
    let resolve = |owner: usize, value: &Literal| -> Result<Vec<String>, LoadError> {
        let targets: Vec<(usize, String)> = match value {
            Literal::Str(key) => vec![(owner, key.clone())],
            Literal::Dict(entries) => entries
                .iter()
                .map(|(o, k)| match (o, k) {
                    (Literal::Str(o), Literal::Str(k)) => action_of(o, k).ok_or_else(|| {
                        bad(
                            &name,
                            format!(
                                "a dependency names object \"{o}\", which the task does not have"
                            ),
                        )
                    }),
                    _ => Err(bad(
                        &name,
                        "a dependency {object: key} must map strings".into(),
                    )),
                })
                .collect::<Result<_, _>>()?,
            _ => {
                return Err(bad(
                    &name,
                    "a dependency must be a state key or {object: key}".into(),
                ))
            }
        };
        targets
            .into_iter()
            .map(|(o, k)| {
                completes
                    .get(&(o, k.as_str()))
                    .map(|&at| action_name(&planned[at]))
                    .ok_or_else(|| {
                        bad(
                            &name,
                            format!(
                                "a dependency names \"{k}\" of {}, which no action completes",
                                names[o]
                            ),
                        )
                    })
            })
            .collect()
    };
    let mut actions = Vec::new();
    for p in &planned {
        let deps_of = |owner: usize, key: &str| -> Result<Vec<String>, LoadError> {
            match depends.get(&(owner, key)) {
                Some(v) => resolve(owner, v),
                None => Ok(Vec::new()),
            }
        };
        let mut dependencies = deps_of(p.subject, &p.key)?;
        if let Some(c) = p.container {
            let role = format!("{}_2", p.key.strip_suffix("_1").unwrap_or(&p.key));
            dependencies.extend(deps_of(c, &role)?);
        }
        // The environment keeps them as a set; the extraction lists them sorted.
        dependencies.sort();
        dependencies.dedup();
        let pool = p.container.map(base_of).filter(|b| POOLS.contains(b));
        let graph_text = match pool {
            Some(kind) => text_of(p, Some(kind)),
            None => action_name(p),
        };
        let mut held = vec![names[p.subject].clone()];
        held.extend(p.container.map(|c| names[c].clone()));
        actions.push(Action {
            name: action_name(p),
            dependencygraph_name: if p.verb.1 {
                graph_text
            } else {
                format!("{graph_text}*")
            },
            duration: p.duration,
            occupies_agent: p.verb.1,
            _kind: IgnoredAny,
            subject: names[p.subject].clone(),
            todo_key: p.key.clone(),
            container: p.container.map(|c| names[c].clone()),
            container_pool: pool.map(str::to_string),
            env_allowed_containers: p.allowed.iter().map(|&c| names[c].clone()).collect(),
            _objects: IgnoredAny,
            objects_held_while_running: held,
            dependencies,
            _marks_occupied: IgnoredAny,
            _name_template: pool.map(|_| IgnoredAny),
        });
    }
    let objects: Vec<Object> = module
        .objects
        .iter()
        .enumerate()
        .map(|(i, (_, todo, _))| Object {
            name: names[i].clone(),
            _initial_state: IgnoredAny,
            todo: todo.iter().cloned().collect(),
            _dependency_raw: IgnoredAny,
        })
        .collect();
    Ok(Task {
        // Saturating: minutes near 2^63 are refused later, by the instance's magnitude check.
        total_action_time: objects
            .iter()
            .flat_map(|o| o.todo.values())
            .fold(0i64, |sum, &m| sum.saturating_add(m)),
        name,
        scenario,
        description,
        pools,
        objects,
        actions,
        _action_space: IgnoredAny,
        _instruction: IgnoredAny,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "class lab0:\n    def __init__(self):\n        self.name = 'Heat it.'\n    def add_actions(self):\n        self.actions = [MetaAction('heat','heat OBJ',False), MetaAction('wash','wash OBJ',True)]\n    def add_objects(self):\n        self.objects = [\n            MetaObject(\"beaker\",{\"wash\":1,\"heat\":5}, {\"heat\":\"wash\"}) # a comment\n        ]\n";

    #[test]
    fn a_module_becomes_a_task_with_its_actions_and_dependencies() {
        let task = derive(
            Path::new("lab0.py"),
            &read_module(Path::new("lab0.py"), MODULE).unwrap(),
        )
        .unwrap();
        assert_eq!(
            (
                task.name.as_str(),
                task.scenario.as_str(),
                task.description.as_str()
            ),
            ("lab0", "lab", "Heat it.")
        );
        let names: Vec<&str> = task.actions.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["wash beaker", "heat beaker"]);
        assert_eq!(task.actions[1].dependencies, ["wash beaker"]);
        assert_eq!(task.actions[1].dependencygraph_name, "heat beaker*");
        assert_eq!(task.total_action_time, 6);
    }

    #[test]
    fn anything_but_a_literal_is_an_error_naming_the_line_never_evaluated() {
        let text = MODULE.replace("{\"wash\":1,\"heat\":5}", "todo()");
        let err = read_module(Path::new("lab0.py"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("lab0.py: line 8: `todo` is not a literal"),
            "{err}"
        );
        let err = read_module(Path::new("lab0.py"), "MetaAction('heat', 'heat OBJ')")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 1") && err.contains("(name, usage, occupy)"),
            "{err}"
        );
    }

    /// 2^64 was cut to its first 12 digits, and minutes near 2^63 overflowed the sum of a
    /// task's minutes (a panic in a debug build).
    #[test]
    fn huge_minutes_are_quoted_whole_and_never_overflow() {
        let text = MODULE.replace("\"wash\":1", "\"wash\":18446744073709551616");
        let err = read_module(Path::new("lab0.py"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the integer 18446744073709551616 (20 digits)"),
            "{err}"
        );
        let text = MODULE.replace("\"wash\":1", "\"wash\":9223372036854775807");
        let module = read_module(Path::new("lab0.py"), &text).unwrap();
        let task = derive(Path::new("lab0.py"), &module).unwrap();
        assert_eq!(task.total_action_time, i64::MAX);
    }

    /// 50,000 levels in 100 KB overflowed the stack while reading (and again while dropping
    /// what was read): the depth is refused at the `[` that passes the limit.
    #[test]
    fn deep_nesting_is_refused_as_it_is_read() {
        let n = 50_000;
        let deep = format!(
            "class lab0:\n  MetaObject('a', {{'x': 1}}, {{'x': {}{}}})\n",
            "[".repeat(n),
            "]".repeat(n)
        );
        let err = read_module(Path::new("lab0.py"), &deep)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("lab0.py: line 2: dicts and lists nest deeper than 32 levels"),
            "{err}"
        );
        let fits = MODULE.replace(
            "{\"heat\":\"wash\"}",
            &format!("{{\"heat\":{}\"wash\"{}}}", "[".repeat(30), "]".repeat(30)),
        );
        assert!(read_module(Path::new("lab0.py"), &fits).is_ok());
    }

    #[test]
    fn an_integer_beyond_64_bits_is_named_as_one() {
        let text = MODULE.replace("\"wash\":1", &format!("\"wash\":{}", "9".repeat(100_000)));
        let err = read_module(Path::new("lab0.py"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!(
                "line 8: the integer {}… (100000 digits) is beyond 64 bits",
                "9".repeat(40)
            )),
            "{err}"
        );
    }

    /// Each `…_1` key scanned every object for its `…_2`, and each dependency every action:
    /// 40,000 objects took over a minute. Indexed, they take well under a second.
    #[test]
    fn deriving_a_task_is_linear_in_its_objects() {
        let n = 40_000;
        let mut text = String::from(
            "class cooking0:\n  self.name = 'Cut.'\n  MetaAction('cut in', 'cut OBJ in OBJ', True)\n  MetaObject('board', {'cut_in_2': 0}, {})\n",
        );
        for i in 1..n {
            let dep = if i > 1 {
                format!("{{'cut_in_1': {{'o{}': 'cut_in_1'}}}}", i - 1)
            } else {
                "{}".into()
            };
            text.push_str(&format!("  MetaObject('o{i}', {{'cut_in_1': 1}}, {dep})\n"));
        }
        let started = std::time::Instant::now();
        let path = Path::new("cooking0.py");
        let task = derive(path, &read_module(path, &text).unwrap()).unwrap();
        let took = started.elapsed();
        assert_eq!(task.actions.len(), n - 1);
        assert_eq!(task.actions[5].dependencies, ["cut o5 in board"]);
        assert!(took.as_secs() < 10, "{took:?}");
    }

    /// n objects with a container role make n² possible containers: refused by count.
    #[test]
    fn container_lists_are_counted_before_they_are_built() {
        let mut text = String::from(
            "class cooking0:\n  self.name = 'Cut.'\n  MetaAction('cut in', 'cut OBJ in OBJ', True)\n",
        );
        for i in 0..400 {
            text.push_str(&format!(
                "  MetaObject('o{i}', {{'cut_in_1': 1, 'cut_in_2': 0}}, {{}})\n"
            ));
        }
        let path = Path::new("cooking0.py");
        let err = derive(path, &read_module(path, &text).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("160000 possible containers in all, over the limit of 100000"),
            "{err}"
        );
    }
}
