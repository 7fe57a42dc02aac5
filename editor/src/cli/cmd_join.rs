//! `farebox play --join ADDR CODE` (and `farebox play MOD --host ADDR`): a seat at a table of
//! a `farebox serve` server, in the terminal.
//!
//! Everything shown comes from the server, which sends only what the seat may see: its view
//! (drawn as `farebox play` draws it, by `play_view`), the label each action has for it, its
//! log lines, and the actions offered when it is its turn (a menu, by `crate::menu`). The mod is
//! loaded here only to name and draw things; the server refuses a copy whose content differs
//! from the table's. The board is drawn as `farebox play` draws it: a grid from the view's
//! tiles, a graph, sections city or track from the board as it lies on the table (which the
//! server sends: public to everyone), the pieces from the view. A turn's screen fits a
//! terminal of 100 x 40 like the local game's (`c` and `i` show what it folded away), with what
//! happened since the seat's last turn above the menu; a watcher is told each action at once.

use std::time::Duration;

use farebox::GameDef;
use farebox::board::Board;
use farebox::game::View;
use farebox_server::client::{Client, Event, Latest};
use farebox_server::protocol::{
    ClientMsg, PERSON, SeatStatus, ServerMsg, Sitter, TableBoard, Told, Update,
};

use crate::cli::PlayArgs;
use crate::cli::play_loop::{self, Next, Source, Turn, show};
use crate::cli::play_view::Known;
use crate::common::{Fail, Io, clean_line, cut, load_for_play, result_line, shown, split_list};

/// How long to wait for the server's answer to a request.
const WAIT: Duration = Duration::from_secs(30);
const MAX_LABEL: usize = 300;

pub fn run(args: PlayArgs, io: &mut Io) -> Result<i32, Fail> {
    let (addr, code) = match (&args.join, &args.host) {
        (Some(j), _) if j.len() == 2 => (j[0].clone(), Some(j[1].clone())),
        (_, Some(h)) => (h.clone(), None),
        _ => return Err(Fail::Usage("--join takes ADDR CODE".into())),
    };
    let client = Client::connect(&addr, WAIT).map_err(Fail::Invalid)?;
    let code = match code {
        Some(c) => c,
        None => host(&args, &client, &addr, io)?,
    };
    let (mod_id, _, seats) = client.look(&code, WAIT).map_err(Fail::Invalid)?;
    let def = load_for_play(&mod_id, io)?;
    let hash = Some(def.content_hash.as_str());
    let seated = if let Some(t) = &args.token {
        client.rejoin(&code, t, hash, WAIT)
    } else {
        let seat = if args.watch {
            None
        } else if let Some(n) = args.seat {
            if n == 0 || n as usize > seats.len() {
                return Err(Fail::Usage(format!(
                    "--seat {n}: the table has seats 1 to {}",
                    seats.len()
                )));
            }
            Some(n - 1)
        } else {
            let open = seats
                .iter()
                .find(|s| s.kind == Sitter::Open)
                .map(|s| s.seat);
            if open.is_none() {
                io.say("No seat is open at this table: you watch.");
            }
            open
        };
        client.join(&code, seat, &args.name, hash, WAIT)
    }
    .map_err(Fail::Invalid)?;
    match (seated.seat, &seated.token) {
        (Some(s), Some(t)) => io.say(format!(
            "{} {} at table {code} on {addr}: you are {}. To come back to this seat:\n  farebox play --join {addr} {code} --token {t}",
            def.name,
            def.version,
            def.seat_name(s as usize)
        )),
        _ => io.say(format!(
            "{} {} at table {code} on {addr}: you are watching.",
            def.name, def.version
        )),
    }
    let mut online = Online::new(&client, &def, seated.seat);
    play_loop::play(io, &mut online)
}

/// An action's line in what happened: "  Blue (bot): Drive to Oak Street".
fn action_line(def: &GameDef, seat: u8, label: &str, by_bot: bool) -> String {
    let bot = if by_bot { " (bot)" } else { "" };
    format!(
        "  {}{bot}: {}",
        def.seat_name(seat as usize),
        cut(label, MAX_LABEL)
    )
}

