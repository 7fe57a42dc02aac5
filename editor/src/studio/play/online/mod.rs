//! The Play tab online: a table hosted by a server in this process, or joined at another
//! Studio's (or `farebox serve`'s) address with its code.
//!
//! Everything the screen shows comes from what the server sent this connection (its seat's
//! view, the labels its rules give that seat, the actions offered when it is to act, the
//! seats' status); the mod open in the Studio is only used to name and draw things. Every
//! call that waits on the network (starting the server, connecting, looking, joining,
//! downloading) runs on a thread of its own; the UI thread only reads what came in.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use farebox::GameDef;
use farebox::board::Board;
use farebox::content::def::BoardDef;
use farebox_server::client::{Client, Event, Latest, Seated};
use farebox_server::protocol::{
    ClientMsg, DownloadKind, SeatStatus, ServerMsg, Sitter, TableBoard,
};
use farebox_server::server::{Server, ServerConfig};
use farebox_server::table::TableSpec;

use crate::studio::worker::Snapshot;

mod board;
mod host;

pub use board::client_board;
use host::host_table;

/// How long a request waits for the server's answer.
const WAIT: Duration = Duration::from_secs(20);

/// What a table hosted here is made of (the new-game dialog's choices).
#[derive(Clone, Debug)]
pub struct HostSpec {
    /// Where to listen: `127.0.0.1:0` takes any free port on this machine only.
    pub addr: String,
    /// `person` or a bot spec, per seat.
    pub seats: Vec<String>,
    pub options: BTreeMap<String, String>,
    /// The name the host plays under.
    pub name: String,
    /// How long a person may be gone before a bot plays their seat.
    pub grace: Duration,
}

/// The table as `look` found it, before joining.
#[derive(Clone, Debug)]
pub struct Looked {
    pub code: String,
    pub mod_id: String,
    pub content_hash: String,
    pub seats: Vec<SeatStatus>,
}

/// Where the online session stands.
pub enum Stage {
    /// The join form: address and code, then (once looked at) the seat to take.
    Form { looked: Option<Looked> },
    /// Waiting for a background request (what it is, in words).
    Busy(String),
    /// At the table (also after the connection dropped: then `closed` says why).
    Table,
}

/// What a background request brings back.
enum Done {
    Hosted {
        server: Server,
        client: Client,
        seated: Seated,
    },
    Looked {
        client: Client,
        looked: Looked,
    },
    Joined {
        client: Client,
        seated: Seated,
    },
    Saved {
        client: Client,
        paths: Vec<String>,
    },
    /// The request failed; `form`: go back to the join form (else stay at the table). The
    /// connection it borrowed comes back with it.
    Failed {
        why: String,
        form: bool,
        client: Option<Client>,
    },
}

pub struct Online {
    ctx: egui::Context,
    def: Arc<GameDef>,
    /// The server this Studio hosts, while it hosts one.
    server: Option<Server>,
    client: Option<Client>,
    /// A connection looked through, not yet seated.
    looking: Option<Client>,
    job: Option<Receiver<Done>>,
    pub stage: Stage,
    pub addr: String,
    pub code: String,
    pub name: String,
    /// The seat to join (None: watch), in the join form.
    pub choice: Option<u8>,
    seated: Option<Seated>,
    latest: Latest,
    /// The board as it lies on the table: rebuilt from the one the server sent
    /// ([`WireBoard::to_board`], the spaces' tags and properties as sent), else the mod's own
    /// ([`client_board`]: a grid, whose tiles come in the view).
    board: Board,
    /// The board the server sent that [`Online::board`] was rebuilt from.
    sent_board: Option<TableBoard>,
    snap: Option<Snapshot>,
    /// What the server refused or could not do, in words.
    pub problem: Option<String>,
    /// The last stale action and the resync that answered it.
    pub resynced: Option<String>,
    /// Why the connection ended, once it has.
    pub closed: Option<String>,
    /// Where downloads go, as typed.
    pub seat_path: String,
    pub replay_path: String,
    /// Where downloads went.
    pub saved: Vec<String>,
}

impl Online {
    fn new(ctx: &egui::Context, def: Arc<GameDef>, stage: Stage) -> Online {
        Online {
            ctx: ctx.clone(),
            board: client_board(&def),
            sent_board: None,
            def,
            server: None,
            client: None,
            looking: None,
            job: None,
            stage,
            addr: String::new(),
            code: String::new(),
            name: String::new(),
            choice: None,
            seated: None,
            latest: Latest::default(),
            snap: None,
            problem: None,
            resynced: None,
            closed: None,
            seat_path: String::new(),
            replay_path: String::new(),
            saved: Vec::new(),
        }
    }

