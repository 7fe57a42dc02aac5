//! The terminal game's one loop, over a source of turns: a game played here (`cmd_play.rs`:
//! bots, people passing the keyboard) or a seat at a table online (`cmd_join.rs`: the
//! server's updates). The source says what happened until a person here must decide, and
//! takes the decision; the loop shows the turn's screen (fitted to 100 x 40 by `play_view`,
//! the whole game or, for the same person again in the same turn, what changed) and reads the
//! keys of the menu (`crate::menu`), the same for both.

use farebox::GameDef;
use farebox::game::View;

use crate::cli::play_view::{self, Known};
use crate::common::{Fail, Io, clean_line};
use crate::menu::{Chosen, Menu, Nav, level_page};

/// A person here must decide: what their screen shows and what they may choose.
pub struct Turn {
    /// The seat's view now, and what the table knows besides it.
    pub view: View,
    pub known: Known,
    /// The view and knowledge the seat's last screen showed, when the same person acts again
    /// in the same turn: only what changed is shown.
    pub before: Option<(View, Known)>,
    /// What happened since the person last chose, headed, shown above the menu.
    pub news: Vec<String>,
    /// Lines shown after the whole game when the person asks for it again (`?`).
    pub again: Vec<String>,
    /// The actions offered and their menu paths (labels already cut short).
    pub actions: Vec<String>,
    pub paths: Vec<Vec<String>>,
    /// The prompt's name ("Red").
    pub name: String,
    /// The keys in full, after a line the menu did not take.
    pub help: &'static str,
}

/// What came of a turn.
pub enum Decision {
    /// The action chosen, by its index in [`Turn::actions`].
    Chose(usize),
    /// The person typed `q`.
    Quit,
    /// The input ended.
    Closed,
}

/// What a source has next.
pub enum Next {
    /// A person here decides.
    Turn(Box<Turn>),
    /// The game is over, or the person left: the exit code.
    Done(i32),
}

/// A game as the terminal plays it: local or online.
pub trait Source {
    fn def(&self) -> &GameDef;
    /// Plays on (bots, the server) and says what happened until a person here must decide.
    fn next(&mut self, io: &mut Io) -> Result<Next, Fail>;
    /// Takes the person's choice of the turn [`Source::next`] gave.
    fn act(&mut self, io: &mut Io, choice: usize) -> Result<(), Fail>;
    /// The person left (`closed`: their input ended); the exit code.
    fn leave(&mut self, io: &mut Io, closed: bool) -> i32;
}

/// Plays `source` to its end.
pub fn play(io: &mut Io, source: &mut impl Source) -> Result<i32, Fail> {
    loop {
        let turn = match source.next(io)? {
            Next::Turn(t) => t,
            Next::Done(code) => return Ok(code),
        };
        match decide(io, source.def(), &turn) {
            Decision::Chose(i) => source.act(io, i)?,
            Decision::Quit => return Ok(source.leave(io, false)),
            Decision::Closed => return Ok(source.leave(io, true)),
        }
    }
}

/// Shows the turn's screen and reads keys until an action is chosen or the person leaves.
pub fn decide(io: &mut Io, def: &GameDef, turn: &Turn) -> Decision {
    let menu = Menu::new(&turn.paths, &turn.actions);
    let mut nav = menu.start();
    let mut page = 0;
    // The counters are repeated just above the choices, where the eye is when choosing.
    let status = || play_view::status(def, &turn.view);
    let menu_now = menu_lines(&menu, &nav, page, status());
    // The screen fits a terminal of 100 x 40: what does not fit is folded away, `c` and `i`
    // show it.
    let screen = match &turn.before {
        Some((before, known_before)) => play_view::changes_screen(
            def,
            (before, known_before),
            (&turn.view, &turn.known),
            &turn.news,
            &menu_now,
        ),
        None => play_view::screen(def, &turn.view, &turn.known, &turn.news, &menu_now),
    };
    io.say("");
    say(io, &screen.lines);
    loop {
        io.prompt(format!("{}> ", turn.name));
        let Some(line) = io.read_line() else {
            return Decision::Closed;
        };
        match line.as_str() {
            "q" | "quit" => return Decision::Quit,
            "?" => {
                show(io, def, &turn.view, &turn.known);
                say(io, &turn.again);
                say(io, &menu_lines(&menu, &nav, page, status()));
            }
            // What the screen folded away: the map's codes, the rest.
            t @ ("c" | "i") => {
                let what = if t == "c" {
                    &screen.codes
                } else {
                    &screen.more
                };
                io.say("");
                if what.is_empty() {
                    io.say("Nothing was left out: it is all on the screen.");
                }
                say(io, what);
                say(io, &menu_lines(&menu, &nav, page, status()));
            }
            "m" => {
                page += 1;
                say(io, &menu_lines(&menu, &nav, page, status()));
            }
            "" => {}
            t => match nav.choose(&menu, t) {
                Ok(Chosen::Action(i)) => return Decision::Chose(i),
                // The level alone: the counters above may have scrolled away, so they are
                // repeated on a line of their own.
                Ok(Chosen::Moved) => {
                    page = 0;
                    say(io, &menu_lines(&menu, &nav, page, status()));
                }
                Err(m) => {
                    io.say(m);
                    io.say(turn.help);
                }
            },
        }
    }
}

/// Prints lines, each kept to one line (names from the mod must not break it).
pub fn say(io: &mut Io, lines: &[String]) {
    for l in lines {
        io.say(clean_line(l).into_owned());
    }
}

/// Prints the game as `view` shows it.
pub fn show(io: &mut Io, def: &GameDef, view: &View, known: &Known) {
    say(io, &play_view::lines(def, view, known));
}

/// The status line and page `page` of the open level of the menu, within the terminal's 100
/// columns.
fn menu_lines(menu: &Menu, nav: &Nav, page: usize, status: Option<String>) -> Vec<String> {
    let mut out: Vec<String> = status.into_iter().collect();
    out.extend(level_page(menu, nav, page).0);
    out.iter().flat_map(|l| play_view::fold_wide(l)).collect()
}