/// A line the rules wrote, in what happened.
fn rules_line(l: &str) -> String {
    format!("      * {l}")
}

/// What a seat that (re)joins is told happened before, from the log a whole view brings, as
/// a client there all along would have been told it: the actions since the seat's own last
/// choice (a watcher: all of them) with their lines, the ones after `upto` only (those up to
/// it were told already), and not the lines written before the first action (nobody is told
/// those).
fn catch_up(def: &GameDef, told: &[Told], me: Option<u8>, upto: u64) -> Vec<String> {
    let mine =
        |t: &Told| matches!(t, Told::Action { seat, by_bot: false, .. } if me == Some(*seat));
    // From the seat's own last action on: its lines are told, its label is not.
    let from = told.iter().rposition(mine).unwrap_or(0);
    let mut at = 0;
    let mut out = vec![];
    for t in &told[from..] {
        match t {
            Told::Action {
                number,
                seat,
                label,
                by_bot,
                ..
            } => {
                at = *number;
                if at > upto && !mine(t) {
                    out.push(action_line(def, *seat, label, *by_bot));
                }
            }
            Told::Line(l) if at > upto && at > 0 => out.push(rules_line(l)),
            Told::Line(_) => {}
        }
    }
    out
}

/// A turn clock's time left, as m:ss.
fn clock_text(left: Duration) -> String {
    let s = left.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Opens a table of the mod with --seats on the server; its code.
fn host(args: &PlayArgs, client: &Client, addr: &str, io: &mut Io) -> Result<String, Fail> {
    let def = load_for_play(args.game.as_deref().unwrap_or_default(), io)?;
    let spec = args.seats.clone().unwrap_or_else(|| {
        let bot = def.bots.first().map_or("random", |b| b.id.as_str());
        format!("human,{bot}")
    });
    let seats: Vec<String> = split_list(&spec, "--seats")?
        .into_iter()
        .map(|s| if s == "human" { PERSON.to_string() } else { s })
        .collect();
    let mut options = std::collections::BTreeMap::new();
    for o in &args.options {
        let Some((k, v)) = o.split_once('=') else {
            return Err(Fail::Usage(format!(
                "option `{}` should be written id=value",
                shown(o, 80)
            )));
        };
        options.insert(k.to_string(), v.to_string());
    }
    client.send(ClientMsg::Create {
        mod_id: def.id.clone(),
        seats,
        options,
        clock: args.clock,
    });
    let code = match client
        .wait_for(WAIT, |m| matches!(m, ServerMsg::Created { .. }))
        .map_err(Fail::Invalid)?
    {
        ServerMsg::Created { code, .. } => code,
        _ => return Err(Fail::Invalid("the server made no table".into())),
    };
    io.say(format!(
        "Table {code} is open: the others join with `farebox play --join {addr} {code}`"
    ));
    Ok(code)
}

/// Who sits where, as one line: "Red: Ada (you), Blue: random (bot), Green: Bo (gone; a bot
/// plays for now)".
fn seats_line(def: &GameDef, seats: &[SeatStatus], me: Option<u8>) -> String {
    let parts: Vec<String> = seats
        .iter()
        .map(|s| {
            let who = match s.kind {
                Sitter::Open => "open".to_string(),
                Sitter::Bot => format!("{} (bot)", s.bot.clone().unwrap_or_default()),
                Sitter::Person => {
                    let name = cut(s.player.as_deref().unwrap_or("someone"), 40);
                    let you = if me == Some(s.seat) { ", you" } else { "" };
                    match (&s.bot, s.connected) {
                        (Some(b), _) => format!("{name} (gone; {b} bot plays for now{you})"),
                        (None, false) => format!("{name} (gone{you})"),
                        (None, true) if me == Some(s.seat) => format!("{name} (you)"),
                        (None, true) => name,
                    }
                }
            };
            format!("{}: {who}", def.seat_name(s.seat as usize))
        })
        .collect();
    format!("Seats: {}", parts.join(", "))
}

/// The keys in full, after a line that did not fit the menu.
const MENU_HELP: &str = "Type a number to choose (several, like `3 1 2`, go down several levels), b to go back, m for more choices, ? to show the whole game, c for the map's codes, i for what the screen left out, q to leave (your token brings you back).";

/// A seat at a table online: the source of the terminal's turns ([`play_loop::Source`]),
/// from the server's updates.
struct Online<'a> {
    client: &'a Client,
    def: &'a GameDef,
    me: Option<u8>,
    said_seats: String,
    waiting_for: Option<(u8, u64)>,
    /// What everyone at the table knows besides the view: the board as it lies (sent by the
    /// server for graph, sections and track boards), the zones that have held cards.
    known: Known,
    board_seen: Option<TableBoard>,
    board: Option<Board>,
    /// What happened since this seat last chose, shown on its next screen (a watcher is told
    /// at once).
    news: Vec<String>,
    first_turn: bool,
    /// The view (and what the table knew) this seat's last screen showed.
    shown: Option<(View, Known)>,
    /// Whether the log of the first whole view was told: it tells a seat that (re)joins what
    /// happened before (`told_upto`: the last action already told from an update of its
    /// own, which the log holds too).
    caught_up: bool,
    told_upto: u64,
    /// The action number and the actions of the turn the seat is deciding.
    number: u64,
    actions: Vec<String>,
}

