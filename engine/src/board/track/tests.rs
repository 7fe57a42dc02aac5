//! Tests of track boards: laying, fitting (footprints, clearance, the table's edge),
//! forcing, removing, and where the track starts.

use super::*;
use crate::board::geometry::separated;
use crate::rng::Rng;

fn track_piece(lanes: u32, turn: i32) -> TrackPieceDef {
    TrackPieceDef {
        id: "p".into(),
        name: "p".into(),
        role: TrackRole::Normal,
        lanes,
        rows: 2,
        turn,
        gates: vec![],
        tags: vec![],
        props: Default::default(),
    }
}

fn track_board(width: f64, height: f64) -> Board {
    let def = TrackDef {
        table_width: width,
        table_height: height,
        start_heading: 0,
        start_from_back: 0.5,
        clearance: DEFAULT_CLEARANCE,
        pieces: vec![],
    };
    Board::new(
        &BoardDef::Track(def),
        &[],
        &Default::default(),
        &mut Rng::new(0, 0),
    )
}

fn close(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
}

#[test]
fn the_boards_start_follows_the_table_until_the_rules_choose_one() {
    let def = TrackDef {
        table_width: 20.0,
        table_height: 12.0,
        start_heading: 2,
        start_from_back: 0.2,
        clearance: 0.3,
        pieces: vec![],
    };
    let mut b = Board::new(
        &BoardDef::Track(def),
        &[],
        &Default::default(),
        &mut Rng::new(0, 0),
    );
    let t = b.track.as_mut().unwrap();
    // Heading right, a fifth of the width in from the left end, on the middle line.
    assert!(
        close((t.end.0, t.end.1), (-6.0, 0.0)) && t.end.2 == 2,
        "{:?}",
        t.end
    );
    assert_eq!(t.clearance, 0.3);
    t.set_table(10.0, 8.0);
    assert!(close((t.end.0, t.end.1), (-3.0, 0.0)), "{:?}", t.end);
    // A start the rules set stays where they put it.
    b.start_track(1.0, 2.0, 4, None).unwrap();
    let t = b.track.as_mut().unwrap();
    t.set_table(30.0, 20.0);
    assert!(
        close((t.end.0, t.end.1), (1.0, 2.0)) && t.end.2 == 4,
        "{:?}",
        t.end
    );
}

#[test]
fn a_track_that_turns_back_on_itself_overlaps() {
    let piece = |turn| track_piece(2, turn);
    let mut b = track_board(20.0, 20.0);
    assert!(b.attach_track(0, &piece(0)).is_ok());
    assert!(b.attach_track(0, &piece(90)).is_ok());
    assert!(b.attach_track(0, &piece(90)).is_ok());
    assert!(b.attach_track(0, &piece(90)).is_ok());
    // Four right turns close the loop: the next piece lands on the first.
    assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::Overlap));
    let mut b = track_board(2.0, 2.0);
    assert!(b.attach_track(0, &piece(0)).is_ok());
    assert_eq!(b.attach_track(0, &piece(0)), Err(AttachError::OffTable));
}

#[test]
fn a_hard_curve_lies_along_its_arc() {
    let mut b = track_board(20.0, 20.0);
    b.attach_track(0, &track_piece(2, 90)).unwrap();
    let t = b.track.as_ref().unwrap();
    let shape = t.laid[0].shape();
    // A right angle bent over one card length: radius 2/pi, centre of the bend at (r, 0).
    let r = 2.0 / std::f64::consts::PI;
    let half = std::f64::consts::FRAC_PI_4;
    assert!(close(shape.exit(), (r, -r)));
    assert_eq!(t.end.2, 2, "it leaves heading right");
    assert!(close((t.end.0, t.end.1), (r, -r)));
    // Its middle is halfway round the bend, about 0.19 right of the entry line and 0.45
    // ahead: not half a length straight ahead (0, -0.5).
    assert!(close(shape.centre(), (r - r * half.cos(), -r * half.sin())));
    // Spaces sit on the bend at their lane's distance from its centre (lane 0 outside).
    for (lane, radius) in [(0, r + 0.125), (1, r - 0.125)] {
        for row in 0..2 {
            let s = &b.graph.spaces[(lane * 2 + row) as usize];
            assert!(((s.x - r).hypot(s.y) - radius).abs() < 1e-9, "{}", s.id);
        }
    }
    // The footprint holds the whole card and not much more: every point of the card is in
    // it, and a point a little outside the outer edge is not.
    let quads = shape.footprint();
    assert_eq!(quads.len(), 8);
    let inside = |p: (f64, f64)| {
        quads
            .iter()
            .any(|q| !separated(q, &[p, p, p, p]) || point_in(q, p))
    };
    let hw = shape.half_width();
    for k in 0..=20 {
        let f = k as f64 / 20.0;
        for off in [-hw, -hw / 2.0, 0.0, hw / 2.0, hw] {
            assert!(inside(shape.at(f, off * 0.999)), "f {f} off {off}");
        }
        if (0.05..0.95).contains(&f) {
            assert!(!inside(shape.at(f, -hw - 0.01)), "f {f} outside");
        }
    }
    // Straight ahead of the entry, where a straight card would have been, is free:
    // a card can pass there.
    assert!(!inside((0.0, -0.9)));
}

