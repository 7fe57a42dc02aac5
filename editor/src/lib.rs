//! The `farebox` command line, as a library so tests can run it in-process.
//!
//! [`run`] parses arguments with clap, runs one subcommand (one module each) and returns the
//! process exit code: 0 success, 1 invalid content or a failed check, 2 a usage problem.

use std::io::{BufRead, Write};

use clap::Parser;

pub mod accepted;
pub mod card_brief;
pub mod cli;
pub mod colors;
pub mod common;
pub mod compare;
pub mod edit;
pub mod menu;
pub mod paired;
pub mod print;
pub mod runs;
pub mod scaffold;
pub mod shards;
pub mod studio;
pub mod tune;

pub use common::{Fail, Io};

/// Runs the command line with `args` (the first is the program name).
pub fn run(
    args: Vec<String>,
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let mut io = Io {
        stdin,
        out: stdout,
        err: stderr,
    };
    let parsed = match cli::Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            let text = e.render().to_string();
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = write!(io.out, "{text}");
                    0
                }
                _ => {
                    let _ = write!(io.err, "{text}");
                    2
                }
            };
        }
    };
    if parsed.debug {
        farebox::script::debug::listen(Some(std::sync::Arc::new(common::print_debug_line)));
    }
    let result = match parsed.command {
        None => studio(None, None),
        Some(c) => dispatch(c, &mut io),
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            // One line: a message may hold a path or a name with a line break in it.
            io.note(format!("error: {}", common::clean_report(f.message())));
            f.code()
        }
    }
}

/// Opens the Studio window; it returns when the window closes.
fn studio(game: Option<String>, frames: Option<u32>) -> Result<i32, Fail> {
    if let Some(g) = &game {
        // A mod that cannot be found is a usage error here, before any window opens.
        common::locate(g)?;
    }
    studio::run(game, frames).map_err(Fail::Invalid)?;
    Ok(0)
}

fn dispatch(c: cli::Command, io: &mut Io) -> Result<i32, Fail> {
    use cli::Command as C;
    match c {
        C::Studio(a) => studio(a.game, a.frames),
        C::List(a) => cli::cmd_list::run(a, io),
        C::Validate(a) => cli::cmd_validate::run(a, io),
        C::Play(a) if a.join.is_some() || a.host.is_some() => cli::cmd_join::run(a, io),
        C::Play(a) => cli::cmd_play::run(a, io),
        C::Serve(a) => cli::cmd_serve::run(a, io),
        C::Sim(a) => cli::cmd_sim::run(a, io),
        C::Merge(a) => cli::cmd_merge::run(a, io),
        C::Tune(a) => cli::cmd_tune::run(a, io),
        C::Record(a) => cli::cmd_record::run(a, io),
        C::Replay(a) => cli::cmd_replay::run(a, io),
        C::Test(a) => cli::cmd_test::run(a, io),
        C::New(a) => cli::cmd_new::run(a, io),
        C::Schema(a) => cli::cmd_schema::run(a, io),
        C::Print(a) => cli::cmd_print::run(a, io),
        C::Bench(a) => cli::cmd_bench::run(a, io),
        C::BenchLoad(a) => cli::cmd_bench::run_load(a.iterations, io),
    }
}
