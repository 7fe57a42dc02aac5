//! Deliberate breaks of Where's My Ride?'s rules and bots, at least one per rule ID: each
//! replaces one piece of `rules/wheres-my-ride.luau`, `bots/regular.luau` or of the TOML that
//! holds a rule's numbers with a wrong one. `every_broken_rule_is_caught` requires each to make
//! a check of its rule fail.

use farebox_suite::mutant as m;
use farebox_suite::rule_mutants::Mutant;

const RULES: &str = "rules/wheres-my-ride.luau";
const BOT: &str = "bots/regular.luau";
const MOD: &str = "mod.toml";
const PIECES: &str = "pieces.toml";

pub const MUTANTS: &[Mutant] = &[
    // ---- setup
    m!(
        "WR-S1",
        MOD,
        "[players]\nmin = 2",
        "[players]\nmin = 1",
        "one player allowed"
    ),
    m!(
        "WR-S1",
        RULES,
        "if game.option(\"driver\") == \"random\" then",
        "if false then",
        "the first seat always drives"
    ),
    m!(
        "WR-S1",
        RULES,
        "game.finish_together(won, ",
        "game.finish_together(true, ",
        "the table never loses together"
    ),
    m!(
        "WR-S1",
        RULES,
        "table.insert(out, (d - 1 + i) % n + 1)",
        "table.insert(out, (d - 2 + i) % n + 1)",
        "the Driver counts among the Riders"
    ),
    m!(
        "WR-S2",
        MOD,
        "starting_rating = 5 ",
        "starting_rating = 4 ",
        "the rating starts at 4 stars"
    ),
    m!(
        "WR-S2",
        PIECES,
        "deck = \"ratings\"\nshuffle = true",
        "deck = \"ratings\"\nshuffle = false",
        "the rating tiles are not shuffled"
    ),
    m!(
        "WR-S2",
        PIECES,
        "id = \"rating-stack\"\nname = \"Rating tiles\"\nvisibility = \"hidden\"",
        "id = \"rating-stack\"\nname = \"Rating tiles\"\nvisibility = \"public\"",
        "the rating tiles lie face up"
    ),
    m!(
        "WR-S2",
        "decks/ratings.toml",
        "count = 6",
        "count = 5",
        "five checkmarks"
    ),
    m!(
        "WR-S3",
        PIECES,
        "deck = \"texts\"\nshuffle = true",
        "deck = \"texts\"\nshuffle = false",
        "the text deck is not shuffled"
    ),
    m!(
        "WR-S3",
        PIECES,
        "deck = \"emojis\"\nshuffle = true",
        "deck = \"emojis\"\nshuffle = false",
        "the emoji bag is not shaken"
    ),
    m!(
        "WR-S3",
        PIECES,
        "deck = \"locations\"\nshuffle = true",
        "deck = \"locations\"\nshuffle = false",
        "the location deck is not shuffled"
    ),
    m!(
        "WR-S3",
        "decks/texts.toml",
        "text = \"The air conditioning in here is set to arctic.\"\ntags = [\"indoor\"]",
        "text = \"The air conditioning in here is set to arctic.\"\ntags = [\"yes\"]",
        "a text tagged with a verdict"
    ),
    m!(
        "WR-S4",
        MOD,
        "emoji_hand = 5 ",
        "emoji_hand = 4 ",
        "four emojis behind the screen"
    ),
    m!(
        "WR-S4",
        RULES,
        "\trefill(d)\n",
        "\n",
        "the Driver starts without emojis"
    ),
    m!(
        "WR-S4",
        PIECES,
        "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"owner\"",
        "name = \"Emojis behind the screen\"\nper_seat = true\nvisibility = \"public\"",
        "no screen: everyone sees the Driver's emojis"
    ),
    m!(
        "WR-S5",
        MOD,
        "decoy_locations = 8",
        "decoy_locations = 7",
        "eight places on the table"
    ),
    m!(
        "WR-S5",
        RULES,
        "\tgame.shuffle(zone(\"candidates\"))\n",
        "\n",
        "the answer always lies first"
    ),
    m!(
        "WR-S5",
        RULES,
        "game.set_secret(\"_answer\", answer, d)",
        "game.set(\"_answer\", answer)",
        "everyone reads the answer"
    ),
    m!(
        "WR-S5",
        PIECES,
        "id = \"candidates\"\nname = \"Possible locations\"\nvisibility = \"public\"",
        "id = \"candidates\"\nname = \"Possible locations\"\nvisibility = \"hidden\"",
        "the places lie face down"
    ),
    // ---- a round
    m!(
        "WR-R1",
        RULES,
        "game.set(\"_next_texter\", (start - 1 + k) % #rs + 1)",
        "game.set(\"_next_texter\", (start - 1) % #rs + 1)",
        "the same Riders text every round"
    ),
    m!(
        "WR-R1",
        MOD,
        "first_texter_offset = 1 ",
        "first_texter_offset = 2 ",
        "the first texter sits two to the Driver's left"
    ),
    m!(
        "WR-R1",
        MOD,
        "texters_per_round = 2\n",
        "texters_per_round = 3\n",
        "three texters"
    ),
    m!(
        "WR-R2",
        MOD,
        "texts_drawn = 2\n",
        "texts_drawn = 3\n",
        "three texts drawn"
    ),
    m!(
        "WR-R2",
        RULES,
        "while game.move_card(hand, zone(\"text-discard\")) do",
        "while game.move_card(hand, zone(\"played-texts\")) do",
        "the text not sent is shown"
    ),
    m!(
        "WR-R2",
        PIECES,
        "name = \"Text to send\"\nper_seat = true\nvisibility = \"owner\"",
        "name = \"Text to send\"\nper_seat = true\nvisibility = \"public\"",
        "the others see the text chosen before they choose"
    ),
    m!(
        "WR-R2",
        RULES,
        "return { \"Picks a text to send\" }",
        "return { \"Picks \" .. quoted(w[2]) }",
        "the public label names the text chosen"
    ),
    m!(
        "WR-R2",
        RULES,
        "while game.move_card(zone(\"text-discard\"), deck) do",
        "while false do",
        "an empty text deck is not rebuilt"
    ),
    m!(
        "WR-R3",
        RULES,
        "game.take_card(hand, card, chosen)",
        "game.take_card(hand, card, zone(\"played-texts\"))",
        "each text is turned up as soon as it is chosen"
    ),
    m!(
        "WR-R3",
        PIECES,
        "id = \"played-texts\"\nname = \"Texts sent\"\nvisibility = \"public\"",
        "id = \"played-texts\"\nname = \"Texts sent\"\nvisibility = \"hidden\"",
        "the texts sent are face down"
    ),
    m!(
        "WR-R4",
        MOD,
        "min_emojis_placed = 1 ",
        "min_emojis_placed = 0 ",
        "the Driver may place nothing"
    ),
    m!(
        "WR-R4",
        RULES,
        "for _, card in game.get(\"_round_texts\") do",
        "for _, card in game.cards(zone(\"played-texts\")) do",
        "emojis go on texts of earlier rounds too"
    ),
    m!(
        "WR-R4",
        RULES,
        "placed_on[token] = card",
        "placed_on[token] = nil",
        "nobody knows which text a token lies on"
    ),
    m!(
        "WR-R5",
        RULES,
        "local drawn = refill(seat)",
        "local drawn = 0",
        "the Driver does not refill"
    ),
    m!(
        "WR-R5",
        PIECES,
        "id = \"placed-emojis\"\nname = \"Emojis placed\"\nvisibility = \"public\"",
        "id = \"placed-emojis\"\nname = \"Emojis placed\"\nvisibility = \"hidden\"",
        "the emojis placed are hidden"
    ),
    m!(
        "WR-R5",
        RULES,
        "while game.count(hand) < C.emoji_hand do\n\t\tlocal token = game.move_card(zone(\"emoji-bag\"), hand)\n\t\tif not token then\n\t\t\tbreak",
        "while game.count(hand) < C.emoji_hand do\n\t\tlocal token = game.move_card(zone(\"emoji-bag\"), hand)\n\t\tif not token then\n\t\t\terror(\"the bag is empty\")",
        "an empty bag stops the game"
    ),
    m!(
        "WR-R6",
        RULES,
        "if card == game.get(\"_answer\") then",
        "if card ~= game.get(\"_answer\") then",
        "a wrong guess wins"
    ),
    m!(
        "WR-R6",
        MOD,
        "max_guesses_per_round = 1\n",
        "max_guesses_per_round = 2\n",
        "two guesses a round"
    ),
    m!(
        "WR-R6",
        RULES,
        "\tgame.take_card(zone(\"candidates\"), card, zone(\"ruled-out\"))\n",
        "\n",
        "a wrong guess may be guessed again"
    ),
    m!(
        "WR-R6",
        RULES,
        "local speaker = rs[(C.first_speaker_offset - 1 + round - 1) % #rs + 1]",
        "local speaker = rs[1]",
        "the same Rider speaks every round"
    ),
    m!(
        "WR-R6",
        MOD,
        "first_speaker_offset = 1 ",
        "first_speaker_offset = 2 ",
        "the second Rider speaks first"
    ),
    m!(
        "WR-R7",
        MOD,
        "tiles_revealed_no_guess = 1\n",
        "tiles_revealed_no_guess = 2\n",
        "waiting turns two tiles"
    ),
    m!(
        "WR-R7",
        MOD,
        "tiles_revealed_wrong_guess = 2\n",
        "tiles_revealed_wrong_guess = 1\n",
        "a wrong guess turns one tile"
    ),
    m!(
        "WR-R7",
        RULES,
        "\t\tturn_tiles(C.tiles_revealed_no_guess)\n",
        "\n",
        "waiting is free"
    ),
    m!(
        "WR-R7",
        RULES,
        "game.move_card(stack, zone(\"rating-revealed\"))",
        "game.move_card(stack, zone(\"rating-board\"))",
        "checkmarks land on the rating board"
    ),
    m!(
        "WR-R8",
        RULES,
        "if rating <= C.losing_rating then",
        "if rating < C.losing_rating then",
        "the fourth broken star does not end the game"
    ),
    m!(
        "WR-R8",
        RULES,
        "game.add_counter(\"rating\", -1)",
        "game.add_counter(\"rating\", 0)",
        "broken stars cost nothing"
    ),
    m!(
        "WR-R8",
        MOD,
        "losing_rating = 1 ",
        "losing_rating = 0 ",
        "the game is lost at no stars, which the board cannot show"
    ),
    m!(
        "WR-R8",
        RULES,
        "the app cancelled the ride\")\n\t\t\t\treturn\n",
        "the app cancelled the ride\")\n",
        "tiles are still turned after the game is lost"
    ),
    m!(
        "WR-R9",
        RULES,
        ".. \")\",\n\t\td\n\t)",
        ".. \")\"\n\t)",
        "everyone hears where the ride waits"
    ),
    m!(
        "WR-R9",
        RULES,
        "game.set_secret(\"_answer\", answer, d)",
        "game.set(\"_answer\", answer)",
        "the answer is a public variable"
    ),
    // ---- variants
    m!(
        "WR-V1",
        MOD,
        "two_player_texts_drawn = 4",
        "two_player_texts_drawn = 3",
        "three texts drawn with two players"
    ),
    m!(
        "WR-V1",
        MOD,
        "two_player_texts_kept = 2",
        "two_player_texts_kept = 1",
        "one text sent with two players"
    ),
    m!(
        "WR-V1",
        RULES,
        "return game.seats() == 2 and game.option(\"two-player\") == true",
        "return game.option(\"two-player\") == true",
        "the two-player texting at any table size"
    ),
    m!(
        "WR-V2",
        MOD,
        "checks_removed = { normal = 0, hard = 1, harder = 2 }",
        "checks_removed = { normal = 0, hard = 0, harder = 2 }",
        "Hard is Normal"
    ),
    m!(
        "WR-V2",
        RULES,
        "if RATINGS[tile].kind == \"check\" then",
        "if true then",
        "the difficulty may take out broken stars"
    ),
    m!(
        "WR-V3",
        MOD,
        "texters_per_round_triple = 3",
        "texters_per_round_triple = 2",
        "Triple Text has two texters"
    ),
    m!(
        "WR-V3",
        RULES,
        "if game.option(\"triple-text\") then",
        "if false then",
        "Triple Text is ignored"
    ),
    // ---- bots
    m!(
        "WR-B1",
        BOT,
        "if l > best[kind] then",
        "if l < best[kind] then",
        "the Driver bot ignores how a placement reads"
    ),
    m!(
        "WR-B1",
        BOT,
        "if top == nil or score[loc] > score[top] then",
        "if top == nil or score[loc] < score[top] then",
        "the spokesperson bot backs the place the clues point away from"
    ),
    m!(
        "WR-B1",
        BOT,
        "if off < best then",
        "if off > best then",
        "the texter bot sends its first text"
    ),
    m!(
        "WR-B1",
        BOT,
        "or left <= C.bot_guess_when_tiles_left",
        "or false",
        "the spokesperson bot waits however low the tiles run"
    ),
    m!(
        "WR-B1",
        MOD,
        "bot_guess_margin = 1 ",
        "bot_guess_margin = 3 ",
        "the spokesperson bot waits for a lead it rarely gets"
    ),
    m!(
        "WR-B1",
        BOT,
        "score += row.weight * shared",
        "score -= row.weight * shared",
        "the bots read yes as no"
    ),
    // ---- the kinds of break a careful author makes (issue: rule tests that catch what slips)
    m!(
        "WR-R2",
        RULES,
        "\t\tgame.shuffle(deck)\n\t\tgame.log(\"The text deck is empty",
        "\t\tgame.log(\"The text deck is empty",
        "a rebuilt text deck is left unshuffled"
    ),
    m!(
        "WR-R2",
        RULES,
        "if game.count(deck) == 0 and game.count(zone(\"text-discard\")) > 0 then",
        "if game.count(deck) == 0 or game.count(zone(\"text-discard\")) > 0 then",
        "and read as or: the discards go back into the deck while it still has cards"
    ),
    m!(
        "WR-R2",
        RULES,
        "if game.count(deck) == 0 and game.count(zone(\"text-discard\")) > 0 then",
        "if game.count(deck) <= 1 and game.count(zone(\"text-discard\")) > 0 then",
        "the last text of the deck is shuffled away instead of drawn"
    ),
    m!(
        "WR-R4",
        RULES,
        "\tgame.set(\"_placed_round\", 0)\n",
        "\n",
        "the at-least-one emoji is counted over the game, not per round"
    ),
    m!(
        "WR-R5",
        RULES,
        "while game.count(hand) < C.emoji_hand do",
        "while game.count(hand) < C.emoji_hand and game.count(zone(\"emoji-bag\")) > 1 do",
        "the last token in the bag is never drawn"
    ),
    m!(
        "WR-R5",
        RULES,
        "while game.count(hand) < C.emoji_hand do",
        "while game.count(hand) <= C.emoji_hand do",
        "a limit checked one step late: the Driver refills to six"
    ),
    m!(
        "WR-R6",
        RULES,
        "if game.get(\"_guesses\") >= C.max_guesses_per_round or #live_candidates() == 0 then",
        "if game.get(\"_guesses\") > C.max_guesses_per_round or #live_candidates() == 0 then",
        "a limit checked one step late: a second guess in the round"
    ),
    m!(
        "WR-R7",
        RULES,
        "\tturn_tiles(C.tiles_revealed_wrong_guess)\n",
        "\n",
        "a wrong guess costs nothing where waiting costs a tile"
    ),
    m!(
        "WR-R9",
        RULES,
        "game.set_secret(\"pickup spot\", spot.name .. \": \" .. table.concat(spot.tags, \", \"), d)",
        "game.set(\"pickup spot\", spot.name .. \": \" .. table.concat(spot.tags, \", \"))",
        "the Driver's screen is a public variable"
    ),
    m!(
        "WR-B1",
        BOT,
        "if top == nil or score[loc] > score[top] then",
        "if top == nil or score[loc] >= score[top] then",
        "a tie-break reversed: the spokesperson bot backs the last of the places level"
    ),
    m!(
        "WR-B1",
        BOT,
        "if off < best then",
        "if off <= best then",
        "a tie-break reversed: the texter bot sends the last of two texts as good"
    ),
    m!(
        "WR-B1",
        BOT,
        "best_i, best = i, off",
        "best_i, best = i, best + off",
        "a best-so-far that adds up: the texter bot sends its last text"
    ),
    m!(
        "WR-B1",
        BOT,
        "second = math.max(second, score[loc])",
        "second = second + score[loc]",
        "a best-so-far that adds up: the spokesperson bot sees a lead that is not there"
    ),
    m!(
        "WR-B1",
        BOT,
        "local kind = if shared and extra[answer] > 0 then 1",
        "local kind = if shared or extra[answer] > 0 then 1",
        "and read as or: the Driver bot gives the answer away"
    ),
    m!(
        "WR-B1",
        BOT,
        "if done_at and (game.get(\"_placed_round\") or 0) >= C.bot_emojis_per_round then",
        "if done_at and (game.get(\"_placed_round\") or 0) > C.bot_emojis_per_round then",
        "a limit checked one step late: the Driver bot places two emojis a round"
    ),
    m!(
        "WR-B1",
        BOT,
        "or left <= C.bot_guess_when_tiles_left",
        "or left < C.bot_guess_when_tiles_left",
        "a limit checked one step late: the spokesperson bot waits with two tiles left"
    ),
];