fn point_in(q: &[(f64, f64); 4], p: (f64, f64)) -> bool {
    let side = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
    let s: Vec<f64> = (0..4).map(|k| side(q[k], q[(k + 1) % 4])).collect();
    s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
}

#[test]
fn leaving_the_table_is_judged_by_the_footprint() {
    // A 2-lane straight heading right along a table 2 high: 0.6 wide, so its middle line
    // may come no nearer than 0.3 to the edge at y = 1.
    let straight = track_piece(2, 0);
    let mut b = track_board(4.0, 2.0);
    b.start_track(-1.0, 0.8, 2, None).unwrap();
    // Its centre (-0.5, 0.8) is on the table; its lower side (y = 1.1) is not.
    assert_eq!(b.track_fits(&straight), Err(AttachError::OffTable));
    assert_eq!(b.attach_track(0, &straight), Err(AttachError::OffTable));
    let mut b = track_board(4.0, 2.0);
    b.start_track(-1.0, 0.65, 2, None).unwrap();
    assert_eq!(b.attach_track(0, &straight), Ok(0));
    // The far end counts too: from x = 1.2 the card would reach 2.2, past the edge at 2.
    let mut b = track_board(4.0, 2.0);
    b.start_track(1.2, 0.0, 2, None).unwrap();
    assert_eq!(b.track_fits(&straight), Err(AttachError::OffTable));
    // A curve's outer side swings out beyond its middle line's end: a hard left heading
    // right reaches 2/pi + 0.3 = 0.94 ahead, though its exit's middle is only 0.64 ahead.
    let hard_left = track_piece(2, -90);
    let mut b = track_board(4.0, 2.0);
    b.start_track(1.1, 0.0, 2, None).unwrap();
    assert_eq!(b.track_fits(&hard_left), Err(AttachError::OffTable));
    let shape = CardShape::new(1.1, 0.0, 2, -90, 2);
    assert!(shape.exit().0 < 1.8 && shape.centre().0 < 1.8);
    b.start_track(1.0, 0.0, 2, None).unwrap();
    assert_eq!(b.track_fits(&hard_left), Ok(()));
}

/// A straight up the table from (0, 0) and a U-turn of two hard right curves about
/// (2/pi, -1), with the clearance set afterwards: the track's end heads back down beside
/// the straight, 2 x 2/pi = 1.27 to its right.
fn u_turn(clearance: f64) -> Board {
    let mut b = track_board(20.0, 20.0);
    b.start_track(0.0, 0.0, 0, Some(0.0)).unwrap();
    for turn in [0, 90, 90] {
        b.attach_track(0, &track_piece(2, turn)).unwrap();
    }
    b.track.as_mut().unwrap().clearance = clearance;
    b
}

