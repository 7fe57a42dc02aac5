//! The network side: a tokio runtime on threads of its own accepts WebSocket connections and
//! reads them. Each message is size-checked (by the WebSocket layer), rate-limited, parsed
//! into a [`ClientMsg`] and sent to the game thread of its table; what the game threads send
//! back goes through each connection's bounded queue ([`Conn`]).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::GameDef;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::conn::Conn;
use crate::guard::{Guard, Limits};
use crate::hub::{Cmd, Hub, HubConfig};
use crate::protocol::{ClientMsg, MAX_CLIENT_MESSAGE, ModInfo, PROTOCOL, ServerMsg, parse_client};
use crate::store::Store;
use crate::table::Resumed;
use crate::table::{TableConfig, TableSpec, cut};

/// How a server runs.
#[derive(Clone)]
pub struct ServerConfig {
    /// Where to listen (port 0: any free port; see [`Server::addr`]).
    pub addr: SocketAddr,
    pub mods: Vec<Arc<GameDef>>,
    /// Game threads (default: one per core).
    pub threads: usize,
    /// Bot threads, where every bot move is worked out (default: one per core).
    pub bot_threads: usize,
    /// The time a person has for each decision at a table that sets none, before the stand-in
    /// bot takes it for them (None: no clock).
    pub clock: Option<Duration>,
    /// Threads of the network runtime.
    pub net_threads: usize,
    /// How long a person may be gone before a bot plays their seat.
    pub grace: Duration,
    /// Seeds tables from this instead of the operating system (tests: table k gets seed + k).
    pub seed: Option<u64>,
    /// Messages queued for a connection before it counts as too slow a reader and is ended,
    /// and the bytes they may add up to.
    pub queue: usize,
    pub queue_bytes: usize,
    /// What each address may hold ([`Limits`]).
    pub limits: Limits,
    /// How long a connection may take to open its WebSocket, and go without sending a whole
    /// message (the server pings every third of it; a client's pong is a message, so only a
    /// client that stopped reading, or sends a message in pieces it never finishes, runs out).
    pub handshake: Duration,
    pub idle: Duration,
    /// Messages a connection may send a second, and in a burst.
    pub rate: u32,
    pub burst: u32,
    /// Malformed messages a connection may send before it is ended.
    pub max_malformed: u32,
    /// A deliberately leaky server, for the test that shows the wire leak test finds a leak:
    /// every update carries the seed, every action and every seat's view. Never set it
    /// otherwise; `farebox serve` cannot.
    #[doc(hidden)]
    pub leak_for_tests: bool,
    /// Where finished games' replays are saved, one file per table (`MOD-CODE-SECONDS.json`,
    /// written atomically); None keeps them in memory only (downloaded over the wire).
    pub replays: Option<PathBuf>,
    /// The table store (an SQLite file, made if missing): every table kept as it is played
    /// and resumed when a server starts on the file again ([`crate::store`]). None keeps
    /// tables in memory only.
    pub store: Option<PathBuf>,
}

impl ServerConfig {
    pub fn new(addr: SocketAddr, mods: Vec<Arc<GameDef>>) -> ServerConfig {
        ServerConfig {
            addr,
            mods,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            clock: Some(Duration::from_secs(10 * 60)),
            net_threads: 1,
            grace: Duration::from_secs(30),
            seed: None,
            queue: 256,
            queue_bytes: 4 << 20,
            limits: Limits::default(),
            handshake: Duration::from_secs(5),
            idle: Duration::from_secs(60),
            rate: 100,
            burst: 200,
            max_malformed: 5,
            leak_for_tests: false,
            replays: None,
            store: None,
        }
    }
}

/// A running server. Dropping it (or [`Server::stop`]) stops it.
pub struct Server {
    addr: SocketAddr,
    hub: Arc<Hub>,
    runtime: Option<tokio::runtime::Runtime>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    /// Held while the server runs: one server a store file.
    _store_lock: Option<std::fs::File>,
}

