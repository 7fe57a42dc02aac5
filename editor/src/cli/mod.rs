//! The command line: the argument types of every subcommand (clap derive, in this file), one
//! file per command (`cmd_*.rs`), and the terminal game (`play_view.rs` the screen,
//! its menus from `crate::menu`, `play_board.rs` grids, `play_board_map.rs` graphs, sections and
//! tracks).

pub mod cmd_bench;
pub mod cmd_join;
pub mod cmd_list;
pub mod cmd_merge;
pub mod cmd_new;
pub mod cmd_play;
pub mod cmd_print;
pub mod cmd_rank;
pub mod cmd_record;
pub mod cmd_replay;
pub mod cmd_schema;
pub mod cmd_serve;
pub mod cmd_sim;
pub mod cmd_skill;
pub mod cmd_test;
pub mod cmd_tune;
pub mod cmd_validate;
pub mod cmd_vs;
pub mod play_board;
pub mod play_board_map;
pub mod play_loop;
pub mod play_view;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Farebox: play, check, simulate and replay moddable tabletop games.
///
/// MOD arguments take a bundled mod id (see `farebox list`) or a path to a mod folder.
/// The bundled mods are found in $FAREBOX_MODS, else in a `mods/` folder above the current
/// directory or the executable.
#[derive(Debug, Parser)]
#[command(name = "farebox", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Show what scripts `print`, on standard error: one line each, headed by the game's
    /// seed, the action, and the file and line that printed. Printing never changes a game;
    /// without this flag it goes nowhere.
    #[arg(long, global = true)]
    pub debug: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open Farebox Studio, on a mod if one is given (a bundled id or a folder).
    ///
    /// `farebox` with no command does the same. The Studio plays any mod with people and bots,
    /// draws its board, reloads it when its files change and runs its seeded outcomes.
    Studio(StudioArgs),
    /// List the bundled mods: id, version, name, players, and whether they can be played.
    List(ListArgs),
    /// Check mods: load and validate their content and compile their scripts.
    ///
    /// A mod with rules is then played a little with random players: a short game of the
    /// fewest seats and one of the most, with both labels of every action offered made, and
    /// one game replayed with extra calls of every hook (rules must remember nothing between
    /// calls). Each game stops after a few dozen actions, so this is quick enough for every
    /// save; --deep plays three games and replays two, each to 300 actions (`farebox test`
    /// runs the same replays). Problems print one per line as `path:line:col: error:
    /// message` on stdout; a summary per mod goes to stderr. Arguments that are not mod
    /// folders (a file, a folder without mod.toml) are skipped with a note, so `farebox
    /// validate mods/*` works. Exits 0 when every mod is valid, 1 otherwise, 2 when no
    /// argument was a mod.
    Validate(ValidateArgs),
    /// Play a game in the terminal, against bots or with friends at the same keyboard.
    ///
    /// On a person's turn the game is shown as that seat sees it (a grid board is drawn with a
    /// legend), followed by a menu of the legal actions, grouped as the rules' `describe` hook
    /// labels them: type a number to choose (several, like `3 1 2`, go down several levels at
    /// once), `b` or `0` to go back a level, `?` to show the game again, `q` to quit.
    Play(PlayArgs),
    /// Simulate many games with bots and report win rates, game lengths and scores.
    ///
    /// Seeds run from --seed upward, one per game, so a run is repeatable. With --json one JSON
    /// object is printed with the keys: games, finished (games that reached a result), capped
    /// (games stopped at --cap actions), errors (count), error_messages (the first few),
    /// win_rate (per seat: share of finished games where the seat placed 1st, ties count for
    /// each), ties, tie_rate, tie_rate_interval (finished games where two or more seats placed
    /// 1st, their share and its interval), actions_mean, actions_sd, turns_mean, turns_sd (over games without errors),
    /// score_mean, score_sd (per seat, over finished games), endings (each reason a finished
    /// game ended for, with its count), seconds, games_per_second, seed, players, bots, forbid (the --forbid ids), forced (decisions where every action was forbidden, when not 0). Standard deviations are sample deviations (0 for fewer than 2 games).
    /// Also (unless --no-figures): win_rate_interval, failed_games (seed and action of the
    /// first errored or capped games), first_mover_win_rate (with _interval and
    /// first_mover_games), turns_spread and actions_spread (min, p10, median, p90, max),
    /// score_counter, lead_changes_mean, winner_took_lead_at, stats (each `game.stat`:
    /// games, mean, sd, interval), and cards, tiles, pieces, options: objects keyed by id
    /// whose entries hold games_held, win_rate_held, games_played, win_rate_played (each rate
    /// with an _interval, and the same for the seats that did not), and board_play (where
    /// play happened on the board: per space games_visited, games_built_on, seats_visited
    /// and win_rate_visited; per road games_used and moves; per track piece games_laid,
    /// laid and games_used). Intervals are 95%:
    /// Wilson's score interval for rates, mean ± 1.96 sd/√n for means. The authoring guide
    /// (mods/README.md, "Outcome figures") describes every key.
    Sim(SimArgs),
    /// Merge the shard files of a sweep (`farebox sim --shard I/N --out FILE`) into its figures.
    ///
    /// Prints exactly what one `farebox sim` over the whole seed range prints (with --json,
    /// the same JSON), less the time it took: `seconds` and `games_per_second` are left out,
    /// as each shard timed only its own part. Every file must come from the same build of
    /// farebox, the same mod content and the same settings (seed range, block, players,
    /// agents, options, cap, forbidden ids, figures), and together hold every block of the
    /// range exactly once; anything else is refused, naming the file and what differs. The
    /// mod is found as the shards named it, or given with --mod.
    Merge(MergeArgs),
    /// Propose the smallest change of a mod's numbers that brings an outcome figure to a target.
    ///
    /// --target names a figure of `farebox sim --json` and the value wanted, with a tolerance:
    /// `first_mover_win_rate=0.50±0.03` (or `+-0.03`), a seat's win rate `win_rate[1]=0.33±0.03`
    /// (seats counted from 0, as in the JSON), `tie_rate`, `turns_mean` and the rest. --fields
    /// names the numbers it may change, comma separated: `decks.DECK.CARD.FIELD` (a card's count
    /// or value), `tables.TABLE.ROW.COLUMN` (ROW is the row's key value, or its place from 1 in a
    /// table without a key), `options.OPTION.default` (a whole-number option) and
    /// `constants.NAME`; a `*` stands for any run of characters within one part
    /// (`decks.road-tiles.*.count`). `--list-fields` lists every field of the mod.
    ///
    /// Every candidate is played on the same seeds (--seed, --games), so candidates differ by
    /// their change and not by luck. Each field is tried one step up and one down (a whole
    /// number by 1, a decimal by a tenth of its value), then changes of at most three fields are
    /// played, the fewest fields and smallest steps first, until one meets the target or
    /// --budget candidates are played. The proposal is printed as the lines of TOML it changes
    /// (file:line, old -> new) with the figure before and after and their 95% intervals, and is
    /// then checked on a fresh seed range (--check-seed): it held when the fresh interval
    /// reaches the target. --apply writes it into the mod's files (comments and layout kept;
    /// into the house rule's own files for a house rule). Exits 0 when the proposal met the
    /// target and held (or nothing needed changing), 1 otherwise.
    Tune(TuneArgs),
    /// Serve tables for online play: people join with `farebox play --join ADDR CODE`.
    ///
    /// Serves the mods given (default: every bundled playable mod). Each --table opens a table
    /// at start and prints its code; `farebox play MOD --host ADDR` opens more. Each connection
    /// is sent only what its seat may see; the seed and the replay stay on the server until
    /// the game is over. Stops with Ctrl-C (or after --stop-after seconds).
    Serve(ServeArgs),
    /// Play one game with bots and save it as a replay file.
    Record(RecordArgs),
    /// Re-run a replay file and check that every action leads to the recorded state.
    ///
    /// Exits 0 when the replay verifies, 1 when it does not.
    Replay(ReplayArgs),
    /// Play a mod's seeded games again and compare the outcomes with the accepted ones.
    ///
    /// The accepted outcomes (win rate per seat, game length, scores, errors) and the settings
    /// they were made with are kept in the mod folder, in snapshots/outcomes.json. A figure
    /// counts as changed only when its 95% interval and the accepted one's do not overlap;
    /// a figure that moved less is shown as open, with how many more games would settle it.
    /// Exits 0 when no figure changed, 1 when one did (each is shown) or none were accepted
    /// yet. --accept plays the games and records their outcomes instead (by default with the
    /// mod's own bot in every seat); a run in which any game fails or hits the action cap is
    /// not recorded (exit 1) unless --accept-failures is given too.
    Test(TestArgs),
    /// Start a new mod: a small complete game to grow from, or with --from a house rule for a game.
    ///
    /// The files are written all at once into NAME/ (under --dir, default the current folder),
    /// which must not exist yet. The new mod validates and plays as it is; its files say how to
    /// go on.
    New(NewArgs),
    /// Write the JSON Schemas for mod files and the Luau type stubs.
    Schema(SchemaArgs),
    /// Print a paper edition of a mod as a PDF: cards, backs, tiles, the board, tables and
    /// the player aid.
    ///
    /// Cards go through the templates of the mod's print file (`[content] print`), or a plain
    /// face when a deck has none; each card carries a short hash of its content. Pages have
    /// true trim and bleed boxes and crop marks outside the bleed. For a home printer, try
    /// `--bleed 0`, which fits more cards to a sheet.
    Print(PrintArgs),
    /// Time random games of a mod (games per second, one thread); with --load, time loading;
    /// with --validate, time `validate` of every bundled mod.
    Bench(BenchArgs),
    /// Time a cold load and validation of every bundled mod (same as `bench --load`).
    BenchLoad(BenchLoadArgs),
}

