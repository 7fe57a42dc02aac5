//! `farebox play`: a game in the terminal.
//!
//! A person's screen is built only from `Game::view` of their seat and the log lines that
//! seat may read, so hidden cards stay hidden; with two or more people the game asks to pass
//! the keyboard before each turn, and tells the person taking it what happened since their
//! last turn: every action taken since (by its public label, the one everyone but the acting
//! seat may read) with the log lines their seat may read. The screen is drawn by `play_view`
//! (and a grid board by `play_board`); the actions are offered as a menu grouped by the paths
//! the `describe` hook gives (`crate::menu`).
//!
//! The whole game is shown when a person's turn begins (or the keyboard comes to them); after
//! an action of theirs that leaves them to act again in the same turn only what is new is
//! shown: what happened, the parts of the screen that changed, the counters line and the
//! menu. `?` shows the whole game again.

use std::io::IsTerminal;
use std::sync::Arc;

use farebox::agent::Agent;
use farebox::content::GameDef;
use farebox::game::{Game, View};
use farebox::state::GameResult;

use crate::cli::PlayArgs;
use crate::cli::play_loop::{self, Next, Source, Turn, show};
use crate::cli::play_view::Known;
use crate::common::{Fail, Io, clean_line, cut, load_for_play, ordinal, setup, split_list};

/// How many characters of a label (or of each part of a menu path) are shown.
const MAX_LABEL: usize = 300;

enum Seat {
    Human,
    Bot(Agent),
}

pub fn run(args: PlayArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut local = Local::start(&args, io)?;
    play_loop::play(io, &mut local)
}

/// A game played here: the source of the terminal's turns ([`play_loop::Source`]).
struct Local {
    def: Arc<GameDef>,
    game: Game,
    seats: Vec<Seat>,
    humans: usize,
    /// The only person, when exactly one plays.
    sole_human: Option<u8>,
    last_human: Option<u8>,
    /// Whether each seat has chosen yet: until then its news is what happened "so far".
    chosen: Vec<bool>,
    /// What the rules wrote to the log is told as it happens, to whoever is at the keyboard
    /// and only as far as their seat may see it. `seen` is how much each seat has been told,
    /// `told` how much of the log was told last; a person taking over the keyboard is first
    /// told what they missed.
    seen: Seen,
    told: usize,
    /// Every action taken, for the recap of a person taking the keyboard back (hot seat only).
    acts: Vec<Act>,
    /// What everyone knows beside a seat's view: the spaces' names, the piles that ran out.
    known: Known,
    /// What happened since a person last chose (their own action's results, the bots'
    /// actions) is shown with the next screen, just above the menu, where it is seen; with
    /// nobody at the keyboard it is printed as it happens.
    recap: Recap,
    /// The seat and turn of a person's action: when that person is to act again in that same
    /// turn, only what changed is shown (`shown` is the view their screen showed last).
    again: Option<(u8, u32)>,
    shown: Option<(View, Known)>,
    /// The actions of the turn a person is deciding.
    actions: Vec<String>,
}

impl Local {
    /// Sets the game up from the arguments and says who plays it.
    fn start(args: &PlayArgs, io: &mut Io) -> Result<Local, Fail> {
        let def = load_for_play(args.game.as_deref().unwrap_or_default(), io)?;
        let seats_spec = args.seats.clone().unwrap_or_else(|| {
            let bot = def.bots.first().map_or("random", |b| b.id.as_str());
            format!("human,{bot}")
        });
        let specs = split_list(&seats_spec, "--seats")?;
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
        let game = Game::new(def.clone(), su).map_err(|e| Fail::Usage(e.to_string()))?;
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
        let sole_human = match seats.iter().position(|s| matches!(s, Seat::Human)) {
            Some(i) if humans == 1 => Some(i as u8),
            _ => None,
        };
        let mut seen = Seen {
            log: vec![0; seats.len()],
            acts: vec![0; seats.len()],
        };
        let mut told = 0usize;
        for l in tell(&game, sole_human, &mut told, &mut seen, 0, "") {
            io.say(l);
        }
        Ok(Local {
            known: Known::new(&game),
            chosen: vec![false; seats.len()],
            recap: Recap {
                head: None,
                lines: vec![],
                hold: humans > 0,
            },
            def,
            game,
            seats,
            humans,
            sole_human,
            last_human: None,
            seen,
            told,
            acts: vec![],
            again: None,
            shown: None,
            actions: vec![],
        })
    }

