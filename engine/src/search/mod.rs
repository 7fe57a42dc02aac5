//! The built-in search bot: information-set Monte Carlo tree search for any mod, with no code.
//!
//! `search:N` runs N iterations (playouts) per decision of single-observer information-set
//! MCTS (Cowling, Powley and Whitehouse 2012). Each iteration:
//!
//! 1. takes a fresh determinization of the real game for the bot's seat
//!    ([`Game::determinized_on`]: the cards hidden from it redealt, its hidden variables
//!    imagined by the rules, the generator reseeded), so it reads nothing its seat may not see;
//! 2. walks the tree, which is keyed by action strings and shared by all determinizations:
//!    at each node it takes the actions legal in this determinization, counts each child
//!    that is among them as available, expands one untried action if there is one, else picks
//!    the child of best UCB1 (`mean + C * sqrt(ln(available) / visits)`, C = [`EXPLORE`]) for
//!    the seat that acts there;
//! 3. plays on with the mod's first scripted bot (or the random agent, or the policy the spec
//!    names) until the game ends or [`DEPTH`] actions have been taken from the root;
//! 4. evaluates the end (see [`values`]) for every seat and adds each seat's value to the
//!    children that seat chose on the way.
//!
//! The action chosen is the root child visited most (ties: better mean, then earlier in the
//! list). Every random number comes from the agent's seed, the decision's number (the
//! actions taken so far) and the iteration's number, never from the clock or an address, so
//! the same game, seed and budget give the same choice on any machine and any thread count.
//! Work is bounded by the budget: at most N x [`DEPTH`] actions a decision, each rules call in
//! a copy under the engine's step budget and memory limit, one VM at a time (made once a
//! decision and reused by every determinization), and a tree of at most N + 1 nodes.

use crate::content::GameDef;
use crate::game::{Game, GameError};
use crate::rng::Rng;
use crate::script::{Host, PlayoutAt, ScriptError};
use crate::state::GameResult;

mod paired;

/// Playouts per decision of a bare `search` in a mod whose `[search]` gives none.
pub use crate::content::def::DEFAULT_SEARCH_PLAYOUTS as DEFAULT_PLAYOUTS;
/// The most playouts a spec may ask for.
pub use crate::content::def::MAX_SEARCH_PLAYOUTS as MAX_PLAYOUTS;
pub use crate::content::def::{SearchDef, SearchRoot};
/// Actions a playout takes from the root (tree and policy together) before it is cut and
/// evaluated by the scores.
pub const DEPTH: u32 = 24;
/// UCB1's exploration constant, for values in [0, 1].
pub const EXPLORE: f64 = 0.7;
/// At the root, with a scripted playout policy: the prior weight of the action the policy
/// itself would take, on top of an even share of the rest (`(1 - PRIOR) / actions` each).
pub const PRIOR: f64 = 0.5;
/// At the root, with a prior: the weight of the prior against the values seen (PUCT).
pub const PUCT: f64 = 1.0;

/// The strengths the front ends offer in their seat and agent pickers for `def`: the spec and
/// what it is called there. The middle one is the mod's own budget (`[search] playouts`), the
/// quick one a quarter of it and the strong one four times it, so each level costs about the
/// same time a move in every game. Any `search:N` can still be typed where a spec is asked for.
pub fn levels(def: &GameDef) -> Vec<(String, String)> {
    let p = def.search.playouts;
    let mut out: Vec<(String, String)> = Vec::new();
    for (n, name) in [
        ((p / 4).max(1), "Search bot, quick"),
        (p, "Search bot"),
        (p.saturating_mul(4).min(MAX_PLAYOUTS), "Search bot, strong"),
    ] {
        let spec = format!("search:{n}");
        if out.iter().any(|(s, _)| *s == spec) {
            continue;
        }
        let unit = if n == 1 { "playout" } else { "playouts" };
        out.push((spec, format!("{name} ({n} {unit} a move)")));
    }
    out
}

/// A search spec in words for people (`search:7:random` -> "Search bot (7 playouts a move
/// played out at random)"), or `None` when `spec` is not a search spec of `def`.
pub fn describe(spec: &str, def: &GameDef) -> Option<String> {
    if let Some((_, name)) = levels(def).into_iter().find(|(s, _)| s == spec) {
        return Some(name);
    }
    let (playouts, policy) = Search::parse_spec(spec, def).ok()?;
    let unit = if playouts == 1 { "playout" } else { "playouts" };
    let by = match &policy {
        Policy::Random => " played out at random".to_string(),
        Policy::Bot(id) => match def.bots.first() {
            Some(first) if first.id == *id => String::new(),
            _ => format!(
                " played out by {}",
                def.bot(id).map_or(id.as_str(), |b| b.name.as_str())
            ),
        },
    };
    Some(format!("Search bot ({playouts} {unit} a move{by})"))
}