    /// Starts a server in this process with a table of `def`, and joins its first person's
    /// seat.
    pub fn host(ctx: &egui::Context, def: Arc<GameDef>, spec: HostSpec) -> Online {
        let mut o = Online::new(ctx, def.clone(), Stage::Busy("Starting the server…".into()));
        o.addr = spec.addr.clone();
        o.name = spec.name.clone();
        o.spawn(move || host_table(def, spec));
        o
    }

    /// The join form, at `addr` when given.
    pub fn join_form(ctx: &egui::Context, def: Arc<GameDef>, addr: &str, name: &str) -> Online {
        let mut o = Online::new(ctx, def, Stage::Form { looked: None });
        o.addr = addr.to_string();
        o.name = name.to_string();
        o
    }

    /// Runs `f` on a thread of its own; its answer is taken in by [`Online::poll`].
    fn spawn(&mut self, f: impl FnOnce() -> Done + Send + 'static) {
        let (tx, rx) = channel();
        let wake = crate::studio::waker(&self.ctx);
        let spawned = std::thread::Builder::new()
            .name("farebox-online".into())
            .spawn(move || {
                let _ = tx.send(f());
                wake();
            });
        match spawned {
            Ok(_) => self.job = Some(rx),
            Err(e) => self.problem = Some(format!("cannot start a thread: {e}")),
        }
    }

    /// Connects to the form's address and looks at the table with the form's code.
    pub fn look(&mut self) {
        let addr = self.addr.trim().to_string();
        let code = self.code.trim().to_ascii_uppercase();
        self.problem = None;
        self.looking = None;
        self.stage = Stage::Busy(format!("Looking at table {code} on {addr}…"));
        self.spawn(move || {
            let client = match Client::connect(&addr, WAIT) {
                Ok(c) => c,
                Err(why) => {
                    return Done::Failed {
                        why,
                        form: true,
                        client: None,
                    };
                }
            };
            match client.look(&code, WAIT) {
                Ok((mod_id, content_hash, seats)) => Done::Looked {
                    client,
                    looked: Looked {
                        code,
                        mod_id,
                        content_hash,
                        seats,
                    },
                },
                Err(why) => Done::Failed {
                    why,
                    form: true,
                    client: None,
                },
            }
        });
    }

    /// Takes the chosen seat (or watches) at the table looked at.
    pub fn join(&mut self) {
        let Stage::Form {
            looked: Some(looked),
        } = &self.stage
        else {
            return;
        };
        let Some(client) = self.looking.take() else {
            return;
        };
        let code = looked.code.clone();
        let seat = self.choice;
        let name = self.name.trim().to_string();
        let hash = self.def.content_hash.clone();
        self.problem = None;
        self.stage = Stage::Busy(match seat {
            Some(s) => format!("Taking the seat of {}…", self.def.seat_name(s as usize)),
            None => "Joining as a watcher…".into(),
        });
        self.spawn(
            move || match client.join(&code, seat, &name, Some(&hash), WAIT) {
                Ok(seated) => Done::Joined { client, seated },
                Err(why) => Done::Failed {
                    why,
                    form: true,
                    client: None,
                },
            },
        );
    }

    /// Comes back to the seat with its token, on a new connection.
    pub fn rejoin(&mut self) {
        let Some((code, token)) = self
            .seated
            .as_ref()
            .and_then(|s| Some((s.code.clone(), s.token.clone()?)))
        else {
            return;
        };
        let addr = self.addr.clone();
        let hash = self.def.content_hash.clone();
        // The old connection goes (its thread ends on a thread of its own).
        if let Some(c) = self.client.take() {
            std::thread::spawn(move || drop(c));
        }
        self.stage = Stage::Busy(format!("Rejoining table {code}…"));
        self.spawn(move || {
            let client = match Client::connect(&addr, WAIT) {
                Ok(c) => c,
                Err(why) => {
                    return Done::Failed {
                        why,
                        form: false,
                        client: None,
                    };
                }
            };
            match client.rejoin(&code, &token, Some(&hash), WAIT) {
                Ok(seated) => Done::Joined { client, seated },
                Err(why) => Done::Failed {
                    why,
                    form: false,
                    client: None,
                },
            }
        });
    }

    /// Sends an action chosen on the screen drawn at action `number`. An action sent from an
    /// older screen than the table's is refused by the server, which sends the game again.
    pub fn act_at(&mut self, number: u64, action: &str) {
        if let Some(c) = &self.client {
            self.resynced = None;
            c.send(ClientMsg::Act {
                number,
                action: action.to_string(),
            });
        }
    }

