//! `farebox play`: a game in the terminal.
//!
//! A person's screen is built only from `Game::view` of their seat, so hidden cards stay
//! hidden; with two or more people the game asks to pass the keyboard before each turn.

use std::collections::HashMap;
use std::io::IsTerminal;

use farebox::agent::Agent;
use farebox::content::GameDef;
use farebox::content::def::{BoardDef, Scope};
use farebox::game::{Game, View};
use farebox::value::Value;

use crate::cli::PlayArgs;
use crate::common::{Fail, Io, load_for_play, ordinal, setup, split_list};

enum Seat {
    Human,
    Bot(Agent),
}

pub fn run(args: PlayArgs, io: &mut Io) -> Result<i32, Fail> {
    let def = load_for_play(&args.game, io)?;
    let specs = split_list(&args.seats);
    if specs.is_empty() {
        return Err(Fail::Usage("--seats needs at least one seat".into()));
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000)
    });
    let n = u8::try_from(specs.len()).map_err(|_| Fail::Usage("too many seats".into()))?;
    let su = setup(&def, n, seed, &args.options)?;
    let mut seats = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        if s == "human" {
            seats.push(Seat::Human);
        } else {
            seats.push(Seat::Bot(
                Agent::from_spec(s, &def, seed, i as u8).map_err(Fail::Usage)?,
            ));
        }
    }
    let humans = seats.iter().filter(|s| matches!(s, Seat::Human)).count();
    let mut game = Game::new(def.clone(), su).map_err(|e| Fail::Usage(e.to_string()))?;
    let who: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} ({s})", def.seat_name(i)))
        .collect();
    io.say(format!(
        "{} {}, seed {seed}: {}",
        def.name,
        def.version,
        who.join(", ")
    ));
    let mut last_human: Option<u8> = None;
    // What the rules wrote to the log is told as it happens, to whoever is at the keyboard and
    // only as far as their seat may see it. `seen[s]` is how much of the log seat s has been
    // told; a person taking over the keyboard is first told what they missed.
    let sole_human = match seats.iter().position(|s| matches!(s, Seat::Human)) {
        Some(i) if humans == 1 => Some(i as u8),
        _ => None,
    };
    let mut seen = vec![0usize; seats.len()];
    let mut told = 0usize;
    tell(io, &game, sole_human, &mut told, &mut seen, "");

    loop {
        if let Some(r) = game.result().cloned() {
            if let Some(s) = last_human {
                show(io, &def, &game.view(Some(s)));
            }
            io.say(format!("Game over: {}", r.reason));
            let mut order: Vec<usize> = (0..r.places.len()).collect();
            order.sort_by_key(|&i| (r.places[i], i));
            for i in order {
                let score = r
                    .scores
                    .get(i)
                    .map_or(String::new(), |s| format!(", score {s}"));
                io.say(format!(
                    "  {} {}{score}",
                    ordinal(r.places[i]),
                    def.seat_name(i)
                ));
            }
            return Ok(0);
        }
        let seat = game.active();
        let actions = match game.legal_actions() {
            Ok(a) => a,
            Err(e) => return Err(Fail::Invalid(e.to_string())),
        };
        if actions.is_empty() {
            return Err(Fail::Invalid(format!(
                "{} has no legal action, and the game is not over",
                def.seat_name(seat as usize)
            )));
        }
        let name = def.seat_name(seat as usize);
        let Some(kind) = seats.get_mut(seat as usize) else {
            return Err(Fail::Invalid(format!("no one sits at seat {}", seat + 1)));
        };
        let (action, human) = match kind {
            Seat::Human => {
                if humans >= 2 && last_human != Some(seat) {
                    io.say(format!("\nPass to {name} and press Enter"));
                    if io.read_line().is_none() {
                        io.say("Bye.");
                        return Ok(0);
                    }
                    if std::io::stdout().is_terminal() {
                        let _ = write!(io.out, "\x1b[2J\x1b[H");
                    }
                    let mut from = seen.get(seat as usize).copied().unwrap_or(0);
                    if from < game.log().len() {
                        io.say("Since your last turn:");
                    }
                    tell(io, &game, Some(seat), &mut from, &mut seen, "  ");
                    told = from;
                }
                last_human = Some(seat);
                let labels: Vec<String> = actions.iter().map(|a| game.describe(a)).collect();
                show(io, &def, &game.view(Some(seat)));
                show_actions(io, &labels);
                let choice = loop {
                    let _ = write!(io.out, "{name}> ");
                    let Some(line) = io.read_line() else {
                        io.say("\nBye.");
                        return Ok(0);
                    };
                    match line.as_str() {
                        "q" | "quit" => {
                            io.say("Bye.");
                            return Ok(0);
                        }
                        "?" => {
                            show(io, &def, &game.view(Some(seat)));
                            show_actions(io, &labels);
                        }
                        "" => {}
                        t => match t.parse::<usize>() {
                            Ok(k) if (1..=actions.len()).contains(&k) => break k - 1,
                            _ => io.say(format!(
                                "Type a number from 1 to {}, ? to show the game, or q to quit.",
                                actions.len()
                            )),
                        },
                    }
                };
                (actions[choice].clone(), true)
            }
            Seat::Bot(agent) => {
                let i = agent
                    .choose(&mut game, &actions)
                    .map_err(|e| Fail::Invalid(e.to_string()))?;
                (actions.get(i).cloned().unwrap_or_default(), false)
            }
        };
        let label = game.describe(&action);
        match game.apply_legal(&action) {
            Ok(()) => {
                let indent = if human {
                    "  "
                } else {
                    io.say(format!("{name}: {label}"));
                    "    "
                };
                let viewer = last_human.or(sole_human);
                tell(io, &game, viewer, &mut told, &mut seen, indent);
            }
            Err(e) => {
                io.say(format!("error: {e}"));
                io.say("The action was refused; the game is as it was.");
                if !human {
                    return Err(Fail::Invalid(format!(
                        "{name}'s bot chose an action the rules refused"
                    )));
                }
            }
        }
    }
}