impl<'a> Online<'a> {
    fn new(client: &'a Client, def: &'a GameDef, me: Option<u8>) -> Online<'a> {
        // The view joining brought was taken in by `join`; this one starts the loop.
        client.resync();
        Online {
            client,
            def,
            me,
            said_seats: String::new(),
            waiting_for: None,
            known: Known::default(),
            board_seen: None,
            board: None,
            news: vec![],
            first_turn: true,
            shown: None,
            caught_up: false,
            told_upto: 0,
            number: 0,
            actions: vec![],
        }
    }

    /// Tells what happened: to a seat on its next screen, to a watcher at once.
    fn tell(&mut self, io: &mut Io, told: Vec<String>) {
        if self.me.is_some() {
            self.news.extend(told);
        } else {
            for l in told {
                io.say(clean_line(&l).into_owned());
            }
        }
    }

    /// The next update from the server (None when none came, or another message did) and the
    /// client's latest state then, saying the seats when they changed.
    fn update(&mut self, io: &mut Io) -> Result<(Option<Box<Update>>, Latest), Fail> {
        let ev = self.client.next_event(Duration::from_millis(500));
        let update: Option<Box<Update>> = match ev {
            Some(Event::Msg(ServerMsg::Update(u))) => Some(u),
            Some(Event::Msg(ServerMsg::Refused { reason, .. })) => {
                io.say(format!("Refused: {}", clean_line(&reason)));
                None
            }
            Some(Event::Msg(ServerMsg::Error { reason })) => {
                io.say(format!("Server: {}", clean_line(&reason)));
                None
            }
            Some(Event::Msg(ServerMsg::Bye { reason })) | Some(Event::Closed(reason)) => {
                return Err(Fail::Invalid(format!(
                    "the server ended the connection: {}",
                    clean_line(&reason)
                )));
            }
            _ => None,
        };
        let latest = self.client.latest();
        let line = seats_line(self.def, latest.seats(), self.me);
        if line != self.said_seats {
            io.say(clean_line(&line).into_owned());
            self.said_seats = line;
        }
        Ok((update, latest))
    }

    /// Takes in what an update tells: the log a first whole view brings, else the action (by
    /// the label it has for this seat) and its log lines.
    fn take_in(&mut self, io: &mut Io, u: &Update) {
        let def = self.def;
        if u.resync && !self.caught_up {
            self.caught_up = true;
            let told = catch_up(def, &u.told, self.me, self.told_upto);
            self.tell(io, told);
        }
        if !u.resync {
            self.told_upto = u.number;
            let mut told = vec![];
            for t in &u.told {
                match t {
                    Told::Action {
                        seat,
                        label,
                        by_bot,
                        ..
                    } if self.me != Some(*seat) || *by_bot => {
                        told.push(action_line(def, *seat, label, *by_bot));
                    }
                    Told::Action { .. } => {}
                    Told::Line(l) => told.push(rules_line(l)),
                }
            }
            self.tell(io, told);
        }
    }

    /// This seat's turn: the game, what happened since its last turn and the menu of the
    /// actions offered.
    fn turn(&mut self, view: View, u: &Update) -> Turn {
        self.actions = u.offered.iter().map(|o| o.action.clone()).collect();
        self.number = u.number;
        let paths: Vec<Vec<String>> = u
            .offered
            .iter()
            .map(|o| o.path.iter().map(|p| cut(p, MAX_LABEL)).collect())
            .collect();
        // The same seat again in the same turn: what its action did and what changed, not
        // the whole game again (as the local game does).
        let before = self
            .shown
            .take()
            .filter(|(before, _)| before.turn == view.turn);
        let mut news = vec![];
        if !self.news.is_empty() {
            let head = match (&before, self.first_turn) {
                (Some(_), _) => "What happened:",
                (None, true) => "So far:",
                (None, false) => "Since your last turn:",
            };
            news.push(head.to_string());
            news.append(&mut self.news);
        }
        self.first_turn = false;
        self.shown = Some((view.clone(), self.known.clone()));
        Turn {
            known: self.known.clone(),
            before,
            news,
            again: vec![],
            actions: self.actions.clone(),
            paths,
            name: self
                .me
                .map_or_else(String::new, |s| self.def.seat_name(s as usize)),
            help: MENU_HELP,
            view,
        }
    }
}