#[test]
fn overlap_is_judged_by_the_footprints_and_the_clearance() {
    let r = 2.0 / std::f64::consts::PI;
    // A 2-lane straight down from the U-turn (0.6 wide) would be 2r - 0.6 = 0.67 from the
    // first straight, and nearer still to the first bend: its corner (2r - 0.3, -1) is
    // r - 0.3 from the bend's centre, and the bend's inside at its exit, (r, -1 - (r -
    // 0.3)), lies r - 0.3 above that centre: sqrt(2) (r - 0.3) = 0.476 apart. The centres
    // of the two cards are more than a card length apart.
    let gap = std::f64::consts::SQRT_2 * (r - 0.3);
    let straight = track_piece(2, 0);
    assert_eq!(u_turn(gap - 0.005).attach_track(0, &straight), Ok(12));
    assert_eq!(
        u_turn(gap + 0.005).attach_track(0, &straight),
        Err(AttachError::Overlap)
    );
    let b = u_turn(0.0);
    let t = b.track.as_ref().unwrap();
    let new = CardShape::new(t.end.0, t.end.1, t.end.2, 0, 2);
    let (a, c) = (new.centre(), t.laid[1].shape().centre());
    assert!((a.0 - c.0).hypot(a.1 - c.1) > 1.0);
    // A 4-lane straight (1.1 wide) reaches further in: its corner (2r - 0.55, -1) is
    // r - 0.55 from the bend's centre.
    let gap4 = (r - 0.3).hypot(r - 0.55);
    let wide = track_piece(4, 0);
    assert_eq!(u_turn(gap4 - 0.005).track_fits(&wide), Ok(()));
    assert_eq!(
        u_turn(gap4 + 0.005).track_fits(&wide),
        Err(AttachError::Overlap)
    );
    // Lying over the track is an overlap even with no clearance: two more right bends
    // bring the track back to (0, 0), heading up, onto the first straight.
    let mut c = u_turn(0.0);
    for turn in [0, 90, 90] {
        c.attach_track(0, &track_piece(2, turn)).unwrap();
    }
    assert!(close(
        (
            c.track.as_ref().unwrap().end.0,
            c.track.as_ref().unwrap().end.1
        ),
        (0.0, 0.0)
    ));
    assert_eq!(c.attach_track(0, &straight), Err(AttachError::Overlap));
    // The piece a new one attaches to never counts, though they touch: with the clearance
    // set from the start, each piece joins the one before it.
    let mut d = track_board(20.0, 20.0);
    d.start_track(0.0, 0.0, 0, Some(gap - 0.005)).unwrap();
    for turn in [0, 90, 90, 0] {
        d.attach_track(0, &track_piece(2, turn)).unwrap();
    }
}

#[test]
fn a_forced_piece_is_laid_and_says_why_it_did_not_fit() {
    let mut b = track_board(2.0, 2.0);
    let straight = track_piece(2, 0);
    b.attach_track(0, &straight).unwrap();
    let before = serde_json::to_string(&b).unwrap();
    assert_eq!(b.lay_track(0, &straight, false), Err(AttachError::OffTable));
    assert_eq!(
        serde_json::to_string(&b).unwrap(),
        before,
        "a refusal changes nothing"
    );
    assert_eq!(b.graph.spaces.len(), 4);
    assert_eq!(
        b.lay_track(0, &straight, true),
        Ok((4, Some(AttachError::OffTable)))
    );
    let t = b.track.as_ref().unwrap();
    assert_eq!(t.laid.len(), 2);
    assert!(t.laid[1].forced && !t.laid[0].forced);
    assert!(close((t.end.0, t.end.1), (0.0, -2.0)));
    // Its spaces are joined to the track like any other piece's.
    let mut next = b.neighbors(1, &[]);
    next.sort_unstable();
    assert_eq!(next, vec![3, 4]);
    // A piece that fits is laid by force as usual, with nothing to report.
    let mut b = track_board(20.0, 20.0);
    assert_eq!(b.lay_track(0, &straight, true), Ok((0, None)));
    assert!(!b.track.as_ref().unwrap().laid[0].forced);
}

#[test]
fn a_dry_run_agrees_with_laying_and_changes_nothing() {
    // Beside the U-turn, where some pieces fit and some overlap; and at the top of a
    // narrow table, where some leave it.
    let beside = u_turn(0.45);
    let mut edge = track_board(20.0, 3.0);
    edge.start_track(0.0, -0.55, 0, None).unwrap();
    let mut seen = Vec::new();
    for b in [&beside, &edge] {
        for (lanes, turn) in [
            (2, 0),
            (2, 90),
            (2, -90),
            (3, 45),
            (4, -45),
            (4, 0),
            (2, 45),
        ] {
            let piece = track_piece(lanes, turn);
            let before = serde_json::to_string(b).unwrap();
            let edges = b.graph.edges.len();
            let dry = b.track_fits(&piece);
            assert_eq!(serde_json::to_string(b).unwrap(), before);
            assert_eq!(b.graph.edges.len(), edges);
            let mut real = b.clone();
            let laid = real.attach_track(0, &piece).map(|_| ());
            assert_eq!(laid, dry, "{lanes} lanes, turn {turn}");
            seen.push(dry);
        }
    }
    for outcome in [
        Ok(()),
        Err(AttachError::Overlap),
        Err(AttachError::OffTable),
    ] {
        assert!(seen.contains(&outcome), "no piece gave {outcome:?}");
    }
}

