//! `bir check`'s options of a distributed search (`bir-dist` on timely dataflow): the
//! breadth-first search over worker threads (`--workers`) and processes (`--processes`,
//! `--process`, `--hostfile`), on this machine or several. Each process runs the same
//! command with its own `--process`.

use std::path::PathBuf;

use bir_driver::DistOptions;
use clap::Args;

use crate::args::whole_number;

/// Where a distributed search runs; any of these options asks for one.
#[derive(Args, Debug, Clone, Default)]
pub struct DistArgs {
    /// Worker threads in this process.
    #[arg(
        long,
        value_name = "W",
        value_parser = positive,
        help = "Distributed breadth-first search (bir-dist, timely dataflow)\n\
                with W worker threads in this process (with --swarm: the\n\
                swarm's searches spread over the workers)"
    )]
    pub workers: Option<usize>,

    /// Processes in all.
    #[arg(
        long,
        value_name = "N",
        value_parser = positive,
        help = "Distributed search over N processes: run the same command\n\
                N times, each with its own --process"
    )]
    pub processes: Option<usize>,

    /// This process's index.
    #[arg(
        long,
        value_name = "I",
        requires = "processes",
        value_parser = whole_number::<usize>,
        help = "This process's index among --processes, 0 to N-1"
    )]
    pub process: Option<usize>,

    /// The hostfile.
    #[arg(
        long,
        value_name = "FILE",
        requires = "processes",
        help = "One host:port line per process, process 0 first (default:\n\
                all on this machine, ports 2101 and up)"
    )]
    pub hostfile: Option<PathBuf>,
}

impl DistArgs {
    /// The distributed search asked for, if any.
    pub fn options(&self) -> Option<DistOptions> {
        if self.workers.is_none() && self.processes.is_none() {
            return None;
        }
        Some(DistOptions {
            workers: self.workers.unwrap_or(1),
            processes: self.processes.unwrap_or(1),
            process: self.process.unwrap_or(0),
            hostfile: self.hostfile.clone(),
        })
    }

    /// Why these options cannot run, if they cannot.
    pub fn problem(&self) -> Option<String> {
        let options = self.options()?;
        (options.process >= options.processes).then(|| {
            format!(
                "--process {} is not among --processes {} (0 to {})",
                options.process,
                options.processes,
                options.processes - 1
            )
        })
    }
}

/// A count of at least 1 (at most 1024).
fn positive(text: &str) -> Result<usize, String> {
    match whole_number(text)? {
        n @ 1..=1024 => Ok(n),
        n => Err(format!("expected 1 to 1024, found {n}")),
    }
}
