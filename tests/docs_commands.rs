//! The README and the pages under `docs/` kept honest: their commands, their links, their
//! code excerpts and the crate map.
//!
//! The shell blocks of every page (fenced code blocks whose info string starts with `sh`)
//! are read as commands, one per line (a trailing `\` continues a line; `#` starts a
//! comment; `&&`, `||`, `|` and `;` separate commands; `NAME=value` sets a variable for the
//! lines below it; `{a,b}` expands). The info string after `sh` says how far each block is
//! checked:
//!
//! - ```` ```sh ````: commands that work as written, from the repository root. Every
//!   `makespan SUBCOMMAND` must exist and every flag of it must be listed by
//!   `makespan SUBCOMMAND --help`. Every file a command reads (a relative path, or the value
//!   of `--instance`, `--solution`, `--baseline`, `--optima`, `--data`, `--compare`) must
//!   exist relative to the repository root. Exempt: paths under `../shared/` where that data
//!   is absent (skipped, with a line in the skip log), `solutions/` and absolute paths
//!   (outputs), and whatever an earlier command of the same page writes (`--out`, `-o`,
//!   `--json FILE`, `--html`, `--export-lp`, `--solutions`, `> FILE`). For other programs,
//!   paths into the repository's own top-level folders must exist, and `cargo bench --bench
//!   NAME` needs `benches/NAME.rs`.
//! - ```` ```sh illustrative ````: commands with placeholders (`RUN`, `DIR`, `answer.json`, a
//!   checkout such as `ParaCook/`): only the subcommands and flags are checked.
//! - ```` ```sh run ````: checked as `sh`, then run end to end, in page order, each command
//!   fast (well under a second). Outputs go to a temporary folder (`solutions/…` and the
//!   output flags' values are moved there, and moved back in what is printed). A command
//!   must not fail to start (exit code 2: an input could not be read) or crash; 1 (rules
//!   broken) and 3 (entries not scored) are what some examples show. When a ```` ```text ````
//!   block follows, it is their standard output: its lines must appear in order, and
//!   consecutively unless a line `…` stands between them (a `…` first or last leaves the
//!   start or the end open). Decimal numbers (timings) are not compared. A block that needs
//!   absent data is skipped, with a line in the skip log.
//!
//! A ```` ```rust from=PATH ```` block must be a verbatim excerpt of `PATH`. Every local
//! markdown link must resolve (the file, and a `#heading` in a markdown file), and
//! `docs/index.md` must link every page of `docs/`. `docs/crate-map.svg` must be what
//! `cargo metadata` draws now (`MAKESPAN_BLESS=1` redraws it), `docs/architecture.md` must
//! name every workspace crate, and the crates it says build without HiGHS must not depend
//! on it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates the architecture page says build without HiGHS.
const WITHOUT_HIGHS: &[&str] = &[
    "makespan-model",
    "makespan-verify",
    "makespan-benchmarks",
    "makespan-explain",
    "makespan-world",
    "makespan-certify-check",
];

/// Flags whose value is a file or folder a command reads.
const INPUT_FLAGS: &[&str] = &[
    "--instance",
    "--solution",
    "--baseline",
    "--optima",
    "--data",
    "--compare",
];

/// Flags whose value is a file or folder a command writes.
const OUTPUT_FLAGS: &[&str] = &[
    "--out",
    "-o",
    "--output",
    "--json",
    "--html",
    "--export-lp",
    "--solutions",
];

/// File endings that make a positional argument a path even without a `/`.
const FILE_ENDINGS: &[&str] = &[
    ".json", ".txt", ".csv", ".sm", ".sch", ".jss", ".pkl", ".html", ".svg", ".lp", ".gz",
];

// ---------------------------------------------------------------------------------------
// The pages and their blocks

/// How far a shell block is checked (see the module docs).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Checked,
    Illustrative,
    Run,
}

/// One fenced code block of a page.
struct Block {
    /// The info string after the fence, e.g. `sh run`.
    info: String,
    /// The first line of the block's content, 1-based, for messages.
    line: usize,
    /// The line of its closing fence.
    end: usize,
    text: String,
}

impl Block {
    fn shell(&self) -> Option<Kind> {
        let mut words = self.info.split_whitespace();
        if !matches!(words.next(), Some("sh" | "bash" | "shell")) {
            return None;
        }
        Some(match words.next() {
            None => Kind::Checked,
            Some("illustrative") => Kind::Illustrative,
            Some("run") => Kind::Run,
            Some(other) => {
                panic!("unknown shell block marker `{other}` (see tests/docs_commands.rs)")
            }
        })
    }
}

/// A markdown page: its path relative to the repository root, its blocks and the lines
/// outside them.
struct Page {
    path: String,
    blocks: Vec<Block>,
    /// Lines outside code blocks, with their 1-based numbers.
    prose: Vec<(usize, String)>,
}

fn page(path: &str) -> Page {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    // The open block: its fence, info string, first content line and indentation.
    let mut open: Option<(String, String, usize, usize)> = None;
    let mut content = String::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let Some((fence, info, start, fence_indent)) = open.take() else {
            // A fence's info string holds no backtick (CommonMark), so ```` ```x ```` is code.
            let opening = trimmed
                .strip_prefix("```")
                .map(|rest| (rest, rest.trim_start_matches('`')))
                .filter(|(_, info)| !info.contains('`'));
            if let Some((rest, info)) = opening {
                let fence = "`".repeat(3 + rest.len() - info.len());
                open = Some((fence, info.trim().to_string(), i + 2, indent));
                content.clear();
            } else {
                prose.push((i + 1, line.to_string()));
            }
            continue;
        };
        if trimmed.starts_with(fence.as_str()) && trimmed.trim_matches('`').is_empty() {
            blocks.push(Block {
                info,
                line: start,
                end: i + 1,
                text: std::mem::take(&mut content),
            });
        } else {
            content.push_str(&line[indent.min(fence_indent)..]);
            content.push('\n');
            open = Some((fence, info, start, fence_indent));
        }
    }
    assert!(open.is_none(), "{path}: a code block is not closed");
    Page {
        path: path.to_string(),
        blocks,
        prose,
    }
}

