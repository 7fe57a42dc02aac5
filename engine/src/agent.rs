//! Agents choose actions: the random agent, the scripted bots a mod ships, and the built-in
//! search bot ([`crate::search`]) that plays any mod.
//!
//! Each agent has its own generator, seeded from the game seed and its seat, so a seeded
//! simulation is repeatable without agents drawing from the game's own random numbers.

use crate::content::GameDef;
use crate::game::{Game, GameError};
use crate::rng::Rng;
use crate::search::{Policy, Search};

#[derive(Debug, Clone)]
pub enum Agent {
    /// Picks uniformly among the legal actions.
    Random(Rng),
    /// A bot script of the mod, by id.
    Bot { id: String, rng: Rng },
    /// The built-in search bot (`search`, `search:N`, `search:N:POLICY`,
    /// `search:N:POLICY:ROOT`).
    Search(Search),
}

impl Agent {
    /// The agent `spec` names (see [`AgentSpec::parse`]) for `seat` in the game of `seed`.
    pub fn from_spec(spec: &str, def: &GameDef, seed: u64, seat: u8) -> Result<Agent, String> {
        AgentSpec::parse(spec, def).map(|a| a.agent(seed, seat))
    }

    pub fn choose(&mut self, game: &mut Game, actions: &[String]) -> Result<usize, GameError> {
        match self {
            Agent::Random(rng) => Ok(rng.below(actions.len() as u32) as usize),
            Agent::Bot { id, rng } => Ok(game.bot_choose(id, actions, rng)?),
            Agent::Search(s) => s.choose(game, actions),
        }
    }
}

/// An agent named on the command line or in settings, parsed and checked against the mod
/// once: a run makes an [`Agent`] of it for each seat of each game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
    /// A bot script of the mod, by id.
    Bot(String),
    /// The built-in search bot: playouts a decision and the playout policy.
    Search {
        playouts: u32,
        policy: Policy,
        /// The paired root instead of the tree (`search:N:POLICY:paired`, or the mod's
        /// `[search] root` when the spec names none).
        paired: bool,
    },
    /// The search bot seeing every secret, for analysis only (what hidden information is
    /// worth, `farebox sim --hidden-value`): made by [`AgentSpec::seeing_every_secret`], never
    /// by [`AgentSpec::parse`], so no command, server or screen that seats agents by name can
    /// give one a seat.
    SearchSeeingAll {
        playouts: u32,
        policy: Policy,
        paired: bool,
    },
}

/// The name people might try for the search bot that sees every secret; refused with
/// [`SEES_ALL_REFUSED`] wherever agents are named.
pub const SEES_ALL_SPEC: &str = "search-sees-all";

/// Why [`SEES_ALL_SPEC`] cannot take a seat.
pub const SEES_ALL_REFUSED: &str = "the search bot that sees every secret reads what its seat may not know, so it never takes a seat in a game: it is only for measuring what hidden information is worth, with `farebox sim MOD --hidden-value`";

impl AgentSpec {
    /// `spec` is `random`, the id of one of the mod's bots, or the search bot: `search` (the
    /// mod's `[search] playouts` a decision, else [`crate::search::DEFAULT_PLAYOUTS`]),
    /// `search:N` (N playouts), `search:N:POLICY` (playouts by `random` or the bot POLICY
    /// instead of the mod's first bot) or `search:N:POLICY:ROOT` (see
    /// [`Search::from_spec`]). A bot of the mod called `search` is taken before the built-in
    /// one.
    pub fn parse(spec: &str, def: &GameDef) -> Result<AgentSpec, String> {
        if spec == "random" {
            return Ok(AgentSpec::Random);
        }
        if def.bot(spec).is_some() {
            return Ok(AgentSpec::Bot(spec.to_string()));
        }
        if spec == SEES_ALL_SPEC || spec.starts_with("search-sees-all:") {
            return Err(format!("`{spec}`: {SEES_ALL_REFUSED}"));
        }
        if spec == "search" || spec.starts_with("search:") {
            let (playouts, policy) = Search::parse_spec(spec, def)?;
            let paired = Search::root_of(spec, def) == crate::search::SearchRoot::Paired;
            return Ok(AgentSpec::Search {
                playouts,
                policy,
                paired,
            });
        }
        let mut names: Vec<&str> = vec!["random", "search"];
        names.extend(def.bots.iter().map(|b| b.id.as_str()));
        Err(format!(
            "no agent `{spec}` for {}: use {}{}",
            def.name,
            names.join(", "),
            crate::diag::suggestion(spec, names.iter().copied())
        ))
    }

