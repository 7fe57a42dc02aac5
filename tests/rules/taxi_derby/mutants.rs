//! Deliberate breaks of Taxi Derby's rules, at least one per rule ID: each replaces one piece
//! of `rules/taxi-derby.luau` (or of the TOML that holds a rule's numbers) with a wrong one.
//! `every_broken_rule_is_caught` requires each to make a check of its rule fail.

use farebox_suite::mutant as m;
use farebox_suite::rule_mutants::Mutant;

const RULES: &str = "rules/taxi-derby.luau";
const MOD: &str = "mod.toml";

pub const MUTANTS: &[Mutant] = &[
    // ---- setup
    m!(
        "TD-S1",
        "mod.toml",
        "min = 2   # TD-S1\nmax = 5",
        "min = 2   # TD-S1\nmax = 4",
        "no five-player game"
    ),
    m!(
        "TD-S1",
        "board.toml",
        "shuffle = true  # TD-S1",
        "shuffle = false  # TD-S1",
        "the sections always lie in the same order"
    ),
    m!(
        "TD-S2",
        RULES,
        "START[string.lower(name(seat))]",
        "START[\"orange\"]",
        "every taxi starts at the orange depot"
    ),
    m!(
        "TD-S3",
        RULES,
        "for _ = 1, C.starting_upgrades do",
        "for _ = 1, C.starting_upgrades + 1 do",
        "two starting upgrades"
    ),
    m!(
        "TD-S4",
        RULES,
        "by_key[seats].tokens",
        "by_key[2].tokens",
        "one token per store whatever the player count"
    ),
    m!(
        "TD-S4",
        RULES,
        "\twhile game.move_card(bag, zone(\"box\")) do\n\tend\n",
        "",
        "leftover tokens stay in the bag"
    ),
    m!(
        "TD-S5",
        RULES,
        "if PASSENGERS[card].back == back then",
        "if PASSENGERS[card].back ~= \"\" then",
        "stacks built without regard to the backs"
    ),
    m!(
        "TD-S6",
        RULES,
        "refill_stops() -- TD-S6",
        "-- (no passengers face up)",
        "no passengers at the stops at the start"
    ),
    m!(
        "TD-S7",
        "pieces.toml",
        "deck = \"tickets\"\nshuffle = true",
        "deck = \"tickets\"\nshuffle = false",
        "the tickets are not shuffled"
    ),
    m!(
        "TD-S7",
        "pieces.toml",
        "initial = 0   # the most spaces",
        "initial = 7   # the most spaces",
        "the speeding cubes start up the track"
    ),
    m!(
        "TD-S8",
        RULES,
        "place(patrol_car(), POLICE)",
        "place(patrol_car(), 1)",
        "the patrol car starts elsewhere"
    ),
    m!(
        "TD-S9",
        RULES,
        "first = game.random(seats)",
        "first = 1",
        "the first seat always starts"
    ),
    // ---- a turn
    m!(
        "TD-T1",
        RULES,
        "return game.counter(\"moved\") > speed_limit(seat)",
        "return game.counter(\"moved\") >= speed_limit(seat)",
        "the fourth space is speeding"
    ),
    m!(
        "TD-T1",
        RULES,
        "game.add_counter(\"moved\", 1)",
        "game.add_counter(\"moved\", 0)",
        "moves are not counted"
    ),
    m!(
        "TD-T2",
        RULES,
        "if game.get(\"_acts\") == 0 and sped(seat) then",
        "if false then",
        "two actions after speeding"
    ),
    m!(
        "TD-T2",
        RULES,
        "\treturn C.actions_per_turn\nend",
        "\treturn 1\nend",
        "only ever one action"
    ),
    m!(
        "TD-T3",
        RULES,
        "if game.get(\"_since\") < 1 then",
        "if game.get(\"_since\") < 0 then",
        "actions without driving"
    ),
    m!(
        "TD-T4",
        RULES,
        "if #riders >= C.taxi_seats then",
        "if #riders > C.taxi_seats then",
        "three seats"
    ),
    m!(
        "TD-T4",
        RULES,
        "\t\tif p.vip then\n\t\t\treturn false",
        "\t\tif false then\n\t\t\treturn false",
        "a VIP boards a taxi with a rider"
    ),
    m!(
        "TD-T4",
        RULES,
        "if PASSENGERS[r].vip then",
        "if false then",
        "a rider joins a VIP"
    ),
    m!(
        "TD-T5",
        RULES,
        "if PASSENGERS[card].destination == sp.props.location and not seen[card] then",
        "if not seen[card] then",
        "drop-offs anywhere"
    ),
    m!(
        "TD-T5",
        RULES,
        "game.take_card(zone(\"cab\", seat), card, zone(\"delivered\", seat))",
        "game.take_card(zone(\"cab\", seat), card, zone(\"box\"))",
        "delivered passengers are not kept"
    ),
    m!(
        "TD-T6",
        RULES,
        "if #aboard(seat) > 0 then -- TD-T6",
        "if false then -- TD-T6",
        "buying while carrying"
    ),
    m!(
        "TD-T6",
        RULES,
        "if bought >= C.upgrades_per_store_per_turn then",
        "if bought > C.upgrades_per_store_per_turn then",
        "two tokens from one store in a turn"
    ),
    m!(
        "TD-T6",
        RULES,
        "game.add_counter(\"money\", seat, -p.price)",
        "game.add_counter(\"money\", seat, -1)",
        "every store charges $1"
    ),
    m!(
        "TD-T6",
        RULES,
        "if money(seat) < p.price then",
        "if money(seat) < 0 then",
        "buying on credit"
    ),
    m!(
        "TD-T7",
        RULES,
        "if is_final(seat) and not game.get(\"_patrolled\") then",
        "if false then",
        "no patrol before the final action"
    ),
    m!(
        "TD-T7",
        RULES,
        "game.set(\"_pending\", \"end\")\n\t\t\tstart_patrol(seat)",
        "game.set(\"_pending\", \"end\")\n\t\t\tfinish_turn(seat)",
        "no patrol when the turn ends without a final action"
    ),
    m!(
        "TD-T7",
        RULES,
        "\t\t\tdo_action(seat, pending)\n",
        "\t\t\tlocal _ = pending\n",
        "the final action is lost after the patrol"
    ),
    m!(
        "TD-T8",
        RULES,
        "if moved >= C.speeding_track_threshold and not game.get(\"_ticketed\") then",
        "if moved >= C.speeding_track_threshold then",
        "the cube moves despite a ticket"
    ),
    m!(
        "TD-T8",
        RULES,
        "moved >= C.speeding_track_threshold",
        "moved > C.speeding_track_threshold",
        "seven spaces are not enough"
    ),
    // ---- the patrol car
    m!(
        "TD-C1",
        RULES,
        "return C.patrol_moves",
        "return C.patrol_moves + 1",
        "patrols of five"
    ),
    m!(
        "TD-C2",
        RULES,
        "return roll * (game.counter(\"moved\") - speed_limit(seat))",
        "return roll * game.counter(\"moved\")",
        "the roll times every space moved"
    ),
    m!(
        "TD-C2",
        RULES,
        "local roll = game.roll(C.pursuit_die_sides) -- TD-C2",
        "local roll = game.roll(6) -- TD-C2",
        "a six-sided pursuit die"
    ),
    m!(
        "TD-C2",
        RULES,
        "if dist(from, s) == steps and dist(s, target) == left then",
        "if dist(from, s) == steps then",
        "the car drives anywhere, not toward the taxi"
    ),
    m!(
        "TD-C3",
        RULES,
        "if steps >= d then",
        "if steps > d then",
        "a car that just reaches the taxi gives no ticket"
    ),
    // ---- traffic tickets
    m!(
        "TD-K1",
        RULES,
        "game.add_counter(\"money\", seat, -t.fine)",
        "game.add_counter(\"money\", seat, -1)",
        "every fine is $1"
    ),
    m!(
        "TD-K1",
        RULES,
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"issued-tickets\", seat))",
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"box\"))",
        "tickets are not kept"
    ),
    m!(
        "TD-K1",
        RULES,
        "\t\tplace(taxi(seat), POLICE)\n\t\tgame.log(name(seat) .. \" is escorted",
        "\t\tgame.log(name(seat) .. \" is escorted",
        "the precinct card leaves the taxi where it is"
    ),
    m!(
        "TD-K1",
        RULES,
        "game.take_card(zone(\"upgrades\", seat), kind, zone(\"box\"))",
        "game.take_card(zone(\"upgrades\", seat), \"stereo\", zone(\"box\"))",
        "a downgrade always takes a stereo"
    ),
    m!(
        "TD-K2",
        RULES,
        "\t\t\tgame.log(name(seat) .. \" pays the \" .. dollars(t.fine) .. \" fine\")\n\t\t\treturn true",
        "\t\t\tgame.log(name(seat) .. \" pays the \" .. dollars(t.fine) .. \" fine\")\n\t\t\tfinish_turn(seat)\n\t\t\treturn false",
        "a paid fine ends the turn"
    ),
    m!(
        "TD-K2",
        RULES,
        "\tgame.log(name(seat) .. \" loses a \"",
        "\twhile game.move_card(zone(\"cab\", seat), zone(\"box\")) do end\n\tgame.log(name(seat) .. \" loses a \"",
        "a downgrade unseats the passengers"
    ),
    m!(
        "TD-K3",
        RULES,
        "if money(seat) >= t.fine then",
        "if money(seat) >= 0 then",
        "fines paid with money one does not have"
    ),
    m!(
        "TD-K3",
        RULES,
        "if upgrade_total(seat) == 1 then -- TD-K3",
        "if true then -- TD-K3",
        "impounding by choice"
    ),
    m!(
        "TD-K3",
        RULES,
        "\twhile game.move_card(cab, zone(\"box\")) do\n\tend\n",
        "",
        "an impounded taxi keeps its passengers"
    ),
    m!(
        "TD-K3",
        RULES,
        "if options == 0 then",
        "if options == -1 then",
        "a downgrade without the upgrade is let off"
    ),
    // ---- passengers and upgrades
    m!(
        "TD-P1",
        RULES,
        "agent = \"secret agent\",",
        "agent = \"spy\",",
        "secret agents are not called so"
    ),
    m!(
        "TD-P1",
        RULES,
        "(if p.vip then \"VIP \" else \"\")",
        "\"\"",
        "VIPs are not shown as such"
    ),
    m!(
        "TD-P2",
        RULES,
        "if have[k] < 1 then",
        "if have[k] < 0 then",
        "requirements ignored"
    ),
    m!(
        "TD-P3",
        RULES,
        "if counted > p.ticket_limit then",
        "if counted > p.ticket_limit + 1 then",
        "one ticket over the limit is fine"
    ),
    m!(
        "TD-P4",
        RULES,
        "local pay = p.payment",
        "local pay = p.payment + 1",
        "a dollar more than printed"
    ),
    m!(
        "TD-P5",
        RULES,
        "pay *= 1 + earlier",
        "pay *= 2",
        "multipliers always double"
    ),
    m!(
        "TD-P5",
        RULES,
        "if PASSENGERS[d].type == p.type then",
        "if true then",
        "every delivery counts for the multiplier"
    ),
    m!(
        "TD-P6",
        RULES,
        "pay += C.tier3_delivery_bonus",
        "pay += C.tier2_delivery_bonus",
        "tier three pays like tier two"
    ),
    m!(
        "TD-P6",
        RULES,
        "elseif have[k] >= C.tier2_tokens then",
        "elseif have[k] >= 99 then",
        "no tier-two bonus"
    ),
    m!(
        "TD-P6",
        RULES,
        "have[kind] < C.max_upgrades_per_kind",
        "have[kind] <= C.max_upgrades_per_kind",
        "a fourth token of a kind"
    ),
    m!(
        "TD-P6",
        RULES,
        "return upgrades(seat)[kind] >= C.tier2_tokens or unlocked(seat, kind)",
        "return upgrades(seat)[kind] >= C.tier3_tokens or unlocked(seat, kind)",
        "abilities need three tokens"
    ),
    m!(
        "TD-P6",
        RULES,
        "note_unlocked(seat) -- TD-P6: an ability once unlocked stays",
        "-- forgotten",
        "a downgrade below two tokens takes the ability away"
    ),
    m!(
        "TD-P6",
        RULES,
        "return ABILITY[\"police-scanner\"].value",
        "return C.patrol_moves",
        "no Police Scanner"
    ),
    m!(
        "TD-P6",
        RULES,
        "return ABILITY.overdrive.value",
        "return C.speed_limit",
        "no Overdrive"
    ),
    m!(
        "TD-P6",
        RULES,
        "if has_ability(seat, \"traffic-app\") and not game.get(\"_rerolled\") then",
        "if false then",
        "no Traffic App"
    ),
    m!(
        "TD-P6",
        RULES,
        "counted -= ABILITY[\"velvet-seats\"].value",
        "counted -= 0",
        "no Velvet Seats"
    ),
    m!(
        "TD-P7",
        RULES,
        "\trefill_stops()\n\t-- TD-E1 / TD-E2",
        "\t-- TD-E1 / TD-E2",
        "the stops are never refilled"
    ),
    // ---- end of game
    m!(
        "TD-E1",
        RULES,
        "return empty >= row.empty_stacks or cleared >= row.cleared_stacks",
        "return empty > row.empty_stacks or cleared >= row.cleared_stacks",
        "one more empty stack needed"
    ),
    m!(
        "TD-E1",
        RULES,
        "return empty >= row.empty_stacks or cleared >= row.cleared_stacks",
        "return empty >= row.empty_stacks",
        "cleared stacks do not count"
    ),
    m!(
        "TD-E1",
        RULES,
        "by_key[game.option(\"end-stacks\")]",
        "by_key[4]",
        "the option is ignored"
    ),
    m!(
        "TD-E1",
        RULES,
        "quiet >= C.stall_rounds * game.seats()",
        "quiet >= C.stall_rounds * game.seats() + 5",
        "a stuck game goes on longer"
    ),
    m!(
        "TD-E2",
        RULES,
        "game.set(\"_final\", game.seats())",
        "game.set(\"_final\", game.seats() - 1)",
        "the triggering player gets no last turn"
    ),
    m!(
        "TD-E2",
        RULES,
        "game.set(\"_final\", game.seats())",
        "game.set(\"_final\", 1)",
        "the game ends at once"
    ),
    m!(
        "TD-E3",
        RULES,
        "if mo > ms or (mo == ms and tickets(o) < tickets(s)) then",
        "if mo > ms then",
        "money ties are shared"
    ),
    m!(
        "TD-E3",
        RULES,
        "if mo > ms or (mo == ms and tickets(o) < tickets(s)) then",
        "if mo < ms or (mo == ms and tickets(o) < tickets(s)) then",
        "least money wins"
    ),
    // ---- end-game bonuses
    m!(
        "TD-B1",
        RULES,
        "\t\treturn upgrade_total(s)",
        "\t\treturn 0",
        "upgrades not compared"
    ),
    m!(
        "TD-B1",
        RULES,
        "local amounts = { row.first, row.second, row.third }",
        "local amounts = { row.first, row.first, row.third }",
        "second place paid as first"
    ),
    m!(
        "TD-B2",
        RULES,
        "return -tickets(s)",
        "return tickets(s)",
        "most tickets rewarded"
    ),
    m!(
        "TD-B3",
        RULES,
        "if PASSENGERS[card].type == row.passenger_type then",
        "if true then",
        "every delivery counts for every type"
    ),
    m!(
        "TD-B3",
        RULES,
        "v = if c >= (row.min_count or 0) then c else nil",
        "v = c",
        "players with none of a type place"
    ),
    m!(
        "TD-B4",
        RULES,
        "if not (rank == 3 and tied > 2) then",
        "if true then",
        "three tied for third share it"
    ),
    m!(
        "TD-B4",
        RULES,
        "pay = math.ceil(sum / tied)",
        "pay = math.floor(sum / tied)",
        "ties round down"
    ),
    m!(
        "TD-B5",
        RULES,
        "(v :: number) < (row.min_spaces or 0)",
        "(v :: number) < 0",
        "short turns qualify"
    ),
    // ---- the numbers in TOML (mod.toml constants and tables), each changed
    m!(
        "TD-T1",
        MOD,
        "speed_limit = 4 ",
        "speed_limit = 5 ",
        "a speed limit of 5"
    ),
    m!(
        "TD-T2",
        MOD,
        "actions_per_turn = 2 ",
        "actions_per_turn = 1 ",
        "one action a turn"
    ),
    m!(
        "TD-T4",
        MOD,
        "taxi_seats = 2 ",
        "taxi_seats = 3 ",
        "three seats"
    ),
    m!(
        "TD-T8",
        MOD,
        "speeding_track_threshold = 7 ",
        "speeding_track_threshold = 8 ",
        "eight spaces for the speeding track"
    ),
    m!(
        "TD-C1",
        MOD,
        "patrol_moves = 4 ",
        "patrol_moves = 3 ",
        "patrols of three"
    ),
    m!(
        "TD-C2",
        MOD,
        "pursuit_die_sides = 4 ",
        "pursuit_die_sides = 6 ",
        "a d6"
    ),
    m!(
        "TD-P6",
        MOD,
        "tier2_tokens = 2 ",
        "tier2_tokens = 3 ",
        "tier two at three tokens"
    ),
    m!(
        "TD-P6",
        MOD,
        "tier3_delivery_bonus = 3 ",
        "tier3_delivery_bonus = 4 ",
        "tier three pays $4"
    ),
    m!(
        "TD-E1",
        MOD,
        "stall_rounds = 10",
        "stall_rounds = 12",
        "a stuck game lasts longer"
    ),
    m!(
        "TD-S4",
        "tables/store-tokens.toml",
        "players = 5\ntokens = 3",
        "players = 5\ntokens = 2",
        "two tokens a store at five players"
    ),
    m!(
        "TD-B3",
        "tables/end-bonus.toml",
        "first = 8\nsecond = 6",
        "first = 8\nsecond = 5",
        "second-most commuters pay $5"
    ),
    m!(
        "TD-B5",
        "tables/end-bonus.toml",
        "first = 10\nsecond = 6",
        "first = 9\nsecond = 6",
        "the furthest turn pays $9"
    ),
    // ---- kinds of break that slipped past rule tests elsewhere (issue "The five games play
    // well", section 6): a tie-break reversed, a limit one step late, a per-place allowance
    // applied to the whole turn, a best-so-far that adds up, "and" read as "or", the last
    // card of a deck handled differently.
    m!(
        "TD-E3",
        RULES,
        "if mo > ms or (mo == ms and tickets(o) < tickets(s)) then",
        "if mo > ms or (mo == ms and tickets(o) > tickets(s)) then",
        "the money tie-break reversed: more tickets wins"
    ),
    m!(
        "TD-T1",
        RULES,
        "return game.counter(\"moved\") > speed_limit(seat)",
        "return game.counter(\"moved\") > speed_limit(seat) + 1",
        "the limit checked one space late"
    ),
    m!(
        "TD-T6",
        RULES,
        "if z == p.zone then",
        "if true then",
        "one token a turn in all, not one per store"
    ),
    m!(
        "TD-T8",
        RULES,
        "game.set_counter(\"furthest-turn\", seat, moved)",
        "game.add_counter(\"furthest-turn\", seat, moved)",
        "the furthest turn adds up instead of keeping the best"
    ),
    m!(
        "TD-T8",
        RULES,
        "if moved >= C.speeding_track_threshold and not game.get(\"_ticketed\") then",
        "if moved >= C.speeding_track_threshold or not game.get(\"_ticketed\") then",
        "a long turn or a ticket-free one moves the cube"
    ),
    m!(
        "TD-K1",
        RULES,
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"issued-tickets\", seat))\n\tif not card then",
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"issued-tickets\", seat))\n\tif not card or game.count(zone(\"ticket-deck\")) == 0 then",
        "the last ticket of the deck is never issued"
    ),
];