/// The README and every markdown page under `docs/`, in a stable order.
fn pages() -> Vec<Page> {
    let mut paths = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.to_str().unwrap().replace('\\', "/"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths.iter().map(|p| page(p)).collect()
}

// ---------------------------------------------------------------------------------------
// Shell commands

/// The commands of a shell block, each a list of words, after continuation lines,
/// comments, variables and braces; redirection targets are collected apart.
fn commands(block: &str, vars: &mut HashMap<String, String>) -> Vec<(Vec<String>, Vec<String>)> {
    let mut lines = Vec::new();
    let mut pending = String::new();
    for line in block.lines() {
        if let Some(head) = line.trim_end().strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
        } else {
            pending.push_str(line);
            lines.push(std::mem::take(&mut pending));
        }
    }
    if !pending.is_empty() {
        lines.push(pending);
    }
    let mut out = Vec::new();
    for line in lines {
        for words in split_line(&line) {
            let mut words: Vec<String> = words
                .into_iter()
                .flat_map(|w| expand_braces(&expand_vars(&w, vars)))
                .collect();
            // Leading assignments set variables for the lines below.
            while let Some((name, value)) = words.first().and_then(|w| w.split_once('=')) {
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    break;
                }
                if !value.contains("$(") {
                    vars.insert(name.to_string(), value.to_string());
                }
                words.remove(0);
            }
            let mut redirects = Vec::new();
            let mut kept = Vec::new();
            let mut iter = words.into_iter();
            while let Some(w) = iter.next() {
                if matches!(w.as_str(), ">" | ">>" | "2>" | "<") {
                    if let Some(target) = iter.next() {
                        redirects.push(target);
                    }
                } else {
                    kept.push(w);
                }
            }
            if !kept.is_empty() || !redirects.is_empty() {
                out.push((kept, redirects));
            }
        }
    }
    out
}

/// Splits one line into commands of words: quotes group, `#` at a word's start ends the
/// line, `&&`, `||`, `|` and `;` end a command, `>`, `>>`, `2>` and `<` are words of their own.
fn split_line(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut String, in_word: &mut bool, commands: &mut Vec<Vec<String>>| {
        if *in_word {
            commands.last_mut().unwrap().push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '#' if !in_word => break,
            ' ' | '\t' => end_word(&mut word, &mut in_word, &mut commands),
            '&' | '|' | ';' => {
                end_word(&mut word, &mut in_word, &mut commands);
                if matches!(chars.peek(), Some('&' | '|')) {
                    chars.next();
                }
                commands.push(Vec::new());
            }
            '>' | '<' => {
                let mut op = if word == "2" && in_word {
                    word.clear();
                    in_word = false;
                    "2".to_string()
                } else {
                    end_word(&mut word, &mut in_word, &mut commands);
                    String::new()
                };
                op.push(c);
                if c == '>' && chars.peek() == Some(&'>') {
                    op.push(chars.next().unwrap());
                }
                commands.last_mut().unwrap().push(op);
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut commands);
    commands.retain(|c| !c.is_empty());
    commands
}

/// `$NAME` and `${NAME}` replaced where the block set them; others are left as they are.
fn expand_vars(word: &str, vars: &HashMap<String, String>) -> String {
    let mut out = word.to_string();
    for (name, value) in vars {
        out = out
            .replace(&format!("${{{name}}}"), value)
            .replace(&format!("${name}/"), &format!("{value}/"));
        if out == format!("${name}") {
            out = value.clone();
        }
    }
    out
}

/// `a{1,2}b` → `a1b`, `a2b` (one level, as the pages use it).
fn expand_braces(word: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (word.find('{'), word.find('}')) else {
        return vec![word.to_string()];
    };
    if close < open || word.contains('$') || !word[open..close].contains(',') {
        return vec![word.to_string()];
    }
    word[open + 1..close]
        .split(',')
        .map(|part| format!("{}{part}{}", &word[..open], &word[close + 1..]))
        .collect()
}

/// What `makespan SUB --help` lists: each flag, and whether it takes a value.
struct Help {
    flags: HashMap<String, bool>,
    /// Sub-subcommands (`generate asynctool`), when the subcommand has them.
    commands: BTreeSet<String>,
}

fn help(binary: &str, words: &[&str], cache: &mut HashMap<String, Option<Help>>) -> bool {
    let key = words.join(" ");
    if cache.contains_key(&key) {
        return cache[&key].is_some();
    }
    let run = Command::new(binary)
        .args(words)
        .arg("--help")
        .output()
        .expect("the binary runs");
    let parsed = run.status.success().then(|| {
        let text = String::from_utf8_lossy(&run.stdout);
        let mut flags = HashMap::new();
        let mut commands = BTreeSet::new();
        let mut in_commands = false;
        for line in text.lines() {
            if line.starts_with("Commands:") {
                in_commands = true;
                continue;
            }
            if !line.starts_with(' ') {
                in_commands = false;
            }
            let trimmed = line.trim_start();
            if in_commands {
                if let Some(name) = trimmed.split_whitespace().next() {
                    commands.insert(name.to_string());
                }
                continue;
            }
            if !trimmed.starts_with('-') {
                continue;
            }
            // `-o, --output <FILE>  Description`: the flags, then a value if one is named.
            let head = trimmed.split("  ").next().unwrap_or_default();
            let value = head.contains('<');
            for part in head.split(", ") {
                let Some(flag) = part
                    .split_whitespace()
                    .next()
                    .filter(|f| f.starts_with('-'))
                else {
                    break;
                };
                flags.insert(flag.to_string(), value);
            }
        }
        Help { flags, commands }
    });
    let ok = parsed.is_some();
    cache.insert(key, parsed);
    ok
}

/// A word that names a file or folder.
fn looks_like_path(word: &str) -> bool {
    !word.starts_with('-')
        && !word.contains("://")
        && !word.contains(':')
        && (word.contains('/') || FILE_ENDINGS.iter().any(|e| word.ends_with(e)))
}

/// One `makespan` command, taken apart.
#[derive(Default)]
struct Parsed {
    /// Files and folders it reads.
    inputs: Vec<String>,
    /// Files and folders it writes (output flags' values).
    outputs: Vec<String>,
    problems: Vec<String>,
}

fn parse_makespan(
    binary: &str,
    words: &[String],
    cache: &mut HashMap<String, Option<Help>>,
) -> Parsed {
    let mut parsed = Parsed::default();
    let Some(sub) = words.get(1) else {
        parsed
            .problems
            .push("`makespan` without a subcommand".into());
        return parsed;
    };
    let mut path = vec![sub.as_str()];
    if !help(binary, &path, cache) {
        parsed
            .problems
            .push(format!("no subcommand `makespan {sub}`"));
        return parsed;
    }
    let mut rest = 2;
    if let Some(next) = words.get(2) {
        if cache[sub.as_str()]
            .as_ref()
            .unwrap()
            .commands
            .contains(next)
        {
            path.push(next);
            rest = 3;
            if !help(binary, &path, cache) {
                parsed
                    .problems
                    .push(format!("no subcommand `makespan {sub} {next}`"));
                return parsed;
            }
        }
    }
    let key = path.join(" ");
    let help = cache[&key].as_ref().unwrap();
    let mut i = rest;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        if word.starts_with('-') && word.len() > 1 {
            let (flag, inline) = match word.split_once('=') {
                Some((f, v)) => (f, Some(v.to_string())),
                None => (word.as_str(), None),
            };
            let Some(&takes_value) = help.flags.get(flag) else {
                parsed
                    .problems
                    .push(format!("`makespan {key}` has no flag `{flag}`"));
                continue;
            };
            if !takes_value {
                continue;
            }
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    words.get(i - 1).cloned().unwrap_or_default()
                }
            };
            if OUTPUT_FLAGS.contains(&flag) {
                if value != "-" {
                    parsed.outputs.push(value);
                }
            } else if INPUT_FLAGS.contains(&flag) {
                let file = value.split('#').next().unwrap_or_default().to_string();
                if !value.contains(':') && !file.is_empty() {
                    parsed.inputs.push(file);
                }
            }
        } else if looks_like_path(word) {
            parsed.inputs.push(word.clone());
        }
    }
    parsed
}