/// Prints the log entries from `from` on that `viewer` may see (public ones only for nobody),
/// and moves `from`, and the viewer's own mark, to the end of the log.
fn tell(
    io: &mut Io,
    game: &Game,
    viewer: Option<u8>,
    from: &mut usize,
    seen: &mut [usize],
    indent: &str,
) {
    let log = game.log();
    for entry in log.iter().skip(*from) {
        if entry.seen.by(viewer) {
            io.say(format!("{indent}* {}", entry.text));
        }
    }
    *from = log.len();
    if let Some(mark) = viewer.and_then(|v| seen.get_mut(v as usize)) {
        *mark = log.len();
    }
}

fn show_actions(io: &mut Io, labels: &[String]) {
    io.say("Actions:");
    for (i, l) in labels.iter().enumerate() {
        io.say(format!("  {:>2}. {l}", i + 1));
    }
}

/// Short form of a tile id: the part after the last `-` ("cs-t12" -> "t12").
fn short(id: &str) -> &str {
    id.rsplit('-').next().unwrap_or(id)
}

fn owner_name(def: &GameDef, owner: Option<u8>) -> String {
    owner.map_or_else(String::new, |o| {
        format!(" of {}", def.seat_name(o as usize))
    })
}

/// Prints what `view` shows: turn, counters, public variables, zones, pieces and the board.
pub fn show(io: &mut Io, def: &GameDef, view: &View) {
    let you = view.seat.map_or_else(String::new, |s| {
        format!(" (you are {})", def.seat_name(s as usize))
    });
    io.say(format!(
        "\n== Turn {}: {} to act{you} ==",
        view.turn,
        def.seat_name(view.active as usize)
    ));
    for (id, values) in &view.counters {
        let cd = def.counters.iter().find(|c| &c.id == id);
        let name = cd.map_or(id.as_str(), |c| c.name.as_str());
        let text = if cd.is_some_and(|c| c.scope == Scope::Seat) {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} {v}", def.seat_name(i)))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        io.say(format!("  {name}: {text}"));
    }
    // Names starting with `_` are the rules' bookkeeping: in the view, but not worth showing.
    for (k, v) in view.vars.iter().filter(|(k, _)| !k.starts_with('_')) {
        io.say(format!("  {k} = {v}"));
    }
    io.say("Zones:");
    for z in &view.zones {
        let cards = if z.cards.is_empty() {
            if z.count > 0 {
                " (hidden)".to_string()
            } else {
                String::new()
            }
        } else if z.cards.len() < z.count {
            format!(", top: {}", card_names(def, &z.cards))
        } else {
            format!(": {}", card_names(def, &z.cards))
        };
        io.say(format!(
            "  {}{}: {} {}{cards}",
            z.id,
            owner_name(def, z.owner),
            z.count,
            crate::common::plural(z.count, "card")
        ));
    }
    // Pieces, grouped by kind, owner and place.
    let mut groups: Vec<(String, usize)> = Vec::new();
    for p in &view.pieces {
        let at =
            p.at.as_ref()
                .map_or("off the board".to_string(), |a| format!("at {a}"));
        let props: Vec<String> = p
            .props
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" ({})", props.join(", "))
        };
        let key = format!("{}{}{props} {at}", p.kind, owner_name(def, p.owner));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some(g) => g.1 += 1,
            None => groups.push((key, 1)),
        }
    }
    if !groups.is_empty() {
        io.say("Pieces:");
        for (k, c) in groups {
            let count = if c > 1 {
                format!("{c} x ")
            } else {
                String::new()
            };
            io.say(format!("  {count}{k}"));
        }
    }
    if let (BoardDef::Grid(g), Some(tiles)) = (&def.board, &view.tiles) {
        grid(io, def, g, view, tiles);
    }
}