    /// Downloads this seat's record of the finished game (and the whole replay) and saves
    /// them where the fields say.
    pub fn download(&mut self, seat: bool, replay: bool) {
        let Some(client) = self.client.take() else {
            return;
        };
        let mut wanted: Vec<(DownloadKind, PathBuf)> = Vec::new();
        if seat {
            wanted.push((DownloadKind::Seat, PathBuf::from(self.seat_path.trim())));
        }
        if replay {
            wanted.push((DownloadKind::Replay, PathBuf::from(self.replay_path.trim())));
        }
        self.problem = None;
        self.stage = Stage::Busy("Downloading the game's records…".into());
        self.spawn(move || {
            let mut saved = Vec::new();
            for (what, path) in wanted {
                let text = match client.download(what, WAIT) {
                    Ok(t) => t,
                    Err(why) => {
                        return Done::Failed {
                            why,
                            form: false,
                            client: Some(client),
                        };
                    }
                };
                let path = absolute(&path);
                if let Err(e) = farebox::source::write_atomic(&path, &text) {
                    return Done::Failed {
                        why: format!("cannot write {}: {e}", path.display()),
                        form: false,
                        client: Some(client),
                    };
                }
                saved.push(path.display().to_string());
            }
            Done::Saved {
                client,
                paths: saved,
            }
        });
    }

    /// Forgets an answer still to come (the request's thread drops what it brings).
    pub fn cancel(&mut self) {
        self.job = None;
        self.stage = match self.client {
            Some(_) => Stage::Table,
            None => Stage::Form { looked: None },
        };
    }