/// Why a path a command reads is fine, or `Err` with the problem.
enum Found {
    Yes,
    /// An output, a placeholder or a pattern: nothing to check.
    NotChecked,
    /// Benchmark data that is not on this machine.
    Absent,
}

fn find(path: &str, produced: &[String]) -> Result<Found, String> {
    let clean = path.strip_prefix("./").unwrap_or(path);
    if clean.contains('$') || clean.contains('*') || clean.contains('?') {
        return Ok(Found::NotChecked);
    }
    if clean == "solutions" || clean.starts_with("solutions/") || Path::new(clean).is_absolute() {
        return Ok(Found::NotChecked);
    }
    if produced.iter().any(|p| {
        let p = p.trim_end_matches('/');
        clean == p || clean.starts_with(&format!("{p}/"))
    }) {
        return Ok(Found::NotChecked);
    }
    if Path::new(clean).exists() {
        return Ok(Found::Yes);
    }
    if clean.starts_with("../shared/") {
        return Ok(Found::Absent);
    }
    Err(format!("`{path}` does not exist"))
}

/// The repository's top-level entries (`scripts`, `python`, …): a word of another program
/// that starts with one of them is a path into the repository.
fn top_level() -> BTreeSet<String> {
    std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| !n.starts_with('.') && n != "target" && n != "solutions")
        .collect()
}

/// Every shell block of every page, parsed and checked; the problems found, each with its
/// page and line.
fn check_commands(binary: &str) -> Vec<String> {
    let mut cache = HashMap::new();
    let mut problems = Vec::new();
    let roots = top_level();
    let mut absent = BTreeSet::new();
    for page in pages() {
        let mut vars = HashMap::new();
        let mut produced: Vec<String> = Vec::new();
        for block in &page.blocks {
            let Some(kind) = block.shell() else { continue };
            let at = format!("{}:{}", page.path, block.line);
            for (words, redirects) in commands(&block.text, &mut vars) {
                produced.extend(redirects);
                let Some(program) = words.first() else {
                    continue;
                };
                let mut inputs = Vec::new();
                if program == "makespan" {
                    let parsed = parse_makespan(binary, &words, &mut cache);
                    problems.extend(parsed.problems.iter().map(|p| format!("{at}: {p}")));
                    produced.extend(parsed.outputs);
                    inputs = parsed.inputs;
                } else if program == "cargo" {
                    if let Some(i) = words.iter().position(|w| w == "--bench") {
                        let bench = words.get(i + 1).cloned().unwrap_or_default();
                        if !Path::new(&format!("benches/{bench}.rs")).exists() {
                            problems.push(format!("{at}: no bench `{bench}` (benches/{bench}.rs)"));
                        }
                    }
                } else {
                    inputs = words
                        .iter()
                        .filter(|word| {
                            let w = word.strip_prefix("./").unwrap_or(word);
                            w.split('/')
                                .next()
                                .is_some_and(|first| roots.contains(first))
                                && (w.contains('/') || words[0] == **word)
                        })
                        .cloned()
                        .collect();
                }
                if kind == Kind::Illustrative {
                    continue;
                }
                for input in inputs {
                    match find(&input, &produced) {
                        Ok(Found::Absent) => {
                            absent.insert(input);
                        }
                        Ok(_) => {}
                        Err(problem) => problems.push(format!("{at}: {problem}")),
                    }
                }
            }
        }
    }
    for path in absent {
        makespan_testkit::skip(&format!(
            "{path} is not there: its commands' paths are not checked"
        ));
    }
    problems
}

