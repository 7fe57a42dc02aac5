//! `farebox merge`: the shard files of a sweep merged into the figures of the whole range,
//! printed as `farebox sim` prints them (see `crate::shards`).

use farebox::figures::{Block, Tally};

use crate::cli::MergeArgs;
use crate::cli::cmd_sim::{Run, show};
use crate::common::{Fail, Io, MAX_SHOWN, load_for_play, shown, shown_path};
use crate::runs::forbid_of;
use crate::shards;

pub fn run(args: MergeArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        files.push((path.clone(), shards::read(path)?));
    }
    let blocks: Vec<Block> = shards::blocks_in_order(&files)?
        .into_iter()
        .cloned()
        .collect();
    let (first_path, first) = &files[0];
    let spec = args.game.as_deref().unwrap_or(&first.game);
    let def = load_for_play(spec, io).map_err(|e| match e {
        Fail::Usage(m) if args.game.is_none() => Fail::Usage(format!(
            "{m}; the shards were played on `{}`: give its folder with --mod PATH",
            shown(&first.game, MAX_SHOWN)
        )),
        other => other,
    })?;
    if def.content_hash != first.content_hash {
        return Err(Fail::Invalid(format!(
            "{} has changed since {} was played (content {} then, {} now): merge with the files the shards were played on",
            shown(spec, MAX_SHOWN),
            shown_path(first_path),
            first.content_hash.get(..12).unwrap_or(&first.content_hash),
            def.content_hash.get(..12).unwrap_or(&def.content_hash)
        )));
    }
    let s = &first.settings;
    let forbid = forbid_of(&def, &s.forbid, s.forbid_seat, s.players)?;
    let tally = Tally::from_blocks(&def, s.players, s.block, &blocks).map_err(|i| {
        Fail::Invalid(format!(
            "block {i} of the shards does not fit {} with {} players; the files are damaged",
            def.name, s.players
        ))
    })?;
    let run = Run {
        game: &first.game,
        def: &def,
        seed: s.seed,
        games: s.games,
        cap: s.cap,
        seats: s.players,
        bots: &s.bots,
        forbid: &forbid,
        figures: s.figures,
        profile: None,
        time: None,
    };
    show(&run, &tally.stats(), args.json, io)
}
