//! Deliberate breaks of Dicey Curves' rules, at least one per rule ID: each replaces one piece
//! of `rules/dicey-curves.luau` or of the TOML that holds a rule's numbers with a wrong one.
//! `every_broken_rule_is_caught` requires each to make a check of its rule fail.

use farebox_suite::mutant as m;
use farebox_suite::rule_mutants::Mutant;

const RULES: &str = "rules/dicey-curves.luau";
const MOD: &str = "mod.toml";
const PIECES: &str = "pieces.toml";
const BOARD: &str = "board.toml";
const DECK: &str = "decks/track.toml";
const DEPTH: &str = "tables/finish-depth.toml";
const CHIPS: &str = "tables/chip-purchase.toml";

pub const MUTANTS: &[Mutant] = &[
    // ---- setup
    m!(
        "DC-S1",
        MOD,
        "[players]\nmin = 2",
        "[players]\nmin = 1",
        "one player allowed"
    ),
    m!(
        "DC-S1",
        MOD,
        "two_cars_max_players = 4",
        "two_cars_max_players = 3",
        "four players drive one car each"
    ),
    m!(
        "DC-S1",
        RULES,
        "\tif choice == \"one\" then",
        "\tif false then",
        "the one-car option is ignored"
    ),
    m!(
        "DC-S2",
        MOD,
        "starting_chips = 2",
        "starting_chips = 3",
        "three chips each"
    ),
    m!(
        "DC-S2",
        PIECES,
        "initial = 32\nmin = 0\nmax = 32",
        "initial = 30\nmin = 0\nmax = 32",
        "a supply of 30"
    ),
    m!(
        "DC-S3",
        DECK,
        "piece = \"straight-2-long\"\ncount = 8",
        "piece = \"straight-2-long\"\ncount = 9",
        "37 cards"
    ),
    m!(
        "DC-S4",
        DEPTH,
        "depth = \"middle\"\ncards_above = 16",
        "depth = \"middle\"\ncards_above = 20",
        "the Finish too deep"
    ),
    m!(
        "DC-S4",
        DEPTH,
        "depth = \"middle\"\ncards_above = 16\nspread = 2",
        "depth = \"middle\"\ncards_above = 16\nspread = 0",
        "the Finish always at the same depth"
    ),
    m!(
        "DC-S4",
        PIECES,
        "deck = \"track\"\nshuffle = true",
        "deck = \"track\"\nshuffle = false",
        "the deck is never shuffled"
    ),
    m!(
        "DC-S5",
        MOD,
        "setup_drawn_cards = 2",
        "setup_drawn_cards = 3",
        "three cards drawn at setup"
    ),
    m!(
        "DC-S5",
        MOD,
        "opening_straight_card = \"wide-straight\"",
        "opening_straight_card = \"long-straight\"",
        "a two-lane opening straight"
    ),
    m!(
        "DC-S6",
        BOARD,
        "role = \"start\"\n# The 9 grid spaces (DC-S6): 3 lanes x 3 rows, the front row (row 3) at the checkered exit.\nlanes = 3\nrows = 3",
        "role = \"start\"\nlanes = 3\nrows = 2",
        "six grid spaces"
    ),
    m!(
        "DC-S6",
        RULES,
        "\t\tfor i = #places, 1, -1 do",
        "\t\tfor i = 1, #places do",
        "second cars line up in seat order, not back the other way"
    ),
    m!(
        "DC-S6",
        MOD,
        "lineup_by_turn_order_4 = [2, 1, 4, 3]",
        "lineup_by_turn_order_4 = [1, 2, 3, 4]",
        "four seats line up in plain turn order, not in their own order"
    ),
    // ---- a turn
    m!(
        "DC-T1",
        RULES,
        "\tadd_card(seat)\n\troll_dice(seat)",
        "\troll_dice(seat)",
        "no card is laid at the start of a turn"
    ),
    m!(
        "DC-T1",
        RULES,
        "\t\tif fits or (finish and C.finish_never_discarded) then\n\t\t\tok, why = lay(card, finish and C.finish_never_discarded)",
        "\t\tif true then\n\t\t\tok, why = lay(card, true)",
        "cards that do not fit are laid anyway"
    ),
    m!(
        "DC-T2",
        MOD,
        "white_dice = 5",
        "white_dice = 4",
        "four white dice"
    ),
    m!(
        "DC-T2",
        RULES,
        "\t\tfor _, i in sixes do\n\t\t\td[i] = game.roll(C.die_sides)\n\t\tend",
        "\t\tfor _, i in sixes do\n\t\t\td[i] = 5\n\t\tend",
        "6s turn into 5s instead of being rolled again"
    ),
    m!(
        "DC-T2",
        RULES,
        "math.min(#sixes, math.max(room, 0))",
        "0",
        "no green dice join"
    ),
    m!(
        "DC-T2",
        RULES,
        "local room = C.green_dice - had - added",
        "local room = C.green_dice + 1 - had - added",
        "more than five green dice"
    ),
    m!(
        "DC-T3",
        MOD,
        "chip_die_max = 5",
        "chip_die_max = 6",
        "a chip-bought die may show 6"
    ),
    m!(
        "DC-T3",
        RULES,
        "\tif not get(\"_moved\") and can_pay(seat) then",
        "\tif can_pay(seat) then",
        "dice change after a car has moved"
    ),
    m!(
        "DC-T3",
        RULES,
        "\t\tif greens_in_play() < C.green_dice then",
        "\t\tif true then",
        "a sixth green die"
    ),
    m!(
        "DC-T3",
        RULES,
        "\t\tlocal v = tonumber(w[2]) :: number\n\t\tpay(seat)",
        "\t\tlocal v = tonumber(w[2]) :: number",
        "adding a die is free"
    ),
    m!(
        "DC-T4",
        RULES,
        "\t\tif at and not used[i] then",
        "\t\tif not used[i] then",
        "every die is rolled again"
    ),
    m!(
        "DC-T4",
        RULES,
        "\tlocal added = explode(d, g)\n\tfor _ = 1, added do\n\t\ttable.insert(used, false)\n\tend\n\tpay(seat)",
        "\tlocal added = explode(d, g)\n\tfor _ = 1, added do\n\t\ttable.insert(used, false)\n\tend",
        "re-rolls are free"
    ),
    m!(
        "DC-T5",
        MOD,
        "min_combo = 2",
        "min_combo = 3",
        "pairs are no combos"
    ),
    m!(
        "DC-T5",
        RULES,
        "\t\twhile b <= C.die_sides and counts[b] > 0 do",
        "\t\twhile b <= C.die_sides and counts[b] > 0 and b < a + 2 do",
        "runs stop at two"
    ),
    m!(
        "DC-T5",
        RULES,
        "\t\tused[pick :: number] = true",
        "\t\tlocal _ = pick",
        "dice are never spent"
    ),
    m!(
        "DC-T6",
        RULES,
        "\t\tif m >= lo and not occ[s] then\n\t\t\tends[m][s] = true\n\t\tend\n\t\tif m >= hi then",
        "\t\tif m > lo and not occ[s] then\n\t\t\tends[m - 1][s] = true\n\t\tend\n\t\tif m > hi then",
        "a combo moves one space further"
    ),
    m!(
        "DC-T6",
        RULES,
        "\t\t\tif not seen[t] and (power or not occ[t]) then",
        "\t\t\tif not seen[t] then",
        "cars drive through each other"
    ),
    m!(
        "DC-T7",
        RULES,
        "\tsingle[car] = k == 1",
        "\tsingle[car] = false",
        "a single does not end the car's move"
    ),
    m!(
        "DC-T8",
        RULES,
        "\t\t\twalk_ends(car, start, g, g, power, true, ends)",
        "\t\t\twalk_ends(car, start, g, hi, power, true, ends)",
        "any bigger combo crosses a gate"
    ),
    m!(
        "DC-T8",
        RULES,
        "\t\tif m > 0 and here.gate then",
        "\t\tif m < 0 and here.gate then",
        "cars drive on past a gate"
    ),
    m!(
        "DC-T9",
        RULES,
        "\t\ttable.insert(out, AFTER_SINGLE)\n",
        "",
        "going on after a single is free"
    ),
    m!(
        "DC-T9",
        RULES,
        "\t\ttable.insert(out, AFTER_SINGLE)\n",
        "\t\ttable.insert(out, AFTER_SINGLE)\n\t\ttable.insert(out, AFTER_SINGLE)\n",
        "going on after a single costs two chips"
    ),
    m!(
        "DC-T10",
        RULES,
        "\t\t\tcontrol[car] = true\n",
        "",
        "control lasts for one move only"
    ),
    m!(
        "DC-T10",
        RULES,
        "\tif driver_of(car) ~= seat and not (get(\"_control\") or {})[car] then\n\t\ttable.insert(out, TAKE_CONTROL)",
        "\tif false then\n\t\ttable.insert(out, TAKE_CONTROL)",
        "rival cars move for free"
    ),
    m!(
        "DC-T11",
        RULES,
        "\t\tput(a, nil)\n\t\tput(b, sa)\n\t\tput(a, sb)",
        "\t\tlocal _ = sb",
        "a juke swaps nothing"
    ),
    m!(
        "DC-T11",
        RULES,
        "if mine and ia.props.piece == ib.props.piece and ia.props.row == ib.props.row then",
        "if mine and ia.props.piece == ib.props.piece then",
        "cars juke from different rows"
    ),
    m!(
        "DC-T12",
        RULES,
        "\tif kind == \"power\" then\n\t\ttable.insert(reasons, POWER)",
        "\tif false then\n\t\ttable.insert(reasons, POWER)",
        "power moves are free"
    ),
    m!(
        "DC-T12",
        RULES,
        "\t\tif m >= lo and not occ[s] then",
        "\t\tif m >= lo and (power or not occ[s]) then",
        "a power move ends on another car"
    ),
    m!(
        "DC-T13",
        RULES,
        "\ttable.insert(out, \"done\")\n\treturn out",
        "\tif get(\"_moved\") then\n\t\ttable.insert(out, \"done\")\n\tend\n\treturn out",
        "a car must move before the turn ends"
    ),
    m!(
        "DC-T14",
        CHIPS,
        "combo = 3\nchips = 2",
        "combo = 3\nchips = 1",
        "a trio buys one chip"
    ),
    m!(
        "DC-T14",
        MOD,
        "chip_cap = 4",
        "chip_cap = 5",
        "five chips held"
    ),
    m!(
        "DC-T14",
        RULES,
        "\t\tif counts[v] >= C.min_combo then\n\t\t\tbest = math.max(best, counts[v])",
        "\t\tif counts[v] >= C.min_combo then\n\t\t\tbest = math.max(best, 2)",
        "sets buy as pairs"
    ),
    // ---- geometry
    m!(
        "DC-G1",
        BOARD,
        "name = \"Hard Left\"\nlanes = 2\nrows = 2\nturn = -90",
        "name = \"Hard Left\"\nlanes = 2\nrows = 2\nturn = -45",
        "a hard curve turns 45 degrees"
    ),
    m!(
        "DC-G1",
        BOARD,
        "name = \"Gentle Right\"\nlanes = 2\nrows = 2\nturn = 45",
        "name = \"Gentle Right\"\nlanes = 2\nrows = 2\nturn = -45",
        "a right curve turns left"
    ),
    m!(
        "DC-G2",
        BOARD,
        "name = \"Wide Straight\"\n# A 3-lane card's middle lane is centred on the join line of a 2-lane neighbour (DC-G2).\nlanes = 3",
        "name = \"Wide Straight\"\nlanes = 2",
        "the wide straight has two lanes"
    ),
    // ---- end and scoring
    m!(
        "DC-E1",
        RULES,
        "\twhile not get(\"_finish_laid\") do",
        "\twhile true do",
        "cards are laid after the Finish"
    ),
    m!(
        "DC-E1",
        MOD,
        "finish_never_discarded = true",
        "finish_never_discarded = false",
        "a Finish that does not fit leaves the race"
    ),
    m!(
        "DC-E2",
        BOARD,
        "gates = [{ lanes = [0, 1, 2], size = 3 }]",
        "gates = [{ lanes = [0, 1, 2], size = 2 }]",
        "a 2-dice finish line"
    ),
    m!(
        "DC-E2",
        RULES,
        "\t\ttable.insert(order, car)\n\t\tset(\"_order\", order)",
        "\t\ttable.insert(order, 1, car)\n\t\tset(\"_order\", order)",
        "the finishing order is reversed"
    ),
    m!(
        "DC-E3",
        RULES,
        "\t\tif #mine == 1 then\n\t\t\tscores[seat] = mine[1]",
        "\t\tif #mine == 1 then\n\t\t\tscores[seat] = game.seats() + 1 - mine[1]",
        "the last car wins"
    ),
    m!(
        "DC-E3",
        MOD,
        "seats_left_at_end = 1",
        "seats_left_at_end = 0",
        "the race goes on with one car"
    ),
    m!(
        "DC-E4",
        MOD,
        "score_weight_second_car = 2",
        "score_weight_second_car = 1",
        "the second car counts once"
    ),
    m!(
        "DC-E4",
        MOD,
        "low_score_wins = true",
        "low_score_wins = false",
        "the highest score wins"
    ),
    m!(
        "DC-E5",
        RULES,
        "\tif not game.option(C.remove_track_option) then\n\t\treturn",
        "\tif false then\n\t\treturn",
        "the track is cleared with the option off"
    ),
    m!(
        "DC-E5",
        RULES,
        "\tlocal cleared = game.clear_track_before(last + 1)",
        "\tlocal cleared = game.clear_track_before(last)",
        "the card before the last car's stays"
    ),
    // ---- breaks a careful author might make (issue: rule tests that catch what slips)
    m!(
        "DC-E4",
        RULES,
        "\t\tif sa ~= sb then\n\t\t\treturn sa < sb",
        "\t\tif sa ~= sb then\n\t\t\treturn sa > sb",
        "equal scores: the worse second car wins the tie"
    ),
    m!(
        "DC-T14",
        RULES,
        "local n = math.min(chips_for(size), C.chip_cap - chips(seat), game.counter(\"chip-supply\"))\n\tif n > 0 then",
        "local n = math.min(chips_for(size), C.chip_cap + 1 - chips(seat), game.counter(\"chip-supply\"))\n\tif n > 0 then",
        "the chip cap is checked one chip late"
    ),
    m!(
        "DC-T2",
        RULES,
        "\t\tlocal room = C.green_dice - had - added",
        "\t\tlocal room = C.green_dice - had - added + 1",
        "a sixth green die joins after a 6"
    ),
    m!(
        "DC-T7",
        RULES,
        "\tif (get(\"_single\") or {})[car] then\n\t\ttable.insert(out, AFTER_SINGLE)",
        "\tlocal any_single = false\n\tfor _, was in get(\"_single\") or {} do\n\t\tany_single = any_single or was\n\tend\n\tif any_single then\n\t\ttable.insert(out, AFTER_SINGLE)",
        "a single ends every car's move, not only its own"
    ),
    m!(
        "DC-T10",
        RULES,
        "\tif driver_of(car) ~= seat and not (get(\"_control\") or {})[car] then",
        "\tif driver_of(car) ~= seat and next(get(\"_control\") or {}) == nil then",
        "one chip buys control of every rival car"
    ),
    m!(
        "DC-T14",
        RULES,
        "\t\tif counts[v] >= C.min_combo then\n\t\t\tbest = math.max(best, counts[v])",
        "\t\tif counts[v] >= C.min_combo then\n\t\t\tbest = best + counts[v]",
        "the leftover sets add up instead of the best one counting"
    ),
    m!(
        "DC-E2",
        RULES,
        "\treturn i.finish and i.props.gate == k",
        "\treturn i.finish or i.props.gate == k",
        "a combo that fits any gate crosses the finish line"
    ),
    m!(
        "DC-T3",
        RULES,
        "\t\tlocal from, to = tonumber(w[2]) :: number, tonumber(w[3]) :: number\n\t\tpay(seat)",
        "\t\tlocal from, to = tonumber(w[2]) :: number, tonumber(w[3]) :: number",
        "changing a green die costs no chip (adding one still does)"
    ),
    m!(
        "DC-E5",
        RULES,
        "\t\tfor i = 1, last do\n\t\t\tif not before[i].removed then",
        "\t\tfor i = 1, last - 1 do\n\t\t\tif not before[i].removed then",
        "the last card cleared stays with the track's cards"
    ),
    m!(
        "DC-T8",
        BOARD,
        "gates = [{ lanes = [0], size = 3 }, { lanes = [1], size = 2 }, { lanes = [2], size = 2 }]",
        "gates = [{ lanes = [0], size = 3 }, { lanes = [1, 2], size = 2 }]",
        "the sweeper's two outside gates are one, with no line between"
    ),
    m!(
        "DC-S2",
        MOD,
        "extra_chips_by_turn_order = [0, 2, 2, 2, 2, 2, 2, 2]",
        "extra_chips_by_turn_order = [2, 0, 2, 2, 2, 2, 2, 2]",
        "the starter takes the extra chips, the second seat none"
    ),
    m!(
        "DC-S2",
        MOD,
        "extra_chips_by_turn_order_2 = [-1, 1]",
        "extra_chips_by_turn_order_2 = [0, 2]",
        "two seats take the general list: the starter keeps 2 chips, the second seat 4"
    ),
    m!(
        "DC-S2",
        RULES,
        "\t\tlocal extra = math.max(math.min(extras[i + 1] or 0, C.chip_cap - chips(seat)), -chips(seat))\n\t\tif extra ~= 0 then",
        "\t\tlocal extra = math.min(extras[i + 1] or 0, C.chip_cap - chips(seat))\n\t\tif extra > 0 then",
        "a seat's list can only add chips: the starter of two keeps its 2"
    ),
    m!(
        "DC-S2",
        MOD,
        "extra_chips_by_turn_order_4 = [-1, 0, 1, 2]",
        "extra_chips_by_turn_order_4 = [0, 1, 2, 2]",
        "four seats take the last session's 0 / 1 / 2 / 2 more chips"
    ),
    m!(
        "DC-T1",
        MOD,
        "dead_end_does_not_fit = true",
        "dead_end_does_not_fit = false",
        "a card that leaves the track nowhere to go is laid"
    ),
    m!(
        "DC-S4",
        PIECES,
        "visibility = \"hidden\"\ndeck = \"track\"",
        "visibility = \"public\"\ndeck = \"track\"",
        "the track deck lies face up"
    ),
];