/// Breaks the rule oracles (`tests/support/taxi_derby_oracles.rs`) must catch themselves,
/// of the kinds that slipped past scenario tests elsewhere: a tie at a rarely reached rank, a
/// count off by one, a tie-break order swapped, the end noticed a turn late, a "drive at
/// least one space" allowing 0, a restriction dropped in one of two paths, a card lost.
pub const FOR_ORACLES: &[Mutant] = &[
    m!(
        "TD-B4",
        RULES,
        "if not (rank == 3 and tied > 2) then",
        "if not (rank == 3 and tied > 3) then",
        "three tied for third share it (only four tied get nothing)"
    ),
    m!(
        "TD-P5",
        RULES,
        "local earlier = 0",
        "local earlier = 1",
        "a multiplier counts one delivery too many"
    ),
    m!(
        "TD-E3",
        RULES,
        "tickets(o) < tickets(s)",
        "o < s",
        "a money tie goes to the earlier seat, not the fewer tickets"
    ),
    m!(
        "TD-E2",
        RULES,
        "game.set(\"_final\", game.seats())",
        "game.set(\"_final\", game.seats() + 1)",
        "the end noticed a turn late"
    ),
    m!(
        "TD-T3",
        RULES,
        "if game.get(\"_since\") < 1 then",
        "if game.get(\"_since\") < 0 then",
        "an action without driving a space first"
    ),
    m!(
        "TD-T4",
        RULES,
        "\t\tif p.vip then\n\t\t\treturn false\n\t\tend",
        "",
        "a solo rider boards a taxi with someone aboard (the rider-aboard check kept)"
    ),
    m!(
        "TD-K1",
        RULES,
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"issued-tickets\", seat))",
        "local card = game.move_card(zone(\"ticket-deck\"), zone(\"box\"))",
        "the ticket goes to the box instead of to the player"
    ),
];