/// How a playout picks the actions past the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Policy {
    Random,
    /// A bot script of the mod, by id.
    Bot(String),
}

/// The search bot of one seat.
#[derive(Debug, Clone)]
pub struct Search {
    playouts: u32,
    policy: Policy,
    seed: u64,
    /// Decisions with a choice made so far, and how many of them left the policy's choice
    /// (counted for the bench; they never change a choice).
    decided: std::cell::Cell<u32>,
    departed: std::cell::Cell<u32>,
    /// Actions taken in playouts so far (counted for the bench, like `decided`).
    playout_actions: std::cell::Cell<u64>,
    /// The positions this seat has chosen from in the current turn of the real game, as it
    /// saw them (see [`Earlier`]).
    earlier: std::cell::RefCell<Earlier>,
    /// The VM the playout bot is asked for the root's prior on (see [`Search::ask_bot`]).
    prior_vm: PriorVm,
    /// What failed in the playouts so far (see [`Failures`]).
    failures: std::cell::RefCell<Failures>,
    /// Analysis only (`farebox sim --hidden-value`): the playouts start from the real game
    /// with every secret as it is ([`Game::seen_whole`]) instead of a determinization for
    /// the seat. [`crate::agent::AgentSpec::parse`] never makes such a bot, so no seat in
    /// play can have one.
    sees_all: bool,
    /// With a scripted policy, compare candidates on the same imagined games at the root
    /// (`search:N:POLICY:paired`, see `paired`) instead of the tree with the bot's choice as
    /// its prior.
    paired_root: bool,
}

/// The failures met in a search bot's playouts: script errors and limits reached in the rules,
/// the playout bot or the `evaluate` and `score` hooks of an imagined game, and `actions`
/// hooks that offered nothing. A playout that fails ends where it got to and is judged from
/// there, as before failures were counted, so counting them changes no choice; the run that
/// played the game reports them (`farebox sim`, `bench`, `record`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Failures {
    /// Playouts run (one a determinization, whether or not it failed).
    pub playouts: u64,
    /// Failed calls.
    pub errors: u64,
    /// The first failure, saying where: the game's seed and action, the playout and how far
    /// into it, and for a script error its file, line, hook and stack.
    /// (Boxed: a search bot carries it in every seat that plays.)
    pub first: Option<Box<GameError>>,
}

impl Failures {
    /// Adds another bot's (or game's) failures to these.
    pub fn add(&mut self, other: &Failures) {
        self.playouts = self.playouts.saturating_add(other.playouts);
        self.errors = self.errors.saturating_add(other.errors);
        if self.first.is_none() {
            self.first.clone_from(&other.first);
        }
    }
}

/// Where in a decision the search is: the real game's seed and actions taken, and the
/// playout (1 for the first; 0 while asking the playout bot for the prior).
#[derive(Debug, Clone, Copy)]
struct Here {
    seed: u64,
    decision: u64,
    playout: u32,
}

/// Says of an error met while the search bot thinks that it happened there, `taken` actions
/// into the playout: at the real game's action `decision` + 1. A script error keeps its file,
/// line, hook and stack; another failure (an `actions` hook that offers nothing) becomes a
/// message saying the same.
fn in_playout(e: GameError, here: Here, taken: u32) -> GameError {
    let action = usize::try_from(here.decision)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    let (seed, playout) = (here.seed, here.playout);
    match e {
        GameError::Script(mut e) => {
            e.context.seed = Some(seed);
            e.context.action = Some(action);
            e.context.playout = Some(PlayoutAt { playout, taken });
            GameError::Script(e)
        }
        other => GameError::Setup(format!(
            "{other} (at action {action} of the game with seed {seed}, {})",
            PlayoutAt { playout, taken }
        )),
    }
}

/// A VM kept between decisions. A cloned bot starts without one.
#[derive(Default)]
struct PriorVm(std::cell::RefCell<Option<Box<Host>>>);

impl Clone for PriorVm {
    fn clone(&self) -> PriorVm {
        PriorVm::default()
    }
}

impl std::fmt::Debug for PriorVm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PriorVm")
    }
}