/// Cards as people know them: by name, runs of the same card counted ("2 x Straightaway").
fn card_names(def: &GameDef, ids: &[String]) -> String {
    let name = |id: &str| {
        def.decks
            .iter()
            .find_map(|d| d.card(id).and_then(|i| d.cards.get(i)))
            .map_or_else(|| id.to_string(), |c| c.name.clone())
    };
    let mut out: Vec<(String, usize)> = Vec::new();
    for id in ids {
        let n = name(id);
        match out.last_mut() {
            Some((last, count)) if *last == n => *count += 1,
            _ => out.push((n, 1)),
        }
    }
    out.into_iter()
        .map(|(n, c)| if c > 1 { format!("{c} x {n}") } else { n })
        .collect::<Vec<_>>()
        .join(", ")
}

type Cell = (Option<(String, u8)>, Option<(String, u8)>);

/// A box-drawing character for the open sides of a tile as it lies (N, E, S, W).
fn road_glyph(def: &GameDef, id: &str, rot: u8) -> char {
    let Some(t) = def.tile(id).and_then(|i| def.tiles.get(i)) else {
        return '?';
    };
    let links = t.links_turned(rot);
    let mut open = 0usize;
    for (side, to) in links.iter().enumerate() {
        if *to != 0 {
            open |= 1 << side;
        }
        open |= *to as usize;
    }
    // Index: N = 1, E = 2, S = 4, W = 8.
    const GLYPHS: [char; 16] = [
        '·', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
    ];
    GLYPHS[open & 15]
}

/// A piece's mark on the board: its seat's initial (capital), or the initial of its kind
/// followed by the initial of its `color` property when it has one ("py": the yellow
/// passenger), so matching pieces can be told apart.
fn piece_mark(def: &GameDef, p: &farebox::game::PieceView) -> String {
    let initial = |s: &str| s.chars().next().unwrap_or('?');
    match p.owner {
        Some(o) => initial(&def.seat_name(o as usize))
            .to_uppercase()
            .to_string(),
        None => {
            let mut m: String = initial(&p.kind).to_lowercase().collect();
            if let Some(Value::Str(c)) = p.props.get("color") {
                m.extend(initial(c).to_lowercase());
            }
            m
        }
    }
}

fn grid(
    io: &mut Io,
    def: &GameDef,
    g: &farebox::content::def::GridDef,
    view: &View,
    tiles: &[Cell],
) {
    let w = g.width as usize;
    if w == 0 {
        return;
    }
    // Space id of each cell: "x,y" unless the board names it.
    let mut ids: HashMap<String, usize> = (0..tiles.len())
        .map(|i| (format!("{},{}", i % w + 1, i / w + 1), i))
        .collect();
    for c in &g.cells {
        if let Some(id) = &c.id {
            ids.insert(id.clone(), ((c.y - 1) * g.width + (c.x - 1)) as usize);
        }
    }
    let mut marks: Vec<Vec<String>> = vec![vec![]; tiles.len()];
    for p in &view.pieces {
        if let Some(m) =
            p.at.as_ref()
                .and_then(|a| ids.get(a))
                .and_then(|i| marks.get_mut(*i))
        {
            m.push(piece_mark(def, p));
        }
    }
    let cells: Vec<String> = tiles
        .iter()
        .zip(&marks)
        .map(|((t, b), m)| {
            let mut s = t.as_ref().map_or(".".to_string(), |(id, r)| {
                format!("{}{}/{r}", road_glyph(def, id, *r), short(id))
            });
            if let Some((id, _)) = b {
                s.push_str(&format!("#{}", short(id)));
            }
            if !m.is_empty() {
                s.push_str(&format!("[{}]", m.join(",")));
            }
            s
        })
        .collect();
    let cw = cells
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(3);
    io.say(format!(
        "Board ({}x{}; road shape, tile/quarter turns, #blocker, [pieces: seat, or kind and color]):",
        g.width, g.height
    ));
    let header: Vec<String> = (1..=w).map(|x| format!("{x:<cw$}")).collect();
    io.say(format!("     {}", header.join(" ").trim_end()));
    for (y, row) in cells.chunks(w).enumerate() {
        let line: Vec<String> = row.iter().map(|c| format!("{c:<cw$}")).collect();
        io.say(format!("  {:>2} {}", y + 1, line.join(" ").trim_end()));
    }
}