#[test]
fn docs_commands_use_real_subcommands_flags_and_files() {
    let problems = check_commands(env!("CARGO_BIN_EXE_makespan"));
    assert!(
        problems.is_empty(),
        "commands in the README or docs/ that do not work as written:\n{}",
        problems.join("\n")
    );
}

#[test]
fn docs_commands_reject_what_does_not_exist() {
    let binary = env!("CARGO_BIN_EXE_makespan");
    let mut cache = HashMap::new();
    let mut vars = HashMap::new();
    let text = "makespan solve instances/ --out x --agents 2 --no-such-flag\n\
                makespan frobnicate a.json\n\
                makespan generate asynctool --chains 2 --length 3 --out y\n";
    let problems: Vec<String> = commands(text, &mut vars)
        .into_iter()
        .flat_map(|(words, _)| parse_makespan(binary, &words, &mut cache).problems)
        .collect();
    assert_eq!(
        problems,
        [
            "`makespan solve` has no flag `--no-such-flag`",
            "no subcommand `makespan frobnicate`"
        ]
    );
    assert!(find("instances/no-such-file.json", &[]).is_err());
    assert!(matches!(
        find("instances/two-cooks-breakfast.json", &[]),
        Ok(Found::Yes)
    ));
    assert!(matches!(
        find("out/a.json", &["out".into()]),
        Ok(Found::NotChecked)
    ));
}

#[test]
fn docs_shell_words_split_like_a_shell() {
    let mut vars = HashMap::new();
    let block = "V=../shared/x\nmakespan validate $V/la0{1,2}.jss \\\n    --optima \"$V/t.csv\" # comment\n\
                 echo '[\"a b\"]' > turns.json && makespan verify turns.json\n";
    let got = commands(block, &mut vars);
    let words: Vec<Vec<String>> = got.iter().map(|(w, _)| w.clone()).collect();
    assert_eq!(
        words,
        [
            vec![
                "makespan",
                "validate",
                "../shared/x/la01.jss",
                "../shared/x/la02.jss",
                "--optima",
                "../shared/x/t.csv"
            ],
            vec!["echo", "[\"a b\"]"],
            vec!["makespan", "verify", "turns.json"],
        ]
    );
    assert_eq!(got[1].1, ["turns.json"]);
}

// ---------------------------------------------------------------------------------------
// Running the `sh run` blocks

/// Where a run block's outputs go: relative paths under `rel/`, absolute ones under `abs`.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn rel(&self) -> String {
        format!("{}/rel/", self.dir.path().display())
    }
    fn abs(&self) -> String {
        format!("{}/abs", self.dir.path().display())
    }
    fn map(&self, path: &str) -> String {
        if Path::new(path).is_absolute() {
            format!("{}{path}", self.abs())
        } else {
            format!("{}{}", self.rel(), path.strip_prefix("./").unwrap_or(path))
        }
    }
    fn unmap(&self, text: &str) -> String {
        text.replace(&self.rel(), "").replace(&self.abs(), "")
    }
}

/// `12.345` → `#.#`, so timings do not count.
fn mask_decimals(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                out.push_str("#.#");
            } else {
                out.extend(&chars[start..i]);
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out.trim_end().to_string()
}

/// Whether `shown` (a page's text block) is what was `printed`, by the rules of the module
/// docs; `Err` names the first line that is not.
fn matches_output(shown: &str, printed: &str) -> Result<(), String> {
    let printed: Vec<String> = printed.lines().map(mask_decimals).collect();
    let lines: Vec<&str> = shown.lines().collect();
    let mut segments: Vec<Vec<String>> = vec![Vec::new()];
    for line in &lines {
        if line.trim() == "…" {
            segments.push(Vec::new());
        } else {
            segments.last_mut().unwrap().push(mask_decimals(line));
        }
    }
    let open_start = lines.first().is_some_and(|l| l.trim() == "…");
    let open_end = lines.last().is_some_and(|l| l.trim() == "…");
    let count = segments.len();
    let mut at = 0;
    for (k, segment) in segments.iter().enumerate() {
        if segment.is_empty() {
            continue;
        }
        let fits = |from: usize| {
            from + segment.len() <= printed.len()
                && printed[from..from + segment.len()] == segment[..]
        };
        let found = if k == 0 && !open_start {
            fits(0).then_some(0)
        } else {
            (at..=printed.len().saturating_sub(segment.len())).find(|&f| fits(f))
        };
        let Some(from) = found else {
            return Err(format!("not printed, in this order: {segment:#?}"));
        };
        at = from + segment.len();
        if k == count - 1 && !open_end && at != printed.len() {
            return Err(format!(
                "printed more after {:?}: {:#?}",
                segment.last(),
                &printed[at..]
            ));
        }
    }
    Ok(())
}

#[test]
fn docs_output_matching_follows_the_rules() {
    let printed = "a 0.013 s\nb\nc\nd\n";
    assert!(matches_output("a 9.9 s\nb\nc\nd\n", printed).is_ok());
    assert!(matches_output("a 1.0 s\n…\nd\n", printed).is_ok());
    assert!(matches_output("…\nc\n…\n", printed).is_ok());
    assert!(
        matches_output("a 1.0 s\nc\n", printed).is_err(),
        "not consecutive"
    );
    assert!(
        matches_output("b\n…\n", printed).is_err(),
        "does not start there"
    );
    assert!(
        matches_output("a 1.0 s\nb\n", printed).is_err(),
        "more was printed"
    );
}