/// The positions a seat has already chosen from in one turn of the real game, each as the
/// hash of its view without the log. An action that brings the seat back to one of them in the
/// same turn (a menu's "back" after a step into it, a piece moved there and back) gains it
/// nothing, and a search that took it could cycle for ever: each decision searches afresh and
/// cannot see that the game was here before. So the walk scores such an action at the root as
/// a loss for the seat, as it does a return within the walk. Views carry the turn number, so
/// a position of another turn never matches; the list is cleared when the turn changes.
#[derive(Debug, Clone, Default)]
struct Earlier {
    turn: u32,
    /// The real game's action count at the last decision (a smaller one is a new game).
    at: usize,
    positions: Vec<String>,
}

/// A seat's position: a fingerprint of its view of the game, without the log (which grows
/// with every action, a "back" included). Equal exactly when the views are; what it costs
/// does not grow with what the variables hold ([`Game::view_print`]).
fn position(game: &Game, seat: u8) -> String {
    game.view_print(Some(seat))
}

/// The indices of `actions` that do not bring `seat` back to one of the `earlier` positions
/// of this turn, tried on `copy` (a determinization, so only what the seat may see decides);
/// all of them when every one would.
///
/// A script error in a try keeps the action (as it always did) and goes to `failed`.
fn not_returning(
    copy: &mut Game,
    actions: &[String],
    seat: u8,
    earlier: &[String],
    failed: &mut dyn FnMut(GameError),
) -> Vec<usize> {
    let kept: Vec<usize> = (0..actions.len())
        .filter(|&k| match copy.trial(&actions[k], |g| position(g, seat)) {
            Ok(p) => !earlier.contains(&p),
            Err(e @ GameError::Script(_)) => {
                failed(e);
                true
            }
            Err(_) => true,
        })
        .collect();
    if kept.is_empty() {
        (0..actions.len()).collect()
    } else {
        kept
    }
}

impl Search {
    /// `spec` is `search`, `search:N`, `search:N:POLICY` or `search:N:POLICY:ROOT` where
    /// POLICY is `random` or a bot id of the mod. Without a number, the mod's `[search]
    /// playouts` (else 200). Without a policy, the mod's first bot plays out, or the random
    /// agent when it has none. ROOT is `paired`, which with a scripted policy compares a few
    /// candidates on the same imagined games at the root (see `paired`), or `tree`, which grows
    /// the tree there with the bot's choice as its prior; without it, the mod's `[search] root`
    /// (else `paired`).
    pub fn from_spec(spec: &str, def: &GameDef, seed: u64, seat: u8) -> Result<Search, String> {
        let (playouts, policy) = Search::parse_spec(spec, def)?;
        Ok(Search::new(playouts, policy, seed, seat)
            .with_paired_root(Search::root_of(spec, def) == SearchRoot::Paired))
    }

