//! Starting a mod: without a base, a small complete game to grow from; with one, a house rule
//! for that game that loads, plays, and changes nothing yet, with the ways to change it
//! written out in its files. `farebox new` and the Studio's "New" both come here.

use std::path::{Path, PathBuf};

use farebox::GameDef;

use crate::common::{Fail, MAX_SHOWN, load_located, locate, shown, shown_path};

/// Makes the mod `name` in `dir`: a new game, or with `from` (a bundled id or a folder) a
/// house rule for that game. Returns its folder and the files written (relative paths).
/// Nothing is written when anything is wrong. The command line and the Studio's "New" both
/// come here.
pub fn create(name: &str, from: Option<&str>, dir: &Path) -> Result<(PathBuf, Vec<String>), Fail> {
    check_id(name)?;
    let folder = dir.join(name);
    if folder.exists() {
        return Err(Fail::Usage(format!(
            "{} already exists; pick another name or --dir (nothing was written)",
            shown_path(&folder)
        )));
    }
    let files = match from {
        None => game_files(name),
        Some(spec) => {
            let located = locate(spec)?;
            let base = load_located(&located).map_err(|d| {
                Fail::Invalid(format!(
                    "{} does not load, so a house rule cannot be built on it ({} {}; `farebox validate` lists them): {}",
                    shown(spec, MAX_SHOWN),
                    d.len(),
                    crate::common::plural(d.len(), "problem"),
                    d.iter().next().map(|d| d.to_string()).unwrap_or_default()
                ))
            })?;
            house_rule_files(name, &base)
        }
    };
    let mut files = files;
    files.extend(support_files());
    write_all(&folder, &files)?;
    Ok((folder, files.into_iter().map(|(rel, _)| rel).collect()))
}

/// Ids are what other mods and replays name a mod by: the loader's rule, checked up front so
/// nothing is written for a name that would not load.
fn check_id(name: &str) -> Result<(), Fail> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if ok {
        Ok(())
    } else {
        Err(Fail::Usage(format!(
            "`{name}` cannot be a mod id: use lowercase letters, digits and dashes, starting with a letter (like `night-shift`)"
        )))
    }
}

