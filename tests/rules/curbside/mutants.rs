//! Deliberate breaks of Curbside's rules, at least one per rule ID: each replaces one piece
//! of `rules/curbside.luau` (or of the TOML that holds a rule's numbers) with a wrong one.
//! `every_broken_rule_is_caught` requires each to make a check of its rule fail.

use farebox_suite::mutant as m;
use farebox_suite::rule_mutants::Mutant;

const RULES: &str = "rules/curbside.luau";
const TILES: &str = "tiles.toml";

pub const MUTANTS: &[Mutant] = &[
    // ---- setup
    m!(
        "CS-S1",
        RULES,
        "game.roll(C.die_sides), game.roll(C.die_sides))",
        "game.roll(C.die_sides), game.roll(C.die_sides - 1))",
        "the red die never shows 6"
    ),
    m!(
        "CS-S1",
        "mod.toml",
        "players = { min = 2, max = 4 }",
        "players = { min = 1, max = 4 }",
        "one player allowed"
    ),
    m!(
        "CS-S2",
        RULES,
        "game.place_tile(corner, C.start_tile, 0)",
        "game.place_tile(corner, \"cs-t4\", 0)",
        "a straight under each taxi"
    ),
    m!(
        "CS-S2",
        RULES,
        "game.move_piece(taxi(s), corner)",
        "game.move_piece(taxi(s), game.space(\"start-1\") :: number)",
        "every taxi in one corner"
    ),
    m!(
        "CS-S3",
        "pieces.toml",
        "initial_option = \"starting-gas\"",
        "initial = 12",
        "starting gas ignores the option"
    ),
    m!(
        "CS-S4",
        RULES,
        "for i = 1, seats + C.extra_passengers do",
        "for i = 1, seats do",
        "one passenger per player"
    ),
    m!(
        "CS-S5",
        RULES,
        "\tfor c in taxis do\n\t\tavoid[c] = true\n\tend\n\tfor c in game.blockers() do",
        "\tfor c in game.blockers() do",
        "passengers rolled onto taxis"
    ),
    m!(
        "CS-S5",
        RULES,
        "avoid[cell] = true -- CS-S5: never the passenger's own cell",
        "-- (broken)",
        "a destination on its own passenger"
    ),
    m!(
        "CS-S6",
        RULES,
        "local row = TRIPS[trip_size(from, to)]",
        "local row = TRIPS[trip_size(from, from) + 1]",
        "every trip priced as the shortest"
    ),
    m!(
        "CS-S7",
        RULES,
        "if has_tag(tile_of_card(card), \"cone\") then\n\t\t\t\tcard_to(card, hand_of(s), deck, \"bottom\")",
        "if false then\n\t\t\t\tcard_to(card, hand_of(s), deck, \"bottom\")",
        "a cone kept in a starting hand"
    ),
    m!(
        "CS-S7",
        "mod.toml",
        "starting_hand = 3",
        "starting_hand = 2",
        "two tiles dealt"
    ),
    m!(
        "CS-S7",
        RULES,
        "game.take_card(supply, \"start-canteen\", hand_of(s))",
        "-- (broken)",
        "no starting canteen"
    ),
    m!(
        "CS-S8",
        RULES,
        "while game.count(dispatch) > game.option(\"passenger-cards\") do",
        "while game.count(dispatch) > game.option(\"passenger-cards\") - 1 do",
        "nine passenger cards"
    ),
    m!(
        "CS-S8",
        "mod.toml",
        "default = 10\nmin = 1",
        "default = 9\nmin = 1",
        "nine passenger cards by default"
    ),
    m!(
        "CS-S9",
        "decks/road-tiles.toml",
        "tile = \"cs-t4\"\ncount = 8",
        "tile = \"cs-t4\"\ncount = 7",
        "49 tiles"
    ),
    m!(
        "CS-S9",
        "decks/road-tiles.toml",
        "tile = \"cs-t7\"\ncount = 2",
        "tile = \"cs-t4\"\ncount = 2",
        "no broken roads in the deck"
    ),
    // ---- tiles
    m!(
        "CS-T1",
        TILES,
        "like.\"\nroads = [\"N-S\", \"E-W\", \"N-E\", \"E-S\", \"S-W\", \"W-N\"]",
        "like.\"\nroads = [\"N-S\", \"E-W\", \"N-E\", \"E-S\", \"S-W\"]",
        "no turn from west to north"
    ),
    m!(
        "CS-T2",
        TILES,
        "move_cost = 2",
        "move_cost = 1",
        "a stop sign driven through"
    ),
    m!(
        "CS-T3",
        TILES,
        "roads = [\"W-E\", \"W-S\", \"E-S\"]",
        "roads = [\"W-E\", \"W-S\"]",
        "a T-junction missing a road"
    ),
    m!(
        "CS-T4",
        TILES,
        "roads = [\"N-S\"]",
        "roads = [\"N-E\"]",
        "a straight that bends"
    ),
    m!(
        "CS-T5",
        TILES,
        "roads = [\"N>S\", \"W>E\"]",
        "roads = [\"N>S\", \"E>W\"]",
        "a crossing's arrow reversed"
    ),
    m!(
        "CS-T6",
        TILES,
        "roads = [\"S>N\"]",
        "roads = [\"S-N\"]",
        "a one-way street both ways"
    ),
    m!(
        "CS-T7",
        TILES,
        "roads = [\"S\"]",
        "roads = [\"S-N\"]",
        "a broken road that goes through"
    ),
    m!(
        "CS-T8",
        TILES,
        "roads = [\"S-E\"]",
        "roads = [\"S-W\"]",
        "a bend the other way"
    ),
    m!(
        "CS-T9",
        RULES,
        "local cell = roll_cell(blocked_for_markers(nil))",
        "local cell = roll_cell({})",
        "a cone rolled anywhere"
    ),
    m!(
        "CS-T9",
        RULES,
        "\tfor c in game.blockers() do\n\t\tavoid[c] = true\n\tend\n",
        "",
        "rolls land on blockers"
    ),
    m!(
        "CS-T9",
        RULES,
        "game.set_blocker(c.cell, nil)\n\t\t\tgame.log(\"The cone on \"",
        "game.log(\"The cone on \"",
        "a cone never lifted"
    ),
    m!(
        "CS-T9",
        RULES,
        "card_to(c.card, zone(\"used\"), zone(\"deck\"), \"bottom\")",
        "card_to(c.card, zone(\"used\"), zone(\"deck\"), \"top\")",
        "a lifted cone on top of the deck"
    ),
    m!(
        "CS-T9",
        RULES,
        "if c.seat == seat then",
        "if c.seat ~= seat then",
        "a cone lifted on the next player's turn"
    ),
    m!(
        "CS-T10",
        TILES,
        "props = { gas = 3 }",
        "props = { gas = 2 }",
        "a canteen of 2 gas"
    ),
    m!(
        "CS-T10",
        RULES,
        "game.add_counter(\"gas\", seat, gain)\n\t\tcard_to(card, hand, used)",
        "game.add_counter(\"gas\", seat, gain)",
        "a canteen never used up"
    ),
    m!(
        "CS-T11",
        RULES,
        "\t\t\treroute_passenger(p)\n",
        "\t\t\tplace_passenger(p)\n",
        "a re-routed passenger takes its destination along"
    ),
    m!(
        "CS-T11",
        RULES,
        "avoid[game.where_is(dest_of(p)) :: number] = true -- CS-S5: never on its own destination",
        "-- (broken)",
        "a passenger re-routed onto its destination"
    ),
    m!(
        "CS-T11",
        RULES,
        "\tavoid[from] = true\n\tgame.move_piece(dest_of(p), roll_cell(avoid))",
        "\tgame.move_piece(dest_of(p), roll_cell(avoid))",
        "a destination re-routed onto its passenger"
    ),
    m!(
        "CS-T11",
        RULES,
        "game.set_prop(p, \"_from\", cell)\n\tprice_trip(p)",
        "game.set_prop(p, \"_from\", cell)",
        "a re-routed passenger's trip not priced again"
    ),
    m!(
        "CS-T11",
        RULES,
        "if game.where_is(dest_of(p)) and (rider == nil or rider == seat) then",
        "if game.where_is(dest_of(p)) then",
        "a rival's fare re-routed"
    ),
    m!(
        "CS-T11",
        RULES,
        "(rider == nil or rider == seat)",
        "(rider == nil)",
        "your own fare's destination not re-routable"
    ),
    m!(
        "CS-T12",
        RULES,
        "if h.seat == seat then",
        "if h.seat ~= seat then",
        "a pothole lifted on the next player's turn"
    ),
    m!(
        "CS-T12",
        RULES,
        "if not taxis[c] and not waiting[c] and not dests[c] and not blockers[c] then",
        "if not taxis[c] and not dests[c] and not blockers[c] then",
        "a pothole on a waiting passenger"
    ),
    m!(
        "CS-T12",
        RULES,
        "game.set_blocker(cell, CARD_TILE[card])\n\t\tcard_to(card, hand, used)",
        "card_to(card, hand, used)",
        "a pothole that blocks nothing"
    ),
    m!(
        "CS-D1",
        RULES,
        "return math.max(math.abs(ax - bx), math.abs(ay - by)) + 1",
        "return math.min(math.abs(ax - bx), math.abs(ay - by)) + 1",
        "trip size from the shorter side"
    ),
    m!(
        "CS-D1",
        "tables/destinations.toml",
        "size = 4\nstars = 3",
        "size = 4\nstars = 4",
        "a 4x4 trip pays 4 stars"
    ),
    // ---- a turn
    m!(
        "CS-A0",
        "mod.toml",
        "actions_per_turn = 3",
        "actions_per_turn = 4",
        "four actions"
    ),
    m!(
        "CS-A0",
        RULES,
        "remove = true, place = true }",
        "remove = true, place = true, canteen = true, pothole = true, reroute = true }",
        "cards from hand cost an action"
    ),
    m!(
        "CS-A1",
        RULES,
        "if game.count(zone(\"deck\")) > 0 then\n\t\ttable.insert(acts, \"draw\")",
        "if true then\n\t\ttable.insert(acts, \"draw\")",
        "drawing from an empty deck"
    ),
    m!(
        "CS-A1",
        RULES,
        "{ draw = true,",
        "{ draw = false,",
        "a free draw"
    ),
    m!(
        "CS-A2",
        RULES,
        "game.approach(here, left - 1, gas, stops)",
        "game.approach(here, left, gas, stops)",
        "the placing action not counted"
    ),
    m!(
        "CS-A2",
        RULES,
        "game.approach(here, left - 1, gas, stops)",
        "game.approach(here, left - 1, gas + 5, stops)",
        "gas not counted"
    ),
    m!(
        "CS-A2",
        RULES,
        "if lets_in(t, r, sides_of[c]) then",
        "if true then",
        "tiles the taxi cannot drive onto"
    ),
    m!(
        "CS-A2",
        RULES,
        "\t\t\tout[n] = \"\"\n",
        "\t\t\tout[n] = out[n]\n",
        "no placing beside the taxi unless it can drive on"
    ),
    m!(
        "CS-A3",
        RULES,
        "card_to(card, used, zone(\"deck\"), \"bottom\") -- CS-A3",
        "card_to(card, used, zone(\"deck\"), \"top\")",
        "lifted tiles on top of the deck"
    ),
    m!(
        "CS-A3",
        RULES,
        "not waiting[c] and not dests[c] then\n\t\t\ttable.insert(acts, \"remove \"",
        "not waiting[c] then\n\t\t\ttable.insert(acts, \"remove \"",
        "a tile lifted from under a destination"
    ),
    m!(
        "CS-A3",
        RULES,
        "for _, c in neighbors4(here) do\n\t\tif tiles[c]",
        "for c = 1, game.space_count() do\n\t\tif tiles[c]",
        "a tile lifted anywhere"
    ),
    m!(
        "CS-A4",
        RULES,
        "game.rotate_tile(here, tonumber(words[2]) :: number)",
        "game.rotate_tile(here, 0)",
        "turning does nothing"
    ),
    m!(
        "CS-A5",
        RULES,
        "for k = 1, #straight(gas, here, d, stops) do",
        "for k = 1, math.min(1, #straight(gas, here, d, stops)) do",
        "one cell per drive"
    ),
    m!(
        "CS-A5",
        RULES,
        "{ draw = true, move = true,",
        "{ draw = true, move = false,",
        "a free drive"
    ),
    m!(
        "CS-A6",
        RULES,
        "game.add_counter(\"gas\", seat, -k)",
        "game.add_counter(\"gas\", seat, -1)",
        "one gas per drive"
    ),
    m!(
        "CS-A6",
        RULES,
        "for k = 1, #straight(gas, here, d, stops) do",
        "for k = 1, #straight(gas + 1, here, d, stops) do",
        "a drive longer than the tank"
    ),
    m!(
        "CS-A7",
        RULES,
        "\treturn waiting\nend",
        "\treturn {}\nend",
        "an empty taxi drives past a passenger"
    ),
    m!(
        "CS-A7",
        RULES,
        "game.set_prop(taxi(seat), \"carrying\", carrying_text(w))",
        "game.set_prop(taxi(seat), \"carrying\", carrying_text(w)) game.add_counter(\"actions\", -1)",
        "a pick-up costs an action"
    ),
    // ---- road rules
    m!(
        "CS-R1",
        RULES,
        "table.insert(acts, \"move \" .. d .. \" \" .. k)",
        "if not taxis[straight(gas, here, d, stops)[k]] then table.insert(acts, \"move \" .. d .. \" \" .. k) end",
        "no driving onto another taxi"
    ),
    m!(
        "CS-R2",
        RULES,
        "alone = false",
        "alone = true",
        "turning a shared tile"
    ),
    m!(
        "CS-R3",
        RULES,
        "\t\tend\n\t\treturn\n\tend\n\tfor _, w in passengers() do",
        "\t\tend\n\tend\n\tfor _, w in passengers() do",
        "a second passenger picked up"
    ),
    m!(
        "CS-R3",
        RULES,
        "\t\treturn { [dest] = true }",
        "\t\tlocal s = table.clone(waiting) s[dest] = true return s",
        "a loaded taxi stops for passengers"
    ),
    m!(
        "CS-R4",
        RULES,
        "if game.where_is(w) == here then",
        "if false then",
        "no pick-up"
    ),
    m!(
        "CS-R5",
        TILES,
        "roads = [\"N>S\", \"W>E\"]",
        "roads = [\"N>S\", \"W-E\"]",
        "a one-way crossing two-way across"
    ),
    m!(
        "CS-R5",
        TILES,
        "roads = [\"S>N\"]",
        "roads = [\"N>S\"]",
        "a one-way street's arrow reversed"
    ),
    m!(
        "CS-R6",
        RULES,
        "place_passenger(p) -- CS-R6",
        "game.move_piece(p, game.prop(p, \"_from\"))",
        "a delivered passenger back where it was, its destination unmoved"
    ),
    m!(
        "CS-R7",
        RULES,
        "\t\t\tgame.add_counter(\"gas\", seat, gas)\n",
        "\n",
        "no gas for a drop-off"
    ),
    m!(
        "CS-R7",
        RULES,
        "game.add_counter(\"stars\", seat, stars)",
        "game.add_counter(\"stars\", seat, gas)",
        "stars paid as gas"
    ),
    m!(
        "CS-R7",
        RULES,
        "game.move_card(zone(\"dispatch\"), zone(\"fares\", seat))",
        "game.move_card(zone(\"dispatch\"), zone(\"used\"))",
        "the passenger card not taken"
    ),
    // ---- the end
    m!(
        "CS-E1",
        RULES,
        "if game.count(zone(\"dispatch\")) == 0 then",
        "if game.count(zone(\"dispatch\")) < 0 then",
        "the game goes on after the last card"
    ),
    m!(
        "CS-E1",
        RULES,
        "if game.counter(\"gas\", s) <= 0 then",
        "if game.counter(\"gas\", s) < 0 then",
        "the game goes on with an empty tank"
    ),
    m!(
        "CS-E1",
        RULES,
        "if still > C.stall_rounds * game.seats() then",
        "if still > C.stall_rounds * game.seats() + 1 then",
        "a stalled game runs a turn too long"
    ),
    m!(
        "CS-E2",
        RULES,
        "game.counter(\"gas\", s), -closeness(s) }",
        "game.counter(\"gas\", s), 0 }",
        "no third tie-break"
    ),
    m!(
        "CS-E2",
        RULES,
        "game.counter(\"gas\", s), -closeness(s) }",
        "-game.counter(\"gas\", s), -closeness(s) }",
        "less gas wins a tie"
    ),
    m!(
        "CS-E2",
        RULES,
        "return 1000",
        "return 0",
        "an empty taxi counts as closest"
    ),
    m!(
        "CS-E3",
        RULES,
        "emptied = game.counter(\"gas\", seat) <= 0",
        "emptied = game.counter(\"gas\", seat) <= 0 and carried_by(seat) == nil",
        "no price with a fare aboard"
    ),
    m!(
        "CS-E3",
        "mod.toml",
        "on_purpose_penalty = 3",
        "on_purpose_penalty = 2",
        "a 2-star penalty"
    ),
    m!(
        "CS-E3",
        RULES,
        "if gas - k <= 0 and not arrives then",
        "if false then",
        "no warning before a drive that ends the game"
    ),
    // ---- The kinds of break a careful author makes (a condition's "and" read as "or", a
    // tie-break turned round, a limit one step off, one form of a move charged and another
    // not, the last card treated apart, a secret made public).
    m!(
        "CS-A3",
        RULES,
        "if tiles[c] and not blockers[c] and not taxis[c] and not waiting[c] and not dests[c] then",
        "if tiles[c] and not blockers[c] and not taxis[c] or not waiting[c] and not dests[c] then",
        "\"and\" read as \"or\": a tile under a taxi may be removed"
    ),
    m!(
        "CS-T12",
        RULES,
        "if not taxis[c] and not waiting[c] and not dests[c] and not blockers[c] then",
        "if not taxis[c] and not waiting[c] or not dests[c] and not blockers[c] then",
        "\"and\" read as \"or\": a pothole under a taxi"
    ),
    m!(
        "CS-E2",
        RULES,
        "game.counter(\"gas\", s), -closeness(s) }",
        "game.counter(\"gas\", s), closeness(s) }",
        "the farther driver wins the last tie-break"
    ),
    m!(
        "CS-A2",
        RULES,
        "game.approach(here, left - 1, gas, stops)",
        "game.approach(here, left - 1, gas + 1, stops)",
        "a placement reached with one gas more than the tank holds"
    ),
    m!(
        "CS-A4",
        RULES,
        "local COSTS_ACTION = { draw = true, move = true, rotate = true,",
        "local COSTS_ACTION = { draw = true, move = true, rotate = false,",
        "a rotation costs no action"
    ),
    m!(
        "CS-A1",
        RULES,
        "if game.count(zone(\"deck\")) > 0 then\n\t\ttable.insert(acts, \"draw\")",
        "if game.count(zone(\"deck\")) > 1 then\n\t\ttable.insert(acts, \"draw\")",
        "the deck's last tile is never drawn"
    ),
    m!(
        "CS-S7",
        "pieces.toml",
        "per_seat = true\nvisibility = \"owner\"",
        "per_seat = true\nvisibility = \"public\"",
        "the hands are public"
    ),
    m!(
        "CS-S7",
        "pieces.toml",
        "id = \"dispatch\"\nname = \"Passenger cards\"\nvisibility = \"hidden\"",
        "id = \"dispatch\"\nname = \"Passenger cards\"\nvisibility = \"public\"",
        "the passenger cards face up"
    ),
];

