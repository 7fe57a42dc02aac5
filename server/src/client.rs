//! The client side: [`AsyncConn`] (a WebSocket speaking the protocol, for async code and
//! tests), and [`Client`], a connection run on a thread of its own that keeps the latest of
//! everything the server said ([`Latest`]: the view, the actions offered, the seats), for the
//! terminal game and the Studio, which call it from ordinary threads.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::protocol::{
    ClientMsg, DownloadKind, LOG_KEPT, ModInfo, Offer, SeatStatus, ServerMsg, TableBoard,
    TableView, Told,
};
use farebox::game::View;

/// The largest message a client takes from a server (a long game's view and log).
pub const MAX_SERVER_MESSAGE: usize = 64 << 20;

/// A connection to a server, for async code.
pub struct AsyncConn {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl AsyncConn {
    /// Connects to `addr` (`host:port`, or a `ws://` URL).
    pub async fn connect(addr: &str) -> Result<AsyncConn, String> {
        let url = if addr.starts_with("ws://") {
            addr.to_string()
        } else {
            format!("ws://{addr}/")
        };
        let cfg = WebSocketConfig::default()
            .max_message_size(Some(MAX_SERVER_MESSAGE))
            .max_frame_size(Some(MAX_SERVER_MESSAGE));
        let (ws, _) = tokio_tungstenite::connect_async_with_config(&url, Some(cfg), true)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        Ok(AsyncConn { ws })
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), String> {
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        self.send_text(text).await
    }

    /// Sends any text (tests send malformed ones).
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.ws
            .send(Message::text(text))
            .await
            .map_err(|e| format!("the connection is closed: {e}"))
    }