    /// Says how the game ended, to the last person at the keyboard (or to anyone).
    fn over(&mut self, io: &mut Io, r: &GameResult) {
        let def = &self.def;
        if let Some(s) = self.last_human.or(self.sole_human) {
            show(io, def, &self.game.view(Some(s)), &self.known);
            self.recap
                .show(io, !self.chosen.get(s as usize).copied().unwrap_or(false));
        } else {
            self.recap.flush(io);
        }
        io.say(format!("Game over: {}", clean_line(&r.reason)));
        if let Some(won) = r.together {
            let score = r
                .scores
                .first()
                .map_or(String::new(), |s| format!(", score {s}"));
            let how = if won {
                "Everyone wins"
            } else {
                "Everyone loses"
            };
            io.say(format!("  {how} together{score}"));
            return;
        }
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
    }

    /// The keyboard goes to `seat`'s person: the last one hides their screen, the next one
    /// is told what they missed. False when the input ended.
    fn hand_off(&mut self, io: &mut Io, seat: u8) -> bool {
        // The last person's news is theirs: told before they pass the keyboard.
        self.recap.flush(io);
        let screen = std::io::stdout().is_terminal();
        if screen && self.last_human.is_some() {
            // The last person hides their screen (and its scrollback) before the keyboard
            // changes hands, so the next one never sees it.
            io.say("\nPress Enter to hide your screen before you pass the keyboard");
            if io.read_line().is_none() {
                return false;
            }
            let _ = write!(io.out, "\x1b[2J\x1b[3J\x1b[H");
        }
        let name = self.def.seat_name(seat as usize);
        io.say(format!("\nPass to {name} and press Enter"));
        if io.read_line().is_none() {
            return false;
        }
        if screen {
            let _ = write!(io.out, "\x1b[2J\x1b[3J\x1b[H");
        }
        // What they missed is shown above their menu, where it is read.
        self.recap.lines = missed(&self.game, seat, &self.seen, &self.acts)
            .iter()
            .map(|l| clean_line(l).into_owned())
            .collect();
        self.recap.head = Some("Since your last turn:");
        let mut from = self.game.log().len();
        tell(
            &self.game,
            Some(seat),
            &mut from,
            &mut self.seen,
            self.acts.len(),
            "",
        );
        self.told = from;
        true
    }

    /// A person's turn at `seat`, with these actions offered.
    fn person_turn(&mut self, io: &mut Io, seat: u8, actions: Vec<String>) -> Result<Next, Fail> {
        let handoff = self.humans >= 2 && self.last_human != Some(seat);
        if handoff && !self.hand_off(io, seat) {
            io.say("Bye.");
            return Ok(Next::Done(0));
        }
        self.last_human = Some(seat);
        let mut paths = Vec::with_capacity(actions.len());
        for a in &actions {
            match self.game.try_describe_path(a) {
                // A huge label is cut short (with its length): it is shown in a menu.
                Ok(p) => paths.push(p.iter().map(|part| cut(part, MAX_LABEL)).collect()),
                Err(e) => {
                    self.recap.flush(io);
                    return Err(Fail::Invalid(e.to_string()));
                }
            }
        }
        let first = !self.chosen.get(seat as usize).copied().unwrap_or(false);
        let now = self.game.view(Some(seat));
        let news = self.recap.lines_for(first);
        // The same person again in the same turn: what is new, not the whole game.
        let before = self
            .shown
            .take()
            .filter(|_| !handoff && self.again == Some((seat, now.turn)));
        self.shown = Some((now.clone(), self.known.clone()));
        self.actions = actions;
        Ok(Next::Turn(Box::new(Turn {
            view: now,
            known: self.known.clone(),
            before,
            again: news.clone(),
            news,
            actions: self.actions.clone(),
            paths,
            name: self.def.seat_name(seat as usize),
            help: MENU_HELP,
        })))
    }

