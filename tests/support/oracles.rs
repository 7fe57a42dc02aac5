//! Rule oracles: named checks, each tied to a rule ID, that judge one step of a game (the
//! state before, the action and its public label, the state after, and what each seat was
//! shown). A runner plays seeded games with any agents and runs every oracle on every step,
//! counting how many steps each actually judged: an oracle that judged nothing in a run is a
//! failure, so a rule whose case never came up is steered to (chosen seeds, options, a state
//! forced before the first action) rather than passed unseen.
//!
//! Oracles are written apart from the rules script: they read the content through the
//! `GameDef`, the state and the views, never the script or its helpers. Scenario tests prove
//! what their author thought of; oracles judge whatever the games happen to do.
//!
//! [`invariants`] hold for any game: every card in exactly one place, the active seat valid,
//! nothing hidden shown to a seat. A game's own oracles live beside it (`curbside_oracles.rs`).

use std::collections::BTreeSet;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::{Game, Setup};
use farebox::state::{LogEntry, State};
use farebox::value::Value;

/// What an oracle says of one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The step did what the rule says.
    Pass,
    /// It did not: what went wrong (the runner adds the oracle's rule ID, seed and step).
    Fail(String),
    /// The rule had nothing to judge at this step.
    Skip,
}

/// A check tied to a rule ID.
pub struct Oracle {
    pub rule: &'static str,
    pub name: &'static str,
    pub judge: Box<dyn Fn(&Step) -> Verdict + Send + Sync>,
}

impl Oracle {
    pub fn new(
        rule: &'static str,
        name: &'static str,
        judge: impl Fn(&Step) -> Verdict + Send + Sync + 'static,
    ) -> Oracle {
        Oracle {
            rule,
            name,
            judge: Box::new(judge),
        }
    }

    /// The same oracle judging only the steps `keep` accepts (skipping the rest): what a
    /// house rule does with an oracle of its game whose rule it changes in some steps only.
    pub fn only_when(self, keep: impl Fn(&Step) -> bool + Send + Sync + 'static) -> Oracle {
        let judge = self.judge;
        Oracle {
            judge: Box::new(move |st: &Step| if keep(st) { judge(st) } else { Verdict::Skip }),
            ..self
        }
    }
}

/// What one viewer (a seat, or `None`: a spectator) was shown for a step.
pub struct Shown {
    pub viewer: Option<u8>,
    /// Its label for the action, made before the action was taken.
    pub label: String,
    /// The log lines the action wrote that it may read.
    pub lines: Vec<String>,
    /// Its view after the action, as JSON, without the log.
    pub view: String,
    /// The secrets of [`farebox::leaks::secrets_for`] before and after the action.
    pub secrets_before: BTreeSet<String>,
    pub secrets_after: BTreeSet<String>,
}

/// An earlier step of the same game: the state before it, who acted and what they did.
pub struct Earlier {
    pub before: State,
    pub actor: u8,
    pub action: String,
}

/// One step: the action at `index` (from 0) of a game.
pub struct Step<'a> {
    pub def: &'a GameDef,
    pub seed: u64,
    pub seats: u8,
    /// Whether the plan forced state before the first action (setup oracles skip such games).
    pub forced: bool,
    pub index: usize,
    pub before: &'a State,
    pub after: &'a State,
    pub actor: u8,
    pub action: &'a str,
    /// The public label (what everyone else is told), made before the action.
    pub label: &'a str,
    /// The legal actions the actor chose from.
    pub offered: &'a [String],
    /// Every earlier step of the game, in order.
    pub earlier: &'a [Earlier],
    /// The log lines this action wrote (each with who may read it).
    pub lines: &'a [LogEntry],
    /// What every seat and a spectator were shown.
    pub shown: &'a [Shown],
}

impl Step<'_> {
    /// The option's value in this game.
    pub fn option(&self, id: &str) -> Option<&Value> {
        self.after.options.get(id)
    }

    /// The value of a counter (`seat` for a per-seat counter) in `s`.
    pub fn counter(&self, s: &State, id: &str, seat: Option<u8>) -> i64 {
        let i = self
            .def
            .counter(id)
            .unwrap_or_else(|| panic!("no counter `{id}`"));
        s.counters[i][seat.unwrap_or(0) as usize]
    }

    /// The zone instance of `id` (owned by `seat` for a per-seat zone) in `s`.
    pub fn zone<'s>(
        &self,
        s: &'s State,
        id: &str,
        seat: Option<u8>,
    ) -> &'s [farebox::state::CardRef] {
        let d = self
            .def
            .zone(id)
            .unwrap_or_else(|| panic!("no zone `{id}`"));
        let z = s
            .zone_of(d, seat)
            .unwrap_or_else(|| panic!("no zone `{id}` for {seat:?}"));
        &s.zones[z].cards
    }

    /// The card a reference names.
    pub fn card(&self, c: farebox::state::CardRef) -> &farebox::content::def::CardDef {
        &self.def.decks[c.deck as usize].cards[c.card as usize]
    }

    /// Whether the game ended at this step.
    pub fn ended(&self) -> bool {
        self.after.result.is_some()
    }
}

