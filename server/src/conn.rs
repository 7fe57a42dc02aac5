//! A connection as the game threads see it: an outbound queue bounded in messages and in
//! bytes, and a switch that ends the connection with a reason.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::{mpsc, watch};

use crate::protocol::ServerMsg;

/// What the network side does with a message: send a text, or end with a reason.
#[derive(Clone)]
pub struct Conn {
    pub id: u64,
    /// Where it comes from (None: a connection the server made for itself).
    pub addr: Option<IpAddr>,
    tx: mpsc::Sender<Arc<str>>,
    kill: Arc<watch::Sender<Option<String>>>,
    /// Bytes queued and not yet taken by the writer, and the most it may hold.
    queued: Arc<AtomicUsize>,
    max_bytes: usize,
}

/// The writer's end of a connection's queue: it gives back the bytes of each message taken.
pub struct Outbox {
    rx: mpsc::Receiver<Arc<str>>,
    queued: Arc<AtomicUsize>,
}

impl Outbox {
    pub async fn recv(&mut self) -> Option<Arc<str>> {
        let t = self.rx.recv().await?;
        self.queued.fetch_sub(t.len(), Ordering::Relaxed);
        Some(t)
    }

    pub fn try_recv(&mut self) -> Option<Arc<str>> {
        let t = self.rx.try_recv().ok()?;
        self.queued.fetch_sub(t.len(), Ordering::Relaxed);
        Some(t)
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Conn {
    /// A connection from `addr` with an outbound queue of at most `queue` messages and
    /// `max_bytes` bytes; the receivers are the network side's.
    pub fn new(
        queue: usize,
        max_bytes: usize,
        addr: Option<IpAddr>,
    ) -> (Conn, Outbox, watch::Receiver<Option<String>>) {
        let (tx, rx) = mpsc::channel(queue.max(1));
        let (kill, killed) = watch::channel(None);
        let queued = Arc::new(AtomicUsize::new(0));
        (
            Conn {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                addr,
                tx,
                kill: Arc::new(kill),
                queued: queued.clone(),
                max_bytes,
            },
            Outbox { rx, queued },
            killed,
        )
    }

    /// Queues a message; when the queue is full the reader is too slow, and the connection is
    /// ended rather than the messages kept without end. False when it was not queued.
    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_text(msg.to_text().into())
    }

    pub fn send_text(&self, text: Arc<str>) -> bool {
        let n = text.len();
        if self.queued.load(Ordering::Relaxed) + n > self.max_bytes {
            self.end(&format!(
                "your connection read its messages too slowly: {} KiB waited unread; the server does not keep them without end",
                self.max_bytes / 1024
            ));
            return false;
        }
        self.queued.fetch_add(n, Ordering::Relaxed);
        match self.tx.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.queued.fetch_sub(n, Ordering::Relaxed);
                self.end("your connection read its messages too slowly; the server does not keep them without end");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.queued.fetch_sub(n, Ordering::Relaxed);
                false
            }
        }
    }

    /// Ends the connection: a [`ServerMsg::Bye`] with the reason is sent if it can be, then
    /// the socket is closed. The first reason given stays.
    pub fn end(&self, reason: &str) {
        self.kill.send_if_modified(|r| {
            if r.is_none() {
                *r = Some(reason.to_string());
                true
            } else {
                false
            }
        });
    }

    pub fn is_ended(&self) -> bool {
        self.kill.borrow().is_some() || self.tx.is_closed()
    }
}