    /// The playouts per decision and the playout policy `spec` names (see
    /// [`Search::from_spec`]), checked against `def`.
    pub fn parse_spec(spec: &str, def: &GameDef) -> Result<(u32, Policy), String> {
        let mut parts = spec.split(':');
        let _ = parts.next();
        let playouts = match parts.next() {
            None => def.search.playouts,
            Some(n) => match n.parse::<u32>() {
                Ok(n) if (1..=MAX_PLAYOUTS).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "`search:{n}`: the playouts per decision must be a number from 1 to {MAX_PLAYOUTS}"
                    ));
                }
            },
        };
        let policy = match parts.next() {
            None => match def.bots.first() {
                Some(b) => Policy::Bot(b.id.clone()),
                None => Policy::Random,
            },
            Some("random") => Policy::Random,
            Some(id) if def.bot(id).is_some() => Policy::Bot(id.to_string()),
            Some(id) => {
                let mut names = vec!["random"];
                names.extend(def.bots.iter().map(|b| b.id.as_str()));
                return Err(format!(
                    "`search:{playouts}:{id}`: no playout policy `{id}` for {}: use {}{}",
                    def.name,
                    names.join(", "),
                    crate::diag::suggestion(id, names.iter().copied())
                ));
            }
        };
        match parts.next() {
            None | Some("paired" | "tree") => {}
            Some(root) => {
                return Err(format!(
                    "`{spec}`: no root `{root}`: write search, search:N, search:N:POLICY or search:N:POLICY:ROOT, where ROOT is paired (compare the playout bot's best moves on the same imagined games) or tree{}",
                    crate::diag::suggestion(root, ["paired", "tree"])
                ));
            }
        }
        if parts.next().is_some() {
            return Err(format!(
                "`{spec}`: write search, search:N, search:N:POLICY or search:N:POLICY:ROOT"
            ));
        }
        Ok((playouts, policy))
    }

    /// The search bot of `seat` in the game of `seed`, with `playouts` playouts a decision
    /// played out by `policy`.
    pub fn new(playouts: u32, policy: Policy, seed: u64, seat: u8) -> Search {
        Search {
            playouts,
            policy,
            seed: mix(seed, 0x005e_a7c4 + u64::from(seat)),
            decided: Default::default(),
            departed: Default::default(),
            playout_actions: Default::default(),
            earlier: Default::default(),
            prior_vm: Default::default(),
            failures: Default::default(),
            sees_all: false,
            paired_root: false,
        }
    }

    /// The root `spec` (checked by [`Search::parse_spec`]) asks for, else the mod's; the tree
    /// whenever the playouts are random, since the paired root compares a bot's moves.
    pub fn root_of(spec: &str, def: &GameDef) -> SearchRoot {
        let mut parts = spec.split(':').skip(2);
        let random = match parts.next() {
            Some(policy) => policy == "random",
            None => def.bots.is_empty(),
        };
        if random {
            return SearchRoot::Tree;
        }
        parts
            .next()
            .and_then(SearchRoot::from_word)
            .unwrap_or(def.search.root)
    }

    /// This bot with the paired root (see `paired`) when `on`, else the tree.
    pub fn with_paired_root(mut self, on: bool) -> Search {
        self.paired_root = on;
        self
    }

    /// This bot, seeing every secret: for measuring what hidden information is worth
    /// (`farebox sim --hidden-value`), never for a seat in play.
    pub fn seeing_every_secret(mut self) -> Search {
        self.sees_all = true;
        self
    }

    /// Whether this bot sees every secret (see [`Search::seeing_every_secret`]).
    pub fn sees_all(&self) -> bool {
        self.sees_all
    }

    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Decisions with a choice so far, and how many of them the search took another action
    /// than its playout bot would have (0 with a random policy).
    pub fn departures(&self) -> (u32, u32) {
        (self.decided.get(), self.departed.get())
    }

    /// Actions taken in this bot's playouts so far (in the tree and by the playout policy).
    pub fn playout_actions(&self) -> u64 {
        self.playout_actions.get()
    }

    /// What failed in this bot's playouts so far.
    pub fn failures(&self) -> Failures {
        self.failures.borrow().clone()
    }

    /// Counts a failure met at `here`, `taken` actions into the playout.
    fn failed(&self, e: GameError, here: Here, taken: u32) {
        let mut f = self.failures.borrow_mut();
        f.errors = f.errors.saturating_add(1);
        if f.first.is_none() {
            f.first = Some(Box::new(in_playout(e, here, taken)));
        }
    }

    /// Picks one of `actions` (the legal actions of the seat to act in `game`); returns its
    /// index. `game` is only read through determinizations for the acting seat.
    pub fn choose(&self, game: &Game, actions: &[String]) -> Result<usize, GameError> {
        let seat = game.active();
        let here = position(game, seat);
        let earlier = {
            let mut e = self.earlier.borrow_mut();
            let (turn, at) = (game.state().turn, game.history().len());
            if e.turn != turn || at < e.at {
                e.positions.clear();
            }
            e.turn = turn;
            e.at = at;
            e.positions.push(here);
            e.positions.clone()
        };
        if actions.len() <= 1 {
            return Ok(0);
        }
        let decision = game.history().len() as u64;
        // Made from the first determinization: the root's actions less those that bring the
        // seat back to a position it chose from earlier this turn (`allowed`, indices into
        // `actions`), and the playout bot's own choice.
        let mut tree: Option<Tree> = None;
        let mut allowed: Vec<usize> = Vec::new();
        let mut bot_pick: Option<usize> = None;
        let mut vm: Option<Host> = None;
        let mut failed: Option<GameError> = None;
        let mut done = 0;
        for i in 0..self.playouts {
            let seed = mix(mix(self.seed, decision), u64::from(i));
            let here = Here {
                seed: game.setup().seed,
                decision,
                playout: i.saturating_add(1),
            };
            {
                let mut f = self.failures.borrow_mut();
                f.playouts = f.playouts.saturating_add(1);
            }
            let copy = if self.sees_all {
                game.seen_whole(seed, vm.take())
            } else {
                game.determinized_on(seat, seed, vm.take())
            };
            let copy = match copy {
                Ok(c) => c,
                Err(e) => {
                    self.failed(e.clone(), here, 0);
                    failed.get_or_insert(e);
                    continue;
                }
            };
            let mut rng = Rng::new(seed, 7);
            let mut copy = copy;
            if tree.is_none() {
                allowed = not_returning(&mut copy, actions, seat, &earlier, &mut |e| {
                    self.failed(e, here, 0)
                });
                if allowed.len() == 1 {
                    return Ok(self.decided_on(allowed[0], bot_pick));
                }
                let shown: Vec<String> = allowed.iter().map(|&k| actions[k].clone()).collect();
                let mut t = Tree::new(&shown);
                if let Policy::Bot(id) = &self.policy {
                    let asking = Here { playout: 0, ..here };
                    let (pick, prior) = self.ask_bot(game, id, actions, &allowed, asking);
                    bot_pick = pick;
                    t.prior = prior;
                }
                // With a scripted playout bot and its choice known, the root compares a few
                // candidates on the same imagined games instead (see `paired`).
                if let (Some(id), Some(p)) = (self.pairs_at_root(), t.prior) {
                    let at = Here { playout: 0, ..here };
                    let c = self.paired(game, copy, actions, &allowed, p, id, at);
                    return Ok(self.decided_on(allowed[c], bot_pick));
                }
                tree = Some(t);
            }
            let Some(t) = tree.as_mut() else { continue };
            let (copy, ok) = self.iterate(copy, t, &mut rng, here);
            done += 1;
            // A VM whose call reached a limit is not used again.
            if ok {
                vm = Some(copy.into_host());
            }
        }
        match (done, failed, tree) {
            (0, Some(e), _) => Err(e),
            (_, _, Some(t)) => Ok(self.decided_on(allowed[t.best()], bot_pick)),
            _ => Ok(0),
        }
    }

    /// What the scripted bot `id` would do here, the root's prior: the search spends its
    /// playouts around it and leaves it only for a better action. Returns the bot's choice
    /// (an index into `actions`) and the prior (an index into `allowed`). When the bot's choice
    /// is not allowed (it would take the seat back to where it has been this turn), the bot is
    /// asked again among the allowed actions. The bot is asked on a determinization of its own
    /// (it reads its seat's view of it, which is all the seat knows), on the VM it was asked on
    /// at this seat's earlier decisions: a bot that plans a turn and follows its plan (Dicey
    /// Curves' Pit Boss) keeps its plan from one decision to the next, as in a game of its own,
    /// instead of planning afresh in the middle of a turn.
    fn ask_bot(
        &self,
        game: &Game,
        id: &str,
        actions: &[String],
        allowed: &[usize],
        here: Here,
    ) -> (Option<usize>, Option<usize>) {
        let seed = mix(mix(self.seed, here.decision), u64::from(u32::MAX) + 1);
        let vm = self.prior_vm.0.borrow_mut().take().map(|b| *b);
        let mut copy = match game.determinized_on(game.active(), seed, vm) {
            Ok(c) => c,
            Err(e) => {
                self.failed(e, here, 0);
                return (None, None);
            }
        };
        let mut rng = Rng::new(seed, 8);
        let mut ok = true;
        let pick = match copy.bot_choose(id, actions, &mut rng) {
            Ok(b) => (b < actions.len()).then_some(b),
            Err(e) => {
                self.failed(e.into(), here, 0);
                ok = false;
                None
            }
        };
        let mut prior = allowed.iter().position(|&k| Some(k) == pick);
        if ok && prior.is_none() && allowed.len() < actions.len() {
            let shown: Vec<String> = allowed.iter().map(|&k| actions[k].clone()).collect();
            match copy.bot_choose(id, &shown, &mut rng) {
                Ok(b) => prior = (b < shown.len()).then_some(b),
                Err(e) => {
                    self.failed(e.into(), here, 0);
                    ok = false;
                }
            }
        }
        // A VM whose call reached a limit is not used again.
        if ok {
            *self.prior_vm.0.borrow_mut() = Some(Box::new(copy.into_host()));
        }
        (pick, prior)
    }

    /// Counts a decision (and whether it left the playout bot's choice) and returns `chosen`.
    fn decided_on(&self, chosen: usize, bot_pick: Option<usize>) -> usize {
        self.decided.set(self.decided.get().saturating_add(1));
        if bot_pick.is_some_and(|b| b != chosen) {
            self.departed.set(self.departed.get().saturating_add(1));
        }
        chosen
    }

    /// One iteration on `copy`: down the tree, then the policy, then back up with the values.
    /// Returns the copy, and false when a rules or bot call failed in it (the iteration still
    /// counts, with the position reached; the failure is counted, see [`Failures`]).
    fn iterate(&self, mut copy: Game, tree: &mut Tree, rng: &mut Rng, here: Here) -> (Game, bool) {
        let mut path: Vec<(usize, usize, u8)> = Vec::new();
        let mut node = Some(0);
        let mut ok = true;
        // The states the tree walk has passed, from the root: an action that leads back to
        // one of them (a menu's "back", a move there and back) gains nothing and would let
        // the walk credit a choice with what the other branch is worth, so the seat that
        // took it scores it as a loss. Only the tree part is watched; policies do not loop.
        // Fingerprints, not hashes: equal exactly when the hashes are, without writing out
        // every variable's value at every step (see `State::fingerprint`).
        let mut passed = vec![copy.state().fingerprint()];
        let mut looped: Option<u8> = None;
        let mut taken = 0;
        for depth in 0..DEPTH {
            if copy.is_over() {
                break;
            }
            let seat = copy.active();
            let acts = if depth == 0 {
                tree.nodes[0]
                    .children
                    .iter()
                    .map(|c| c.action.clone())
                    .collect()
            } else {
                match self.legal_or_failed(&mut copy, here, depth) {
                    Some(a) => a,
                    None => {
                        ok = false;
                        break;
                    }
                }
            };
            let pick = match node {
                Some(n) => {
                    let (c, fresh) = tree.select(n, &acts, rng);
                    path.push((n, c, seat));
                    let action = &tree.nodes[n].children[c].action;
                    let i = acts.iter().position(|a| a == action).unwrap_or(0);
                    node = if fresh {
                        None
                    } else {
                        Some(tree.child_node(n, c))
                    };
                    i
                }
                None => match &self.policy {
                    Policy::Random => rng.below(acts.len() as u32) as usize,
                    Policy::Bot(id) => {
                        match self.bot_pick(&mut copy, id, &acts, rng, here, depth) {
                            Some(i) => i,
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                },
            };
            let in_tree = path.len() == depth as usize + 1;
            if let Err(e) = copy.apply_legal(&acts[pick]) {
                self.failed(e, here, depth);
                ok = false;
                break;
            }
            taken = depth + 1;
            self.playout_actions
                .set(self.playout_actions.get().saturating_add(1));
            if in_tree {
                let h = copy.state().fingerprint();
                if passed.contains(&h) {
                    looped = Some(seat);
                    break;
                }
                passed.push(h);
            }
        }
        let v = match looped {
            Some(seat) => {
                let mut v = vec![0.5; copy.state().seats as usize];
                if let Some(x) = v.get_mut(seat as usize) {
                    *x = 0.0;
                }
                v
            }
            None => judge(&mut copy, &mut |e| {
                self.failed(e.into(), here, taken);
            }),
        };
        for (n, c, seat) in path {
            let child = &mut tree.nodes[n].children[c];
            child.visits += 1;
            child.reward += v.get(seat as usize).copied().unwrap_or(0.5);
        }
        (copy, ok)
    }
}

impl Search {
    /// The legal actions of `game`, or None when there are none though the game is not over,
    /// or the `actions` hook failed (the failure counted, `taken` actions into the playout).
    fn legal_or_failed(&self, game: &mut Game, here: Here, taken: u32) -> Option<Vec<String>> {
        match game.legal_actions() {
            Ok(a) if !a.is_empty() => Some(a),
            Ok(_) => {
                let e = GameError::Setup(format!(
                    "seat {} has no legal action, and the game is not over",
                    game.active() + 1
                ));
                self.failed(e, here, taken);
                None
            }
            Err(e) => {
                self.failed(e.into(), here, taken);
                None
            }
        }
    }

    /// The playout bot `id`'s pick among `acts`, or None when it failed or picked an action
    /// that is not there (the failure counted, `taken` actions into the playout).
    fn bot_pick(
        &self,
        game: &mut Game,
        id: &str,
        acts: &[String],
        rng: &mut Rng,
        here: Here,
        taken: u32,
    ) -> Option<usize> {
        match game.bot_choose(id, acts, rng) {
            Ok(i) if i < acts.len() => Some(i),
            Ok(i) => {
                let e = GameError::Setup(format!(
                    "the playout bot `{id}` chose action {} of {}",
                    i.saturating_add(1),
                    acts.len()
                ));
                self.failed(e, here, taken);
                None
            }
            Err(e) => {
                self.failed(e.into(), here, taken);
                None
            }
        }
    }
}

/// Each seat's value of a game reached by a playout, in [0, 1]:
///
/// - a finished game: the seat's share of the others it placed ahead of (ties count half):
///   1 for the winner of two seats, 0 for the loser, 0.5 for a tie; a cooperative ending
///   gives every seat 1 (won together) or 0 (lost together);
/// - a game cut at [`DEPTH`]: the rules' `evaluate` hook when it answers for every seat
///   (0 to 1, squeezed into [0.1, 0.9]); else from the rules' `score` hook (higher is better), the seat's
///   lead over the best other seat relative to their sizes, `0.5 + 0.5 * (s - b) / (|s| + |b|
///   + 1)`, squeezed into [0.1, 0.9] so a finished win weighs more than a lead; with one seat,
///   or a cooperative game whose seats share a score, `s / (|s| + 1)` the same way; 0.5 for
///   every seat when the mod has no `score` hook or it fails.
pub fn values(game: &mut Game) -> Vec<f64> {
    judge(game, &mut |_| {})
}

/// [`values`], handing each failure of the `evaluate` and `score` hooks to `failed` (a failed
/// call still counts as no answer, so the values are the same).
fn judge(game: &mut Game, failed: &mut dyn FnMut(ScriptError)) -> Vec<f64> {
    let seats = game.state().seats as usize;
    if let Some(r) = game.result() {
        return placed(r, seats);
    }
    let mut answer = |r: Result<Option<f64>, ScriptError>| match r {
        Ok(v) => v,
        Err(e) => {
            failed(e);
            None
        }
    };
    let evaluated: Option<Vec<f64>> = (0..seats)
        .map(|s| answer(game.try_evaluate(s as u8)))
        .collect();
    if let Some(v) = evaluated {
        return v.into_iter().map(|v| 0.1 + 0.8 * v).collect();
    }
    let scores: Option<Vec<f64>> = (0..seats)
        .map(|s| answer(game.try_score(s as u8)))
        .collect();
    let Some(scores) = scores else {
        return vec![0.5; seats];
    };
    let shared = scores.windows(2).all(|w| w[0] == w[1]);
    scores
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let v = if seats == 1 || shared {
                0.5 + 0.5 * s / (s.abs() + 1.0)
            } else {
                let best = scores
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, &b)| b)
                    .fold(f64::NEG_INFINITY, f64::max);
                0.5 + 0.5 * (s - best) / (s.abs() + best.abs() + 1.0)
            };
            let v = if v.is_finite() {
                v.clamp(0.0, 1.0)
            } else {
                0.5
            };
            0.1 + 0.8 * v
        })
        .collect()
}

