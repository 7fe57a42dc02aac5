//! `farebox merge`: the shard files of a sweep merged into the figures of the whole range,
//! printed as `farebox sim` prints them (see `crate::shards`).

use crate::cli::MergeArgs;
use crate::cli::cmd_sim::{Run, show};
use crate::common::{Fail, Io, MAX_SHOWN, load_for_play, shown};
use crate::runs::forbid_of;
use crate::shards;

pub fn run(args: MergeArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        files.push((path.clone(), shards::read(path)?));
    }
    let Some((_, first)) = files.first() else {
        return Err(Fail::Usage("merge needs at least one shard file".into()));
    };
    let spec = args.game.as_deref().unwrap_or(&first.game);
    // The files are checked against each other before the mod is looked for.
    shards::blocks_in_order(&files)?;
    let def = load_for_play(spec, io).map_err(|e| match e {
        Fail::Usage(m) if args.game.is_none() => Fail::Usage(format!(
            "{m}; the shards were played on `{}`: give its folder with --mod PATH",
            shown(&first.game, MAX_SHOWN)
        )),
        other => other,
    })?;
    let stats = shards::merge(&files, &def, spec)?;
    let s = &first.settings;
    let forbid = forbid_of(&def, &s.forbid, s.forbid_seat, s.players)?;
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
    show(&run, &stats, args.json, io)
}