#[derive(Debug, Args)]
pub struct StudioArgs {
    /// The mod to open: a bundled id (`curbside`) or a folder.
    pub game: Option<String>,
    /// Close the window after this many frames (smoke tests).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frames: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ListArgs {}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Mods to check: bundled ids or folder paths.
    #[arg(required = true, value_name = "MOD")]
    pub mods: Vec<String>,
    /// Play longer and more games: three trial games and two replayed ones, each to 300
    /// actions, instead of short ones, to find what goes wrong late in a game. Slower: for CI
    /// or before a release, not every save.
    #[arg(long)]
    pub deep: bool,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The mod to play: a bundled id or a folder path (not with --join).
    #[arg(value_name = "MOD", required_unless_present = "join")]
    pub game: Option<String>,
    /// Play online at a table of a `farebox serve` server: its address (host:port) and the
    /// table's code. The table's mod must be here too, with the same content.
    #[arg(long, num_args = 2, value_names = ["ADDR", "CODE"], conflicts_with_all = ["host", "seed"])]
    pub join: Option<Vec<String>>,
    /// Open a table of MOD on the server at ADDR with --seats (`human` seats are for people)
    /// and play its first human seat; the table's code is printed for the others to join.
    #[arg(long, value_name = "ADDR", requires = "game", conflicts_with = "seed")]
    pub host: Option<String>,
    /// With --join: the seat to take, counting from 1 (default: the first open one).
    #[arg(long, requires = "join")]
    pub seat: Option<u8>,
    /// With --join: watch without a seat.
    #[arg(long, requires = "join", conflicts_with_all = ["seat", "token"])]
    pub watch: bool,
    /// With --join: come back to your seat with the token you were given.
    #[arg(long, requires = "join", conflicts_with = "seat")]
    pub token: Option<String>,
    /// Online: the name the others see.
    #[arg(long, default_value = "")]
    pub name: String,
    /// One entry per seat, comma separated: `human`, `random`, one of the mod's bot ids, or
    /// the built-in search bot `search` / `search:N` (N playouts a decision; default the mod's
    /// `[search] playouts`, else 200)
    /// (default: you against the mod's first bot, or the random agent if it has none).
    #[arg(long)]
    pub seats: Option<String>,
    /// Seed for the game (default: from the clock; it is printed so the game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Set a game option, as id=value (repeatable).
    #[arg(long = "option", value_name = "ID=VALUE")]
    pub options: Vec<String>,
    /// With --host: the turn clock, seconds each person has for a decision before the
    /// table's stand-in bot takes it for them (5 to 86400; default: the server's).
    #[arg(long, requires = "host", value_parser = clap::value_parser!(u32).range(5..=86_400))]
    pub clock: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The mods to serve (bundled ids or folders; default: every bundled playable mod).
    #[arg(value_name = "MOD")]
    pub mods: Vec<String>,
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub addr: String,
    /// Open a table at start: MOD:SEATS, seats comma separated (`human` for a person, or a
    /// bot: `random`, a bot id, `search:N`), e.g. curbside:human,random (repeatable).
    #[arg(long = "table", value_name = "MOD:SEATS")]
    pub tables: Vec<String>,
    /// Seconds a person may be gone before a bot plays their seat (until they come back).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub grace: u64,
    /// Game threads (default: one per core; at most 64).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: Option<u16>,
    /// Bot threads, where every bot move is worked out, off the game threads that answer
    /// people (default: one per core; at most 64).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub bot_threads: Option<u16>,
    /// The turn clock of tables that set none: seconds a person has for each decision before
    /// the table's stand-in bot takes it for them (0: no clock).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub clock: u64,
    /// Connections the server holds at once.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// Connections one address (an IPv6 /64) may hold at once.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_connections_per_address: u64,
    /// Tables one connection may create.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_tables_per_connection: u64,
    /// Tables one address may keep open at once.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_tables_per_address: u64,
    /// The memory, in MiB, the server's tables and connections may take (by their measured
    /// costs: about 1.2 MB a table, 150 KB a connection); past it, new ones are refused.
    #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub memory_mb: u64,
    /// Seconds a connection may go without sending a whole message (the server pings every
    /// third of it, and a client's answer counts).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(3..=3_600))]
    pub idle: u64,
    /// Save every finished game's replay in this folder (made if missing), one file per
    /// table: MOD-CODE-SECONDS.json, written whole or not at all.
    #[arg(long, value_name = "DIR")]
    pub replays: Option<std::path::PathBuf>,
    /// Keep every table in this SQLite file as it is played, so a server that is stopped or
    /// killed resumes its games when started again on the file (made if missing). Default:
    /// farebox-tables.sqlite in the current folder.
    #[arg(long, value_name = "FILE", conflicts_with = "no_store")]
    pub store: Option<std::path::PathBuf>,
    /// Keep tables in memory only: a stopped server's games are lost.
    #[arg(long)]
    pub no_store: bool,
    /// Stop after this many seconds (scripts and tests; default: run until stopped).
    #[arg(long)]
    pub stop_after: Option<u64>,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("restricted").args(["forbid", "rank"]).multiple(true)))]