/// Breaks of the kinds scenario tests tend to miss, which the rule oracles
/// (`tests/support/curbside_oracles.rs`) must catch: a tie at a rare rank, a count off by one,
/// the end of the game noticed late, a restriction dropped in one of two paths, a card lost
/// instead of going back.
pub const FOR_ORACLES: &[Mutant] = &[
    m!(
        "CS-E2",
        RULES,
        "if better(keys[o], keys[s]) then",
        "if better(keys[o], keys[s]) or (place > 1 and o < s and not better(keys[s], keys[o])) then",
        "a tie below first place broken by seat order"
    ),
    m!(
        "CS-A5",
        RULES,
        "for k = 1, #straight(gas, here, d, stops) do",
        "for k = 1, #straight(gas, here, d, stops) - 1 do",
        "the longest drive each way never offered"
    ),
    m!(
        "CS-E1",
        RULES,
        "\tcheck_end(seat, emptied)",
        "\tif kind ~= \"move\" then check_end(seat, emptied) end",
        "the end of the game noticed only at the action after the drive"
    ),
    m!(
        "CS-A2",
        RULES,
        "if not tiles[n] and not blockers[n] then",
        "if not tiles[n] then",
        "a tile laid beside the taxi under a cone or pothole (the far path still refuses it)"
    ),
    m!(
        "CS-T9",
        RULES,
        "card_to(c.card, zone(\"used\"), zone(\"deck\"), \"bottom\")",
        "-- (broken)",
        "a lifted cone's card lost instead of going under the deck"
    ),
    m!(
        "CS-A3",
        RULES,
        "card_to(card, used, zone(\"deck\"), \"bottom\") -- CS-A3",
        "-- (broken)",
        "a lifted tile's card lost instead of going under the deck"
    ),
];