#[test]
fn docs_run_blocks_print_what_the_pages_show() {
    let binary = env!("CARGO_BIN_EXE_makespan");
    let mut cache = HashMap::new();
    let mut problems = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let sandbox = Sandbox {
            dir: tempfile::tempdir().unwrap(),
        };
        let mut vars = HashMap::new();
        let mut produced: Vec<String> = Vec::new();
        for (b, block) in page.blocks.iter().enumerate() {
            let kind = block.shell();
            let cmds = match kind {
                Some(Kind::Run) => commands(&block.text, &mut vars),
                Some(_) => {
                    // Other blocks still set variables and write files later blocks read.
                    for (words, redirects) in commands(&block.text, &mut vars) {
                        produced.extend(redirects);
                        if words.first().is_some_and(|w| w == "makespan") {
                            produced.extend(parse_makespan(binary, &words, &mut cache).outputs);
                        }
                    }
                    continue;
                }
                None => continue,
            };
            let at = format!("{}:{}", page.path, block.line);
            let parsed: Vec<(Vec<String>, Parsed)> = cmds
                .into_iter()
                .filter(|(words, _)| words.first().is_some_and(|w| w == "makespan"))
                .map(|(words, _)| {
                    let p = parse_makespan(binary, &words, &mut cache);
                    (words, p)
                })
                .collect();
            let missing: Vec<&String> = parsed
                .iter()
                .flat_map(|(_, p)| &p.inputs)
                .filter(|i| i.starts_with("../shared/") && !Path::new(i.as_str()).exists())
                .collect();
            if let Some(path) = missing.first() {
                makespan_testkit::skip(&format!("{at} not run: {path} is not there"));
                continue;
            }
            let mut printed = String::new();
            for (words, p) in &parsed {
                let outputs: BTreeSet<&str> = p.outputs.iter().map(String::as_str).collect();
                let inputs_produced = |w: &str| {
                    matches!(find(w, &produced), Ok(Found::NotChecked))
                        && !w.contains('$')
                        && !Path::new(w).is_absolute()
                };
                let args: Vec<String> = words[1..]
                    .iter()
                    .map(|w| {
                        if outputs.contains(w.as_str())
                            || (looks_like_path(w) && inputs_produced(w))
                        {
                            sandbox.map(w)
                        } else {
                            w.clone()
                        }
                    })
                    .collect();
                for out in &p.outputs {
                    let mapped = sandbox.map(out);
                    if let Some(parent) = Path::new(&mapped).parent() {
                        std::fs::create_dir_all(parent).unwrap();
                    }
                }
                let started = std::time::Instant::now();
                let run = Command::new(binary)
                    .args(&args)
                    .output()
                    .expect("the binary runs");
                let seconds = started.elapsed().as_secs_f64();
                eprintln!("{at}: {:.2} s: makespan {}", seconds, words[1..].join(" "));
                ran += 1;
                let code = run.status.code();
                if !matches!(code, Some(0 | 1 | 3)) {
                    problems.push(format!(
                        "{at}: `makespan {}` ended with {code:?}:\n{}",
                        words[1..].join(" "),
                        sandbox.unmap(&String::from_utf8_lossy(&run.stderr))
                    ));
                }
                printed.push_str(&sandbox.unmap(&String::from_utf8_lossy(&run.stdout)));
                produced.extend(p.outputs.iter().cloned());
            }
            let next = page.blocks.get(b + 1);
            if let Some(next) = next.filter(|n| n.info == "text" && n.line <= block.end + 3) {
                if let Err(why) = matches_output(&next.text, &printed) {
                    problems.push(format!(
                        "{}:{}: the output shown is not what the commands print now ({why}); they print:\n{printed}",
                        page.path, next.line
                    ));
                }
            }
        }
    }
    eprintln!("{ran} documented commands run");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