/// One seeded game to play: seats, seed, the agent of each seat (`random`, a bot id), the
/// options, and optionally state forced before the first action (through `Game::eval`).
#[derive(Clone)]
pub struct Plan {
    pub seats: u8,
    pub seed: u64,
    pub agents: Vec<String>,
    pub options: Vec<(&'static str, Value)>,
    pub prepare: Option<fn(&mut Game)>,
}

impl Plan {
    pub fn new(seed: u64, agents: &[&str]) -> Plan {
        Plan {
            seats: agents.len() as u8,
            seed,
            agents: agents.iter().map(|a| a.to_string()).collect(),
            options: vec![],
            prepare: None,
        }
    }
    pub fn option(mut self, id: &'static str, v: i64) -> Plan {
        self.options.push((id, Value::Int(v)));
        self
    }
    pub fn text_option(mut self, id: &'static str, v: &str) -> Plan {
        self.options.push((id, Value::Str(v.into())));
        self
    }
    pub fn prepare(mut self, f: fn(&mut Game)) -> Plan {
        self.prepare = Some(f);
        self
    }
}

/// What a run found.
#[derive(Default)]
pub struct Report {
    pub games: usize,
    pub steps: usize,
    /// Per oracle (in the order given): the steps it judged, and its failures (the first few).
    pub judged: Vec<usize>,
    pub failures: Vec<Vec<String>>,
    /// Games that could not be played on (a script error, a refused action).
    pub errors: Vec<String>,
}

const FAILURES_KEPT: usize = 3;

impl Report {
    /// Everything wrong: every failure, every oracle that judged nothing, every game error.
    pub fn problems(&self, oracles: &[Oracle]) -> Vec<String> {
        let mut out = self.errors.clone();
        for (i, o) in oracles.iter().enumerate() {
            out.extend(self.failures[i].iter().cloned());
            if self.judged[i] == 0 {
                out.push(format!(
                    "{} ({}): judged nothing in {} games: steer games there",
                    o.rule, o.name, self.games
                ));
            }
        }
        out
    }

    /// A line per oracle: its rule, name and the steps it judged.
    pub fn table(&self, oracles: &[Oracle]) -> String {
        oracles
            .iter()
            .zip(&self.judged)
            .map(|(o, n)| format!("{:<8} {:>7}  {}", o.rule, n, o.name))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What failed first in a run: the rule IDs and names of every oracle that failed at that
/// step, and the first message.
pub struct Caught {
    pub rules: Vec<&'static str>,
    pub names: Vec<&'static str>,
    pub message: String,
}

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "caught by {}: {}", self.rules.join(", "), self.message)
    }
}

/// Plays every plan and runs every oracle on every step; `stop_at_first` ends the run at the
/// first failure (what a mutation run wants). `cap` bounds each game's actions.
pub fn run(
    def: &Arc<GameDef>,
    plans: &[Plan],
    oracles: &[Oracle],
    cap: usize,
    stop_at_first: bool,
) -> Report {
    let mut report = Report {
        judged: vec![0; oracles.len()],
        failures: vec![vec![]; oracles.len()],
        ..Report::default()
    };
    for plan in plans {
        let stop = play_one(def, plan, oracles, cap, stop_at_first, &mut report);
        report.games += 1;
        if stop {
            break;
        }
    }
    report
}

/// The first failing step of [`run`] with `stop_at_first`, if any.
pub fn first_catch(
    def: &Arc<GameDef>,
    plans: &[Plan],
    oracles: &[Oracle],
    cap: usize,
) -> Option<Caught> {
    let report = run(def, plans, oracles, cap, true);
    let failed: Vec<(&Oracle, &String)> = report
        .failures
        .iter()
        .zip(oracles)
        .filter_map(|(f, o)| Some((o, f.first()?)))
        .collect();
    let (_, message) = failed.first()?;
    let mut rules: Vec<&'static str> = failed.iter().map(|(o, _)| o.rule).collect();
    rules.dedup();
    Some(Caught {
        names: failed.iter().map(|(o, _)| o.name).collect(),
        message: (*message).clone(),
        rules,
    })
}