fn placed(r: &GameResult, seats: usize) -> Vec<f64> {
    match r.together {
        Some(true) => return vec![1.0; seats],
        Some(false) => return vec![0.0; seats],
        None => {}
    }
    (0..seats)
        .map(|i| {
            let Some(&p) = r.places.get(i) else {
                return 0.5;
            };
            if seats < 2 {
                return if p == 1 { 1.0 } else { 0.0 };
            }
            let ahead: f64 = r
                .places
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &q)| match q.cmp(&p) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                })
                .sum();
            ahead / (seats - 1) as f64
        })
        .collect()
}

/// splitmix64 of two numbers: the seeds of decisions and iterations.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The search tree: nodes in an arena, the root first.
struct Tree {
    nodes: Vec<Node>,
    /// The root child the playout policy would choose, when it is a scripted bot.
    prior: Option<usize>,
}

#[derive(Default)]
struct Node {
    children: Vec<Child>,
}

struct Child {
    action: String,
    visits: u32,
    /// Times it was among the legal actions when its node was passed.
    available: u32,
    /// The sum of the values of the seat that chose it.
    reward: f64,
    node: Option<usize>,
}

impl Child {
    fn new(action: String) -> Child {
        Child {
            action,
            visits: 0,
            available: 0,
            reward: 0.0,
            node: None,
        }
    }
}

