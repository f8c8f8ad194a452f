//! Arguments that several commands share, declared once: the benchmarks' own import options
//! (one flag per [`Knob`], made from the registry, so a new option is a line in its
//! benchmark's folder and nothing here), what an import builds ([`ImportArgs`], for `solve`),
//! where one instance comes from ([`InstanceArgs`], for `verify`, `explain`, `gantt`), and
//! one plan with its instance ([`PlanInput`], for `explain` and `gantt`), and the time limit
//! of `solve`, `validate` and `score` ([`parse_seconds`]).
//! Every value is checked by the library ([`ImportOptions::set`], [`parse_agents`]), as
//! Python's keywords are.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use makespan::benchmarks::{self, parse_agents, ImportOptions, Knob};
use makespan::Instance;

/// The benchmarks' own import options, as given on the command line (flag name, values).
#[derive(Debug, Default)]
pub struct BenchmarkFlags(Vec<(&'static str, Vec<String>)>);

impl BenchmarkFlags {
    /// Sets every given flag on `options`; an error names the flag.
    pub fn apply(&self, options: &mut ImportOptions) -> Result<()> {
        for (name, values) in &self.0 {
            options
                .set(name, values)
                .map_err(|e| anyhow::anyhow!("--{name}: {e}"))?;
        }
        Ok(())
    }
}

/// The flag of one knob: a switch, or a comma-separated list.
fn flag(knob: &'static Knob) -> Arg {
    let arg = Arg::new(knob.name).long(knob.name).help(knob.help);
    match knob.value {
        None => arg.action(ArgAction::SetTrue),
        Some(value) => arg
            .value_name(value)
            .value_delimiter(',')
            .action(ArgAction::Append),
    }
}

impl FromArgMatches for BenchmarkFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = BenchmarkFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for knob in benchmarks::knobs() {
            let values: Vec<String> = if knob.is_switch() {
                match matches.get_flag(knob.name) {
                    true => vec!["true".into()],
                    false => continue,
                }
            } else {
                match matches.get_many::<String>(knob.name) {
                    Some(values) => values.cloned().collect(),
                    None => continue,
                }
            };
            self.0.retain(|(name, _)| *name != knob.name);
            self.0.push((knob.name, values));
        }
        Ok(())
    }
}

impl Args for BenchmarkFlags {
    fn augment_args(command: Command) -> Command {
        benchmarks::knobs().fold(command, |command, knob| command.arg(flag(knob)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// `--agents` and the benchmarks' own flags as import options, each checked by the library.
fn import_options<S: AsRef<str>>(agents: &[S], flags: &BenchmarkFlags) -> Result<ImportOptions> {
    let mut options = ImportOptions {
        agents: parse_agents(agents).map_err(|e| anyhow::anyhow!("--agents: {e}"))?,
        ..ImportOptions::default()
    };
    flags.apply(&mut options)?;
    Ok(options)
}

/// Seconds as the user writes them (`--time-limit`), checked by the library.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) => makespan::solve::check_time_limit(seconds),
        Err(_) => Err(format!(
            "\"{text}\" is not a number of seconds ≥ 0, e.g. 60"
        )),
    }
}

/// What an import of native files builds (`solve`).
#[derive(clap::Args)]
pub struct ImportArgs {
    /// Agent counts to solve each native instance with, e.g. 1,2,3 ("unlimited" allowed).
    /// Default: each benchmark's own (ParaCook 1,2,3; AsyncHow unlimited).
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    #[command(flatten)]
    benchmark: BenchmarkFlags,
    /// Most instances one input file may become.
    #[arg(long, value_name = "N", default_value_t = benchmarks::MAX_INSTANCES_PER_FILE)]
    max_instances_per_file: usize,
}

impl ImportArgs {
    /// The import options, checked.
    pub fn options(&self) -> Result<ImportOptions> {
        let mut options = import_options(&self.agents, &self.benchmark)?;
        options.max_instances = Some(self.max_instances_per_file);
        Ok(options)
    }
}

/// Where one instance comes from, when the plan does not name it or to override it.
#[derive(clap::Args)]
pub struct InstanceArgs {
    /// The instance, if the plan does not name it or to override it: a unified instance or
    /// a native benchmark file; PATH#NAME picks one instance of a file that holds several;
    /// BENCH:NAME names one by benchmark (e.g. timearena:cooking1+cooking2, robotouille:7).
    #[arg(long, value_name = "PATH[#NAME]|BENCH:NAME")]
    instance: Option<String>,
    /// The root of your checkout of the benchmark, as cloned, for BENCH:NAME (a folder of
    /// several benchmarks' files works too); default: $MAKESPAN_DATA.
    #[arg(long, value_name = "CHECKOUT")]
    data: Option<PathBuf>,
    /// Agent count for a native instance file (e.g. ParaCook: 1, 2 or 3).
    #[arg(long)]
    agents: Option<String>,
    #[command(flatten)]
    benchmark: BenchmarkFlags,
}

impl InstanceArgs {
    /// The instance named by `--instance`, read with the other options; `None` without it.
    pub fn load(&self) -> Result<Option<Instance>> {
        let Some(spec) = &self.instance else {
            return Ok(None);
        };
        let options = import_options(Vec::from_iter(&self.agents).as_slice(), &self.benchmark)?;
        Ok(Some(makespan::load_instance(
            spec,
            self.data.as_deref(),
            &options,
        )?))
    }
}

/// A plan and where its instance comes from, as `verify` takes them.
#[derive(clap::Args)]
pub struct PlanInput {
    /// The plan: a unified plan, a solution file, or a native answer (as for `verify`).
    pub plan: PathBuf,
    #[command(flatten)]
    pub source: InstanceArgs,
}
