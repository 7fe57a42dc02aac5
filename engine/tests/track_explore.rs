#![allow(clippy::unwrap_used, clippy::expect_used)]
use farebox::GameDef;
use farebox::board::Board;
use farebox::content::def::{BoardDef, TrackRole};
use farebox::content::{self};
use farebox::rng::Rng;
use farebox::source::{FolderResolver, FsSource};
use std::collections::BTreeMap;

const MODS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
fn env(k: &str, d: &str) -> String {
    std::env::var(k).unwrap_or(d.to_string())
}

#[test]
fn explore() {
    let src = FsSource::new(format!("{MODS}/dicey-curves"));
    let mut def: GameDef = content::load_mod(&src, &FolderResolver::new(MODS)).unwrap();
    let deckspec = env(
        "EX_DECK",
        "straight-2-long:7,straight-2-short:4,straight-3-long:2,straight-3-short:2,gentle-left:3,gentle-right:3,banked-left:1,banked-right:1,sweeper-left:1,sweeper-right:1,hard-left:2,hard-right:2,hairpin-left:1,hairpin-right:1,off-camber-left:1,off-camber-right:1",
    );
    let table: Vec<f64> = env("EX_TABLE", "20,12")
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let from_back: f64 = env("EX_BACK", "0.2").parse().unwrap();
    let look: usize = env("EX_LOOK", "0").parse().unwrap();
    let depths: Vec<i64> = env("EX_ABOVE", "10,16,24")
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let spread: i64 = env("EX_SPREAD", "2").parse().unwrap();
    let games: u64 = env("EX_GAMES", "2000").parse().unwrap();
    let heading: i32 = env("EX_HEADING", "2").parse().unwrap();
    if let BoardDef::Track(t) = &mut def.board {
        t.start_from_back = from_back;
        t.start_heading = heading;
    }
    let t = match &def.board {
        BoardDef::Track(t) => t.clone(),
        _ => panic!(),
    };
    let idx = |id: &str| {
        t.pieces
            .iter()
            .position(|p| p.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let mut cards: Vec<usize> = vec![];
    for part in deckspec.split(',') {
        let (id, n) = part.split_once(':').unwrap();
        for _ in 0..n.parse::<usize>().unwrap() {
            cards.push(idx(id));
        }
    }
    let start = idx("start-grid");
    let finish = idx("finish-line");
    let opening = idx("straight-3-long");
    let shapes: Vec<usize> = {
        let mut v = cards.clone();
        v.sort();
        v.dedup();
        v
    };
    println!(
        "deck {} cards, table {:?}, back {from_back}, look {look}",
        cards.len(),
        table
    );
    for above0 in depths {
        let mut fit = 0;
        let mut lens = vec![];
        let mut disc = 0usize;
        for seed in 0..games {
            let mut c = cards.clone();
            let mut rng = Rng::new(seed, 0);
            rng.shuffle(&mut c);
            let above = (above0 + rng.range(-spread, spread)).clamp(0, c.len() as i64);
            c.insert(above as usize, finish);
            let mut board = Board::new(&def.board, &[], &BTreeMap::new(), &mut rng);
            board.track.as_mut().unwrap().set_table(table[0], table[1]);
            board.lay_track(start, &t.pieces[start], false).unwrap();
            board.lay_track(opening, &t.pieces[opening], false).unwrap();
            let mut n = 2;
            for card in c {
                let p = &t.pieces[card];
                let fits = board.track_fits(p).is_ok()
                    && (look == 0 || card == finish || {
                        let mut b2 = board.clone();
                        b2.lay_track(card, p, false).unwrap();
                        shapes.iter().any(|s| {
                            b2.track_fits(&t.pieces[*s]).is_ok()
                                && (look < 2 || {
                                    let mut b3 = b2.clone();
                                    b3.lay_track(*s, &t.pieces[*s], false).unwrap();
                                    shapes.iter().any(|u| b3.track_fits(&t.pieces[*u]).is_ok())
                                })
                        })
                    });
                if card == finish {
                    if fits {
                        fit += 1;
                    }
                    n += 1;
                    break;
                }
                if fits {
                    board.lay_track(card, p, false).unwrap();
                    n += 1;
                } else {
                    disc += 1;
                }
            }
            let _ = TrackRole::Finish;
            lens.push(n);
        }
        lens.sort();
        let g = games as f64;
        println!(
            "above {above0}: fit {:.1}% cards mean {:.1} p10 {} med {} p90 {} min {} max {} disc {:.2}",
            100.0 * fit as f64 / g,
            lens.iter().sum::<usize>() as f64 / g,
            lens[lens.len() / 10],
            lens[lens.len() / 2],
            lens[lens.len() * 9 / 10],
            lens[0],
            lens[lens.len() - 1],
            disc as f64 / g
        );
    }
}
