//! Shard files: the share of a seed range that one `farebox sim --shard I/N` plays, written
//! as the raw sums of its blocks of games ([`farebox::figures::Block`]), and the checks
//! `farebox merge` makes before it merges them into the figures of the whole range.
//!
//! A run gathers its games a block of `--block` seeds at a time (1,024 by default) and merges
//! the blocks left to right ([`farebox::figures::Tally`]); a shard plays whole blocks, so the
//! blocks of all the shards, merged in seed order, give the very bits the whole run gives.
//! A file says which build of farebox wrote it, the mod's content hash, every setting the
//! figures depend on and the blocks it holds; files that differ in any of these, or whose
//! blocks overlap or leave a gap, are refused by name.

use std::ops::Range;
use std::path::{Path, PathBuf};

use farebox::figures::{Block, Tally};
use serde::{Deserialize, Serialize};

use crate::common::{Fail, shown_path};

/// What the `format` key of every shard file holds.
pub const FORMAT: &str = "farebox-shard";
/// The version of the file's layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The largest shard file read (a shard of a million games of a big mod is a few MB a block
/// of 1,024 at most).
pub const MAX_SHARD_BYTES: u64 = 1 << 30;

/// Everything about a run that its figures depend on, besides the mod's content: shards
/// merge only when these are equal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The whole range: its first seed and how many games.
    pub seed: u64,
    pub games: u64,
    /// Seeds per block.
    pub block: u64,
    pub players: u8,
    pub bots: Vec<String>,
    /// The options set (the others take their defaults).
    pub options: serde_json::Value,
    pub cap: u32,
    pub forbid: Vec<String>,
    /// 1-based, as given.
    pub forbid_seat: Option<u8>,
    /// Figures per card, tile, piece and option, and of the game as a whole (not `--no-figures`).
    pub figures: bool,
}

impl Settings {
    /// How many blocks the range holds.
    pub fn blocks(&self) -> u64 {
        self.games.div_ceil(self.block.max(1))
    }

    /// The games of blocks `blocks`, counted from the range's first game.
    pub fn games_of(&self, blocks: &Range<u64>) -> Range<u64> {
        let b = self.block.max(1);
        let end = blocks.end.saturating_mul(b).min(self.games);
        blocks.start.saturating_mul(b).min(end)..end
    }

    /// "seeds 1..1024" for games `games` of the range ("no seeds" for none).
    pub fn seeds(&self, games: &Range<u64>) -> String {
        if games.is_empty() {
            return "no seeds".into();
        }
        format!(
            "seeds {}..{}",
            self.seed.wrapping_add(games.start),
            self.seed
                .wrapping_add(games.end.saturating_sub(1).max(games.start))
        )
    }

    /// The first setting in which `other` differs from this, said of `other`.
    fn difference(&self, other: &Settings) -> Option<String> {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(",")
            }
        };
        let range = |s: &Settings| {
            format!(
                "{} games from seed {} in blocks of {}",
                s.games, s.seed, s.block
            )
        };
        let said = if (self.seed, self.games, self.block) != (other.seed, other.games, other.block)
        {
            format!("its seed range is {}, not {}", range(other), range(self))
        } else if self.players != other.players {
            format!("it has {} players, not {}", other.players, self.players)
        } else if self.bots != other.bots {
            format!(
                "its agents are {}, not {}",
                list(&other.bots),
                list(&self.bots)
            )
        } else if self.options != other.options {
            format!("its options are {}, not {}", other.options, self.options)
        } else if self.cap != other.cap {
            format!("its action cap is {}, not {}", other.cap, self.cap)
        } else if (&self.forbid, self.forbid_seat) != (&other.forbid, other.forbid_seat) {
            format!(
                "it forbids {} (seat {:?}), not {} (seat {:?})",
                list(&other.forbid),
                other.forbid_seat,
                list(&self.forbid),
                self.forbid_seat
            )
        } else if self.figures != other.figures {
            let on = |f: bool| if f { "on" } else { "off (--no-figures)" };
            format!(
                "its figures per content are {}, not {}",
                on(other.figures),
                on(self.figures)
            )
        } else {
            return None;
        };
        Some(said)
    }
}

/// One shard file (see the module).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShardFile {
    pub format: String,
    pub format_version: u32,
    /// The version of farebox that played it, and the hash of its binary.
    pub farebox: String,
    pub build: String,
    /// The mod as the command line named it (a bundled id or a folder), its id, version and
    /// content hash.
    pub game: String,
    pub mod_id: String,
    pub mod_version: String,
    pub content_hash: String,
    pub settings: Settings,
    /// Which shard of how many (0-based), and the blocks it holds from `first_block` on.
    pub shard: [u64; 2],
    pub first_block: u64,
    pub blocks: Vec<Block>,
}

