//! The table store: every table's state kept in an SQLite file as it is played, so a server
//! that is killed (`kill -9`, a crash) resumes its games when it starts again.
//!
//! A table's row holds what makes its game: the mod and its content hash, the options, the
//! seed and the bots' seed, the seats' specs; each person's name and the BLAKE3 hash of their
//! token (never the token: a copy of the file does not let anyone take a seat); when it was
//! made and whether it is finished. Its actions are rows of their own (number, seat, action,
//! whether a bot took it). An action's row is committed before the table tells anyone of the
//! action, so nothing acknowledged is lost when the process dies. A restarted server rebuilds
//! each unfinished table by playing its log again (the engine is deterministic: the same mod,
//! setup and actions give the same game); see [`crate::table::Table::resume`].
//!
//! **Durability.** The file is in WAL mode with `synchronous = NORMAL`: a commit appends to
//! the write-ahead log and returns without waiting for the disk. That survives the death of
//! the process, `kill -9` included, because the appended pages are in the operating system's
//! page cache the moment `write` returns, and the kernel writes them out whether or not the
//! process is alive; the next open replays the log. It does not survive the machine losing
//! power or the kernel crashing: the actions committed since the last checkpoint's `fsync`
//! (the log is synced when it is checkpointed, every 1000 pages by default) may be lost, and
//! the file stays consistent, so tables resume some actions back. `synchronous = FULL` would
//! survive power loss too at the price of an `fsync` per action (see ARCHITECTURE.md for the
//! numbers); a server that needs that sets it with [`Store::set_full_sync`].
//!
//! Each game thread has its own connection to the file (a connection stays on one thread);
//! SQLite serializes their writes, which wait up to five seconds for one another.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

/// The schema this server writes (SQLite's `user_version`). A file of a newer version is
/// refused rather than misread.
pub const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    mod_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    bot_seed INTEGER NOT NULL,
    seat_specs TEXT NOT NULL,
    created INTEGER NOT NULL,
    finished INTEGER
);
CREATE TABLE IF NOT EXISTS people (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (code, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    by_bot INTEGER NOT NULL,
    PRIMARY KEY (code, number)
) WITHOUT ROWID;
";

/// A table as the store keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub code: String,
    pub mod_id: String,
    pub content_hash: String,
    pub options: BTreeMap<String, String>,
    pub seed: u64,
    pub bot_seed: u64,
    /// [`crate::protocol::PERSON`] or a bot spec, per seat.
    pub seat_specs: Vec<String>,
    /// Seconds since 1970.
    pub created: u64,
    pub finished: bool,
    pub people: Vec<PersonRow>,
    pub actions: Vec<ActionRow>,
}

/// A person who took a seat.
#[derive(Debug, Clone, PartialEq)]
pub struct PersonRow {
    pub seat: u8,
    pub name: String,
    pub token_hash: [u8; 32],
}

/// An action taken; numbers start at 1.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionRow {
    pub number: u64,
    pub seat: u8,
    pub action: String,
    pub by_bot: bool,
}

/// The hash the store keeps of a seat's token.
pub fn token_hash(token: &str) -> [u8; 32] {
    *blake3::hash(token.as_bytes()).as_bytes()
}