pub struct SimArgs {
    /// The mod to simulate: a bundled id or a folder path.
    #[arg(value_name = "MOD")]
    pub game: String,
    /// Number of games (at most 1,000,000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=crate::common::MAX_GAMES))]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of seats (default: the number of --bots given, at least the mod's minimum).
    #[arg(long)]
    pub players: Option<u8>,
    /// Agents per seat, comma separated (`random`, a bot id, or the built-in search bot
    /// `search` / `search:N`, N playouts a decision, default the mod's `[search] playouts`,
    /// else 200); the last one repeats.
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Worker threads (default: the number of CPUs; at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=crate::common::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Print one JSON object instead of text (fields are listed above).
    #[arg(long)]
    pub json: bool,
    /// Stop a game after this many actions and count it as capped (at most 1,000,000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_CAP as i64))]
    pub cap: u32,
    /// Set a game option, as id=value (repeatable).
    #[arg(long = "option", value_name = "ID=VALUE")]
    pub options: Vec<String>,
    /// Also report, for every hook and bot, its calls and the steps and time a call took on
    /// average and at worst (`profile` in the JSON).
    #[arg(long)]
    pub profile: bool,
    /// Restricted play: the bots never choose an action that names ID (a card, tile, piece
    /// or option value id; repeatable). Where every action offered names one, the bot
    /// chooses among them all and the run counts it (`forced`).
    #[arg(long, value_name = "ID")]
    pub forbid: Vec<String>,
    /// Forbid the --forbid ids (or, with --rank, each card) to this seat only (1-based).
    #[arg(long, value_name = "SEAT", value_parser = clap::value_parser!(u8).range(1..), requires = "restricted")]
    pub forbid_seat: Option<u8>,
    /// Rank the cards of DECK by what each is worth to one seat (--forbid-seat, default 1):
    /// the games are played once as they are and once per card, and the cards are listed by
    /// how much that seat's win rate drops without the card. Without --remove the card is
    /// only forbidden: the seat still draws it and holds it, but never plays it, so a dead
    /// card takes a place in its hand and every card of a small hand looks valuable (this
    /// measures what playing the card is worth against holding it idle). With --remove
    /// the seat never draws it either (see --remove).
    #[arg(long, value_name = "DECK", conflicts_with_all = ["forbid", "vs"])]
    pub rank: Option<String>,
    /// With --rank: take each card out of that seat's game instead of only forbidding it.
    /// Whenever the seat would draw the card (a `game.move_card` from a zone not its own
    /// into one of its zones, at setup too), it draws the next card down instead and the
    /// card stays where it was for the other seats; the seat never chooses an action that
    /// names it. This measures what having the card is worth against never seeing it, so a
    /// dominant card stands out. Cards the rules hand over by name (`game.take_card`) still
    /// arrive.
    #[arg(long, requires = "rank")]
    pub remove: bool,
    /// Compare MOD with another mod, B (a house rule of it, another folder): both are played
    /// on the same seeds, seats, agents and options, and each figure is printed for both
    /// with the difference B - MOD and its 95% interval. Win rates, the tie rate and the
    /// game length are paired by seed (the interval of the mean difference per game); the
    /// mean scores and the figures of each card both mods have (the win rate of the seats
    /// that played it, else held it) are compared as two independent runs.
    #[arg(long, value_name = "B", conflicts_with_all = ["forbid", "profile"])]
    pub vs: Option<String>,
    /// With --vs: stop early, once the comparison has settled. The games are played a look
    /// of --look games at a time, --games at most; after each look every seat's win-rate
    /// change B - A (paired by seed) gets an interval at a z that keeps the chance of any
    /// wrong verdict over all the looks and seats under 5% (Bonferroni: 0.05 split evenly
    /// over the looks --games allows and the seats), and the run stops when every seat's
    /// interval leaves out 0 (changed) or is within ±--settle-width points (no change that
    /// large). Says how many games it used.
    #[arg(long, requires = "vs")]
    pub until_settled: bool,
    /// With --until-settled: games between two looks.
    #[arg(long, default_value_t = 200, requires = "until_settled", value_parser = clap::value_parser!(u64).range(1..=crate::common::MAX_GAMES))]
    pub look: u64,
    /// With --until-settled: the half-width, in points of win rate, within which a change
    /// counts as settled too.
    #[arg(long, default_value_t = 2.0, requires = "until_settled", value_parser = width)]
    pub settle_width: f64,
    /// Leave out the figures per card, tile, piece and option and the game-wide figures
    /// (first mover, lead changes, `game.stat`): only the per-seat figures.
    #[arg(long)]
    pub no_figures: bool,
    /// Play only shard I of N (I counted from 0) of the seed range and write its raw figures
    /// to --out for `farebox merge`: the range is cut into blocks of --block seeds and each
    /// shard plays an even share of whole blocks. `sbatch --array=0-15` with
    /// `--shard $SLURM_ARRAY_TASK_ID/16` runs it on a cluster (docs/cluster.md).
    #[arg(long, value_name = "I/N", value_parser = crate::shards::parse_shard, requires = "out", conflicts_with_all = ["vs", "rank", "profile", "json"])]
    pub shard: Option<(u64, u64)>,
    /// With --shard: the shard file to write (JSON, written whole or not at all).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Seeds per block: the figures gather a block of games at a time and merge the blocks
    /// in seed order, so a run and its shards give the same figures to the last bit. A run
    /// and the shards it is compared with must use the same block.
    #[arg(long, default_value_t = farebox::figures::BLOCK, value_parser = clap::value_parser!(u64).range(1..=crate::common::MAX_GAMES))]
    pub block: u64,
    /// Skill and luck: play the search bot at each of --budgets against a fixed opponent
    /// (--against), two seats alternating, --games games a budget on the same seeds, and
    /// say whether more thinking wins more ("skill pays") or not ("mostly luck").
    #[arg(long, conflicts_with_all = ["vs", "rank", "forbid", "shard", "profile", "hidden_value"])]
    pub skill_trace: bool,
    /// With --skill-trace: playouts a decision, comma separated; 0 is no search (the mod's
    /// first bot, else the random agent, which the search bot plays out with).
    #[arg(long, default_value = "0,10,50", requires = "skill_trace")]
    pub budgets: String,
    /// With --skill-trace: the fixed opponent (default: the mod's first bot, else random).
    #[arg(long, value_name = "AGENT", requires = "skill_trace")]
    pub against: Option<String>,
    /// Value of hidden information: the search bot (--search) seeing every secret against
    /// the same bot seeing only what its seat may, two seats alternating; reports the
    /// difference in win rate. For analysis only: the bot that sees every secret can never
    /// take a seat in a game people play.
    #[arg(long, conflicts_with_all = ["vs", "rank", "forbid", "shard", "profile"])]
    pub hidden_value: bool,
    /// With --hidden-value: the search bot, search:N, search:N:POLICY or search:N:POLICY:ROOT.
    #[arg(
        long,
        value_name = "SPEC",
        default_value = "search:50",
        requires = "hidden_value"
    )]
    pub search: String,
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The mod to tune: a bundled id or a folder path.
    #[arg(value_name = "MOD")]
    pub game: String,
    /// The figure and the value wanted: FIGURE=GOAL±TOLERANCE.
    #[arg(
        long,
        value_name = "FIGURE=GOAL±TOL",
        required_unless_present = "list_fields"
    )]
    pub target: Option<String>,
    /// The fields it may change: names or patterns, comma separated (see above).
    #[arg(long, value_name = "FIELDS", required_unless_present = "list_fields")]
    pub fields: Option<String>,
    /// List the mod's numeric fields (name, value, file) and stop.
    #[arg(long)]
    pub list_fields: bool,
    /// Games per candidate (at most 100,000).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Seed of the first game of the search's range; every candidate plays seed..seed+games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seed of the first game of the check's fresh range (default: seed + 1,000,000).
    #[arg(long)]
    pub check_seed: Option<u64>,
    /// The most candidates played, the mod as it is and the check's two included.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(3..=10_000))]
    pub budget: u32,
    /// Number of seats (default: the number of --bots given, at least the mod's minimum).
    #[arg(long)]
    pub players: Option<u8>,
    /// Agents per seat, comma separated, as for `farebox sim`; the last one repeats.
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Worker threads (default: the number of CPUs; at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=crate::common::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Stop a game after this many actions (at most 1,000,000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_CAP as i64))]
    pub cap: u32,
    /// Write the proposal into the mod's files when it met the target and held.
    #[arg(long)]
    pub apply: bool,
    /// Print one JSON object: the target, the fields, the changes, the diff, the figure
    /// before and after on both seed ranges with intervals, met, held and applied.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard files, in any order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The mod the shards were played on (default: as the shards name it).
    #[arg(long = "mod", value_name = "MOD")]
    pub game: Option<String>,
    /// Print one JSON object, as `farebox sim --json` does (without the timing keys).
    #[arg(long)]
    pub json: bool,
}