impl ShardFile {
    /// The blocks this file holds.
    pub fn range(&self) -> Range<u64> {
        self.first_block..self.first_block.saturating_add(self.blocks.len() as u64)
    }
}

/// The blocks shard `i` of `n` plays out of `blocks`: as even a share as whole blocks allow,
/// in order (a shard may get none when there are fewer blocks than shards).
pub fn share(blocks: u64, i: u64, n: u64) -> Range<u64> {
    let at = |k: u64| (u128::from(blocks) * u128::from(k) / u128::from(n.max(1))) as u64;
    at(i)..at(i + 1)
}

/// "I/N" as given to `--shard`: 0 <= I < N <= 100,000.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{s}` is not a shard: write I/N, the shard I (from 0) of N, like 3/16");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || n > 100_000 {
        return Err(format!("`{s}`: the number of shards must be 1 to 100000"));
    }
    if i >= n {
        return Err(format!(
            "`{s}`: shards are counted from 0, so shard {i} of {n} does not exist (the last is {})",
            n - 1
        ));
    }
    Ok((i, n))
}

/// The hash of the running binary (blake3, first 16 hex digits), so shards of two builds of
/// the same version are told apart; "unknown" when the binary cannot be read.
pub fn build_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::read)
            .map(|bytes| blake3::hash(&bytes).to_hex()[..16].to_string())
            .unwrap_or_else(|_| "unknown".into())
    })
    .clone()
}

/// Writes `file` to `path` whole or not at all.
pub fn write(path: &Path, file: &ShardFile) -> Result<(), Fail> {
    let text = serde_json::to_string(file).map_err(|e| Fail::Invalid(e.to_string()))?;
    farebox::source::write_atomic(path, &text)
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", shown_path(path))))
}

/// Reads a shard file, refusing one of another layout.
pub fn read(path: &Path) -> Result<ShardFile, Fail> {
    let name = shown_path(path);
    let text = farebox::source::read_bounded(path, MAX_SHARD_BYTES)
        .map_err(|e| Fail::Usage(format!("cannot read {name}: {e}")))?;
    #[derive(Deserialize)]
    struct Head {
        format: Option<String>,
        format_version: Option<u32>,
    }
    let head: Head = serde_json::from_str(&text).map_err(|e| {
        Fail::Invalid(format!(
            "{name} is not a shard file ({e}); `farebox sim --shard I/N --out FILE` writes them"
        ))
    })?;
    if head.format.as_deref() != Some(FORMAT) {
        return Err(Fail::Invalid(format!(
            "{name} is not a shard file (it has no `\"format\": \"{FORMAT}\"`); `farebox sim --shard I/N --out FILE` writes them"
        )));
    }
    if head.format_version != Some(FORMAT_VERSION) {
        return Err(Fail::Invalid(format!(
            "{name} is a shard file of layout {}, and this farebox reads layout {FORMAT_VERSION}: merge it with the farebox that wrote it",
            head.format_version
                .map_or("(none)".into(), |v| v.to_string())
        )));
    }
    serde_json::from_str(&text)
        .map_err(|e| Fail::Invalid(format!("{name}:{}:{}: {e}", e.line(), e.column())))
}