impl Tree {
    /// A tree whose root offers `actions` (the real game's, the same in every
    /// determinization: the `actions` hook reads through the seat's view).
    fn new(actions: &[String]) -> Tree {
        Tree {
            nodes: vec![Node {
                children: actions.iter().cloned().map(Child::new).collect(),
            }],
            prior: None,
        }
    }

    /// At node `n`, with `acts` legal: the child to take, and whether it is new (never
    /// visited: the tree grows by it and the policy takes over after it).
    fn select(&mut self, n: usize, acts: &[String], rng: &mut Rng) -> (usize, bool) {
        if n == 0
            && let Some(p) = self.prior
        {
            return self.select_root(p);
        }
        let node = &mut self.nodes[n];
        let mut untried = Vec::new();
        let mut here = Vec::with_capacity(acts.len());
        for a in acts {
            let c = match node.children.iter().position(|c| &c.action == a) {
                Some(c) => c,
                None => {
                    node.children.push(Child::new(a.clone()));
                    node.children.len() - 1
                }
            };
            node.children[c].available += 1;
            if node.children[c].visits == 0 {
                untried.push(c);
            }
            here.push(c);
        }
        if !untried.is_empty() {
            let c = untried[rng.below(untried.len() as u32) as usize];
            return (c, true);
        }
        let mut best = (f64::NEG_INFINITY, 0);
        for &c in &here {
            let ch = &node.children[c];
            let visits = f64::from(ch.visits);
            let ucb = ch.reward / visits + EXPLORE * (f64::from(ch.available).ln() / visits).sqrt();
            if ucb > best.0 {
                best = (ucb, c);
            }
        }
        (best.1, false)
    }