/// Breaks the oracles (`tests/support/dicey_curves_oracles.rs`) must catch, of the kinds that
/// slip past scenario tests: a tie at a rarely reached rank, a tie-break order swapped, a count
/// off by one, a finished seat still taking turns, a leftover buying nothing, the end noticed
/// late, a re-roll of no dice, a restriction dropped in one of two paths, a card that leaves the
/// deck for the wrong place, a car lined up without a word to the table. (No card of Dicey
/// Curves goes back under a deck, and its deck is never rebuilt.)
pub const FOR_ORACLES: &[Mutant] = &[
    m!(
        "DC-E4",
        RULES,
        "if sa ~= sb then",
        "if sa ~= sb and scores[a] < 15 then",
        "a tie below first place broken by seat order"
    ),
    m!(
        "DC-E4",
        RULES,
        "return sa < sb",
        "return sa > sb",
        "a tie on score goes to the worse second car"
    ),
    m!(
        "DC-T2",
        RULES,
        "for _ = 1, math.min(#sixes, math.max(room, 0)) do",
        "for _ = 1, math.min(math.max(#sixes - 1, 1), math.max(room, 0)) do",
        "two 6s bring one green die, not two"
    ),
    m!(
        "DC-E3",
        RULES,
        "if not seat_racing(seat) then",
        "if false then",
        "a seat whose cars have all finished still takes turns"
    ),
    m!(
        "DC-T14",
        RULES,
        "if size == row.combo or (row.or_larger and size > row.combo) then",
        "if size == row.combo then",
        "a leftover of five dice buys nothing"
    ),
    m!(
        "DC-E2",
        RULES,
        "if left <= C.seats_left_at_end then",
        "if left < C.seats_left_at_end then",
        "the race goes on while one seat's cars are left"
    ),
    m!(
        "DC-T4",
        RULES,
        "if #pick > 0 then",
        "if #pick >= 0 then",
        "a re-roll of no dice offered"
    ),
    m!(
        "DC-T12",
        RULES,
        "\t\t\tif cost + C.chip_action_cost <= chips(seat) then",
        "\t\t\tif true then",
        "power moves offered without a chip to pay (the check for a usable combo keeps it)"
    ),
    m!(
        "DC-T1",
        RULES,
        "game.move_card(deck, zone(\"off-track\"))",
        "game.move_card(deck, zone(\"set-aside\"))",
        "a card that does not fit is put aside, not out of the race"
    ),
    m!(
        "DC-S6",
        RULES,
        "game.log(game.seat_name(seat) .. \" lines up \" .. car_name(car) .. \": \" .. place_name(s))",
        "local _ = place_name(s)",
        "a car lined up without a word to the table"
    ),
];