/// A half-width in points: above 0, at most 100.
fn width(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if w > 0.0 && w <= 100.0 => Ok(w),
        _ => Err(format!(
            "`{s}` is not a width in points (above 0, at most 100)"
        )),
    }
}

impl SimArgs {
    /// The step budget a call runs under.
    pub fn steps_budget(&self) -> u64 {
        farebox::script::Limits::default().steps
    }
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The mod to play: a bundled id or a folder path.
    #[arg(value_name = "MOD")]
    pub game: String,
    /// Seed of the game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of seats (default: the number of --bots given, at least the mod's minimum).
    #[arg(long)]
    pub players: Option<u8>,
    /// Agents per seat, comma separated (`random`, a bot id, or the built-in search bot
    /// `search` / `search:N`, N playouts a decision, default the mod's `[search] playouts`,
    /// else 200); the last one repeats.
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Stop the game after this many actions (at most 1,000,000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_CAP as i64))]
    pub cap: u32,
    /// Set a game option, as id=value (repeatable).
    #[arg(long = "option", value_name = "ID=VALUE")]
    pub options: Vec<String>,
    /// Replay file to write (JSON).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file (JSON, as written by `farebox record`).
    pub file: PathBuf,
    /// The mod to check against (default: the bundled mod named in the replay).
    #[arg(long = "mod", value_name = "MOD")]
    pub game: Option<String>,
    /// Instead of a verdict, give the game as this seat (1, 2, ...) saw it: each action's
    /// label as shown to that seat and the log lines it could read, and nothing it could not
    /// (the replay file itself holds the seed and every action: give a player this instead).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=64))]
    pub seat: Option<u8>,
    /// With --seat, write the transcript to this file (atomically) instead of printing it.
    #[arg(long, requires = "seat")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The mod to test: a bundled id or a folder path.
    #[arg(value_name = "MOD")]
    pub game: String,
    /// Record the outcomes of the games as the accepted ones. Each setting below that is not
    /// given keeps its value from the outcomes accepted before (the file's `settings`), so
    /// accepting again after an edit plays the same games; with no accepted outcomes yet, the
    /// defaults shown apply.
    #[arg(long)]
    pub accept: bool,
    /// Number of games (with --accept; at most 1,000,000; default: the accepted number, else
    /// 200).
    #[arg(long, requires = "accept", value_parser = clap::value_parser!(u64).range(0..=crate::common::MAX_GAMES))]
    pub games: Option<u64>,
    /// Seed of the first game (with --accept; default: the accepted seed, else 1).
    #[arg(long, requires = "accept")]
    pub seed: Option<u64>,
    /// Number of seats (with --accept; default: the accepted number when --bots is not given
    /// or fits it, else the number of --bots, at least the minimum).
    #[arg(long, requires = "accept")]
    pub players: Option<u8>,
    /// Agents per seat, comma separated (with --accept; default: the accepted agents, else the
    /// mod's first bot in every seat, or `random` when it has none).
    #[arg(long, requires = "accept")]
    pub bots: Option<String>,
    /// Safety cap on actions per game (with --accept; at most 1,000,000; default: the accepted
    /// cap, else 5,000).
    #[arg(long, requires = "accept", value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_CAP as i64))]
    pub cap: Option<u32>,
    /// Set a game option, as id=value (with --accept; repeatable; default: the accepted
    /// options, else none).
    #[arg(long = "option", value_name = "ID=VALUE", requires = "accept")]
    pub options: Vec<String>,
    /// With --accept: record the outcomes even when games end in an error or at the action
    /// cap. Without it such a run is refused, and the accepted outcomes are left as they were.
    #[arg(long, requires = "accept")]
    pub accept_failures: bool,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The new mod's id and folder name: lowercase letters, digits and dashes.
    pub name: String,
    /// Make a house rule for this game (a bundled id or a folder) instead of a new game.
    #[arg(long, value_name = "MOD")]
    pub from: Option<String>,
    /// Folder to create the mod in (default: the current folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PrintArgs {
    /// The mod to print: a bundled id or a folder.
    #[arg(value_name = "MOD")]
    pub spec: String,
    /// The PDF to write.
    #[arg(long, value_name = "FILE.pdf")]
    pub out: PathBuf,
    /// Paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// Bleed around each card and tile, in millimetres (0 to 10).
    #[arg(long, default_value_t = 3.0)]
    pub bleed: f32,
    /// Card size for every deck: poker, bridge, tarot, mini or WxH in millimetres.
    #[arg(long)]
    pub card: Option<String>,
    /// A back sheet after each sheet of faces, mirrored for long-edge double-sided printing.
    #[arg(long)]
    pub duplex: bool,
    /// How cards sit on a sheet: spaced (each with its own bleed and crop marks, for a
    /// print shop), butted (cards touch so one cut separates two; bleed and marks only at the
    /// block's edges: nine poker cards on A4), or auto (whichever fits more).
    #[arg(long, default_value = "auto", value_parser = ["auto", "spaced", "butted"])]
    pub layout: String,
    /// Faces on one half of a landscape sheet and their backs mirrored on the other: fold
    /// down the middle, glue, then cut. Not with --duplex.
    #[arg(long, conflicts_with = "duplex")]
    pub gutter_fold: bool,
    /// Pale fills, to save ink.
    #[arg(long)]
    pub low_ink: bool,
    /// Also write one PNG per card (with its bleed, 300 dpi) into this folder, for print-on-
    /// demand services (needs `pdftoppm`, from poppler-utils).
    #[arg(long, value_name = "DIR")]
    pub png_dir: Option<PathBuf>,
    /// Print only the cards whose content changed since an earlier print (read from the card
    /// list written beside it, OLD.pdf.cards.json).
    #[arg(long, value_name = "OLD.pdf")]
    pub changed_since: Option<PathBuf>,
    /// Under each card, outside its trim: how often the seats that held it and that played it
    /// won (with 95% intervals), from a seeded run of bot games as `farebox sim` plays them,
    /// for playtests.
    #[arg(long)]
    pub figures: bool,
    /// With --figures: how many games (1 to 100,000).
    #[arg(long, default_value_t = 200, requires = "figures", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// With --figures: the seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1, requires = "figures")]
    pub seed: u64,
    /// With --figures: the agents, comma-separated, as `farebox sim --bots` takes them.
    #[arg(long, default_value = "random", requires = "figures")]
    pub bots: String,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Folder to write to (default: the repository's `schemas/`, next to `mods/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The mod to time (not needed with --load or --validate).
    #[arg(value_name = "MOD", required_unless_present_any = ["load", "validate"])]
    pub game: Option<String>,
    /// Number of games (at most 1,000,000): 200 random games, or 10 with --search.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=crate::common::MAX_GAMES))]
    pub games: Option<u64>,
    /// Time the search bot instead: two-seat games of SPEC (`search`, `search:N`,
    /// `search:N:POLICY`, `search:N:POLICY:ROOT` with ROOT paired or tree) against --against,
    /// seats alternating; prints its score and the median and worst time of its decisions
    /// (CPU and wall).
    #[arg(long, value_name = "SPEC")]
    pub search: Option<String>,
    /// The agent the search bot plays against with --search (default: the mod's first bot,
    /// or random).
    #[arg(long, value_name = "AGENT", requires = "search")]
    pub against: Option<String>,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time loading every bundled mod instead (its content checked, its scripts compiled).
    #[arg(long)]
    pub load: bool,
    /// Time `farebox validate` of every bundled mod instead, split into its parts: loading,
    /// starting the VM, the trial games and the replays with extra hook calls.
    #[arg(long, conflicts_with_all = ["load", "search"])]
    pub validate: bool,
    /// With --validate: time `validate --deep`.
    #[arg(long, requires = "validate")]
    pub deep: bool,
    /// Rounds for --load and --validate (at most 10,000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_ITERATIONS as i64))]
    pub iterations: u32,
}

#[derive(Debug, Args)]
pub struct BenchLoadArgs {
    /// Rounds of loading all bundled mods (at most 10,000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=crate::common::MAX_ITERATIONS as i64))]
    pub iterations: u32,
}