    /// Applies the action of the seat to act (`human`: a person's), and tells what happened.
    fn apply(&mut self, io: &mut Io, action: &str, human: bool) -> Result<(), Fail> {
        let seat = self.game.active();
        let name = self.def.seat_name(seat as usize);
        let humans = self.humans;
        // A bot's move is told with the public label, the one everyone but the acting seat
        // may be shown; so is a person's, to the other people (a person's own action is not
        // repeated to them: they just chose it).
        let label = if !human || humans >= 2 {
            match self.game.try_describe_public(action) {
                Ok(l) => Some(cut(&l, MAX_LABEL)),
                Err(e) => {
                    self.recap.flush(io);
                    return Err(Fail::Invalid(e.to_string()));
                }
            }
        } else {
            None
        };
        let log_at = self.game.log().len();
        let turn = self.game.state().turn;
        if let Err(e) = self.game.apply_legal(action) {
            self.recap.flush(io);
            io.say(format!("error: {e}"));
            io.say("The action was refused; the game is as it was.");
            if !human {
                return Err(Fail::Invalid(format!(
                    "{name}'s bot chose an action the rules refused"
                )));
            }
            return Ok(());
        }
        if let Some(label) = &label
            && humans >= 2
        {
            self.acts.push(Act {
                log_at,
                seat,
                label: label.clone(),
            });
        }
        self.known.update(&self.game);
        self.again = human.then_some((seat, turn));
        let indent = match &label {
            Some(label) if !human => {
                self.recap.add(io, format!("{name}: {label}"));
                "    "
            }
            _ => "  ",
        };
        let viewer = self.last_human.or(self.sole_human);
        let lines = tell(
            &self.game,
            viewer,
            &mut self.told,
            &mut self.seen,
            self.acts.len(),
            indent,
        );
        for l in lines {
            self.recap.add(io, l);
        }
        Ok(())
    }
}

impl Source for Local {
    fn def(&self) -> &GameDef {
        &self.def
    }

    fn next(&mut self, io: &mut Io) -> Result<Next, Fail> {
        loop {
            if let Some(r) = self.game.result().cloned() {
                self.over(io, &r);
                return Ok(Next::Done(0));
            }
            let seat = self.game.active();
            let actions = match self.game.legal_actions() {
                Ok(a) => a,
                Err(e) => {
                    self.recap.flush(io);
                    return Err(Fail::Invalid(e.to_string()));
                }
            };
            if actions.is_empty() {
                self.recap.flush(io);
                return Err(Fail::Invalid(format!(
                    "{} has no legal action, and the game is not over",
                    self.def.seat_name(seat as usize)
                )));
            }
            let action = match self.seats.get_mut(seat as usize) {
                None => return Err(Fail::Invalid(format!("no one sits at seat {}", seat + 1))),
                Some(Seat::Human) => return self.person_turn(io, seat, actions),
                Some(Seat::Bot(agent)) => {
                    let i = agent
                        .choose(&mut self.game, &actions)
                        .map_err(|e| Fail::Invalid(e.to_string()))?;
                    actions.get(i).cloned().unwrap_or_default()
                }
            };
            self.apply(io, &action, false)?;
        }
    }

    fn act(&mut self, io: &mut Io, choice: usize) -> Result<(), Fail> {
        self.recap.lines.clear();
        self.recap.head = None;
        let seat = self.game.active();
        if let Some(c) = self.chosen.get_mut(seat as usize) {
            *c = true;
        }
        let action = self.actions.get(choice).cloned().unwrap_or_default();
        self.apply(io, &action, true)
    }

    fn leave(&mut self, io: &mut Io, closed: bool) -> i32 {
        io.say(if closed { "\nBye." } else { "Bye." });
        0
    }
}

/// An action taken, for the recap of a person who was not at the keyboard (hot seat).
struct Act {
    /// How long the log was before it: the lines it wrote follow.
    log_at: usize,
    seat: u8,
    /// Its public label (what everyone but the acting seat may read), never the acting
    /// seat's own.
    label: String,
}