    /// At the root, with the policy's choice `p` as a prior (PUCT, as in AlphaZero): each
    /// child scores its mean value (the root's mean while unvisited) plus
    /// `PUCT * prior * sqrt(visits at the root + 1) / (1 + its visits)`, where the policy's
    /// choice has prior [`PRIOR`] and the others share the rest. Few playouts stay with the
    /// policy's choice; more of them try the others and move off it only for a better mean.
    /// Ties go to the earlier action.
    fn select_root(&mut self, p: usize) -> (usize, bool) {
        let root = &mut self.nodes[0];
        let k = root.children.len();
        let (mut total, mut sum) = (0u32, 0.0);
        for ch in &mut root.children {
            ch.available += 1;
            total += ch.visits;
            sum += ch.reward;
        }
        let fpu = if total > 0 {
            sum / f64::from(total)
        } else {
            0.5
        };
        // The policy's choice weighs PRIOR more than the even share every child has.
        let even = (1.0 - PRIOR) / k as f64;
        let scale = PUCT * f64::from(total + 1).sqrt();
        let mut best = (f64::NEG_INFINITY, 0);
        for (c, ch) in root.children.iter().enumerate() {
            let q = if ch.visits > 0 {
                ch.reward / f64::from(ch.visits)
            } else {
                fpu
            };
            let prior = if c == p { PRIOR + even } else { even };
            let score = q + scale * prior / f64::from(1 + ch.visits);
            if score > best.0 {
                best = (score, c);
            }
        }
        (best.1, root.children[best.1].visits == 0)
    }

