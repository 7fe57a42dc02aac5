//! Hidden information stays as safe on the wire as on the screen. Every bundled game is played
//! over a loopback server with a person (driven by this test) in every seat and a spectator;
//! every message each connection receives is kept, as text. Once the game is over its replay
//! is downloaded and played again here, and each message is searched for what its seat could
//! not know at the action number the message carries: the ids, names and texts of the cards
//! hidden from it, hidden variables' values, the game's seed, and the games' secrets by meaning
//! (`farebox_suite::secrets`, shared with the screen's leak test in tests/leaks/main.rs), whatever the content declares: the
//! cards of face-down stacks and decks and of other seats' hands (no such zone may show a card,
//! and no such card's id or name may be sent), and Where's My Ride?'s pickup spot, by id, name
//! and tags, to a Rider or a watcher until it is guessed. A deliberately leaky server (which
//! sends everyone the seed, every action and every seat's view) must be caught by the same
//! search, and so must leaky copies of Where's My Ride? (the answer in a log line everyone
//! reads, in the label of an action, the Driver's emojis face up). Seats that leave and come
//! back with their token are searched the same way, the log their return brings entry by
//! entry at the action each entry belongs to, and each action's line in it must be the one
//! the seat was shown live: its own words for its own actions, the public ones for anyone
//! else's, never another seat's private wording.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use farebox::GameDef;
use farebox::game::Game;
use farebox::replay::Replay;
use farebox_server::client::AsyncConn;
use farebox_server::protocol::{ClientMsg, DownloadKind, ServerMsg, Told};
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;
use farebox_suite::secrets::{meant_words, secret_by_meaning, secrets_for, wmr_answer_hidden_from};

/// A seed whose digits cannot turn up in a message by chance.
const SEED: u64 = 7_301_946_285_117_093_621;
const WAIT: Duration = Duration::from_secs(120);

fn server(mods: &[Arc<GameDef>], leaky: bool) -> Server {
    let mut cfg = ServerConfig::new("127.0.0.1:0".parse().unwrap(), mods.to_vec());
    cfg.seed = Some(SEED);
    cfg.threads = 2;
    cfg.rate = 5_000;
    cfg.burst = 10_000;
    cfg.queue = 100_000;
    cfg.leak_for_tests = leaky;
    // Every client comes from loopback: one address.
    cfg.limits.conns_per_addr = 100_000;
    cfg.limits.tables_per_addr = 100_000;
    cfg.queue_bytes = 1 << 30;
    Server::start(cfg).unwrap()
}

/// A pick that looks random and is the same every run.
fn spread(t: u64, n: usize) -> usize {
    let mut z = t.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^= z >> 31;
    (z % n as u64) as usize
}

