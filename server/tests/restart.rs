//! A server killed mid-game (SIGKILL, a real process) and started again on its table store:
//! its tables come back at their last action, people take their seats back with their
//! tokens, and the game goes on to the same end as one never interrupted. A table whose mod
//! changed is not resumed and is named; a store that cannot be opened or written stops the
//! server at start; no token is ever in the store.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;
use farebox::replay::{Replay, verify};
use farebox_server::client::{Client, Event, Latest};
use farebox_server::protocol::{DownloadKind, ServerMsg};
use farebox_server::server::Server;

const STORE_VAR: &str = "FAREBOX_RESTART_STORE";
const MOD_VAR: &str = "FAREBOX_RESTART_MOD";
const SEED: u64 = 41;

/// The server process of these tests: does nothing in a normal run. Started by
/// [`ServerProcess::start`] with a store file (and, maybe, another folder to load Curbside
/// from), it serves Curbside on a free port, prints the address and what became of the
/// stored tables, and runs until it is killed.
#[test]
fn server_process() {
    let Ok(store) = std::env::var(STORE_VAR) else {
        return;
    };
    let def = match std::env::var(MOD_VAR) {
        Ok(dir) => load_from(Path::new(&dir)),
        Err(_) => load("curbside"),
    };
    let mut cfg = config(&[], SEED);
    cfg.mods = vec![def];
    cfg.grace = Duration::from_secs(600);
    cfg.store = Some(PathBuf::from(store));
    let server = match Server::start(cfg) {
        Ok(s) => s,
        Err(e) => {
            println!("START-ERROR {e}");
            std::process::exit(3);
        }
    };
    println!("ADDR {}", server.addr());
    for r in server.resumed() {
        println!("RESUMED {r}");
    }
    println!("READY");
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}

fn load_from(dir: &Path) -> std::sync::Arc<farebox::GameDef> {
    let resolver = farebox::source::FolderResolver::new(mods_dir());
    std::sync::Arc::new(
        farebox::content::load_mod(&farebox::source::FsSource::new(dir), &resolver).unwrap(),
    )
}

struct ServerProcess {
    child: Child,
    addr: String,
    /// What it printed about the stored tables (`RESUMED ...` lines, without the prefix).
    resumed: Vec<String>,
}

impl ServerProcess {
    fn start(store: &Path, mod_dir: Option<&Path>) -> ServerProcess {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "--exact",
            "server_process",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(STORE_VAR, store)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
        match mod_dir {
            Some(d) => cmd.env(MOD_VAR, d),
            None => cmd.env_remove(MOD_VAR),
        };
        let mut child = cmd.spawn().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let (mut addr, mut resumed) = (None, vec![]);
        for line in lines.by_ref() {
            // libtest's own `test server_process ... ` may come first on the line.
            let line = line.unwrap();
            let line = line.rsplit_once(" ... ").map_or(line.as_str(), |(_, l)| l);
            if let Some(a) = line.strip_prefix("ADDR ") {
                addr = Some(a.to_string());
            } else if let Some(r) = line.strip_prefix("RESUMED ") {
                resumed.push(r.to_string());
            } else if let Some(e) = line.strip_prefix("START-ERROR ") {
                panic!("the server did not start: {e}");
            } else if line == "READY" {
                break;
            }
        }
        // The rest of its output (libtest's) is read away so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        ServerProcess {
            child,
            addr: addr.expect("the server process printed no address"),
            resumed,
        }
    }

    /// SIGKILL: the process gets no chance to write anything more.
    fn kill(self) {}

    fn connect(&self) -> Client {
        Client::connect(&self.addr, WAIT).unwrap()
    }
}

impl Drop for ServerProcess {
    /// Killed (SIGKILL) when the test is done with it, or fails.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Person {
    c: Client,
    name: &'static str,
    token: String,
    /// Actions taken so far (in every run): picks the next one.
    taken: usize,
    acted_at: Option<u64>,
}

fn over(l: &Latest) -> bool {
    l.over()
}

/// Plays the people's seats, each taking `spread(taken)` of its offered actions, until the
/// game is over or a person is offered actions at a number `stop` accepts (the table then
/// waits for that person: nothing is under way). Returns the number it stopped at.
fn drive(people: &mut [Person], stop: impl Fn(u64) -> bool) -> u64 {
    let end = std::time::Instant::now() + Duration::from_secs(300);
    loop {
        assert!(std::time::Instant::now() < end, "the game took too long");
        for p in people.iter_mut() {
            let l = p.c.latest();
            if over(&l) {
                return l.number;
            }
            if !l.offered().is_empty() && p.acted_at != Some(l.number) {
                if stop(l.number) {
                    return l.number;
                }
                let i = spread(p.taken, l.offered().len());
                p.c.act(&l.offered()[i].action);
                p.acted_at = Some(l.number);
                p.taken += 1;
            }
        }
        for p in people.iter() {
            match p.c.next_event(Duration::from_millis(10)) {
                Some(Event::Closed(r)) => panic!("{}: connection closed: {r}", p.name),
                Some(Event::Msg(ServerMsg::Refused { reason, .. })) => {
                    panic!("{}: refused: {reason}", p.name)
                }
                Some(Event::Msg(ServerMsg::Error { reason })) => {
                    panic!("{}: error: {reason}", p.name)
                }
                _ => {}
            }
        }
    }
}

