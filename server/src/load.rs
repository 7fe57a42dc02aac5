//! The load run: many tables at once on one server, each with a person driven by the run and
//! a spectator, both on WebSockets. Reports actions a second (everyone's, bots' included) and
//! the time from a person's action to the moment both connections at its table have the
//! update it led to. Used by the load test (tests/load.rs) and `cargo run --release -p
//! farebox-server --example load`.

use std::time::{Duration, Instant};

use crate::client::AsyncConn;
use crate::protocol::{ClientMsg, ServerMsg, Update};

/// What a load run measured.
#[derive(Debug, Clone)]
pub struct Figures {
    pub tables: usize,
    /// Actions taken at all tables (people's and bots').
    pub actions: u64,
    /// People's actions, each timed.
    pub timed: usize,
    pub elapsed: Duration,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl Figures {
    pub fn actions_per_second(&self) -> f64 {
        self.actions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} tables, {} actions in {:.2} s: {:.0} actions/s; a person's action to every client's update ({} timed): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.tables,
            self.actions,
            self.elapsed.as_secs_f64(),
            self.actions_per_second(),
            self.timed,
            self.p50.as_secs_f64() * 1e3,
            self.p99.as_secs_f64() * 1e3,
            self.max.as_secs_f64() * 1e3,
        )
    }
}

/// Reads until an update that `want` accepts.
async fn update(c: &mut AsyncConn, want: impl Fn(&Update) -> bool) -> Result<Box<Update>, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(60), c.recv()).await {
            Err(_) => return Err("no update for 60 s".into()),
            Ok(None) => return Err("the connection closed".into()),
            Ok(Some(ServerMsg::Update(u))) if want(&u) => return Ok(u),
            Ok(Some(ServerMsg::Error { reason } | ServerMsg::Refused { reason, .. })) => {
                return Err(reason);
            }
            Ok(Some(_)) => {}
        }
    }
}

/// One table: the person (seat 0) takes up to `own` actions (picked among those offered by a
/// fixed pattern), each timed until both connections have its update. Returns the table's
/// action number at the end and the times.
async fn table(
    addr: String,
    code: String,
    own: usize,
    pause: Duration,
    index: u64,
) -> Result<(u64, Vec<Duration>), String> {
    let mut watcher = AsyncConn::connect(&addr).await?;
    watcher
        .send(&ClientMsg::Join {
            code: code.clone(),
            seat: None,
            name: String::new(),
            content_hash: None,
        })
        .await?;
    update(&mut watcher, |_| true).await?;
    let mut person = AsyncConn::connect(&addr).await?;
    person
        .send(&ClientMsg::Join {
            code,
            seat: Some(0),
            name: "load".into(),
            content_hash: None,
        })
        .await?;
    let mut times = vec![];
    let mut number = 0;
    let mut acted = None;
    // Each table's person picks and pauses on a sequence of its own: with one sequence for all,
    // every person paused alike and a thousand of them acted in the same instant, a burst no
    // real table of people makes.
    let mut pick: u64 = 0x2545_f491_4f6c_dd1d ^ (index + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // The person's update after its own action, when it is the person's turn again.
    let mut next: Option<Box<Update>> = None;
    while times.len() < own {
        let u = match next.take() {
            Some(u) => u,
            None => {
                update(&mut person, |u| {
                    u.view.result.is_some() || (!u.offered.is_empty() && acted != Some(u.number))
                })
                .await?
            }
        };
        number = u.number;
        if u.view.result.is_some() {
            break;
        }
        pick ^= pick << 13;
        pick ^= pick >> 7;
        pick ^= pick << 17;
        let action = u.offered[(pick % u.offered.len() as u64) as usize]
            .action
            .clone();
        acted = Some(u.number);
        if !pause.is_zero() {
            // A person's pace: a pause before each action, spread from none to twice `pause`.
            tokio::time::sleep(pause.mul_f64((pick % 1000) as f64 / 500.0)).await;
        }
        let start = Instant::now();
        person
            .send(&ClientMsg::Act {
                number: u.number,
                action,
            })
            .await?;
        let target = u.number + 1;
        let mine = update(&mut person, |x| x.number >= target).await?;
        update(&mut watcher, |x| x.number >= target).await?;
        times.push(start.elapsed());
        if mine.view.result.is_some() || !mine.offered.is_empty() {
            next = Some(mine);
        }
        number = target;
    }
    let _ = person.send(&ClientMsg::Leave).await;
    person.close().await;
    watcher.close().await;
    Ok((number, times))
}

/// Runs the tables `codes` (each with seat 0 open for a person) on the server at `addr`, the
/// person at each taking up to `own` actions as fast as the server answers.
pub async fn run(addr: &str, codes: Vec<String>, own: usize) -> Result<Figures, String> {
    run_paced(addr, codes, own, Duration::ZERO).await
}

/// [`run`], each person pausing about `pause` (from none to twice it) before each action, as
/// people do.
pub async fn run_paced(
    addr: &str,
    codes: Vec<String>,
    own: usize,
    pause: Duration,
) -> Result<Figures, String> {
    let start = Instant::now();
    let tables = codes.len();
    let mut tasks = vec![];
    for (index, code) in (0u64..).zip(codes) {
        tasks.push(tokio::spawn(table(
            addr.to_string(),
            code,
            own,
            pause,
            index,
        )));
    }
    let mut actions = 0;
    let mut times = vec![];
    for t in tasks {
        let (n, mut ts) = t.await.map_err(|e| e.to_string())??;
        actions += n;
        times.append(&mut ts);
    }
    let elapsed = start.elapsed();
    times.sort();
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    Ok(Figures {
        tables,
        actions,
        timed: times.len(),
        elapsed,
        p50: at(0.5),
        p99: at(0.99),
        max: times.last().copied().unwrap_or_default(),
    })
}