impl Server {
    /// Binds the address, opens the table store and takes up its tables, and starts the game
    /// threads and the network runtime. A store that cannot be opened and written is an
    /// error that names the file.
    pub fn start(cfg: ServerConfig) -> std::io::Result<Server> {
        if let Some(dir) = &cfg.replays {
            check_writable(dir)?;
        }
        let (stores, store_lock) = match &cfg.store {
            Some(path) => {
                let (stores, lock) = open_stores(path, cfg.threads.max(1))?;
                (stores, Some(lock))
            }
            None => (vec![], None),
        };
        let listener = std::net::TcpListener::bind(cfg.addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let mods: BTreeMap<String, Arc<GameDef>> =
            cfg.mods.iter().map(|d| (d.id.clone(), d.clone())).collect();
        let infos: Vec<ModInfo> = cfg
            .mods
            .iter()
            .map(|d| ModInfo {
                id: d.id.clone(),
                name: d.name.clone(),
                version: d.version.clone(),
                content_hash: d.content_hash.clone(),
                players: d.players,
                bots: d.bots.iter().map(|b| b.id.clone()).collect(),
            })
            .collect();
        let guard = Arc::new(Guard::new(cfg.limits.clone()));
        let hub = Arc::new(Hub::start(HubConfig {
            mods,
            threads: cfg.threads,
            bot_threads: cfg.bot_threads,
            guard: guard.clone(),
            table: TableConfig {
                clock: cfg.clock,
                grace: cfg.grace,
                leak_for_tests: cfg.leak_for_tests,
                replays: cfg.replays.clone(),
            },
            seed: cfg.seed,
            stores,
        }));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(cfg.net_threads.max(1))
            .thread_name("farebox-net")
            .enable_all()
            .build()?;
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let welcome: Arc<str> = ServerMsg::Welcome {
            protocol: PROTOCOL,
            mods: infos,
        }
        .to_text()
        .into();
        let listener = {
            let _guard = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        let shared = Arc::new(Shared {
            hub: hub.clone(),
            guard,
            cfg,
            welcome,
        });
        runtime.spawn(accept(listener, shared, stopped));
        Ok(Server {
            addr,
            hub,
            _store_lock: store_lock,
            runtime: Some(runtime),
            stop: Some(stop),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Opens a table (as [`ClientMsg::Create`] does); its code, or why not.
    pub fn create_table(&self, spec: TableSpec) -> Result<String, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.hub.create(Cmd::Create {
            spec,
            conn: None,
            reply: Some(tx),
        });
        rx.recv_timeout(Duration::from_secs(30))
            .map_err(|_| "the server did not answer".to_string())?
    }

    /// The stored tables taken up (or left, and why) at start.
    pub fn resumed(&self) -> &[Resumed] {
        self.hub.resumed()
    }

    /// How many tables the server holds.
    pub fn tables(&self) -> usize {
        self.hub.tables()
    }

    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(rt) = self.runtime.take() {
            // Stopped from async code (a test), the runtime cannot wait for its tasks.
            if tokio::runtime::Handle::try_current().is_ok() {
                rt.shutdown_background();
            } else {
                rt.shutdown_timeout(Duration::from_secs(2));
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// One connection to the store for each game thread, and the lock that keeps a second
/// server off the file (two would resume the same tables and play them apart); the finished
/// tables are dropped (their replays are what `replays` keeps).
fn open_stores(
    path: &std::path::Path,
    threads: usize,
) -> std::io::Result<(Vec<Store>, std::fs::File)> {
    let err = |e: String| std::io::Error::other(e);
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".lock");
    let lock_path = PathBuf::from(lock_path);
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| {
            err(format!(
                "the table store {} cannot be opened and written: its lock file {}: {e}; give another file with --store, or --no-store to keep tables in memory only",
                path.display(),
                lock_path.display()
            ))
        })?;
    if lock.try_lock().is_err() {
        return Err(err(format!(
            "the table store {} is in use by another server (it holds {}): give each server its own --store",
            path.display(),
            lock_path.display()
        )));
    }
    let first = Store::open(path).map_err(err)?;
    first.drop_finished().map_err(err)?;
    let mut stores = vec![];
    for _ in 1..threads {
        stores.push(first.reopen().map_err(err)?);
    }
    stores.push(first);
    Ok((stores, lock))
}

struct Shared {
    hub: Arc<Hub>,
    guard: Arc<Guard>,
    cfg: ServerConfig,
    welcome: Arc<str>,
}

/// A replays folder the server is given must take a file: checked at start, so a server
/// never loses its replays without a word.
fn check_writable(dir: &std::path::Path) -> std::io::Result<()> {
    let fail = |e: std::io::Error| {
        std::io::Error::new(
            e.kind(),
            format!(
                "the replays folder {} cannot be written to: {e}",
                dir.display()
            ),
        )
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".farebox-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

async fn accept(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            r = listener.accept() => match r {
                Ok((stream, peer)) => {
                    let ip = peer.ip();
                    match shared.guard.admit(ip) {
                        Ok(()) => {
                            let _ = stream.set_nodelay(true);
                            let shared = shared.clone();
                            tokio::spawn(async move {
                                connection(stream, ip, &shared).await;
                                shared.guard.conn_closed(ip);
                            });
                        }
                        // Refused before the WebSocket opens: the socket is closed at once,
                        // which costs the server nothing to repeat.
                        Err(_) => drop(stream),
                    }
                }
                // Out of file descriptors (or another passing failure): wait a little rather
                // than spin on a listener that fails at once.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
        }
    }
}

/// The WebSocket settings: a client's message (and frame) is at most
/// [`MAX_CLIENT_MESSAGE`] bytes.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_CLIENT_MESSAGE))
        .max_frame_size(Some(MAX_CLIENT_MESSAGE))
}

async fn connection(stream: TcpStream, ip: std::net::IpAddr, shared: &Shared) {
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
    let Ok(Ok(ws)) = tokio::time::timeout(shared.cfg.handshake, handshake).await else {
        return;
    };
    let (sink, mut stream) = ws.split();
    let (conn, outbox, mut killed) = Conn::new(shared.cfg.queue, shared.cfg.queue_bytes, Some(ip));
    conn.send_text(shared.welcome.clone());

    // The writer: the queue to the socket, until the connection is ended (also while a send
    // waits on a reader that does not read); then the reason, if the socket takes it in time.
    let writer_killed = killed.clone();
    let mut ping = tokio::time::interval(shared.cfg.idle / 3);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    let writer = tokio::spawn(write_loop(sink, outbox, writer_killed, ping));

    let mut table: Option<String> = None;
    let mut tokens = f64::from(shared.cfg.burst);
    let mut last = Instant::now();
    let mut malformed = 0;
    let mut created = 0;
    loop {
        let frame = tokio::select! {
            f = tokio::time::timeout(shared.cfg.idle, stream.next()) => match f {
                Ok(f) => f,
                Err(_) => {
                    conn.end(&format!(
                        "no whole message in {} s (not even an answer to the server's ping): the server ends the connection",
                        shared.cfg.idle.as_secs()
                    ));
                    break;
                }
            },
            _ = killed.changed() => break,
        };
        let text = match frame {
            None | Some(Ok(Message::Close(_))) => break,
            Some(Err(e)) => {
                use tokio_tungstenite::tungstenite::Error as E;
                let reason = match e {
                    E::Capacity(_) => format!(
                        "a message larger than {} KiB: the server ends the connection",
                        MAX_CLIENT_MESSAGE / 1024
                    ),
                    e => format!("a broken WebSocket stream ({})", cut(&e.to_string())),
                };
                conn.end(&reason);
                break;
            }
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(_))) => {
                malformed += 1;
                conn.send(&ServerMsg::Error {
                    reason: "messages are JSON text, not binary".into(),
                });
                if malformed >= shared.cfg.max_malformed {
                    conn.end("too many malformed messages");
                    break;
                }
                continue;
            }
            Some(Ok(_)) => continue,
        };
        // The rate limit: a bucket of `burst` messages, filled at `rate` a second.
        let now = Instant::now();
        tokens = (tokens + now.duration_since(last).as_secs_f64() * f64::from(shared.cfg.rate))
            .min(f64::from(shared.cfg.burst));
        last = now;
        tokens -= 1.0;
        if tokens < 0.0 {
            conn.end(&format!(
                "more than {} messages a second: the server ends the connection",
                shared.cfg.rate
            ));
            break;
        }
        let msg = match parse_client(text.as_str()) {
            Ok(m) => m,
            Err(reason) => {
                malformed += 1;
                conn.send(&ServerMsg::Error { reason });
                if malformed >= shared.cfg.max_malformed {
                    conn.end(&format!(
                        "{} malformed messages: the server ends the connection",
                        malformed
                    ));
                    break;
                }
                continue;
            }
        };
        route(shared, &conn, &mut table, &mut created, msg);
    }
    if let Some(code) = table {
        shared.hub.to_table(
            &code,
            Cmd::Gone {
                code: code.clone(),
                conn: conn.id,
            },
        );
    }
    // Let the writer send the reason, if there is one, then close.
    if !conn.is_ended() {
        conn.end("closed");
    }
    let abort = writer.abort_handle();
    if tokio::time::timeout(Duration::from_secs(5), writer)
        .await
        .is_err()
    {
        abort.abort();
    }
}

/// A connection's writer: the queue to the socket, with a ping at every tick, until the
/// connection is ended (also while a send waits on a reader that does not read); then what
/// was queued before the end and the reason, if the socket takes them in time.
async fn write_loop(
    mut sink: futures_util::stream::SplitSink<
        tokio_tungstenite::WebSocketStream<TcpStream>,
        Message,
    >,
    mut outbox: crate::conn::Outbox,
    mut writer_killed: tokio::sync::watch::Receiver<Option<String>>,
    mut ping: tokio::time::Interval,
) {
    loop {
        tokio::select! {
            _ = ping.tick() => {
                tokio::select! {
                    r = sink.send(Message::Ping(Default::default())) => {
                        if r.is_err() { return; }
                    }
                    _ = writer_killed.changed() => break,
                }
            }
            m = outbox.recv() => match m {
                Some(text) => {
                    tokio::select! {
                        r = sink.send(Message::text(text.to_string())) => {
                            if r.is_err() { return; }
                        }
                        _ = writer_killed.changed() => break,
                    }
                }
                None => return,
            },
            _ = writer_killed.changed() => break,
        }
    }
    let reason = writer_killed.borrow().clone();
    if let Some(reason) = reason {
        let bye = ServerMsg::Bye {
            reason: reason.clone(),
        }
        .to_text();
        let mut short = reason;
        let mut n = 120.min(short.len());
        while !short.is_char_boundary(n) {
            n -= 1;
        }
        short.truncate(n);
        let _ = tokio::time::timeout(Duration::from_secs(3), async {
            // What was queued before the end (the answers to the messages that led to it).
            while let Some(text) = outbox.try_recv() {
                sink.send(Message::text(text.to_string())).await?;
            }
            sink.send(Message::text(bye)).await?;
            sink.send(Message::Close(Some(CloseFrame {
                code: CloseCode::Policy,
                reason: short.into(),
            })))
            .await
        })
        .await;
    }
}

fn norm(code: &str) -> String {
    code.trim().to_ascii_uppercase()
}

fn route(
    shared: &Shared,
    conn: &Conn,
    table: &mut Option<String>,
    created: &mut usize,
    msg: ClientMsg,
) {
    let hub = &shared.hub;
    match msg {
        ClientMsg::Create {
            mod_id,
            seats,
            options,
            clock,
        } => {
            if seats.len() > 16 {
                conn.send(&ServerMsg::Error {
                    reason: "a table has at most 16 seats".into(),
                });
                return;
            }
            let most = shared.guard.limits().tables_per_conn;
            if *created >= most {
                conn.send(&ServerMsg::Error {
                    reason: format!(
                        "a connection may create {most} tables; this one has created its {most}"
                    ),
                });
                return;
            }
            *created += 1;
            hub.create(Cmd::Create {
                spec: TableSpec {
                    mod_id,
                    seats,
                    options,
                    clock,
                },
                conn: Some(conn.clone()),
                reply: None,
            });
        }
        ClientMsg::Look { code } => {
            let code = norm(&code);
            hub.to_table(
                &code.clone(),
                Cmd::Msg {
                    code,
                    conn: conn.clone(),
                    msg: ClientMsg::Look {
                        code: String::new(),
                    },
                },
            );
        }
        m @ (ClientMsg::Join { .. } | ClientMsg::Rejoin { .. }) => {
            let code = match &m {
                ClientMsg::Join { code, .. } | ClientMsg::Rejoin { code, .. } => norm(code),
                _ => return,
            };
            if let Some(old) = table.as_ref()
                && *old != code
            {
                // One table a connection: leaving the old one first.
                hub.to_table(
                    old,
                    Cmd::Gone {
                        code: old.clone(),
                        conn: conn.id,
                    },
                );
            }
            *table = Some(code.clone());
            hub.to_table(
                &code.clone(),
                Cmd::Msg {
                    code,
                    conn: conn.clone(),
                    msg: m,
                },
            );
        }
        m => match table.as_ref() {
            Some(code) => hub.to_table(
                code,
                Cmd::Msg {
                    code: code.clone(),
                    conn: conn.clone(),
                    msg: m,
                },
            ),
            None => {
                conn.send(&ServerMsg::Error {
                    reason: "join a table first".into(),
                });
            }
        },
    }
}
