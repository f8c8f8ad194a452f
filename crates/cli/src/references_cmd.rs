//! `makespan references`: proven optima as data ([`makespan::references`]). `pack` turns a
//! folder of solution files into one JSON Lines file (and a gzipped bundle of its DRCP
//! proofs), `unpack` turns one back into the folder `solve --emit-native --certify` writes,
//! `show` prints one instance's reference. Exit code 0 done, 2 unreadable input or a
//! reference that does not fit its instance. The format: `docs/references.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use makespan::references::{self, PackOptions, References, UnpackOptions};

#[derive(clap::Args)]
pub struct ReferencesArgs {
    #[command(subcommand)]
    command: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Pack a folder of solution files, with their native answers and certificates, into one
    /// references file (JSON Lines) and, for DRCP certificates, `<stem>.proofs.jsonl.gz`
    /// beside it.
    ///
    /// A benchmark instance is named `BENCH:NAME` when that name, looked up under --data,
    /// gives the same problem; every other instance is embedded.
    ///
    /// Example: makespan references pack solutions/timearena --out references/timearena.jsonl --data ../shared/benchmarks --max-proof-mb 1
    Pack {
        /// The folder of solution files (the --out of `makespan solve`).
        solutions: PathBuf,
        /// The references file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The root of your checkout of the benchmark, as cloned (a folder of several
        /// benchmarks' files works too); default: $MAKESPAN_DATA. Instances found there are
        /// written as BENCH:NAME; without it every instance is embedded.
        #[arg(long, value_name = "CHECKOUT")]
        data: Option<PathBuf>,
        /// Leave out DRCP certificates whose proof file (`.drcp.gz`) is larger than this
        /// (MiB); their references carry no certificate. Default: no limit.
        #[arg(long, value_name = "MB")]
        max_proof_mb: Option<u64>,
    },
    /// Write the solution files, native answers, certificates and summary.csv of a
    /// references file into a folder, for verify --solution, score --solutions, compare
    /// and check-proof.
    ///
    /// Example: makespan references unpack references/timearena.jsonl --data ../shared/benchmarks --out solutions/timearena
    Unpack {
        /// The references file.
        references: PathBuf,
        /// The folder to write (created if needed).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The root of your checkout of the benchmark, as cloned, for instances named
        /// BENCH:NAME (a folder of several benchmarks' files works too); default:
        /// $MAKESPAN_DATA.
        #[arg(long, value_name = "CHECKOUT")]
        data: Option<PathBuf>,
        /// Only this instance (repeatable); default: all.
        #[arg(long, value_name = "NAME")]
        only: Vec<String>,
    },
    /// Print one instance's reference: status, makespan, bound and certificate, and with
    /// --answer its native answer as the benchmark reads it.
    ///
    /// Example: makespan references show references/timearena.jsonl cooking1+cooking2 --answer
    Show {
        /// The references file.
        references: PathBuf,
        /// The instance's name.
        name: String,
        /// Print the native answer after the summary line.
        #[arg(long)]
        answer: bool,
        /// Print the reference's line as JSON instead.
        #[arg(long, conflicts_with = "answer")]
        json: bool,
    },
}

pub fn run(args: ReferencesArgs) -> Result<ExitCode> {
    match args.command {
        Action::Pack {
            solutions,
            out,
            data,
            max_proof_mb,
        } => {
            let options = PackOptions {
                data,
                max_proof_bytes: max_proof_mb.map(|mb| mb.saturating_mul(1 << 20)),
            };
            let packed = references::pack(&solutions, &out, &options)?;
            println!(
                "{}: {} references ({} named BENCH:NAME, {} embedded), {} certificates, {} native answers",
                out.display(),
                packed.references,
                packed.named,
                packed.references - packed.named,
                packed.certificates,
                packed.answers
            );
            if packed.left_out > 0 {
                println!(
                    "{} DRCP certificates left out: their proofs are over {} MiB (--max-proof-mb)",
                    packed.left_out,
                    max_proof_mb.unwrap_or_default()
                );
            }
            if let Some(bundle) = packed.bundle {
                println!("{}: the DRCP proofs", bundle.display());
            }
        }
        Action::Unpack {
            references,
            out,
            data,
            only,
        } => {
            let file = References::read(&references)?;
            let options = UnpackOptions {
                out: out.clone(),
                data,
                only,
            };
            let written = references::unpack(&file, &options)?;
            println!(
                "{}: {} solutions, {} native answers, {} certificates",
                out.display(),
                written.solutions,
                written.answers,
                written.certificates
            );
        }
        Action::Show {
            references,
            name,
            answer,
            json,
        } => {
            let file = References::read(&references)?;
            let reference = file.lookup(&name)?;
            if json {
                println!("{}", serde_json::to_string_pretty(reference)?);
                return Ok(ExitCode::SUCCESS);
            }
            let number = |v: Option<i64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
            let certificate = reference.certificate_kind().unwrap_or("none");
            println!(
                "{}  {}  makespan {}  lower bound {}  certificate {certificate}",
                reference.name,
                reference.status,
                number(reference.makespan),
                number(reference.lower_bound)
            );
            if answer {
                match &reference.answer {
                    Some(native) => print!("{}", with_newline(&native.text)),
                    None => anyhow::bail!(
                        "\"{name}\" has no native answer in {}",
                        references.display()
                    ),
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn with_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}