    /// The search bot `spec` names (`search`, `search:N`, `search:N:POLICY`), seeing every
    /// secret: for analysis only (`farebox sim --hidden-value`), never for a seat in play.
    pub fn seeing_every_secret(spec: &str, def: &GameDef) -> Result<AgentSpec, String> {
        if spec != "search" && !spec.starts_with("search:") {
            return Err(format!(
                "`{spec}`: only the search bot can see every secret; write search, search:N or search:N:POLICY"
            ));
        }
        let (playouts, policy) = Search::parse_spec(spec, def)?;
        let paired = Search::root_of(spec, def) == crate::search::SearchRoot::Paired;
        Ok(AgentSpec::SearchSeeingAll {
            playouts,
            policy,
            paired,
        })
    }

    /// Every spec of `specs` parsed, or the first that does not name an agent of `def`.
    pub fn parse_all(specs: &[String], def: &GameDef) -> Result<Vec<AgentSpec>, String> {
        specs.iter().map(|s| AgentSpec::parse(s, def)).collect()
    }

    /// The agent of `seat` in the game of `seed`, with its own generator.
    pub fn agent(&self, seed: u64, seat: u8) -> Agent {
        let rng = Rng::new(seed, 1000 + seat as u64);
        match self {
            AgentSpec::Random => Agent::Random(rng),
            AgentSpec::Bot(id) => Agent::Bot {
                id: id.clone(),
                rng,
            },
            AgentSpec::Search {
                playouts,
                policy,
                paired,
            } => Agent::Search(
                Search::new(*playouts, policy.clone(), seed, seat).with_paired_root(*paired),
            ),
            AgentSpec::SearchSeeingAll {
                playouts,
                policy,
                paired,
            } => Agent::Search(
                Search::new(*playouts, policy.clone(), seed, seat)
                    .with_paired_root(*paired)
                    .seeing_every_secret(),
            ),
        }
    }
}

/// At which decisions of a simulated game the labels of every action offered are made (both
/// of them: the acting seat's and the public one), so a `describe` hook that fails for some
/// action is found before a person meets it. Labels only read, so the game is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    /// None (simulations that only want outcomes).
    Never,
    /// At every decision.
    Always,
    /// At about one decision in n, picked from the seed and the decision's number: the same
    /// decisions of the same game whatever else is played, on any number of threads.
    OneIn(u32),
}

impl Labels {
    pub(crate) fn at(self, seed: u64, decision: u32) -> bool {
        match self {
            Labels::Never => false,
            Labels::Always => true,
            Labels::OneIn(n) => {
                // splitmix64 of the seed and the decision.
                let mut z = seed ^ u64::from(decision).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                z.is_multiple_of(u64::from(n.max(1)))
            }
        }
    }
}

/// What a simulated game does besides playing: make labels ([`Labels`]), keep a profile of
/// its hook and bot calls (`farebox sim --profile`) and follow what it shows about the
/// content ([`crate::figures`]). None of them changes the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    pub labels: Labels,
    pub profile: bool,
    /// Keep a [`Trace`] of the game in its outcome.
    pub figures: bool,
}

impl Checks {
    /// Only play.
    pub const NONE: Checks = Checks {
        labels: Labels::Never,
        profile: false,
        figures: false,
    };
}

impl From<Labels> for Checks {
    fn from(labels: Labels) -> Checks {
        Checks {
            labels,
            ..Checks::NONE
        }
    }
}

/// Restricted play: the ids whose actions the agents may not choose (an action names an id
/// by [`crate::action::names`]), for every seat or for one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forbid {
    pub ids: Vec<String>,
    /// The only seat (0-based) the ids are forbidden to; None: every seat.
    pub seat: Option<u8>,
}

impl Forbid {
    /// Nothing forbidden.
    pub const NONE: Forbid = Forbid {
        ids: Vec::new(),
        seat: None,
    };

    /// Whether `seat` may not choose `action`.
    pub fn forbids(&self, seat: usize, action: &str) -> bool {
        self.seat.is_none_or(|s| usize::from(s) == seat)
            && self
                .ids
                .iter()
                .any(|id| crate::action::names_id(action, id))
    }
}

pub use crate::figures::Outcome;

/// What failed in the playouts of the search bots among `agents`, all seats together (the
/// first failure is the lowest seat's).
pub fn playout_failures(agents: &[Agent]) -> crate::search::Failures {
    let mut all = crate::search::Failures::default();
    for a in agents {
        if let Agent::Search(s) = a {
            all.add(&s.failures());
        }
    }
    all
}