/// The first oracle failure (invariants included) on `mod_id` with one edit made to one file
/// of `edit.0` (`mod_id` itself, or the game a house rule is built on): in `edit.1`, `find`
/// (which must occur) replaced by `replace`. What a test wants to show that an oracle catches
/// a break. Panics if the edit finds nothing or the mod no longer loads.
pub fn catch_break(
    mod_id: &str,
    edit: (&str, &str),
    find: &str,
    replace: &str,
    plans: &[Plan],
    game_oracles: Vec<Oracle>,
) -> Option<Caught> {
    let (edit_mod, file) = edit;
    let mut mods = crate::bundled_in_memory();
    let text = mods
        .0
        .get_mut(edit_mod)
        .unwrap_or_else(|| panic!("no bundled mod {edit_mod}"))
        .files
        .get_mut(file)
        .unwrap_or_else(|| panic!("{edit_mod} has no file {file}"));
    assert!(text.contains(find), "{edit_mod}/{file} has no `{find}`");
    *text = text.replacen(find, replace, 1);
    let src = mods
        .0
        .get(mod_id)
        .unwrap_or_else(|| panic!("no bundled mod {mod_id}"))
        .clone();
    let def = Arc::new(
        farebox::content::load_mod(&src, &mods)
            .unwrap_or_else(|e| panic!("{mod_id} with the edit does not load:\n{e}")),
    );
    let mut all = invariants();
    all.extend(game_oracles);
    first_catch(&def, plans, &all, 3000)
}

/// Plays one plan; true when the run should stop (a failure and `stop_at_first`).
fn play_one(
    def: &Arc<GameDef>,
    plan: &Plan,
    oracles: &[Oracle],
    cap: usize,
    stop_at_first: bool,
    report: &mut Report,
) -> bool {
    let seed = plan.seed;
    let mut setup = Setup::new(plan.seats, seed);
    for (k, v) in &plan.options {
        setup = setup.option(k, v.clone());
    }
    let mut g = match Game::new(def.clone(), setup) {
        Ok(g) => g,
        Err(e) => {
            report
                .errors
                .push(format!("seed {seed}: the game does not start: {e}"));
            return stop_at_first;
        }
    };
    if let Some(prepare) = plan.prepare {
        prepare(&mut g);
    }
    let mut agents = Vec::new();
    for (i, a) in plan.agents.iter().enumerate() {
        match Agent::from_spec(a, def, seed, i as u8) {
            Ok(agent) => agents.push(agent),
            Err(e) => panic!("{e}"),
        }
    }
    let viewers: Vec<Option<u8>> = (0..plan.seats).map(Some).chain([None]).collect();
    let mut earlier: Vec<Earlier> = Vec::new();
    while !g.is_over() && earlier.len() < cap {
        let offered = match g.legal_actions() {
            Ok(a) => a,
            Err(e) => {
                report
                    .errors
                    .push(format!("seed {seed}: no legal actions: {e}"));
                return stop_at_first;
            }
        };
        let actor = g.active();
        let choice = match agents[actor as usize].choose(&mut g, &offered) {
            Ok(i) => i,
            Err(e) => {
                report.errors.push(format!(
                    "seed {seed}: seat {} could not choose: {e}",
                    actor + 1
                ));
                return stop_at_first;
            }
        };
        let action = offered[choice].clone();
        let label = g.describe_public(&action);
        let labels: Vec<String> = viewers
            .iter()
            .map(|&v| g.describe_for(&action, v))
            .collect();
        let secrets_before: Vec<BTreeSet<String>> = viewers
            .iter()
            .map(|&v| farebox::leaks::secrets_for(&g, v))
            .collect();
        let before = g.state().clone();
        let told = g.log().len();
        if let Err(e) = g.apply_legal(&action) {
            report.errors.push(format!(
                "seed {seed}, action {} ({action}): {e}",
                earlier.len() + 1
            ));
            return stop_at_first;
        }
        let lines: Vec<LogEntry> = g.log()[told..].to_vec();
        let shown: Vec<Shown> = viewers
            .iter()
            .zip(labels)
            .zip(secrets_before)
            .map(|((&viewer, label), secrets_before)| {
                let mut view = g.view(viewer);
                view.log.clear();
                Shown {
                    viewer,
                    label,
                    lines: lines
                        .iter()
                        .filter(|e| e.seen.by(viewer))
                        .map(|e| e.text.to_string())
                        .collect(),
                    view: serde_json::to_string(&view).unwrap_or_default(),
                    secrets_before,
                    secrets_after: farebox::leaks::secrets_for(&g, viewer),
                }
            })
            .collect();
        let step = Step {
            def,
            seed,
            seats: plan.seats,
            forced: plan.prepare.is_some(),
            index: earlier.len(),
            before: &before,
            after: g.state(),
            actor,
            action: &action,
            label: &label,
            offered: &offered,
            earlier: &earlier,
            lines: &lines,
            shown: &shown,
        };
        report.steps += 1;
        let mut failed = false;
        for (i, o) in oracles.iter().enumerate() {
            match (o.judge)(&step) {
                Verdict::Pass => report.judged[i] += 1,
                Verdict::Skip => {}
                Verdict::Fail(msg) => {
                    report.judged[i] += 1;
                    failed = true;
                    if report.failures[i].len() < FAILURES_KEPT {
                        report.failures[i].push(format!(
                            "{} ({}): seed {seed}, {} seats, action {} (seat {}: {action}): {msg}",
                            o.rule,
                            o.name,
                            plan.seats,
                            step.index + 1,
                            actor + 1
                        ));
                    }
                }
            }
        }
        if failed && stop_at_first {
            return true;
        }
        earlier.push(Earlier {
            before,
            actor,
            action,
        });
    }
    false
}