/// Writes every file into a temporary sibling folder, then renames it into place: an error
/// halfway leaves no half-made mod behind.
fn write_all(folder: &Path, files: &[(String, String)]) -> Result<(), Fail> {
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let parent = folder.parent().unwrap_or(Path::new("."));
    let tmp = parent.join(format!(".{name}.new-{}", std::process::id()));
    let fail = |what: &Path, e: std::io::Error| {
        Fail::Usage(format!("cannot write {}: {e}", shown_path(what)))
    };
    let result = (|| {
        for (rel, text) in files {
            let path = tmp.join(rel);
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p).map_err(|e| fail(p, e))?;
            }
            std::fs::write(&path, text).map_err(|e| fail(&path, e))?;
        }
        std::fs::rename(&tmp, folder).map_err(|e| fail(folder, e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

/// The folder of a new mod that holds its editor support: the JSON Schemas, the Luau
/// definitions and the selene standard library, copies of what `farebox schema` writes, so
/// the mod's files are checked as they are typed wherever the mod is moved.
const TYPES: &str = "types";

/// The `#:schema` line for a file `depth` folders below the mod's own (0: mod.toml), pointing
/// at the mod's own copy of the schema.
fn schema_line(depth: usize, schema: &str) -> String {
    format!("#:schema {}{TYPES}/{schema}\n", "../".repeat(depth))
}

/// selene's settings for a mod: its standard library is the mod's copy of Farebox's.
const SELENE_TOML: &str = "# selene (a Luau linter) for this mod's scripts: `selene rules`.\n\
# types/farebox.yml, written by `farebox new` and `farebox schema --out types`, lists the\n\
# `game` API and what the sandbox takes away.\n\
std = \"types/farebox\"\n\
[lints]\n\
# `while game.move_card(a, b) do end` moves every card: the loop's work is its condition.\n\
empty_loop = \"allow\"\n";

/// StyLua's settings, the same as the bundled games'.
pub const STYLUA_TOML: &str = include_str!("../../stylua.toml");

/// Editor support for a new mod: the schemas, stubs and selene library under [`TYPES`],
/// selene's and StyLua's settings, and luau-lsp's (as VS Code reads them) pointing at the
/// stubs.
fn support_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = farebox::schema::json_schemas()
        .into_iter()
        .map(|(name, text)| (format!("{TYPES}/{name}"), text))
        .collect();
    files.push((
        format!("{TYPES}/{}", farebox::schema::LUA_STUBS_FILE),
        farebox::schema::lua_stubs(),
    ));
    files.push((
        format!("{TYPES}/{}", farebox::schema::SELENE_STD_FILE),
        farebox::schema::selene_std(),
    ));
    files.push(("selene.toml".into(), SELENE_TOML.into()));
    files.push(("stylua.toml".into(), STYLUA_TOML.into()));
    files.push((
        ".vscode/settings.json".into(),
        format!(
            "{{\n  \"luau-lsp.platform.type\": \"standard\",\n  \"luau-lsp.sourcemap.enabled\": false,\n  \"luau-lsp.types.roblox\": false,\n  \"luau-lsp.types.definitionFiles\": {{ \"@farebox\": \"{TYPES}/{}\" }},\n  \"luau-lsp.ignoreGlobs\": [\"{TYPES}/**\"],\n  \"evenBetterToml.schema.enabled\": true\n}}\n",
            farebox::schema::LUA_STUBS_FILE
        ),
    ));
    files
}

fn title(name: &str) -> String {
    name.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A small, complete push-your-luck game: every part a game needs (options, constants,
/// counters, the RNG, the log, an end) in a form worth copying.
fn game_files(id: &str) -> Vec<(String, String)> {
    let name = title(id);
    let manifest = format!(
        r#"{schema}# {name}: a Farebox game. `farebox validate` checks it; mods/README.md explains every key.

id = "{id}"
name = "{name}"
version = "0.1.0"
engine = "{engine}"
description = "Keep the meter running or drop your passenger off: a flat tire loses the whole trip."
players = {{ min = 2, max = 4 }}
scripts = ["rules/{id}.luau"]

[[options]]
id = "target"
label = "Fares to win"
description = "The first driver to bank this much wins."
type = "int"
default = 30
min = 10
max = 200

# Numbers the rules read, so a house rule can change them without touching the script.
[constants]
die_sides = 6
flat_tire = 1             # the roll that loses the trip's fare

[content]
pieces = "pieces.toml"
"#,
        schema = schema_line(0, "mod.schema.json"),
        engine = farebox::content::ENGINE_VERSION,
    );
    let pieces = format!(
        r#"{}# Counters hold the numbers of the game; pieces and zones (decks, hands) go here too.

[[counters]]
id = "bank"
name = "Banked fares"
scope = "seat"
min = 0

[[counters]]
id = "meter"
name = "On the meter"
scope = "global"
min = 0
"#,
        schema_line(0, "pieces.schema.json")
    );
    let rules = r#"--!strict
-- The rules. Each hook is a function the engine calls; the `game` API is listed in
-- types/farebox.d.luau. Randomness comes only from game.roll (seeded: games replay exactly).

local C = data.constants

local function finish(winner: number)
	local places, scores = {}, {}
	for s = 1, game.seats() do
		places[s] = if s == winner then 1 else 2
		scores[s] = game.counter("bank", s)
	end
	game.finish(places, scores, game.seat_name(winner) .. " banked " .. game.counter("bank", winner))
end

return {
	setup = function(_g)
		game.set_counter("meter", 0)
	end,

	-- The legal actions of the seat to act, as strings this script invents.
	actions = function(_g, _seat: number): { string }
		if game.counter("meter") == 0 then
			return { "drive" }
		end
		return { "drive", "drop off" }
	end,

	-- Carries out one legal action. An error here rolls the whole action back.
	apply = function(_g, seat: number, action: string)
		local who = game.seat_name(seat)
		if action == "drive" then
			local roll = game.roll(C.die_sides)
			if roll == C.flat_tire then
				game.log(who .. " rolls " .. roll .. ": flat tire, the fare is lost")
				game.set_counter("meter", 0)
				game.end_turn()
			else
				local meter = game.add_counter("meter", roll)
				game.log(who .. " rolls " .. roll .. ": " .. meter .. " on the meter")
			end
		elseif action == "drop off" then
			local banked = game.add_counter("bank", seat, game.counter("meter"))
			game.log(
				who .. " drops off the passenger and banks " .. game.counter("meter") .. " (" .. banked .. " in all)"
			)
			game.set_counter("meter", 0)
			if banked >= game.option("target") then
				finish(seat)
				return
			end
			game.end_turn()
		end
	end,

	-- A label for people; without it, they see the action string.
	describe = function(_g, _seat: number, action: string): string
		if action == "drive" then
			return "Keep driving (roll a die; " .. C.flat_tire .. " is a flat tire)"
		end
		return "Drop off the passenger (bank " .. game.counter("meter") .. ")"
	end,

	score = function(_g, seat: number): number
		return game.counter("bank", seat)
	end,
}
"#
    .to_string();
    vec![
        ("mod.toml".into(), manifest),
        ("pieces.toml".into(), pieces),
        (format!("rules/{id}.luau"), rules),
    ]
}

/// A house rule for `base`: it depends on the game, wraps none of its hooks yet and patches
/// nothing yet, with working examples (using the game's real ids) in comments.
///
/// The base game's texts (its name, an option's label, a card's name) may hold anything: each
/// is written as a TOML string with every quote, backslash and control character escaped,
/// and shown in a TOML or Luau comment on one line, so nothing in them can become live TOML
/// or code in the new files.
fn house_rule_files(id: &str, base: &GameDef) -> Vec<(String, String)> {
    // "curbside-long-shift" of Curbside is "Curbside: Long Shift", not "Curbside: Curbside
    // Long Shift".
    let own = id
        .strip_prefix(base.id.as_str())
        .and_then(|rest| rest.strip_prefix('-'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(id);
    let name = format!("{}: {}", base.name, title(own));
    let name_shown = one_line(&name);
    let base_shown = one_line(&base.name);
    let version = base
        .version
        .split('.')
        .take(2)
        .collect::<Vec<_>>()
        .join(".");
    let deck_example = match base.decks.iter().find(|d| !d.cards.is_empty()) {
        Some(d) => {
            let first = &d.cards[0];
            let remove = match d.cards.last() {
                Some(last) if d.cards.len() > 1 => format!(
                    "# remove = [{}]           # cards taken out, by id\n",
                    toml_str(&last.id)
                ),
                _ => String::new(),
            };
            let mut card = format!(
                "# [[decks.cards]]                # a card with an id already there replaces it; a new id is added\n# id = {}\n# name = {}\n",
                toml_str(&first.id),
                toml_str(&first.name)
            );
            if !first.text.is_empty() {
                card += &format!("# text = {}\n", toml_str(&first.text));
            }
            for (k, v) in &first.fields {
                card += &format!("# {} = {}\n", toml_key(k), toml_value(v));
            }
            card += &format!("# count = {}\n", first.count + 1);
            format!("# [[decks]]\n# id = {}\n{remove}{card}", toml_str(&d.id))
        }
        None => "# (this game has no decks)\n".into(),
    };
    let option_example = match base.options.first() {
        Some(o) => format!(
            "\n# An item with the id of one of {}'s replaces it, like this option:\n# [[options]]\n# id = {}\n# label = {}\n# type = {}\n# default = {}\n{}",
            base_shown,
            toml_str(&o.id),
            toml_str(&o.label),
            toml_str(
                &serde_json::to_value(o.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default()
            ),
            toml_value(&o.default),
            [("min", o.min), ("max", o.max)]
                .iter()
                .filter_map(|(k, v)| v.map(|v| format!("# {k} = {v}\n")))
                .collect::<String>()
        ),
        None => String::new(),
    };
    let manifest = format!(
        r#"{schema}# {name_shown}: a house rule for {base_name}. It changes the game in three ways, all optional:
# items with the same id as the game's replace them (below), patches/{id}.toml takes things
# out and changes decks and tables, and rules/{id}.luau wraps the game's rule hooks.

id = "{id}"
name = {name_toml}
version = "0.1.0"
engine = "{engine}"
description = {description}
# players = {{ min = {min}, max = {max} }}   # the game's seats, unless you change them here
depends = [{{ id = "{base_id}", version = "{version}" }}]
scripts = ["rules/{id}.luau"]
{option_example}
[content]
patches = ["patches/{id}.toml"]
"#,
        schema = schema_line(0, "mod.schema.json"),
        base_name = base_shown,
        name_toml = toml_str(&name),
        description = toml_str(&format!("{} with a house rule.", base.name)),
        base_id = base.id,
        engine = farebox::content::ENGINE_VERSION,
        min = base.players.0,
        max = base.players.1,
    );
    let patch = format!(
        r#"{schema}# Changes to {base_name}'s content. Everything named must exist in the game ("did you mean"
# helps); remove only what the game's rules do not look up by id. Uncomment to use.

# [remove]                       # whole items, by id
# tiles = []
# options = []

{deck_example}"#,
        schema = schema_line(1, "patch.schema.json"),
        base_name = base_shown,
    );
    let rules = format!(
        r#"--!strict
-- {name_shown}. A plain hook (`apply = function ...`) would replace {base_name}'s; hooks under
-- `before` and `after` wrap it instead. A `before` that returns a value other than nil or
-- false ends the hook with that value; an `after` gets the result so far and may return a
-- new one. As it stands this changes nothing: try the examples in the comments.

return {{
	before = {{
		-- apply = function(_g, seat: number, action: string)
		-- 	if action == "siesta" then
		-- 		game.end_turn()
		-- 		return true -- carried out here: {base_name}'s apply never sees it
		-- 	end
		-- 	return nil
		-- end,
	}},
	after = {{
		-- actions = function(_g, seat: number, list: {{ string }})
		-- 	table.insert(list, "siesta")
		-- 	return nil -- the list was changed in place
		-- end,
	}},
}}
"#,
        base_name = base_shown,
    );
    vec![
        ("mod.toml".into(), manifest),
        (format!("patches/{id}.toml"), patch),
        (format!("rules/{id}.luau"), rules),
    ]
}

/// A value as TOML on one line, for the examples.
fn toml_value(v: &farebox::value::Value) -> String {
    use farebox::value::Value as V;
    match v {
        V::Str(s) => toml_str(s),
        V::List(l) => format!(
            "[{}]",
            l.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        V::Map(m) => format!(
            "{{ {} }}",
            m.iter()
                .map(|(k, v)| format!("{} = {}", toml_key(k), toml_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        V::Num(x) if x.is_nan() => "nan".into(),
        V::Num(x) if x.is_infinite() => if *x > 0.0 { "inf" } else { "-inf" }.into(),
        // `{:?}` keeps the decimal point ("2.0"), so the value stays a float.
        V::Num(x) => format!("{x:?}"),
        V::Nil => "\"\"".into(),
        V::Bool(_) | V::Int(_) => v.to_string(),
    }
}

/// `s` as a TOML basic string on one line: quotes, backslashes and every control character
/// escaped.
fn toml_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML key: bare when it can be, else quoted.
fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        toml_str(k)
    }
}

/// Text for a TOML or Luau comment: on one line, every control character (a line break
/// above all, which would end the comment) and Unicode's line and paragraph separators
/// shown as a space.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}