    /// Takes in what came: a request's answer, the server's messages.
    pub fn poll(&mut self) {
        if let Some(rx) = &self.job {
            match rx.try_recv() {
                Ok(done) => {
                    self.job = None;
                    self.done(done);
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.job = None;
                    self.problem = Some("the request's thread stopped without an answer".into());
                    self.cancel();
                }
            }
        }
        let Some(client) = &self.client else {
            return;
        };
        let events = client.drain_events();
        if !events.is_empty() {
            // Every message the client took in came as an event: only then is there news.
            // The log is the client's own, whole: never added to from events, which the
            // latest may already hold (a view taken in while the screen was being built).
            self.latest = client.latest();
            for e in events {
                self.event(e);
            }
            if self.latest.closed.is_some() && self.closed.is_none() {
                self.closed = self.latest.closed.clone();
            }
            self.rebuild();
        }
        if self.closed.is_none() {
            // The server's messages come on the client's thread: look again soon.
            self.ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    fn done(&mut self, done: Done) {
        match done {
            Done::Hosted {
                server,
                client,
                seated,
            } => {
                self.addr = server.addr().to_string();
                self.server = Some(server);
                self.seated_at(client, seated);
            }
            Done::Looked { client, looked } => {
                self.addr = self.addr.trim().to_string();
                self.choice = looked
                    .seats
                    .iter()
                    .find(|s| s.kind == Sitter::Open)
                    .map(|s| s.seat);
                self.code = looked.code.clone();
                self.looking = Some(client);
                self.stage = Stage::Form {
                    looked: Some(looked),
                };
            }
            Done::Joined { client, seated } => self.seated_at(client, seated),
            Done::Saved { client, paths } => {
                self.client = Some(client);
                for p in paths {
                    self.saved.retain(|s| *s != p);
                    self.saved.push(p);
                }
                self.stage = Stage::Table;
            }
            Done::Failed { why, form, client } => {
                if client.is_some() {
                    self.client = client;
                }
                self.problem = Some(why);
                self.stage = if form && self.client.is_none() {
                    Stage::Form { looked: None }
                } else {
                    Stage::Table
                };
            }
        }
    }

    fn seated_at(&mut self, client: Client, seated: Seated) {
        self.latest = client.latest();
        self.code = seated.code.clone();
        self.set_board(self.latest.board().cloned());
        self.closed = None;
        self.problem = None;
        self.resynced = None;
        // Default names in the folder the Studio runs in: the seat's own record names the
        // seat, the whole replay only the table.
        let table = format!("{}-{}", self.def.id, seated.code).to_lowercase();
        if self.seat_path.is_empty() {
            let seat = seated.seat.map_or(String::new(), |s| {
                format!("-{}", self.def.seat_name(s as usize))
            });
            self.seat_path = format!("{table}{seat}.txt")
                .to_lowercase()
                .replace(' ', "-");
        }
        if self.replay_path.is_empty() {
            self.replay_path = format!("{table}.replay.json");
        }
        self.seated = Some(seated);
        self.client = Some(client);
        self.stage = Stage::Table;
        self.rebuild();
    }

    fn event(&mut self, e: Event) {
        match e {
            Event::Msg(ServerMsg::Update(u)) => {
                if u.resync
                    && let Some(r) = &mut self.resynced
                    && !r.contains("Resynced")
                {
                    r.push_str(&format!(
                        " Resynced: the game is shown as it is now, at action {}.",
                        u.number
                    ));
                }
            }
            Event::Msg(ServerMsg::Refused { reason, .. }) => {
                self.resynced = Some(format!("The server refused your action: {reason}."));
            }
            Event::Msg(ServerMsg::Error { reason }) => self.problem = Some(reason),
            Event::Msg(ServerMsg::ContentMismatch { message, .. }) => self.problem = Some(message),
            Event::Msg(ServerMsg::Bye { reason }) | Event::Closed(reason) => {
                self.closed.get_or_insert(reason);
            }
            Event::Msg(_) => {}
        }
    }

    /// Rebuilds the board from the one the server sent, when it changed; without one, the
    /// mod's own.
    fn set_board(&mut self, sent: Option<TableBoard>) {
        if sent == self.sent_board {
            return;
        }
        self.board = match &sent {
            Some(b) => b.to_board(&self.def),
            None => client_board(&self.def),
        };
        self.sent_board = sent;
    }

    /// Whether the board is drawn: a sections city or a track only once the server sent it
    /// (until then their pieces are listed by the spaces they stand on).
    pub fn board_drawn(&self) -> bool {
        self.sent_board.is_some()
            || !matches!(self.def.board, BoardDef::Sections(_) | BoardDef::Track(_))
    }

    /// The game as the Play tab draws it: the table as the server last showed it.
    fn rebuild(&mut self) {
        self.set_board(self.latest.board().cloned());
        self.snap = self
            .latest
            .table
            .clone()
            .map(|t| Snapshot::new(self.def.clone(), t, self.board.clone(), None));
    }

    /// The snapshot, taken out while the screen draws it (see [`Online::put_snapshot`]).
    pub(super) fn take_snapshot(&mut self) -> Option<Snapshot> {
        self.snap.take()
    }

    /// Puts the snapshot back after drawing, unless a newer one came meanwhile.
    pub(super) fn put_snapshot(&mut self, snap: Snapshot) {
        if self.snap.is_none() {
            self.snap = Some(snap);
        }
    }

    pub fn def(&self) -> &Arc<GameDef> {
        &self.def
    }

    /// The game as last drawn (from the server's latest view for this seat).
    pub fn snapshot(&self) -> Option<&Snapshot> {
        self.snap.as_ref()
    }

    /// The seats as the server last told them.
    pub fn seats(&self) -> &[SeatStatus] {
        self.latest.seats()
    }

    /// The seat to act and the time left on its turn clock, counting down (None: no clock).
    pub fn clock(&self) -> Option<(u8, std::time::Duration)> {
        self.latest.clock()
    }

    /// Where the connection sits (its code, seat and token).
    pub fn seated(&self) -> Option<&Seated> {
        self.seated.as_ref()
    }

    /// The table's action number of the latest view.
    pub fn number(&self) -> u64 {
        self.latest.number
    }

    /// The action number of a game this Studio sits at, not over and still connected.
    pub fn in_progress(&self) -> Option<usize> {
        let snap = self.snap.as_ref()?;
        (self.client.is_some() && self.closed.is_none() && snap.result().is_none())
            .then_some(self.latest.number as usize)
    }

    /// Whether this Studio runs the table's server.
    pub fn hosting(&self) -> bool {
        self.server.is_some()
    }

    /// How many other people sit at a table hosted here, connected: leaving stops their game.
    pub fn hosted_for(&self) -> usize {
        if !self.hosting() {
            return 0;
        }
        let mine = self.seated.as_ref().and_then(|s| s.seat);
        self.latest
            .seats()
            .iter()
            .filter(|s| s.kind == Sitter::Person && s.connected && Some(s.seat) != mine)
            .count()
    }

    /// Whether a request is waiting for its answer.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// The actions offered now, by label.
    pub fn offered(&self) -> &[farebox_server::protocol::Offer] {
        self.latest.offered()
    }

    /// Stops the session: leaves the table, and stops a server hosted here, on a thread of
    /// its own (a server takes up to a couple of seconds to close its connections).
    pub fn stop(&mut self) {
        self.job = None;
        let client = self.client.take();
        let looking = self.looking.take();
        let server = self.server.take();
        if client.is_none() && looking.is_none() && server.is_none() {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("farebox-online-stop".into())
            .spawn(move || {
                if let Some(c) = &client {
                    c.send(ClientMsg::Leave);
                }
                drop(client);
                drop(looking);
                if let Some(s) = server {
                    s.stop();
                }
            });
    }
}

impl Drop for Online {
    fn drop(&mut self) {
        self.stop();
    }
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| p.to_path_buf(), |d| d.join(p))
    }
}
