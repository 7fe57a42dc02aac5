//! `farebox serve`: a table server for online play (the `farebox-server` crate), on the mods
//! given or every bundled playable mod. Tables given with --table are opened at start and
//! their codes printed; people join with `farebox play --join ADDR CODE`.

use std::sync::Arc;
use std::time::Duration;

use farebox::GameDef;
use farebox::source::FolderResolver;
use farebox_server::protocol::PERSON;
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::Resumed;
use farebox_server::table::TableSpec;

use crate::cli::ServeArgs;
use crate::common::{Fail, Io, Located, load_for_play, load_located, mods_dir, shown, split_list};

/// The table store `farebox serve` keeps unless told otherwise (--store, --no-store).
pub const DEFAULT_STORE: &str = "farebox-tables.sqlite";

/// The mods to serve: those named, or every playable bundled mod that loads (a bundled mod
/// that does not is noted and left out).
fn served_mods(args: &ServeArgs, io: &mut Io) -> Result<Vec<Arc<GameDef>>, Fail> {
    let mut mods: Vec<Arc<GameDef>> = vec![];
    if args.mods.is_empty() {
        let dir = mods_dir();
        for (id, folder) in FolderResolver::new(&dir).all() {
            let l = Located {
                folder,
                resolver: FolderResolver::new(&dir),
                name: id.clone(),
            };
            match load_located(&l) {
                Ok(d) if d.playable() => mods.push(Arc::new(d)),
                Ok(_) => {}
                Err(e) => io.note(format!(
                    "{id} is not served: it does not load ({} errors)",
                    e.len()
                )),
            }
        }
    } else {
        for m in &args.mods {
            mods.push(load_for_play(m, io)?);
        }
    }
    if mods.is_empty() {
        return Err(Fail::Usage("no playable mod to serve".into()));
    }
    Ok(mods)
}

/// The tables `--table MOD:SEATS` asks for at start, checked before the server opens.
fn start_tables(args: &ServeArgs) -> Result<Vec<TableSpec>, Fail> {
    let mut tables = vec![];
    for t in &args.tables {
        let Some((m, seats)) = t.split_once(':') else {
            return Err(Fail::Usage(format!(
                "--table `{}` should be MOD:SEATS, like curbside:human,random",
                shown(t, 80)
            )));
        };
        let seats = split_list(seats, "--table")?
            .into_iter()
            .map(|s| if s == "human" { PERSON.to_string() } else { s })
            .collect();
        tables.push(TableSpec {
            mod_id: m.to_string(),
            seats,
            options: Default::default(),
            clock: None,
        });
    }
    Ok(tables)
}

pub fn run(args: ServeArgs, io: &mut Io) -> Result<i32, Fail> {
    let addr = args.addr.parse().map_err(|_| {
        Fail::Usage(format!(
            "--addr `{}` is not an address like 127.0.0.1:7878",
            shown(&args.addr, 80)
        ))
    })?;
    let mods = served_mods(&args, io)?;
    let tables = start_tables(&args)?;
    let mut cfg = ServerConfig::new(addr, mods.clone());
    cfg.grace = Duration::from_secs(args.grace);
    if let Some(t) = args.threads {
        cfg.threads = t as usize;
    }
    if let Some(t) = args.bot_threads {
        cfg.bot_threads = t as usize;
    }
    cfg.clock = (args.clock > 0).then(|| Duration::from_secs(args.clock));
    cfg.idle = Duration::from_secs(args.idle);
    let n = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
    cfg.limits.conns = n(args.max_connections);
    cfg.limits.conns_per_addr = n(args.max_connections_per_address);
    cfg.limits.tables_per_conn = n(args.max_tables_per_connection);
    cfg.limits.tables_per_addr = n(args.max_tables_per_address);
    cfg.limits.memory = n(args.memory_mb).saturating_mul(1 << 20);
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir).map_err(|e| {
            Fail::Invalid(format!(
                "--replays {}: cannot make the folder: {e}",
                dir.display()
            ))
        })?;
        cfg.replays = Some(dir.clone());
    }
    if !args.no_store {
        cfg.store = Some(
            args.store
                .clone()
                .unwrap_or_else(|| std::path::PathBuf::from(DEFAULT_STORE)),
        );
    }
    let store = cfg.store.clone();
    let server = Server::start(cfg).map_err(|e| {
        if args.replays.is_some() && e.to_string().contains("replays folder") {
            Fail::Invalid(format!("--replays: {e}"))
        } else if e.kind() == std::io::ErrorKind::Other {
            // The store's errors name the file and say what to do.
            Fail::Invalid(e.to_string())
        } else {
            Fail::Invalid(format!("cannot listen on {addr}: {e}"))
        }
    })?;
    let names: Vec<String> = mods
        .iter()
        .map(|d| format!("{} {}", d.id, d.version))
        .collect();
    io.say(format!(
        "Serving {} on {} ({} game threads)",
        names.join(", "),
        server.addr(),
        args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(2, |n| n.get()),
            |t| t as usize
        )
    ));
    if let Some(dir) = &args.replays {
        io.say(format!(
            "Finished games' replays are saved in {}",
            dir.display()
        ));
    }
    match &store {
        Some(path) => io.say(format!(
            "Tables are kept in {} (resumed when the server starts again on it)",
            path.display()
        )),
        None => {
            io.say("Tables are kept in memory only (--no-store): a stopped server's games are lost")
        }
    }
    for r in server.resumed() {
        match r {
            Resumed::Table { .. } => io.say(r),
            Resumed::Held { .. } => io.note(r),
        }
    }
    for spec in tables {
        let seats = spec.seats.join(",");
        let code = server
            .create_table(spec.clone())
            .map_err(|e| Fail::Usage(format!("--table {}:{seats}: {e}", spec.mod_id)))?;
        io.say(format!(
            "table {code}: {} ({seats}); join with: farebox play --join {} {code}",
            spec.mod_id,
            server.addr()
        ));
    }
    let _ = io.out.flush();
    match args.stop_after {
        Some(s) => std::thread::sleep(Duration::from_secs(s)),
        None => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
    }
    server.stop();
    io.say("Stopped.");
    Ok(0)
}