/// Two people join seats 1 and 2 of a new table (the third is a random bot).
fn sit_down(c1: Client, c2: Client, hash: &str) -> (String, Vec<Person>) {
    let code = c1
        .create("curbside", &["person", "person", "random"], WAIT)
        .unwrap();
    let mut people = vec![];
    for (i, (c, name)) in [(c1, "Ada-at-the-curb"), (c2, "Bo-at-the-curb")]
        .into_iter()
        .enumerate()
    {
        let s = c
            .join(&code, Some(i as u8), name, Some(hash), WAIT)
            .unwrap();
        people.push(Person {
            c,
            name,
            token: s.token.unwrap(),
            taken: 0,
            acted_at: None,
        });
    }
    (code, people)
}

fn replay_of(c: &Client) -> Replay {
    Replay::from_json(&c.download(DownloadKind::Replay, WAIT).unwrap()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "farebox-restart-{name}-{}",
        farebox_server::table::token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The store file and its write-ahead log, as bytes.
fn store_bytes(store: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(store).unwrap();
    let mut wal = store.as_os_str().to_owned();
    wal.push("-wal");
    if let Ok(w) = std::fs::read(PathBuf::from(wal)) {
        bytes.extend(w);
    }
    bytes
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn a_killed_server_resumes_its_tables_and_the_game_ends_as_if_never_stopped() {
    let def = load("curbside");
    let hash = def.content_hash.clone();

    // The game never interrupted: an in-process server, the same seed, the same picks.
    let reference = {
        let server = start(config(&["curbside"], SEED));
        let (_, mut people) = sit_down(connect(&server), connect(&server), &hash);
        drive(&mut people, |_| false);
        replay_of(&people[0].c)
    };
    assert!(reference.steps.len() > 20, "a game too short to test");

    let dir = temp_dir("resume");
    let store = dir.join("tables.sqlite");
    let first = ServerProcess::start(&store, None);
    assert!(first.resumed.is_empty(), "{:?}", first.resumed);
    let (code, mut people) = sit_down(first.connect(), first.connect(), &hash);
    let stopped = drive(&mut people, |n| n >= 12);
    assert!(
        stopped >= 12,
        "the game ended before the kill, at {stopped}"
    );
    first.kill();

    // What the store holds: the people's names and the log, never a token.
    let bytes = store_bytes(&store);
    for p in &people {
        assert!(contains(&bytes, p.name), "{} is not in the store", p.name);
        assert!(
            !contains(&bytes, &p.token),
            "{}'s token is in the store file",
            p.name
        );
    }

    let second = ServerProcess::start(&store, None);
    assert_eq!(
        second.resumed,
        vec![format!(
            "table {code} (curbside) resumed at action {stopped}"
        )]
    );
    // The table is there, its seats still the people's, nobody connected.
    let watcher = second.connect();
    let (_, _, seats) = watcher.look(&code, WAIT).unwrap();
    assert_eq!(seats[0].player.as_deref(), Some("Ada-at-the-curb"));
    assert_eq!(seats[1].player.as_deref(), Some("Bo-at-the-curb"));
    assert!(!seats[0].connected && !seats[1].connected);
    // A made-up token takes no seat; the people's own do, at the action the game was at.
    let stranger = second.connect();
    let e = stranger
        .rejoin(&code, &"0".repeat(32), Some(&hash), WAIT)
        .unwrap_err();
    assert!(e.contains("no seat at this table has that token"), "{e}");
    for (i, p) in people.iter_mut().enumerate() {
        let c = second.connect();
        let s = c.rejoin(&code, &p.token, Some(&hash), WAIT).unwrap();
        assert_eq!(s.seat, Some(i as u8));
        assert_eq!(c.latest().number, stopped);
        p.c = c;
        p.acted_at = None;
    }
    drive(&mut people, |_| false);
    let replay = replay_of(&people[0].c);
    verify(&def, &replay).unwrap();
    let parted = replay
        .steps
        .iter()
        .zip(&reference.steps)
        .position(|(a, b)| a != b);
    assert_eq!(
        parted, None,
        "the game played across the restart (stopped at {stopped}) parts from the one never stopped at this action"
    );
    assert_eq!(replay, reference);
    second.kill();
    std::fs::remove_dir_all(&dir).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn a_table_whose_mod_changed_is_not_resumed_and_is_named() {
    let def = load("curbside");
    let dir = temp_dir("changed");
    let store = dir.join("tables.sqlite");
    // Curbside with one more line in a script: another content hash.
    let edited = dir.join("curbside");
    copy_dir(&mods_dir().join("curbside"), &edited);
    let script = std::fs::read_dir(edited.join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "luau"))
        .unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, text + "\n-- the server's own edit\n").unwrap();
    let other = load_from(&edited);
    assert_ne!(other.content_hash, def.content_hash);

    let first = ServerProcess::start(&store, None);
    let (code, mut people) = sit_down(first.connect(), first.connect(), &def.content_hash);
    let stopped = drive(&mut people, |n| n >= 4);
    first.kill();

    let second = ServerProcess::start(&store, Some(&edited));
    assert_eq!(second.resumed.len(), 1, "{:?}", second.resumed);
    let said = &second.resumed[0];
    for part in [
        code.as_str(),
        "is not resumed",
        "`curbside`",
        def.content_hash.as_str(),
        other.content_hash.as_str(),
    ] {
        assert!(said.contains(part), "`{part}` is not in: {said}");
    }
    // Asked for, the table is explained, not said to be missing.
    let e = second.connect().look(&code, WAIT).unwrap_err();
    assert!(
        e.contains(&def.content_hash) && e.contains("curbside"),
        "{e}"
    );
    second.kill();

    // Its row was left: the server with the mod as it was resumes it.
    let third = ServerProcess::start(&store, None);
    assert_eq!(
        third.resumed,
        vec![format!(
            "table {code} (curbside) resumed at action {stopped}"
        )]
    );
    third.kill();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_store_that_cannot_be_opened_and_written_stops_the_server_at_start() {
    let dir = temp_dir("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let junk = dir.join("junk.sqlite");
    std::fs::write(&junk, "this is no database, ".repeat(100)).unwrap();
    for (path, why) in [
        (file.join("tables.sqlite"), "Not a directory"),
        (junk.clone(), "not a database"),
    ] {
        let mut cfg = config(&["curbside"], 1);
        cfg.store = Some(path.clone());
        let e = Server::start(cfg).err().unwrap().to_string();
        assert!(e.contains(&path.display().to_string()), "{e}");
        assert!(e.contains("cannot be opened and written"), "{e}");
        assert!(e.contains(why), "{e}");
    }
    // A store another server holds is refused, not shared.
    let store = dir.join("tables.sqlite");
    let mut cfg = config(&["curbside"], 1);
    cfg.store = Some(store.clone());
    let running = Server::start(cfg.clone()).unwrap();
    let e = Server::start(cfg.clone()).err().unwrap().to_string();
    assert!(e.contains("in use by another server"), "{e}");
    running.stop();
    Server::start(cfg).unwrap().stop();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An action the store cannot take is never announced: the table stops, saying why, and the
/// game is kept up to the action before it.
#[test]
fn an_action_the_store_cannot_keep_is_not_announced() {
    let dir = temp_dir("locked");
    let store = dir.join("tables.sqlite");
    let def = load("curbside");
    let mut cfg = config(&["curbside"], SEED);
    cfg.store = Some(store.clone());
    let server = start(cfg.clone());
    let code = table(&server, "curbside", &["person", "random"]);
    let c = connect(&server);
    c.join(&code, Some(0), "Ada", Some(&def.content_hash), WAIT)
        .unwrap();
    let l = c.latest();
    assert!(!l.offered().is_empty(), "seat 1 acts first");
    let before = l.number;
    // Another writer holds the file longer than the server waits for it.
    let blocker = rusqlite::Connection::open(&store).unwrap();
    blocker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    c.act(&l.offered()[0].action);
    let e = c
        .wait_for(WAIT, |m| matches!(m, ServerMsg::Update(_)))
        .unwrap_err();
    assert!(
        e.contains(&format!(
            "could not record action {} in its table store",
            before + 1
        )),
        "{e}"
    );
    assert!(e.contains(&store.display().to_string()), "{e}");
    assert_eq!(c.latest().number, before, "the action was announced");
    blocker.execute_batch("ROLLBACK").unwrap();
    drop(blocker);
    server.stop();
    // Started again, the table is where the store has it: before the action.
    let server = start(cfg);
    assert_eq!(
        server
            .resumed()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec![format!(
            "table {code} (curbside) resumed at action {before}"
        )]
    );
    server.stop();
    std::fs::remove_dir_all(&dir).unwrap();
}