/// Connects and joins `seat` (None: watches); the messages up to the first view.
async fn join(addr: &str, code: &str, seat: Option<u8>) -> (AsyncConn, Vec<String>) {
    let mut c = AsyncConn::connect(addr).await.unwrap();
    c.send(&ClientMsg::Join {
        code: code.to_string(),
        seat,
        name: String::new(),
        content_hash: None,
    })
    .await
    .unwrap();
    let mut texts = vec![];
    loop {
        let t = c.recv_text().await.expect("closed");
        let first_view = t.contains(r#""type":"update""#);
        texts.push(t);
        if first_view {
            return (c, texts);
        }
    }
}

/// How often a seat that comes back leaves: every this many actions (seats staggered).
const LEAVE_EVERY: u64 = 7;

/// A seat that leaves now and then and comes back: the server's address, the table's code.
type Returns = Option<(String, String)>;

/// One connection's whole stream, as text, until its game is over (`texts` holds what it
/// was sent so far); a seat's connection takes the actions offered to it. With `returns`, a
/// seat leaves every [`LEAVE_EVERY`] actions and comes back at once on a new connection with
/// its token; the new connection's messages are added to the stream.
async fn follow(
    mut c: AsyncConn,
    mut texts: Vec<String>,
    seat: Option<u8>,
    returns: Returns,
) -> (Option<u8>, Vec<String>, AsyncConn) {
    let token = texts.iter().find_map(|t| match serde_json::from_str(t) {
        Ok(ServerMsg::Joined { token, .. }) => token,
        _ => None,
    });
    let mut left_at = None;
    let mut acted = None;
    let mut picks = u64::from(seat.unwrap_or(9)) * 1000;
    let mut at = texts.len() - 1;
    loop {
        if at == texts.len() {
            let t = tokio::time::timeout(WAIT, c.recv_text())
                .await
                .expect("no message")
                .expect("closed");
            texts.push(t);
        }
        let m: ServerMsg = serde_json::from_str(&texts[at]).unwrap();
        at += 1;
        match m {
            ServerMsg::Update(u) => {
                if u.view.result.is_some() {
                    return (seat, texts, c);
                }
                if let (Some((addr, code)), Some(s), Some(token)) = (&returns, seat, &token)
                    && !u.resync
                    && u.number % LEAVE_EVERY == u64::from(s) % LEAVE_EVERY
                    && left_at != Some(u.number)
                {
                    left_at = Some(u.number);
                    let back = AsyncConn::connect(addr).await.unwrap();
                    std::mem::replace(&mut c, back).close().await;
                    c.send(&ClientMsg::Rejoin {
                        code: code.clone(),
                        token: token.clone(),
                        content_hash: None,
                    })
                    .await
                    .unwrap();
                    // What was still to come on the old connection is not read.
                    continue;
                }
                if !u.offered.is_empty() && acted != Some(u.number) {
                    acted = Some(u.number);
                    picks += 1;
                    let a = &u.offered[spread(picks, u.offered.len())].action;
                    c.send(&ClientMsg::Act {
                        number: u.number,
                        action: a.clone(),
                    })
                    .await
                    .unwrap();
                }
            }
            ServerMsg::Refused { reason, .. } | ServerMsg::Error { reason } => {
                panic!("{reason}")
            }
            _ => {}
        }
    }
}

/// Plays one game of `def` over the wire and returns the first leak found, if any.
async fn first_wire_leak(server: &Server, def: &Arc<GameDef>) -> Option<String> {
    wire_leaks(server, def).await.into_iter().next()
}

/// Plays one game of `def` over the wire and returns the first leak found on each
/// connection (the spectator's, then the seats'), in the order of the action numbers.
async fn wire_leaks(server: &Server, def: &Arc<GameDef>) -> Vec<String> {
    wire_leaks_with(server, def, false).await
}

/// [`wire_leaks`]; with `returning`, every seat leaves now and then and comes back with its
/// token ([`follow`]), and the log each return brings is checked too.
async fn wire_leaks_with(server: &Server, def: &Arc<GameDef>, returning: bool) -> Vec<String> {
    let seats = def.players.0.max(2) as u8;
    let code = server
        .create_table(TableSpec {
            mod_id: def.id.clone(),
            seats: vec!["person".into(); seats as usize],
            options: Default::default(),
            clock: None,
        })
        .unwrap();
    let addr = server.addr().to_string();
    // Everyone joins before anyone acts, so that every connection's first view is of
    // action 0.
    let mut joined = vec![(None, join(&addr, &code, None).await)];
    for seat in 0..seats {
        joined.push((Some(seat), join(&addr, &code, Some(seat)).await));
    }
    let mut tasks = vec![];
    for (seat, (c, texts)) in joined {
        let returns = returning.then(|| (addr.clone(), code.clone()));
        tasks.push(tokio::spawn(follow(c, texts, seat, returns)));
    }
    let mut streams = vec![];
    for t in tasks {
        streams.push(t.await.unwrap());
    }
    // The whole replay, once the game is over: its seed and every action.
    let (_, _, c) = streams.last_mut().unwrap();
    c.send(&ClientMsg::Download {
        what: DownloadKind::Replay,
    })
    .await
    .unwrap();
    let replay = loop {
        if let Some(ServerMsg::Download { text, .. }) = c.recv().await {
            break Replay::from_json(&text).unwrap();
        }
    };
    // Table k of the server has seed SEED + k.
    assert!(replay.setup.seed.wrapping_sub(SEED) < 16);
    let seed = replay.setup.seed.to_string();

    // Each message by the action number it carries (messages before any table: 0).
    let mut by_number: BTreeMap<u64, Vec<(Option<u8>, String)>> = BTreeMap::new();
    // The action lines each return brought: (seat, the action's number, its seat, label).
    let mut brought: Vec<(u8, u64, u8, String)> = vec![];
    let mut returns = 0;
    for (seat, texts, _) in &streams {
        for t in texts {
            let m: ServerMsg = serde_json::from_str(t).unwrap();
            let n = m.number().unwrap_or(0);
            // A whole view carries the seat's log: each entry may name a card the seat saw
            // when it was new and cannot see now, so each is searched at the action it
            // belongs to (an action's line and the lines after it: that action's number, as
            // the live update that first told it); the rest of the message at its own.
            let text = match m {
                ServerMsg::Update(mut u) if u.resync => {
                    assert!(u.view.log.is_empty(), "a whole view's log is in `told`");
                    // Lines before the first action line belong to the action before it
                    // (the log's oldest entries may have been left out): none, at first.
                    let mut k = u
                        .told
                        .iter()
                        .find_map(|e| match e {
                            Told::Action { number, .. } => Some(number - 1),
                            Told::Line(_) => None,
                        })
                        .unwrap_or(u.number);
                    for e in std::mem::take(&mut u.told) {
                        if let Told::Action {
                            number,
                            seat: by,
                            label,
                            ..
                        } = &e
                        {
                            k = *number;
                            if let Some(s) = seat {
                                brought.push((*s, k, *by, label.clone()));
                            }
                        }
                        let text = serde_json::to_string(&e).unwrap();
                        by_number.entry(k).or_default().push((*seat, text));
                    }
                    if u.number > 0 {
                        assert!(returning, "joined at action 0");
                        assert_eq!(k, u.number, "a return brings every action up to its own");
                        returns += 1;
                    }
                    ServerMsg::Update(u).to_text()
                }
                _ => t.clone(),
            };
            by_number.entry(n).or_default().push((*seat, text));
        }
    }
    assert!(!returning || returns > 0, "no seat came back");
    let mut g = Game::new(def.clone(), replay.setup.clone()).unwrap();
    // Each action's own and public labels, made before it as the server makes them.
    let mut labels: Vec<(u8, String, String)> = vec![];
    {
        let mut l = Game::new(def.clone(), replay.setup.clone()).unwrap();
        for step in &replay.steps {
            let by = l.active();
            let own = l.describe_for(&step.action, Some(by));
            let public = l.describe_for(&step.action, None);
            labels.push((by, own, public));
            l.apply(&step.action).unwrap();
        }
    }
    let game = def.id.as_str();
    let mut found = vec![];
    for (s, k, by, label) in &brought {
        let (actor, own, public) = &labels[*k as usize - 1];
        assert_eq!(by, actor, "{game}: action {k}'s seat");
        let shown = if s == actor { own } else { public };
        if label != shown {
            found.push(format!(
                "{game}, action {k}: seat {} coming back is told `{label}` for seat {}'s action, not `{shown}`",
                s + 1,
                by + 1
            ));
        }
    }
    let mut leaks: BTreeMap<Option<u8>, String> = BTreeMap::new();
    for n in 0..=replay.steps.len() as u64 {
        if n > 0 {
            g.apply(&replay.steps[n as usize - 1].action).unwrap();
        }
        for (seat, text) in by_number.get(&n).into_iter().flatten() {
            if leaks.contains_key(seat) {
                continue;
            }
            let who = seat.map_or("the spectator".to_string(), |s| format!("seat {}", s + 1));
            if let Some(leak) = meant_leak(&mut g, game, *seat, text) {
                let leak = format!("{game}, action {n}: {who} is sent {leak}");
                leaks.insert(*seat, leak.clone());
                found.push(leak);
                continue;
            }
            let mut hidden = secrets_for(&g, *seat);
            // By meaning (a spectator is everyone's rival).
            let (meant, open) = meant_words(&g, game, seat.unwrap_or(u8::MAX));
            hidden.extend(meant.difference(&open).cloned());
            hidden.insert(seed.clone());
            // A whole word only: `cs-t1` is no secret inside a public `cs-t11`.
            if let Some((w, at)) = hidden
                .iter()
                .find_map(|w| farebox::leaks::find_word(text, w).map(|at| (w, at)))
            {
                let around: String = text
                    .chars()
                    .skip(text[..at].chars().count().saturating_sub(60))
                    .take(120 + w.chars().count())
                    .collect();
                let leak = format!("{game}, action {n}: {who} is sent `{w}`, in: {around}");
                leaks.insert(*seat, leak.clone());
                found.push(leak);
            }
        }
    }
    found
}

/// A secret by meaning in one message to `seat` (None: the spectator), `game` as it is at the
/// message's action number: a card shown in a zone the rules keep face down or in another
/// seat's hand, or Where's My Ride?'s pickup spot named to a Rider or a watcher anywhere but
/// where all nine places are shown alike (the zones, whose cards are searched by the caller,
/// and the menu of guesses).
fn meant_leak(g: &mut Game, game: &str, seat: Option<u8>, text: &str) -> Option<String> {
    let rival = seat.unwrap_or(u8::MAX);
    // A message, or one entry of the log a whole view brought.
    let searched = match serde_json::from_str::<ServerMsg>(text) {
        Ok(ServerMsg::Update(mut u)) => {
            if let Some(z) = u
                .view
                .zones
                .iter()
                .find(|z| !z.cards.is_empty() && secret_by_meaning(game, &z.id, z.owner, rival))
            {
                return Some(format!(
                    "the cards of {} ({:?}): {:?}",
                    z.id, z.owner, z.cards
                ));
            }
            u.view.zones.clear();
            u.offered.clear();
            ServerMsg::Update(u).to_text()
        }
        _ => text.to_string(),
    };
    let words = wmr_answer_hidden_from(g, game, seat);
    let w = words.iter().find(|w| searched.contains(w.as_str()))?;
    Some(format!("the pickup spot, `{w}`, in: {searched}"))
}

/// A copy of a bundled game with its files edited (find, replace: each found once).
fn edited(id: &str, file: &str, edits: &[(&str, &str)]) -> Arc<GameDef> {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut(id).unwrap();
    let text = src.files.get_mut(file).unwrap();
    for (find, replace) in edits {
        assert_eq!(text.matches(find).count(), 1, "{file}: {find}");
        *text = text.replacen(find, replace, 1);
    }
    let src = src.clone();
    Arc::new(farebox::content::load_mod(&src, &mods).unwrap())
}

fn load(id: &str) -> Arc<GameDef> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mods");
    let resolver = farebox::source::FolderResolver::new(root.clone());
    Arc::new(
        farebox::content::load_mod(&farebox::source::FsSource::new(root.join(id)), &resolver)
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_connection_is_sent_what_its_seat_may_not_know() {
    let defs: Vec<Arc<GameDef>> = farebox_suite::games().iter().map(|g| load(g)).collect();
    let server = server(&defs, false);
    for def in &defs {
        if let Some(leak) = first_wire_leak(&server, def).await {
            panic!("a leak on the wire: {leak}");
        }
    }
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

/// Seats that leave and come back with their token: what each return brings (the view, the
/// log of the actions before it) is searched like everything else, and every action's line
/// in it is the one the seat was shown live, never another seat's private label.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_seat_coming_back_is_sent_what_it_may_not_know() {
    let defs: Vec<Arc<GameDef>> = farebox_suite::games().iter().map(|g| load(g)).collect();
    let server = server(&defs, false);
    for def in &defs {
        let leaks = wire_leaks_with(&server, def, true).await;
        if let Some(leak) = leaks.first() {
            panic!("a leak on the wire: {leak}");
        }
    }
    tokio::task::spawn_blocking(move || drop(server))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wire_search_finds_a_leaky_servers_leak() {
    for id in ["curbside", "critter-cab"] {
        let def = load(id);
        let server = server(std::slice::from_ref(&def), true);
        let leak = first_wire_leak(&server, &def).await;
        let leak = leak.unwrap_or_else(|| panic!("{id}: the leaky server's leak was not found"));
        assert!(leak.contains("action 0"), "found at once: {leak}");
        eprintln!("{leak}");
        tokio::task::spawn_blocking(move || drop(server))
            .await
            .unwrap();
    }
}

/// A leaky copy: what it leaks, the file changed, and the edits (find, replace).
type LeakyCopy = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wire_search_finds_wheres_my_rides_secrets_made_public() {
    // Where's My Ride? copies that make one secret public in a way nothing marks as secret
    // any more (the same breaks tests/leaks/main.rs catches on the screen), served by an honest
    // server: the search by meaning must find each on the wire.
    const RULES: &str = "rules/wheres-my-ride.luau";
    let copies: [LeakyCopy; 3] = [
        (
            "the answer is written into a log line everyone reads",
            RULES,
            &[(
                "game.log(game.seat_name(seat) .. \" is done, \" .. how",
                "game.log(game.seat_name(seat) .. \" is done (\" .. LOCATIONS[game.get(\"_answer\")].name .. \"), \" .. how",
            )],
        ),
        (
            "the answer's tags are written into the label of an action",
            RULES,
            &[
                (
                    "local ZONES: { [string]: number } = {}",
                    "local ZONES: { [string]: number } = {}\nlocal KEPT = { tags = {} }",
                ),
                (
                    "game.set_secret(\"_answer\", answer, d)",
                    "game.set_secret(\"_answer\", answer, d)\n\tKEPT.tags = LOCATIONS[answer].tags",
                ),
                (
                    "return { \"Puts \" .. emoji_said(token) .. \" on \" .. sender .. \"'s text\" }",
                    "return { \"Puts \" .. emoji_said(token) .. \" on \" .. sender .. \"'s text (\" .. table.concat(KEPT.tags, \", \") .. \")\" }",
                ),
            ],
        ),
        (
            "the Driver's emojis lie face up",
            "pieces.toml",
            &[(
                "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"owner\"",
                "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"public\"",
            )],
        ),
    ];
    for (what, file, edits) in copies {
        let def = edited("wheres-my-ride", file, edits);
        let server = server(std::slice::from_ref(&def), false);
        let leaks = wire_leaks(&server, &def).await;
        // Found for a Rider (the Driver may know all of it), not only for the spectator.
        let rider = leaks.iter().find(|l| l.contains(": seat "));
        let leak = rider.unwrap_or_else(|| panic!("{what}: not found for a Rider: {leaks:?}"));
        eprintln!("{what}: {}", leak.chars().take(200).collect::<String>());
        tokio::task::spawn_blocking(move || drop(server))
            .await
            .unwrap();
    }
}