#[test]
fn removed_pieces_free_their_room_and_lose_their_edges() {
    // The loop of four right turns again: the fifth piece would lie on the first.
    let mut b = track_board(20.0, 20.0);
    for turn in [0, 90, 90, 90] {
        b.attach_track(0, &track_piece(2, turn)).unwrap();
    }
    let straight = track_piece(2, 0);
    assert_eq!(b.track_fits(&straight), Err(AttachError::Overlap));
    let ids: Vec<String> = b.graph.spaces.iter().map(|s| s.id.clone()).collect();
    // Piece 0's spaces 0..4; piece 1's 4..8, entered from 1 and 3.
    assert!(b.neighbors(1, &[]).contains(&4));
    assert_eq!(b.remove_track(0, 1), Ok(1));
    assert_eq!(b.remove_track(0, 1), Ok(0), "already removed");
    assert_eq!(b.track_fits(&straight), Ok(()));
    for s in 0..4 {
        assert!(
            b.neighbors(s, &[]).is_empty(),
            "space {s} still leads somewhere"
        );
        assert!(
            b.graph.spaces[s as usize]
                .tags
                .contains(&"removed".to_string())
        );
    }
    for s in 4..16 {
        assert!(
            !b.graph.spaces[s as usize]
                .tags
                .contains(&"removed".to_string())
        );
        assert!(b.graph.out[s as usize].iter().all(|&(to, _)| to >= 4));
    }
    // No edge anywhere reaches a removed space, and the rest of the track still joins up.
    assert!(b.graph.edges.iter().all(|e| e.from >= 4 && e.to >= 4));
    assert_eq!(b.distances(4, &[], &[])[15], Some(6));
    // Ids and handles stay as they were.
    let after: Vec<String> = b.graph.spaces.iter().map(|s| s.id.clone()).collect();
    assert_eq!(ids, after);
    b.attach_track(0, &straight).unwrap();
    assert_eq!(b.graph.spaces[16].id, "t4-l0-r0");
    // Removing the track's last piece: the next attaches to nothing and is not joined.
    assert_eq!(b.remove_track(4, 99), Ok(1));
    assert_eq!(b.track.as_ref().unwrap().laid.len(), 5);
    let first = b.attach_track(0, &track_piece(2, -45)).unwrap();
    assert!(b.graph.edges.iter().all(|e| e.to != first));
}

#[test]
fn the_start_is_set_only_before_the_first_piece() {
    let mut b = track_board(20.0, 12.0);
    assert_eq!(
        b.start_track(-6.0, 1.0, 2, Some(1.5)),
        Err(TrackError::BadClearance)
    );
    assert_eq!(
        b.start_track(f64::NAN, 1.0, 2, None),
        Err(TrackError::BadStart)
    );
    assert_eq!(b.start_track(-6.0, 1.0, 10, Some(0.25)), Ok(()));
    let t = b.track.as_ref().unwrap();
    assert_eq!((t.end, t.clearance), ((-6.0, 1.0, 2), 0.25));
    b.attach_track(0, &track_piece(3, 0)).unwrap();
    assert!(close(
        (
            b.track.as_ref().unwrap().end.0,
            b.track.as_ref().unwrap().end.1
        ),
        (-5.0, 1.0)
    ));
    assert_eq!(
        b.start_track(0.0, 0.0, 0, None),
        Err(TrackError::AlreadyStarted)
    );
    let mut g = Board::new(
        &BoardDef::None,
        &[],
        &Default::default(),
        &mut Rng::new(0, 0),
    );
    assert_eq!(g.start_track(0.0, 0.0, 0, None), Err(TrackError::NoTrack));
    assert_eq!(
        g.attach_track(0, &track_piece(2, 0)),
        Err(AttachError::NoTrack)
    );
}