    /// The next message from the server as text, or None when the connection is closed.
    pub async fn recv_text(&mut self) -> Option<String> {
        loop {
            match self.ws.next().await? {
                Ok(Message::Text(t)) => return Some(t.as_str().to_string()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// The next message from the server, or None when the connection is closed (or the
    /// server sent something that is not a message).
    pub async fn recv(&mut self) -> Option<ServerMsg> {
        let t = self.recv_text().await?;
        serde_json::from_str(&t).ok()
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Where the connection sits.
#[derive(Debug, Clone, PartialEq)]
pub struct Seated {
    pub code: String,
    pub mod_id: String,
    pub mod_name: String,
    pub version: String,
    pub content_hash: String,
    /// None: watching.
    pub seat: Option<u8>,
    /// Brings the person back to the seat ([`Client::rejoin`]).
    pub token: Option<String>,
}

/// The latest of everything the server said.
#[derive(Debug, Clone, Default)]
pub struct Latest {
    pub mods: Vec<ModInfo>,
    pub seated: Option<Seated>,
    /// The table's action number of the latest view.
    pub number: u64,
    /// The table as this connection sees it: the latest update's, holding the seat's whole
    /// log (the newest [`LOG_KEPT`] entries: whether this client was at the table from the
    /// start or (re)joined later, it reads the same), the latest board the server sent and
    /// the latest seats; `view.log` holds the rules' lines of its log.
    pub table: Option<TableView>,
    /// When the seats arrived: the clock of the seat to act counts down from then.
    pub seats_at: Option<std::time::Instant>,
    /// The last error or refusal the server gave.
    pub problem: Option<String>,
    /// Why the connection ended, once it has.
    pub closed: Option<String>,
}

impl Latest {
    /// The seat's view of the game, once one came.
    pub fn view(&self) -> Option<&View> {
        self.table.as_ref().map(|t| &t.view)
    }

    /// The actions the seat may take now (empty unless it is this person's turn).
    pub fn offered(&self) -> &[Offer] {
        self.table.as_ref().map_or(&[], |t| &t.offered)
    }

    /// The seats as the server last told them.
    pub fn seats(&self) -> &[SeatStatus] {
        self.table.as_ref().map_or(&[], |t| &t.seats)
    }

    /// The seat's log, newest last.
    pub fn told(&self) -> &[Told] {
        self.table.as_ref().map_or(&[], |t| &t.told)
    }

    /// The board as it lies on the table (graph, sections and track boards).
    pub fn board(&self) -> Option<&TableBoard> {
        self.table.as_ref().and_then(|t| t.board.as_ref())
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.view().is_some_and(|v| v.result.is_some())
    }

    /// The time left on the turn clock of the seat to act now, counted down since the seats
    /// arrived, with that seat: None when no clock runs.
    pub fn clock(&self) -> Option<(u8, Duration)> {
        let s = self.seats().iter().find(|s| s.to_act)?;
        let left = Duration::from_millis(s.clock_ms?);
        let since = self.seats_at.map_or(Duration::ZERO, |t| t.elapsed());
        Some((s.seat, left.saturating_sub(since)))
    }

    fn take(&mut self, m: &ServerMsg) {
        match m {
            ServerMsg::Welcome { mods, .. } => self.mods = mods.clone(),
            ServerMsg::Joined {
                code,
                mod_id,
                mod_name,
                version,
                content_hash,
                seat,
                token,
                ..
            } => {
                // Another table's board and log are not this one's; the whole view that
                // follows brings this table's.
                self.table = None;
                self.seated = Some(Seated {
                    code: code.clone(),
                    mod_id: mod_id.clone(),
                    mod_name: mod_name.clone(),
                    version: version.clone(),
                    content_hash: content_hash.clone(),
                    seat: *seat,
                    token: token.clone(),
                });
            }
            ServerMsg::Update(u) => {
                self.number = u.number;
                let mut table = u.table.clone();
                if !u.resync
                    && let Some(held) = self.table.take()
                {
                    // An update after an action carries the action and only its new
                    // entries, and the board only when it changed.
                    let mut told = held.told;
                    told.extend(table.told);
                    table.told = told;
                    if table.board.is_none() {
                        table.board = held.board;
                    }
                }
                if table.told.len() > LOG_KEPT {
                    table.told.drain(..table.told.len() - LOG_KEPT);
                }
                table.lines_from_told();
                self.table = Some(table);
                self.seats_at = Some(std::time::Instant::now());
            }
            ServerMsg::Seats { number, seats, .. } if *number == self.number => {
                if let Some(t) = &mut self.table {
                    t.seats = seats.clone();
                }
                self.seats_at = Some(std::time::Instant::now());
            }
            ServerMsg::Refused { reason, .. } | ServerMsg::Error { reason } => {
                self.problem = Some(reason.clone())
            }
            ServerMsg::ContentMismatch { message, .. } => self.problem = Some(message.clone()),
            ServerMsg::Bye { reason } => self.closed = Some(reason.clone()),
            _ => {}
        }
    }
}

/// What a [`Client`] hears.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Msg(ServerMsg),
    /// The connection ended, for this reason.
    Closed(String),
}

/// A connection run on a thread of its own. Every call returns at once (or waits at most the
/// timeout given); what the server says is kept in [`Client::latest`] and queued as events.
pub struct Client {
    out: tokio::sync::mpsc::UnboundedSender<ClientMsg>,
    events: Receiver<Event>,
    latest: Arc<Mutex<Latest>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Client {
    /// Connects and waits (up to `timeout`) for the server's welcome.
    pub fn connect(addr: &str, timeout: Duration) -> Result<Client, String> {
        let (out, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<ClientMsg>();
        let (ev_tx, events): (Sender<Event>, Receiver<Event>) = channel();
        let latest = Arc::new(Mutex::new(Latest::default()));
        let (ready_tx, ready_rx) = channel::<Result<(), String>>();
        let addr = addr.to_string();
        let shared = latest.clone();
        let thread = std::thread::Builder::new()
            .name("farebox-client".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                rt.block_on(async move {
                    let mut conn = match AsyncConn::connect(&addr).await {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    let _ = ready_tx.send(Ok(()));
                    let reason = loop {
                        tokio::select! {
                            m = out_rx.recv() => match m {
                                Some(m) => {
                                    if let Err(e) = conn.send(&m).await { break e; }
                                }
                                None => { conn.close().await; return; }
                            },
                            m = conn.recv() => match m {
                                Some(m) => {
                                    if let Ok(mut l) = shared.lock() { l.take(&m); }
                                    let bye = match &m { ServerMsg::Bye { reason } => Some(reason.clone()), _ => None };
                                    let _ = ev_tx.send(Event::Msg(m));
                                    if let Some(r) = bye { break r; }
                                }
                                None => break "the server closed the connection".to_string(),
                            }
                        }
                    };
                    if let Ok(mut l) = shared.lock() {
                        l.closed.get_or_insert(reason.clone());
                    }
                    let _ = ev_tx.send(Event::Closed(reason));
                });
            })
            .map_err(|e| e.to_string())?;
        match ready_rx.recv_timeout(timeout) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e),
            Err(_) => return Err(format!("no answer from the server in {timeout:?}")),
        }
        let c = Client {
            out,
            events,
            latest,
            thread: Some(thread),
        };
        c.wait_for(timeout, |m| matches!(m, ServerMsg::Welcome { .. }))?;
        Ok(c)
    }

    /// Sends a message (see [`crate::protocol::ClientMsg`]).
    pub fn send(&self, msg: ClientMsg) {
        let _ = self.out.send(msg);
    }

    /// A copy of the latest of everything.
    pub fn latest(&self) -> Latest {
        self.latest.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The next event, waiting up to `timeout`.
    pub fn next_event(&self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Events waiting now, without waiting.
    pub fn drain_events(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }

    /// Waits for a message `want` accepts (events before it are passed over, though
    /// [`Client::latest`] has taken them in); an error or refusal the server sends first, or
    /// the end of the connection, is the error.
    pub fn wait_for(
        &self,
        timeout: Duration,
        want: impl Fn(&ServerMsg) -> bool,
    ) -> Result<ServerMsg, String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no answer from the server in {timeout:?}"));
            }
            match self.next_event(left) {
                Some(Event::Msg(m)) if want(&m) => return Ok(m),
                Some(Event::Msg(ServerMsg::Error { reason })) => return Err(reason),
                Some(Event::Msg(ServerMsg::ContentMismatch { message, .. })) => {
                    return Err(message);
                }
                Some(Event::Msg(ServerMsg::Bye { reason })) | Some(Event::Closed(reason)) => {
                    return Err(reason);
                }
                Some(Event::Msg(_)) => {}
                None => {}
            }
        }
    }

    /// Opens a table; its code.
    pub fn create(
        &self,
        mod_id: &str,
        seats: &[&str],
        timeout: Duration,
    ) -> Result<String, String> {
        self.send(ClientMsg::Create {
            mod_id: mod_id.to_string(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            options: Default::default(),
            clock: None,
        });
        match self.wait_for(timeout, |m| matches!(m, ServerMsg::Created { .. }))? {
            ServerMsg::Created { code, .. } => Ok(code),
            _ => Err("no table".into()),
        }
    }

    /// Asks what a table is: (mod id, content hash, seats).
    pub fn look(
        &self,
        code: &str,
        timeout: Duration,
    ) -> Result<(String, String, Vec<SeatStatus>), String> {
        self.send(ClientMsg::Look {
            code: code.to_string(),
        });
        match self.wait_for(timeout, |m| matches!(m, ServerMsg::Table { .. }))? {
            ServerMsg::Table {
                mod_id,
                content_hash,
                seats,
                ..
            } => Ok((mod_id, content_hash, seats)),
            _ => Err("no table".into()),
        }
    }

    /// Takes a seat (None: watches), then waits for the first view.
    pub fn join(
        &self,
        code: &str,
        seat: Option<u8>,
        name: &str,
        content_hash: Option<&str>,
        timeout: Duration,
    ) -> Result<Seated, String> {
        self.send(ClientMsg::Join {
            code: code.to_string(),
            seat,
            name: name.to_string(),
            content_hash: content_hash.map(str::to_string),
        });
        self.wait_for(timeout, |m| matches!(m, ServerMsg::Joined { .. }))?;
        self.wait_for(timeout, |m| matches!(m, ServerMsg::Update(_)))?;
        self.latest().seated.ok_or_else(|| "not seated".into())
    }

    /// Comes back to a seat with its token, then waits for the view.
    pub fn rejoin(
        &self,
        code: &str,
        token: &str,
        content_hash: Option<&str>,
        timeout: Duration,
    ) -> Result<Seated, String> {
        self.send(ClientMsg::Rejoin {
            code: code.to_string(),
            token: token.to_string(),
            content_hash: content_hash.map(str::to_string),
        });
        self.wait_for(timeout, |m| matches!(m, ServerMsg::Joined { .. }))?;
        self.wait_for(timeout, |m| matches!(m, ServerMsg::Update(_)))?;
        self.latest().seated.ok_or_else(|| "not seated".into())
    }

    /// Takes an offered action, at the latest action number.
    pub fn act(&self, action: &str) {
        let number = self.latest().number;
        self.send(ClientMsg::Act {
            number,
            action: action.to_string(),
        });
    }

    pub fn resync(&self) {
        self.send(ClientMsg::Resync);
    }

    /// Asks for a record of the finished game and waits for it.
    pub fn download(&self, what: DownloadKind, timeout: Duration) -> Result<String, String> {
        self.send(ClientMsg::Download { what });
        match self.wait_for(timeout, |m| matches!(m, ServerMsg::Download { .. }))? {
            ServerMsg::Download { text, .. } => Ok(text),
            _ => Err("no record".into()),
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Closing the queue ends the thread's loop, which closes the socket.
        let (dead, _) = tokio::sync::mpsc::unbounded_channel();
        self.out = dead;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
