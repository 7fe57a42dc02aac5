//! A connection as the game threads see it: a bounded outbound queue and a switch that ends
//! the connection with a reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, watch};

use crate::protocol::ServerMsg;

/// What the network side does with a message: send a text, or end with a reason.
#[derive(Clone)]
pub struct Conn {
    pub id: u64,
    tx: mpsc::Sender<Arc<str>>,
    kill: Arc<watch::Sender<Option<String>>>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Conn {
    /// A connection with an outbound queue of `queue` messages; the receivers are the
    /// network side's.
    pub fn new(
        queue: usize,
    ) -> (
        Conn,
        mpsc::Receiver<Arc<str>>,
        watch::Receiver<Option<String>>,
    ) {
        let (tx, rx) = mpsc::channel(queue.max(1));
        let (kill, killed) = watch::channel(None);
        (
            Conn {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                tx,
                kill: Arc::new(kill),
            },
            rx,
            killed,
        )
    }

    /// Queues a message; when the queue is full the reader is too slow, and the connection is
    /// ended rather than the messages kept without end. False when it was not queued.
    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_text(msg.to_text().into())
    }

    pub fn send_text(&self, text: Arc<str>) -> bool {
        match self.tx.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.end("your connection read its messages too slowly; the server does not keep them without end");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
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
