//! `farebox list`: the bundled mods.

use farebox::source::FolderResolver;

use crate::cli::ListArgs;
use crate::common::{Fail, Io, Located, load_located, mods_dir};

pub fn run(_args: ListArgs, io: &mut Io) -> Result<i32, Fail> {
    let dir = mods_dir();
    let all = FolderResolver::new(&dir).all();
    if all.is_empty() {
        return Err(Fail::Usage(format!(
            "no mods found in {}",
            crate::common::shown_path(&dir)
        )));
    }
    let mut rows = Vec::new();
    for (id, folder) in all {
        let l = Located {
            folder,
            resolver: FolderResolver::new(&dir),
            name: id.clone(),
        };
        match load_located(&l) {
            Ok(d) => {
                let players = if d.players.0 == d.players.1 {
                    d.players.0.to_string()
                } else {
                    format!("{}-{}", d.players.0, d.players.1)
                };
                let mut kind = if d.playable() {
                    "playable".to_string()
                } else {
                    "content only".to_string()
                };
                // Layers are dependencies first, the mod itself last.
                let below: Vec<&str> = d
                    .layers
                    .iter()
                    .rev()
                    .skip(1)
                    .map(|(m, _)| m.as_str())
                    .collect();
                if !below.is_empty() {
                    kind += &format!(", builds on {}", below.join(", "));
                }
                rows.push([id, d.version, d.name, format!("{players} players"), kind]);
            }
            Err(e) => rows.push([
                id,
                "?".into(),
                "(does not load)".into(),
                format!("{} errors", e.len()),
                "invalid".into(),
            ]),
        }
    }
    let mut widths = [0usize; 5];
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        io.say(line.join("  ").trim_end());
    }
    Ok(0)
}
