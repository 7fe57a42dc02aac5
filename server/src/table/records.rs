//! A table's records: each seat's own view of the game and, once it has ended, the whole
//! replay, sent on request and saved to disk when the server keeps replays.

use super::*;

impl Table {
    pub fn download(&mut self, conn: &Conn, what: DownloadKind) {
        let seat = self.seat_of(conn);
        let Some(replay) = self.replay.as_ref().filter(|_| self.game.is_over()) else {
            conn.send(&ServerMsg::Error {
                reason: "the game is still being played: records are given once it is over".into(),
            });
            return;
        };
        let text = match what {
            DownloadKind::Replay => replay.to_json(),
            DownloadKind::Seat => {
                let Some(s) = seat else {
                    conn.send(&ServerMsg::Error {
                        reason: "watchers have no seat's record: download the replay".into(),
                    });
                    return;
                };
                match seat_transcript(&self.def, replay, s) {
                    Ok(lines) => lines.join("\n") + "\n",
                    Err(e) => {
                        conn.send(&ServerMsg::Error {
                            reason: format!("the record could not be made: {e}"),
                        });
                        return;
                    }
                }
            }
        };
        conn.send(&ServerMsg::Download {
            code: self.code.clone(),
            number: self.number(),
            what,
            text,
        });
    }
}

/// Saves a finished game's replay as `dir/NAME.json`, atomically: written whole to a hidden
/// file in the same folder, flushed to the disk, then renamed to its name, so that a reader
/// (or a crash) never finds half a replay there. Returns the file's path.
pub fn save_replay(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
    let path = dir.join(format!("{name}.json"));
    let part = dir.join(format!(".{name}.json.part"));
    let written = std::fs::File::create(&part).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&part, &path)) {
        Ok(()) => Ok(path),
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_replay_is_saved_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("farebox-save-{}", token()));
        // A folder that is not there: an error, and nothing written.
        let missing = dir.join("nowhere");
        assert!(save_replay(&missing, "t", "{}").is_err());
        assert!(!missing.exists());
        std::fs::create_dir_all(&dir).unwrap();
        let path = save_replay(&dir, "curbside-ABC123-1", "{\"a\":1}").unwrap();
        assert_eq!(path, dir.join("curbside-ABC123-1.json"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\":1}");
        // Saved again, the file is replaced whole; no part file stays.
        save_replay(&dir, "curbside-ABC123-1", "{\"b\":2}").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"b\":2}");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        assert_eq!(names, vec!["curbside-ABC123-1.json".to_string()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