/// Breaks the oracles must catch (`rule_mutants::OracleRun::required`): the kinds of fault
/// that seeded games find and scenarios may not think of. Where's My Ride? is cooperative, so
/// a tie at a rarely reached rank has no place in it (the table shares one result), nor has a
/// leftover buying something: its leftover is the texts not sent.
pub const FOR_ORACLES: &[Mutant] = &[
    m!(
        "WR-R7",
        RULES,
        "for _ = 1, n do",
        "for _ = 2, n do",
        "a count off by one: waiting turns no tile and a miss one"
    ),
    m!(
        "WR-R2",
        RULES,
        "if game.count(chosen) < kept and game.count(hand) > 0 then",
        "if game.count(hand) > 0 then",
        "a texter who has sent their text goes on choosing"
    ),
    m!(
        "WR-R2",
        RULES,
        "while game.move_card(hand, zone(\"text-discard\")) do\n\tend\n",
        "",
        "the leftover: the texts not sent stay in the texter's hand"
    ),
    m!(
        "WR-R3",
        RULES,
        "for _, s in game.get(\"_texters\") do\n\t\tlocal chosen",
        "local order = game.get(\"_texters\")\n\tfor i = #order, 1, -1 do\n\t\tlocal s = order[i]\n\t\tlocal chosen",
        "an order swapped: the texts are turned up last texter first"
    ),
    m!(
        "WR-R6",
        RULES,
        "game.take_card(zone(\"candidates\"), card, zone(\"ruled-out\"))",
        "game.take_card(zone(\"candidates\"), card, zone(\"location-deck\"), \"bottom\")",
        "a card lost: a missed place goes back under the location deck, not face down on the table"
    ),
    m!(
        "WR-R2",
        RULES,
        "if game.count(deck) == 0 and game.count(zone(\"text-discard\")) > 0 then",
        "if game.count(deck) <= 2 and game.count(zone(\"text-discard\")) > 0 then",
        "a deck rebuilt while its last cards are in it"
    ),
    m!(
        "WR-R8",
        RULES,
        "local rating = game.add_counter(\"rating\", -1)",
        "local rating = game.counter(\"rating\")\n\t\t\tgame.add_counter(\"rating\", -1)",
        "the end noticed a tile late: the rating is read before the fourth broken star lowers it"
    ),
    m!(
        "WR-R4",
        RULES,
        "if game.get(\"_placed_round\") >= C.min_emojis_placed or #hand == 0 then",
        "if game.get(\"_placed_round\") + 1 >= C.min_emojis_placed or #hand == 0 then",
        "a \"one or more\" that allows none: done before any emoji is placed"
    ),
    m!(
        "WR-V3",
        RULES,
        "return math.min(k, #riders())",
        "return if game.option(\"triple-text\") then k else math.min(k, #riders())",
        "a restriction dropped in one of two paths: Triple Text at three players has a Rider text twice"
    ),
    m!(
        "WR-R4",
        RULES,
        "\t\t\t.. quoted(card)\n\t)\n\tshow_text(card)\n",
        "\t\t\t.. quoted(card)\n\t)\n",
        "a placed token never shown in the public conversation"
    ),
];