// ---------------------------------------------------------------------------------------
// Links, the index, excerpts, the README's length

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(page: &Page) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in &page.prose {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// Every `[text](target)` in a page's prose, with its line.
fn links(page: &Page) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in &page.prose {
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((*n, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn docs_links_resolve_and_the_index_lists_every_page() {
    let all = pages();
    let by_path: HashMap<&str, &Page> = all.iter().map(|p| (p.path.as_str(), p)).collect();
    let mut problems = Vec::new();
    for page in &all {
        let dir = Path::new(&page.path).parent().unwrap();
        for (line, target) in links(page) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                PathBuf::from(&page.path)
            } else {
                normalize(&dir.join(file))
            };
            let key = resolved.to_str().unwrap().replace('\\', "/");
            if !resolved.exists() {
                problems.push(format!("{}:{line}: `{target}`: no such file", page.path));
                continue;
            }
            if let (Some(anchor), Some(target_page)) = (anchor, by_path.get(key.as_str())) {
                if !anchors(target_page).contains(anchor) {
                    problems.push(format!(
                        "{}:{line}: `{target}`: no heading #{anchor} in {key}",
                        page.path
                    ));
                }
            }
        }
    }
    let index = by_path["docs/index.md"];
    let listed: BTreeSet<String> = links(index).into_iter().map(|(_, t)| t).collect();
    for page in &all {
        let Some(name) = page.path.strip_prefix("docs/") else {
            continue;
        };
        if name != "index.md" && !listed.contains(name) {
            problems.push(format!("docs/index.md does not list {name}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `a/b/../c` → `a/c` (without touching the file system, so missing files stay missing).
fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.last().is_some_and(|p| p != "..") => {
                out.pop();
            }
            other => out.push(other.as_os_str().to_string_lossy().to_string()),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[test]
fn docs_rust_excerpts_are_verbatim_copies_of_their_files() {
    let mut problems = Vec::new();
    for page in pages() {
        for block in &page.blocks {
            let Some(source) = block
                .info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("from="))
            else {
                continue;
            };
            match std::fs::read_to_string(source) {
                Ok(text) if text.contains(&block.text) => {}
                Ok(_) => problems.push(format!(
                    "{}:{}: the excerpt is no longer in {source}: copy it again",
                    page.path, block.line
                )),
                Err(e) => problems.push(format!("{}:{}: {source}: {e}", page.path, block.line)),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn readme_is_short_and_starts_with_the_two_set_up_commands() {
    let readme = page("README.md");
    let lines = std::fs::read_to_string("README.md")
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= 250,
        "the README has {lines} lines; move detail to docs/"
    );
    let first = &readme.blocks[0];
    let commands: Vec<&str> = first
        .text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    assert_eq!(commands.len(), 2, "{}", first.text);
    assert!(commands[0].ends_with("makespan solve instances/ --out solutions/"));
    assert!(commands[1].ends_with("scripts/test"));
}

// ---------------------------------------------------------------------------------------
// The crate map

/// A workspace crate as `cargo metadata` lists it.
struct Crate {
    name: String,
    /// Where its sources are, relative to the workspace root.
    folder: String,
    /// Workspace crates it depends on: (name, for tests only).
    deps: Vec<(String, bool)>,
    /// Whether it depends on HiGHS directly.
    highs: bool,
}

fn workspace_crates() -> Vec<Crate> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .output()
        .expect("cargo metadata runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let root = meta["workspace_root"].as_str().unwrap().to_string();
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let packages: Vec<&serde_json::Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| members.contains(p["id"].as_str().unwrap()))
        .collect();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let relative = |path: &str| {
        let path = path.replace('\\', "/");
        let root = root.replace('\\', "/");
        path.strip_prefix(&root)
            .unwrap_or(&path)
            .trim_start_matches('/')
            .to_string()
    };
    let mut crates: Vec<Crate> = packages
        .iter()
        .map(|p| {
            let manifest = relative(p["manifest_path"].as_str().unwrap());
            let mut folder = manifest
                .trim_end_matches("Cargo.toml")
                .trim_end_matches('/')
                .to_string();
            if folder.is_empty() {
                // The root package: name the folder of its binary's sources.
                let bin = p["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"));
                if let Some(bin) = bin {
                    let src = relative(bin["src_path"].as_str().unwrap());
                    folder = src
                        .rsplit_once('/')
                        .map_or(src.clone(), |(d, _)| d.to_string());
                }
            }
            let mut deps: Vec<(String, bool)> = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                // A crate's dev-dependency on itself (the solver's test-only feature) is no edge.
                .filter(|d| names.contains(d["name"].as_str().unwrap()) && d["name"] != p["name"])
                .map(|d| (d["name"].as_str().unwrap().to_string(), d["kind"] == "dev"))
                .collect();
            deps.sort();
            deps.dedup_by(|a, b| {
                a.0 == b.0 && {
                    b.1 &= a.1;
                    true
                }
            });
            let highs = p["dependencies"].as_array().unwrap().iter().any(|d| {
                d["kind"] != "dev" && matches!(d["name"].as_str(), Some("highs" | "highs-sys"))
            });
            Crate {
                name: p["name"].as_str().unwrap().to_string(),
                folder,
                deps,
                highs,
            }
        })
        .collect();
    crates.sort_by(|a, b| a.name.cmp(&b.name));
    crates
}

/// Crates that link HiGHS: those that depend on it, or (not for tests only) on one that does.
fn linking_highs(crates: &[Crate]) -> BTreeSet<String> {
    let mut linked: BTreeSet<String> = crates
        .iter()
        .filter(|c| c.highs)
        .map(|c| c.name.clone())
        .collect();
    loop {
        let before = linked.len();
        for c in crates {
            if c.deps.iter().any(|(d, dev)| !dev && linked.contains(d)) {
                linked.insert(c.name.clone());
            }
        }
        if linked.len() == before {
            return linked;
        }
    }
}

/// The crate map as SVG: one row per rank (a crate sits above everything it depends on),
/// edges routed through the rows they cross, drawn only from `crates`.
fn crate_map_svg(crates: &[Crate]) -> String {
    const W: f64 = 200.0; // box width
    const H: f64 = 44.0; // box height
    const GAP: f64 = 36.0; // between boxes of a row
    const LANE: f64 = 14.0; // a passing edge's width in a row
    const ROW: f64 = 96.0; // from one row's top to the next
    const MARGIN: f64 = 24.0;

    let index: HashMap<&str, usize> = crates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    // Rank: 0 for crates that depend on none of the others, else one above the highest dependency.
    let mut rank = vec![0usize; crates.len()];
    for _ in 0..crates.len() {
        for (i, c) in crates.iter().enumerate() {
            for (d, _) in &c.deps {
                rank[i] = rank[i].max(rank[index[d.as_str()]] + 1);
            }
        }
    }
    let top = rank.iter().copied().max().unwrap_or(0);
    // Items per row: crates, and one pass-through point per edge and row it crosses.
    #[derive(Clone, Copy, PartialEq)]
    enum Item {
        Crate(usize),
        Pass(usize, usize), // edge, row
    }
    let mut edges: Vec<(usize, usize, bool)> = Vec::new(); // from, to, tests only
    for (i, c) in crates.iter().enumerate() {
        for (d, dev) in &c.deps {
            edges.push((i, index[d.as_str()], *dev));
        }
    }
    let mut rows: Vec<Vec<Item>> = vec![Vec::new(); top + 1];
    for (i, &r) in rank.iter().enumerate() {
        rows[r].push(Item::Crate(i));
    }
    for (e, &(from, to, _)) in edges.iter().enumerate() {
        for (r, row) in rows
            .iter_mut()
            .enumerate()
            .take(rank[from])
            .skip(rank[to] + 1)
        {
            row.push(Item::Pass(e, r));
        }
    }
    // The neighbours of an item in the row above and below.
    let above = |item: Item| -> Vec<Item> {
        match item {
            Item::Crate(c) => edges
                .iter()
                .enumerate()
                .filter(|(_, &(_, to, _))| to == c)
                .map(|(e, &(from, _, _))| {
                    if rank[from] == rank[c] + 1 {
                        Item::Crate(from)
                    } else {
                        Item::Pass(e, rank[c] + 1)
                    }
                })
                .collect(),
            Item::Pass(e, r) => {
                let from = edges[e].0;
                vec![if rank[from] == r + 1 {
                    Item::Crate(from)
                } else {
                    Item::Pass(e, r + 1)
                }]
            }
        }
    };
    let below = |item: Item| -> Vec<Item> {
        match item {
            Item::Crate(c) => edges
                .iter()
                .enumerate()
                .filter(|(_, &(from, _, _))| from == c)
                .map(|(e, &(_, to, _))| {
                    if rank[to] + 1 == rank[c] {
                        Item::Crate(to)
                    } else {
                        Item::Pass(e, rank[c] - 1)
                    }
                })
                .collect(),
            Item::Pass(e, r) => {
                let to = edges[e].1;
                vec![if rank[to] + 1 == r {
                    Item::Crate(to)
                } else {
                    Item::Pass(e, r - 1)
                }]
            }
        }
    };
    // Order each row by the mean position of its neighbours, sweeping down and up.
    let position = |rows: &Vec<Vec<Item>>, item: Item, row: usize| -> f64 {
        let at = rows[row].iter().position(|&i| i == item).unwrap_or(0);
        (at as f64 + 0.5) / rows[row].len() as f64
    };
    for sweep in 0..12 {
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (0..top).rev().collect()
        } else {
            (1..=top).collect()
        };
        for r in order {
            let mut keyed: Vec<(f64, usize, Item)> = rows[r]
                .iter()
                .enumerate()
                .map(|(at, &item)| {
                    let (near, row) = if down {
                        (above(item), r + 1)
                    } else {
                        (below(item), r - 1)
                    };
                    let key = if near.is_empty() {
                        (at as f64 + 0.5) / rows[r].len() as f64
                    } else {
                        near.iter().map(|&n| position(&rows, n, row)).sum::<f64>()
                            / near.len() as f64
                    };
                    (key, at, item)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            rows[r] = keyed.into_iter().map(|(_, _, item)| item).collect();
        }
    }
    // Coordinates: rows centred, the top rank first.
    let width_of = |item: &Item| match item {
        Item::Crate(_) => W,
        Item::Pass(..) => LANE,
    };
    let row_width = |row: &Vec<Item>| {
        row.iter().map(width_of).sum::<f64>() + GAP * row.len().saturating_sub(1) as f64
    };
    let inner = rows.iter().map(row_width).fold(0.0, f64::max);
    let width = inner + 2.0 * MARGIN;
    let y_of = |r: usize| MARGIN + (top - r) as f64 * ROW;
    let mut x_of: HashMap<(usize, usize, usize), f64> = HashMap::new(); // (kind, id, row) → centre x
    let key = |item: Item| match item {
        Item::Crate(c) => (0, c, rank[c]),
        Item::Pass(e, r) => (1, e, r),
    };
    for row in &rows {
        let mut x = MARGIN + (inner - row_width(row)) / 2.0;
        for item in row {
            x_of.insert(key(*item), x + width_of(item) / 2.0);
            x += width_of(item) + GAP;
        }
    }
    let linked = linking_highs(crates);
    let height = y_of(0) + H + 40.0 + MARGIN;
    let mut svg = String::new();
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n"
    ));
    svg.push_str("<!-- Drawn by tests/docs_commands.rs from cargo metadata; MAKESPAN_BLESS=1 redraws it (docs/architecture.md). -->\n");
    svg.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n");
    svg.push_str(&format!(
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>\n"
    ));
    // Ports: a crate's outgoing edges leave its bottom, incoming ones enter its top, spread in
    // the order of the items they lead to.
    let mut out_port: HashMap<usize, f64> = HashMap::new();
    let mut in_port: HashMap<usize, f64> = HashMap::new();
    for (c, _) in crates.iter().enumerate() {
        let cx = x_of[&(0, c, rank[c])];
        let mut outs: Vec<(f64, usize)> = edges
            .iter()
            .enumerate()
            .filter(|(_, &(from, _, _))| from == c)
            .map(|(e, &(_, to, _))| {
                let next = if rank[to] + 1 == rank[c] {
                    (0, to, rank[to])
                } else {
                    (1, e, rank[c] - 1)
                };
                (x_of[&next], e)
            })
            .collect();
        outs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (k, (_, e)) in outs.iter().enumerate() {
            out_port.insert(
                *e,
                cx - W / 2.0 + W * (k as f64 + 1.0) / (outs.len() as f64 + 1.0),
            );
        }
        let mut ins: Vec<(f64, usize)> = edges
            .iter()
            .enumerate()
            .filter(|(_, &(_, to, _))| to == c)
            .map(|(e, &(from, _, _))| {
                let prev = if rank[from] == rank[c] + 1 {
                    (0, from, rank[from])
                } else {
                    (1, e, rank[c] + 1)
                };
                (x_of[&prev], e)
            })
            .collect();
        ins.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (k, (_, e)) in ins.iter().enumerate() {
            in_port.insert(
                *e,
                cx - W / 2.0 + W * (k as f64 + 1.0) / (ins.len() as f64 + 1.0),
            );
        }
    }
    for (e, &(from, to, dev)) in edges.iter().enumerate() {
        // Points: out of the source's bottom, through each row crossed, into the target's top.
        let mut points = vec![(out_port[&e], y_of(rank[from]) + H)];
        for r in (rank[to] + 1..rank[from]).rev() {
            let x = x_of[&(1, e, r)];
            points.push((x, y_of(r)));
            points.push((x, y_of(r) + H));
        }
        points.push((in_port[&e], y_of(rank[to])));
        let mut d = format!("M{:.1},{:.1}", points[0].0, points[0].1);
        for pair in points.windows(2) {
            let ((x1, y1), (x2, y2)) = (pair[0], pair[1]);
            if (x1 - x2).abs() < 0.05
                && y2 - y1 <= H + 0.05
                && y2 - y1 > 0.0
                && pair[0] != points[0]
            {
                d.push_str(&format!(" L{x2:.1},{y2:.1}"));
            } else {
                let mid = (y1 + y2) / 2.0;
                d.push_str(&format!(
                    " C{x1:.1},{mid:.1} {x2:.1},{mid:.1} {x2:.1},{y2:.1}"
                ));
            }
        }
        let style = if dev {
            "stroke=\"#999\" stroke-dasharray=\"5,4\""
        } else {
            "stroke=\"#555\""
        };
        svg.push_str(&format!(
            "<path class=\"edge\" data-from=\"{}\" data-to=\"{}\" data-kind=\"{}\" d=\"{d}\" fill=\"none\" {style} stroke-width=\"1.3\" marker-end=\"url(#arrow)\"/>\n",
            crates[from].name,
            crates[to].name,
            if dev { "dev" } else { "normal" }
        ));
    }
    for (c, krate) in crates.iter().enumerate() {
        let cx = x_of[&(0, c, rank[c])];
        let (x, y) = (cx - W / 2.0, y_of(rank[c]));
        let (fill, stroke) = if linked.contains(&krate.name) {
            ("#fde3c8", "#e07b00")
        } else {
            ("#eef3fb", "#4e79a7")
        };
        svg.push_str(&format!(
            "<g class=\"crate\" data-name=\"{name}\"><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{W:.0}\" height=\"{H:.0}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/><text x=\"{cx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\" fill=\"#222\">{name}</text><text x=\"{cx:.1}\" y=\"{fy:.1}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">{folder}</text></g>\n",
            name = krate.name,
            folder = krate.folder,
            ty = y + 19.0,
            fy = y + 35.0,
        ));
    }
    // Legend.
    let ly = y_of(0) + H + 30.0;
    let lx = MARGIN;
    svg.push_str(&format!(
        "<g class=\"legend\" font-size=\"11\" fill=\"#333\"><path d=\"M{lx:.1},{ly:.1} h36\" stroke=\"#555\" stroke-width=\"1.3\" marker-end=\"url(#arrow)\"/><text x=\"{:.1}\" y=\"{:.1}\">depends on</text><path d=\"M{:.1},{ly:.1} h36\" stroke=\"#999\" stroke-dasharray=\"5,4\" stroke-width=\"1.3\" marker-end=\"url(#arrow)\"/><text x=\"{:.1}\" y=\"{:.1}\">for tests only</text><rect x=\"{:.1}\" y=\"{:.1}\" width=\"22\" height=\"12\" rx=\"3\" fill=\"#fde3c8\" stroke=\"#e07b00\"/><text x=\"{:.1}\" y=\"{:.1}\">links HiGHS (C++, needs cmake)</text></g>\n",
        lx + 44.0,
        ly + 4.0,
        lx + 130.0,
        lx + 174.0,
        ly + 4.0,
        lx + 270.0,
        ly - 6.0,
        lx + 298.0,
        ly + 4.0,
    ));
    svg.push_str("</svg>\n");
    svg
}

#[test]
fn docs_crate_map_is_what_cargo_metadata_draws_now() {
    let crates = workspace_crates();
    let drawn = crate_map_svg(&crates);
    // The picture names every crate and every dependency between them.
    let doc = roxmltree::Document::parse(&drawn).expect("well-formed SVG");
    let names: BTreeSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-name"))
        .collect();
    let edges: BTreeSet<(&str, &str)> = doc
        .descendants()
        .filter_map(|n| Some((n.attribute("data-from")?, n.attribute("data-to")?)))
        .collect();
    for c in &crates {
        assert!(names.contains(c.name.as_str()), "{} is not drawn", c.name);
        for (d, _) in &c.deps {
            assert!(
                edges.contains(&(c.name.as_str(), d.as_str())),
                "{} → {d} is not drawn",
                c.name
            );
        }
    }
    let page = std::fs::read_to_string("docs/architecture.md").unwrap();
    for c in &crates {
        assert!(
            page.contains(&format!("`{}`", c.name)),
            "docs/architecture.md does not say what {} holds",
            c.name
        );
    }
    let path = "docs/crate-map.svg";
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != drawn {
        if std::env::var_os("MAKESPAN_BLESS").is_some() {
            std::fs::write(path, &drawn).unwrap();
        } else {
            panic!(
                "{path} is not what the workspace's crates draw now: redraw it with \
                 `MAKESPAN_BLESS=1 cargo test --test tests docs_commands` and check docs/architecture.md"
            );
        }
    }
}

#[test]
fn docs_verifier_and_importers_build_without_highs() {
    let crates = workspace_crates();
    let linked = linking_highs(&crates);
    assert!(
        linked.contains("makespan-solve"),
        "the solver links HiGHS: {linked:?}"
    );
    for name in WITHOUT_HIGHS {
        assert!(
            crates.iter().any(|c| c.name == *name),
            "{name} is not a workspace crate any more: update docs/architecture.md"
        );
        assert!(
            !linked.contains(*name),
            "{name} now links HiGHS, which docs/architecture.md says it does not"
        );
    }
}
