//! `farebox record`: play one game with bots and save the replay.

use farebox::agent::Agent;
use farebox::game::Game;
use farebox::replay::Recorder;

use crate::cli::RecordArgs;
use crate::common::{
    Fail, Io, load_for_play, result_line, seat_count, setup, shown_path, split_list,
};

pub fn run(args: RecordArgs, io: &mut Io) -> Result<i32, Fail> {
    let def = load_for_play(&args.game, io)?;
    let bots = split_list(&args.bots, "--bots")?;
    let seats = seat_count(&def, args.players, &bots);
    let setup = setup(&def, seats, args.seed, &args.options)?;
    let mut agents = Vec::new();
    for seat in 0..seats {
        let spec = bots
            .get(seat as usize)
            .or(bots.last())
            .map_or("random", String::as_str);
        agents.push(Agent::from_spec(spec, &def, args.seed, seat).map_err(Fail::Usage)?);
    }
    let mut game = Game::new(def.clone(), setup).map_err(|e| Fail::Usage(e.to_string()))?;
    let mut rec = Recorder::new(&game);
    let mut actions = 0u32;
    // A game that fails is still saved up to the last action that went through, so it can be
    // replayed and looked into (`farebox replay`, the Studio's Replay tab) as a Studio run's
    // failed game can.
    let mut failed: Option<Fail> = None;
    while !game.is_over() && actions < args.cap {
        let legal = match game.legal_actions() {
            Ok(l) => l,
            Err(e) => {
                failed = Some(Fail::Invalid(e.to_string()));
                break;
            }
        };
        if legal.is_empty() {
            failed = Some(Fail::Invalid(format!(
                "{} has no legal action, and the game is not over",
                def.seat_name(game.active() as usize)
            )));
            break;
        }
        let seat = game.active();
        let Some(agent) = agents.get_mut(seat as usize) else {
            failed = Some(Fail::Invalid(format!("no agent for seat {}", seat + 1)));
            break;
        };
        let action = match agent.choose(&mut game, &legal) {
            Ok(i) => legal.get(i).cloned().unwrap_or_default(),
            Err(e) => {
                failed = Some(Fail::Invalid(e.to_string()));
                break;
            }
        };
        if let Err(e) = game.apply_legal(&action) {
            failed = Some(Fail::Invalid(e.to_string()));
            break;
        }
        rec.step(seat, &action, &game);
        actions += 1;
    }
    let replay = rec.finish(&game);
    farebox::source::write_atomic(&args.out, &replay.to_json())
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", shown_path(&args.out))))?;
    // The search bots' playouts that failed: the game played on, and the run says so.
    let playouts = farebox::agent::playout_failures(&agents);
    if let Some(e) = &playouts.first {
        io.note(format!(
            "error: the search bot met {} {} in its {} playouts (each playout ended where it failed; the game played on); the first: {e}",
            playouts.errors,
            if playouts.errors == 1 { "error" } else { "errors" },
            playouts.playouts
        ));
    }
    if let Some(f) = failed {
        io.note(format!(
            "the game up to the failure ({actions} {}) is saved to {}; `farebox replay {}` \
             plays it back",
            crate::common::plural(actions as usize, "action"),
            shown_path(&args.out),
            shown_path(&args.out)
        ));
        return Err(f);
    }
    let result = game
        .result()
        .map_or(format!("stopped at the cap of {} actions", args.cap), |r| {
            result_line(&def, r)
        });
    io.say(format!(
        "recorded {} (seed {}): {actions} actions, {result} -> {}",
        def.id,
        args.seed,
        shown_path(&args.out)
    ));
    Ok(if playouts.errors > 0 { 1 } else { 0 })
}