/// How far each seat has been told the log and the actions (`Act`s).
struct Seen {
    log: Vec<usize>,
    acts: Vec<usize>,
}

/// The log entries from `from` on that `viewer` may see (public ones only for nobody), as
/// lines; moves `from`, and the viewer's own marks, to the end of the log (and to `acts`
/// actions).
fn tell(
    game: &Game,
    viewer: Option<u8>,
    from: &mut usize,
    seen: &mut Seen,
    acts: usize,
    indent: &str,
) -> Vec<String> {
    let log = game.log();
    let lines = log
        .iter()
        .skip(*from)
        .filter(|e| e.seen.by(viewer))
        .map(|e| format!("{indent}* {}", e.text))
        .collect();
    *from = log.len();
    if let Some(v) = viewer.map(usize::from) {
        if let Some(mark) = seen.log.get_mut(v) {
            *mark = log.len();
        }
        if let Some(mark) = seen.acts.get_mut(v) {
            *mark = acts;
        }
    }
    lines
}

/// What `seat` missed since it was last told: the other seats' actions by their public labels
/// ("Green: Drives to Rope Walk"), each followed by the log lines it wrote that the seat may
/// read, and log lines written before the first of them. Lines as the recap holds them.
fn missed(game: &Game, seat: u8, seen: &Seen, acts: &[Act]) -> Vec<String> {
    let log = game.log();
    let from = seen.log.get(seat as usize).copied().unwrap_or(0);
    let first_act = seen.acts.get(seat as usize).copied().unwrap_or(0);
    let def = game.def();
    let mut out = vec![];
    let mut next = acts
        .iter()
        .skip(first_act)
        .filter(|a| a.seat != seat)
        .peekable();
    let mut under_act = false;
    for (i, e) in log.iter().enumerate().skip(from) {
        while let Some(a) = next.next_if(|a| a.log_at <= i) {
            out.push(format!("{}: {}", def.seat_name(a.seat as usize), a.label));
            under_act = true;
        }
        if e.seen.by(Some(seat)) {
            let indent = if under_act { "    " } else { "  " };
            out.push(format!("{indent}* {}", e.text));
        }
    }
    for a in next {
        out.push(format!("{}: {}", def.seat_name(a.seat as usize), a.label));
    }
    out
}

/// Lines told since the person at the keyboard last chose, held for their next screen.
struct Recap {
    /// What the lines are headed by once the person has chosen before (by default "Since
    /// your last choice:").
    head: Option<&'static str>,
    lines: Vec<String>,
    /// Whether to hold lines for a screen (someone plays) or print them at once (bots only).
    hold: bool,
}

impl Recap {
    fn add(&mut self, io: &mut Io, line: String) {
        // One line each: a line break in a label or a log line must not make a line that
        // looks like the program's own.
        let line = clean_line(&line).into_owned();
        if self.hold {
            self.lines.push(line);
        } else {
            io.say(line);
        }
    }

    /// Shows the held lines (they stay held until the person chooses); `first` when the
    /// person has not chosen yet.
    fn show(&self, io: &mut Io, first: bool) {
        for l in self.lines_for(first) {
            io.say(l);
        }
    }

    /// The held lines under their heading, as [`Recap::show`] prints them.
    fn lines_for(&self, first: bool) -> Vec<String> {
        if self.lines.is_empty() {
            return vec![];
        }
        let head = if first {
            "So far:"
        } else {
            self.head.unwrap_or("Since your last choice:")
        };
        let mut out = vec![head.to_string()];
        out.extend(self.lines.iter().map(|l| format!("  {l}")));
        out
    }

    /// Prints the held lines and forgets them.
    fn flush(&mut self, io: &mut Io) {
        for l in self.lines.drain(..) {
            io.say(l);
        }
    }
}

/// The keys in full, after a line that did not fit the menu (each level ends with them in
/// short).
const MENU_HELP: &str = "Type a number to choose (several, like `3 1 2`, go down several levels), b to go back, m for more choices, ? to show the whole game, c for the map's codes, i for what the screen left out, q to quit.";