/// The blocks of `files` in seed order, once every file is checked against the first: the
/// same build, content and settings, and together every block of the range exactly once.
pub fn blocks_in_order(files: &[(PathBuf, ShardFile)]) -> Result<Vec<&Block>, Fail> {
    let Some((first_path, first)) = files.first() else {
        return Err(Fail::Usage("merge needs at least one shard file".into()));
    };
    let first_name = shown_path(first_path);
    for (path, f) in files.iter().skip(1) {
        let name = shown_path(path);
        if (&f.farebox, &f.build) != (&first.farebox, &first.build) {
            return Err(Fail::Invalid(format!(
                "{name} was played by farebox {} (build {}), and {first_name} by farebox {} (build {}): shards merge only when one build played them all; play them again with one",
                f.farebox, f.build, first.farebox, first.build
            )));
        }
        if (&f.mod_id, &f.content_hash) != (&first.mod_id, &first.content_hash) {
            return Err(Fail::Invalid(format!(
                "{name} was played on other content than {first_name}: mod `{}` {} (content {}) against `{}` {} (content {}); play every shard on the same files",
                f.mod_id,
                f.mod_version,
                short(&f.content_hash),
                first.mod_id,
                first.mod_version,
                short(&first.content_hash)
            )));
        }
        if let Some(d) = first.settings.difference(&f.settings) {
            return Err(Fail::Invalid(format!(
                "{name} was played with other settings than {first_name}: {d}"
            )));
        }
    }
    let settings = &first.settings;
    let total = settings.blocks();
    let mut order: Vec<&(PathBuf, ShardFile)> = files.iter().collect();
    order.sort_by_key(|(_, f)| (f.first_block, f.blocks.len()));
    let mut next = 0u64;
    let mut from: Option<&Path> = None;
    let mut out = Vec::new();
    for (path, f) in order {
        let name = shown_path(path);
        let r = f.range();
        if r.end > total {
            return Err(Fail::Invalid(format!(
                "{name} holds blocks {}..{}, past the {total} blocks of the range",
                r.start, r.end
            )));
        }
        if r.is_empty() {
            continue;
        }
        if r.start < next {
            let both = settings.games_of(&(r.start..next.min(r.end)));
            return Err(Fail::Invalid(format!(
                "{name} and {} both hold {}: each block of seeds must come from one shard file (the same file given twice, or shards of different splits?)",
                from.map_or(first_name.clone(), shown_path),
                settings.seeds(&both)
            )));
        }
        if r.start > next {
            return Err(missing(settings, next..r.start));
        }
        for (k, b) in (r.start..r.end).zip(&f.blocks) {
            let want = settings.games_of(&(k..k + 1));
            if b.games() as u64 != want.end - want.start {
                return Err(Fail::Invalid(format!(
                    "{name}: its block {k} holds {} games, and {} are {}; the file is damaged",
                    b.games(),
                    settings.seeds(&want),
                    want.end - want.start
                )));
            }
            out.push(b);
        }
        next = r.end;
        from = Some(path);
    }
    if next < total {
        return Err(missing(settings, next..total));
    }
    Ok(out)
}

/// The figures of the whole range that `files` hold, played on `def` (the mod named `spec`):
/// the checks of [`blocks_in_order`], then the mod's content against the files', then the
/// blocks merged in seed order. `farebox merge` and the Studio's Outcomes tab both merge
/// this way, so they refuse the same files with the same words.
pub fn merge(
    files: &[(PathBuf, ShardFile)],
    def: &farebox::GameDef,
    spec: &str,
) -> Result<farebox::figures::Stats, Fail> {
    let blocks = blocks_in_order(files)?;
    let Some((first_path, first)) = files.first() else {
        return Err(Fail::Usage("merge needs at least one shard file".into()));
    };
    if def.id != first.mod_id {
        return Err(Fail::Invalid(format!(
            "{} was played on mod `{}`, and {} is mod `{}`: merge shards with the mod they were played on",
            shown_path(first_path),
            crate::common::shown(&first.mod_id, crate::common::MAX_SHOWN),
            crate::common::shown(spec, crate::common::MAX_SHOWN),
            def.id
        )));
    }
    if def.content_hash != first.content_hash {
        return Err(Fail::Invalid(format!(
            "{} has changed since {} was played (content {} then, {} now): merge with the files the shards were played on",
            crate::common::shown(spec, crate::common::MAX_SHOWN),
            shown_path(first_path),
            short(&first.content_hash),
            short(&def.content_hash)
        )));
    }
    let s = &first.settings;
    let tally = Tally::from_blocks(
        def,
        s.players,
        s.block,
        blocks.into_iter().cloned().collect::<Vec<_>>().as_slice(),
    )
    .map_err(|i| {
        Fail::Invalid(format!(
            "block {i} of the shards does not fit {} with {} players; the files are damaged",
            def.name, s.players
        ))
    })?;
    Ok(tally.stats())
}

/// The refusal for blocks no file holds.
fn missing(settings: &Settings, blocks: Range<u64>) -> Fail {
    Fail::Invalid(format!(
        "no shard file holds {} (blocks {}..{} of {}): give every shard's file",
        settings.seeds(&settings.games_of(&blocks)),
        blocks.start,
        blocks.end,
        settings.blocks()
    ))
}

/// A content hash cut to its first 12 digits.
fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_block_once() {
        for blocks in [0u64, 1, 5, 16, 17, 1000] {
            for n in [1u64, 2, 4, 16, 33] {
                let mut next = 0;
                for i in 0..n {
                    let r = share(blocks, i, n);
                    assert_eq!(r.start, next, "{blocks} {n} {i}");
                    next = r.end;
                }
                assert_eq!(next, blocks);
            }
        }
    }

    #[test]
    fn shards_are_read_as_i_of_n() {
        assert_eq!(parse_shard("3/16"), Ok((3, 16)));
        assert!(parse_shard("16/16").unwrap_err().contains("counted from 0"));
        assert!(parse_shard("3").is_err());
        assert!(parse_shard("0/0").is_err());
    }
}