impl Source for Online<'_> {
    fn def(&self) -> &GameDef {
        self.def
    }

    fn next(&mut self, io: &mut Io) -> Result<Next, Fail> {
        let def = self.def;
        loop {
            let (update, latest) = self.update(io)?;
            let Some(u) = update else { continue };
            self.take_in(io, &u);
            let Some(view) = latest.view().filter(|v| v.seat == u.view.seat).cloned() else {
                continue;
            };
            if latest.board() != self.board_seen.as_ref() {
                self.board_seen = latest.board().cloned();
                self.board = self.board_seen.as_ref().map(|b| b.to_board(def));
            }
            self.known.update_from(def, self.board.as_ref(), &view);
            if let Some(r) = &view.result {
                show(io, def, &view, &self.known);
                if !self.news.is_empty() {
                    io.say("Since your last turn:");
                    for l in self.news.drain(..) {
                        io.say(clean_line(&l).into_owned());
                    }
                }
                io.say(format!("Game over: {}", clean_line(&result_line(def, r))));
                self.client.send(ClientMsg::Leave);
                return Ok(Next::Done(0));
            }
            if u.offered.is_empty() {
                let to_act = (view.active, u.number);
                if self.waiting_for.is_none_or(|(s, _)| s != to_act.0) && self.me.is_some() {
                    let clock = latest
                        .clock()
                        .map(|(_, left)| format!(" ({} on their turn clock)", clock_text(left)))
                        .unwrap_or_default();
                    io.say(format!(
                        "Waiting for {}…{clock}",
                        def.seat_name(view.active as usize)
                    ));
                }
                self.waiting_for = Some(to_act);
                continue;
            }
            self.waiting_for = None;
            if let Some((_, left)) = latest.clock() {
                io.say(format!(
                    "You have {} for this decision; then the table's bot takes it for you.",
                    clock_text(left)
                ));
            }
            return Ok(Next::Turn(Box::new(self.turn(view, &u))));
        }
    }

    fn act(&mut self, _io: &mut Io, choice: usize) -> Result<(), Fail> {
        self.client.send(ClientMsg::Act {
            number: self.number,
            action: self.actions.get(choice).cloned().unwrap_or_default(),
        });
        Ok(())
    }

    fn leave(&mut self, io: &mut Io, closed: bool) -> i32 {
        io.say(if closed {
            "\nBye."
        } else {
            "Bye. Your seat waits for you (your token brings you back)."
        });
        self.client.send(ClientMsg::Leave);
        0
    }
}