    /// The node under child `c` of node `n`, made on first use.
    fn child_node(&mut self, n: usize, c: usize) -> usize {
        if let Some(m) = self.nodes[n].children[c].node {
            return m;
        }
        self.nodes.push(Node::default());
        let m = self.nodes.len() - 1;
        self.nodes[n].children[c].node = Some(m);
        m
    }

    /// The root child visited most; ties go to the policy's choice, then to the better
    /// mean, then to the earlier action.
    fn best(&self) -> usize {
        let mut best = (0, f64::NEG_INFINITY, 0);
        for (i, c) in self.nodes[0].children.iter().enumerate() {
            let mean = if self.prior == Some(i) {
                f64::INFINITY
            } else if c.visits > 0 {
                c.reward / f64::from(c.visits)
            } else {
                0.0
            };
            if c.visits > best.0 || (c.visits == best.0 && mean > best.1) {
                best = (c.visits, mean, i);
            }
        }
        best.2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(places: Vec<u32>, together: Option<bool>) -> GameResult {
        GameResult {
            scores: vec![0; places.len()],
            places,
            reason: String::new(),
            together,
        }
    }

    #[test]
    fn places_become_shares_of_the_others_beaten() {
        assert_eq!(placed(&result(vec![1, 2], None), 2), vec![1.0, 0.0]);
        assert_eq!(placed(&result(vec![1, 1], None), 2), vec![0.5, 0.5]);
        assert_eq!(placed(&result(vec![2, 1, 3], None), 3), vec![0.5, 1.0, 0.0]);
        assert_eq!(placed(&result(vec![1, 1], Some(true)), 2), vec![1.0, 1.0]);
        assert_eq!(placed(&result(vec![2, 2], Some(false)), 2), vec![0.0, 0.0]);
    }

    #[test]
    fn the_most_visited_root_child_is_chosen() {
        let acts: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let mut t = Tree::new(&acts);
        t.nodes[0].children[1].visits = 5;
        t.nodes[0].children[2].visits = 5;
        t.nodes[0].children[2].reward = 4.0;
        assert_eq!(t.best(), 2);
    }
}