/// Whether `token` is the one hashed to `hash`, in time that does not depend on where they
/// differ (BLAKE3's own comparison is constant-time).
pub fn token_matches(token: &str, hash: &[u8; 32]) -> bool {
    blake3::hash(token.as_bytes()) == blake3::Hash::from_bytes(*hash)
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// SQLite keeps signed 64-bit integers: seeds are stored by their bits.
fn to_sql(n: u64) -> i64 {
    n as i64
}
fn from_sql(n: i64) -> u64 {
    n as u64
}

/// One connection to a store file.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (or makes) the store at `path`, checks that it can be written, and makes its
    /// schema. The error names the file and says what to do.
    pub fn open(path: &Path) -> Result<Store, String> {
        let fail = |e: &dyn std::fmt::Display| {
            format!(
                "the table store {} cannot be opened and written: {e}; give another file with --store, or --no-store to keep tables in memory only",
                path.display()
            )
        };
        let conn = Connection::open(path).map_err(|e| fail(&e))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.setup().map_err(|e| fail(&e))?;
        Ok(store)
    }

    fn setup(&self) -> Result<(), String> {
        let c = &self.conn;
        c.busy_timeout(Duration::from_secs(5))
            .map_err(|e| e.to_string())?;
        let mode: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(format!("it does not take WAL mode (it is in {mode} mode)"));
        }
        c.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| e.to_string())?;
        c.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| e.to_string())?;
        let version: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        if version > SCHEMA_VERSION {
            return Err(format!(
                "it has schema version {version}, and this server knows version {SCHEMA_VERSION} at most: run a newer Farebox on it"
            ));
        }
        // A write, so that a file that cannot be written is found now, not at the first
        // action: the schema and its version in one immediate transaction.
        c.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        ))
        .map_err(|e| {
            let _ = c.execute_batch("ROLLBACK");
            e.to_string()
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Another connection to the same file (one per game thread).
    pub fn reopen(&self) -> Result<Store, String> {
        Store::open(&self.path)
    }

    /// `synchronous = FULL`: every commit waits for the disk, so acknowledged actions also
    /// survive power loss (an `fsync` per action).
    pub fn set_full_sync(&self) -> Result<(), String> {
        self.conn
            .pragma_update(None, "synchronous", "FULL")
            .map_err(|e| self.said(&e))
    }

    fn said(&self, e: &rusqlite::Error) -> String {
        format!("the table store {}: {e}", self.path.display())
    }

    /// A new table's row.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        &self,
        code: &str,
        mod_id: &str,
        content_hash: &str,
        options: &BTreeMap<String, String>,
        seed: u64,
        bot_seed: u64,
        seat_specs: &[String],
    ) -> Result<(), String> {
        let options = serde_json::to_string(options).map_err(|e| e.to_string())?;
        let specs = serde_json::to_string(seat_specs).map_err(|e| e.to_string())?;
        self.conn
            .execute(
                "INSERT INTO tables (code, mod_id, content_hash, options, seed, bot_seed, seat_specs, created, finished)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL)",
                params![
                    code,
                    mod_id,
                    content_hash,
                    options,
                    to_sql(seed),
                    to_sql(bot_seed),
                    specs,
                    to_sql(now_secs())
                ],
            )
            .map(|_| ())
            .map_err(|e| self.said(&e))
    }

    /// A person took a seat.
    pub fn person(
        &self,
        code: &str,
        seat: u8,
        name: &str,
        token_hash: &[u8; 32],
    ) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO people (code, seat, name, token_hash) VALUES (?1, ?2, ?3, ?4)",
                params![code, seat, name, &token_hash[..]],
            )
            .map(|_| ())
            .map_err(|e| self.said(&e))
    }

    /// An action taken (committed when this returns).
    pub fn action(&self, code: &str, a: &ActionRow) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT INTO actions (code, number, seat, action, by_bot) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![code, to_sql(a.number), a.seat, a.action, a.by_bot],
            )
            .map(|_| ())
            .map_err(|e| self.said(&e))
    }

    /// The game is over (or its rules failed): it is not resumed again.
    pub fn finish(&self, code: &str) -> Result<(), String> {
        self.conn
            .execute(
                "UPDATE tables SET finished = ?2 WHERE code = ?1",
                params![code, to_sql(now_secs())],
            )
            .map(|_| ())
            .map_err(|e| self.said(&e))
    }

    /// Forgets a table (its people and actions with it).
    pub fn drop_table(&self, code: &str) -> Result<(), String> {
        self.conn
            .execute("DELETE FROM tables WHERE code = ?1", params![code])
            .map(|_| ())
            .map_err(|e| self.said(&e))
    }

    /// Forgets the finished tables (their replays are what `--replays` keeps).
    pub fn drop_finished(&self) -> Result<usize, String> {
        self.conn
            .execute("DELETE FROM tables WHERE finished IS NOT NULL", [])
            .map_err(|e| self.said(&e))
    }

    pub fn has(&self, code: &str) -> bool {
        self.conn
            .query_row(
                "SELECT 1 FROM tables WHERE code = ?1",
                params![code],
                |_| Ok(()),
            )
            .optional()
            .ok()
            .flatten()
            .is_some()
    }

    /// The codes of the unfinished tables.
    pub fn unfinished(&self) -> Result<Vec<String>, String> {
        let mut st = self
            .conn
            .prepare("SELECT code FROM tables WHERE finished IS NULL ORDER BY code")
            .map_err(|e| self.said(&e))?;
        let rows = st
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| self.said(&e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.said(&e))
    }

    /// A table with its people and actions (in order).
    pub fn load(&self, code: &str) -> Result<TableRow, String> {
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            format!(
                "the table store {}: table {code}'s {what} cannot be read: {e}",
                self.path.display()
            )
        };
        #[allow(clippy::type_complexity)]
        let head: (String, String, String, i64, i64, String, i64, Option<i64>) = self
            .conn
            .query_row(
                "SELECT mod_id, content_hash, options, seed, bot_seed, seat_specs, created, finished FROM tables WHERE code = ?1",
                params![code],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                },
            )
            .map_err(|e| bad("row", &e))?;
        let (mod_id, content_hash, options, seed, bot_seed, specs, created, finished) = head;
        let options: BTreeMap<String, String> =
            serde_json::from_str(&options).map_err(|e| bad("options", &e))?;
        let seat_specs: Vec<String> = serde_json::from_str(&specs).map_err(|e| bad("seats", &e))?;
        let mut st = self
            .conn
            .prepare("SELECT seat, name, token_hash FROM people WHERE code = ?1 ORDER BY seat")
            .map_err(|e| bad("people", &e))?;
        let people = st
            .query_map(params![code], |r| {
                let hash: Vec<u8> = r.get(2)?;
                Ok((r.get::<_, u8>(0)?, r.get::<_, String>(1)?, hash))
            })
            .map_err(|e| bad("people", &e))?
            .map(|r| {
                let (seat, name, hash) = r.map_err(|e| bad("people", &e))?;
                let token_hash: [u8; 32] = hash
                    .try_into()
                    .map_err(|_| bad("people", &"a token hash is not 32 bytes"))?;
                Ok(PersonRow {
                    seat,
                    name,
                    token_hash,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut st = self
            .conn
            .prepare(
                "SELECT number, seat, action, by_bot FROM actions WHERE code = ?1 ORDER BY number",
            )
            .map_err(|e| bad("actions", &e))?;
        let actions = st
            .query_map(params![code], |r| {
                Ok(ActionRow {
                    number: from_sql(r.get(0)?),
                    seat: r.get(1)?,
                    action: r.get(2)?,
                    by_bot: r.get(3)?,
                })
            })
            .map_err(|e| bad("actions", &e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad("actions", &e))?;
        for (i, a) in actions.iter().enumerate() {
            if a.number != i as u64 + 1 {
                return Err(bad(
                    "actions",
                    &format!("action {} is missing", i as u64 + 1),
                ));
            }
        }
        Ok(TableRow {
            code: code.to_string(),
            mod_id,
            content_hash,
            options,
            seed: from_sql(seed),
            bot_seed: from_sql(bot_seed),
            seat_specs,
            created: from_sql(created),
            finished: finished.is_some(),
            people,
            actions,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("farebox-store-{name}-{}", crate::table::token()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("tables.sqlite")
    }

    #[test]
    fn a_table_and_its_log_come_back_from_the_file() {
        let path = temp("rows");
        let s = Store::open(&path).unwrap();
        let options = BTreeMap::from([("rounds".to_string(), "3".to_string())]);
        let specs = vec!["person".to_string(), "random".to_string()];
        s.create(
            "ABC234",
            "curbside",
            "h1",
            &options,
            u64::MAX - 3,
            7,
            &specs,
        )
        .unwrap();
        s.person("ABC234", 0, "Ada", &token_hash("secret")).unwrap();
        for n in 1..=3 {
            s.action(
                "ABC234",
                &ActionRow {
                    number: n,
                    seat: (n % 2) as u8,
                    action: format!("go {n}"),
                    by_bot: n % 2 == 1,
                },
            )
            .unwrap();
        }
        // A number taken twice is refused, not overwritten.
        assert!(
            s.action(
                "ABC234",
                &ActionRow {
                    number: 2,
                    seat: 0,
                    action: "again".into(),
                    by_bot: false
                }
            )
            .is_err()
        );
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(s.unfinished().unwrap(), vec!["ABC234".to_string()]);
        let row = s.load("ABC234").unwrap();
        assert_eq!(row.seed, u64::MAX - 3);
        assert_eq!(row.options, options);
        assert_eq!(row.seat_specs, specs);
        assert_eq!(row.people[0].name, "Ada");
        assert!(token_matches("secret", &row.people[0].token_hash));
        assert!(!token_matches("secreT", &row.people[0].token_hash));
        assert_eq!(row.actions.len(), 3);
        assert_eq!(row.actions[1].action, "go 2");
        s.finish("ABC234").unwrap();
        assert!(s.unfinished().unwrap().is_empty());
        assert_eq!(s.drop_finished().unwrap(), 1);
        assert!(!s.has("ABC234"));
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_newer_schema_is_refused_by_name() {
        let path = temp("newer");
        drop(Store::open(&path).unwrap());
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(c);
        let e = Store::open(&path).err().unwrap();
        assert!(e.contains(&path.display().to_string()), "{e}");
        assert!(e.contains("schema version 2"), "{e}");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