/// Fails with `msg` unless `ok`.
pub fn check(ok: bool, msg: impl FnOnce() -> String) -> Verdict {
    if ok {
        Verdict::Pass
    } else {
        Verdict::Fail(msg())
    }
}

/// All of `verdicts`: the first failure, else a pass if any judged, else a skip.
pub fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
    let mut judged = false;
    for v in verdicts {
        match v {
            Verdict::Fail(m) => return Verdict::Fail(m),
            Verdict::Pass => judged = true,
            Verdict::Skip => {}
        }
    }
    if judged { Verdict::Pass } else { Verdict::Skip }
}

/// Every card of a state, sorted: what [`cards_stay`] compares.
fn cards(s: &State) -> Vec<(u16, u16)> {
    let mut out: Vec<(u16, u16)> = s
        .zones
        .iter()
        .flat_map(|z| z.cards.iter().map(|c| (c.deck, c.card)))
        .collect();
    out.sort_unstable();
    out
}

/// The invariants every game keeps at every step.
pub fn invariants() -> Vec<Oracle> {
    vec![
        Oracle::new(
            "any",
            "every card in exactly one place, none made or lost",
            |st| {
                let (b, a) = (cards(st.before), cards(st.after));
                if st.index == 0 && !st.forced {
                    // Every card of every deck is somewhere, once.
                    let mut all: Vec<(u16, u16)> = st
                        .def
                        .decks
                        .iter()
                        .enumerate()
                        .flat_map(|(d, deck)| {
                            deck.cards.iter().enumerate().flat_map(move |(c, card)| {
                                std::iter::repeat_n((d as u16, c as u16), card.count as usize)
                            })
                        })
                        .collect();
                    all.sort_unstable();
                    if b != all {
                        return Verdict::Fail(format!(
                            "the game starts with {} cards in its zones; its decks hold {}",
                            b.len(),
                            all.len()
                        ));
                    }
                }
                check(a == b, || {
                    format!(
                        "the zones held {} cards before and {} after (a card was made or lost)",
                        b.len(),
                        a.len()
                    )
                })
            },
        ),
        Oracle::new("any", "the seat to act is a seat of the game", |st| {
            check(st.after.active < st.seats, || {
                format!(
                    "seat {} is to act in a game of {}",
                    st.after.active + 1,
                    st.seats
                )
            })
        }),
        Oracle::new("any", "nothing hidden from a seat is shown to it", |st| {
            all(st.shown.iter().map(|s| {
                let both: BTreeSet<&String> =
                    s.secrets_before.intersection(&s.secrets_after).collect();
                let who = match s.viewer {
                    Some(v) => format!("seat {}", v + 1),
                    None => "a spectator".into(),
                };
                for w in &both {
                    if farebox::leaks::find_word(&s.label, w).is_some() {
                        return Verdict::Fail(format!("{who}'s label `{}` names `{w}`", s.label));
                    }
                    if let Some(l) = s
                        .lines
                        .iter()
                        .find(|l| farebox::leaks::find_word(l, w).is_some())
                    {
                        return Verdict::Fail(format!("{who} reads `{w}` in the log line `{l}`"));
                    }
                }
                for w in &s.secrets_after {
                    if farebox::leaks::find_word(&s.view, w).is_some() {
                        return Verdict::Fail(format!("{who}'s view shows `{w}`"));
                    }
                }
                Verdict::Pass
            }))
        }),
    ]
}

/// Runs a game's oracles and the invariants over `plans` (at most 3,000 actions a game),
/// prints how many steps each judged, and panics with every problem: an oracle that failed,
/// or one that judged nothing. What each game's `<game>_oracles` test does.
pub fn check_game(mod_id: &str, plans: &[Plan], game_oracles: Vec<Oracle>) {
    let def = crate::rule_kit::shipped(mod_id);
    let mut all = invariants();
    all.extend(game_oracles);
    let t = std::time::Instant::now();
    let report = run(&def, plans, &all, 3000, false);
    println!(
        "{} games, {} steps in {:.2} s\n{}",
        report.games,
        report.steps,
        t.elapsed().as_secs_f64(),
        report.table(&all)
    );
    let problems = report.problems(&all);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
