//! Chess Golf's rule clauses one by one (rules.md "Chess Golf" and
//! "Special Move", docs/games/golf.md, "Rulings"), on small boards.

use chesskit_games::golf::{layout, parse_puzzle, GolfMove, Puzzle};
use shakmaty::Piece;

fn puzzle(rows: [&str; 8], chosen: &str) -> Puzzle {
    let text = format!("{}\nchosen: {chosen}\n", rows.join("\n"));
    parse_puzzle(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn mv(text: &str) -> GolfMove {
    text.parse().unwrap()
}

fn destinations(p: &Puzzle, from: &str) -> Vec<String> {
    let mut out: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from.to_string() == from).map(|m| m.to.to_string()).collect();
    out.sort();
    out
}

#[test]
fn a_piece_borrows_only_from_same_coloured_neighbours() {
    // "Pieces can only borrow a move from a neighbouring piece in the 8
    // squares immediately surrounding them ... of the same colour." The rook
    // on a1 sits next to a white knight (b2) and a black queen (a2).
    let p = puzzle(["8", "8", "8", "8", "8", "8", "qN6", "R6k"], "Rk");
    assert_eq!(destinations(&p, "a1"), ["b3", "c2"], "a knight's move, not the queen's nor its own");
    // A piece whose neighbours are all of the other colour cannot move
    // (White has a touching pair on g8 and h8, so no special move).
    let p = puzzle(["6BB", "8", "8", "8", "8", "8", "qn6", "R6K"], "Rq");
    assert!(destinations(&p, "a1").is_empty());
}

#[test]
fn sliding_moves_are_blocked_by_any_piece() {
    // The knight on a1 borrows the queen's move from b1; the rook on a4
    // (white) and the black bishop on d4 block its lines.
    let p = puzzle(["8", "8", "8", "8", "R2b4", "8", "8", "NQ5k"], "Nk");
    let to = destinations(&p, "a1");
    assert!(to.contains(&"a3".to_string()) && !to.contains(&"a5".to_string()), "{to:?}");
    assert!(to.contains(&"c3".to_string()) && !to.contains(&"e5".to_string()), "{to:?}");
    assert!(!to.contains(&"b1".to_string()), "slides stop at the first piece");
    assert!(p.check_move(mv("a1a5")).unwrap_err().contains("blocked"));
}

#[test]
fn special_move_when_a_colour_has_no_pairs() {
    // "if one of the colours has no pairs of pieces next to each other,
    // then any piece of that colour may make a king's move." White: the
    // knights on a1 and h8 touch nothing white, so both step like kings.
    let p = puzzle(["7N", "8", "8", "8", "8", "8", "8", "N6k"], "Nk");
    assert_eq!(destinations(&p, "a1"), ["a2", "b1", "b2"]);
    assert_eq!(destinations(&p, "h8"), ["g7", "g8", "h7"]);
    // "Just because one piece has no neighbours of the same colour, it
    // doesn't necessarily get to make a king's move": with a white pair
    // elsewhere the lone knight is stuck.
    let p = puzzle(["7N", "8", "8", "8", "8", "8", "RR6", "N6k"], "Nk");
    assert!(destinations(&p, "h8").is_empty());
    // A colour with a single piece has no pairs: the black king steps.
    assert_eq!(destinations(&p, "h1"), ["g1", "g2", "h2"]);
    // Without the special move (the book's problems' rules) nothing moves.
    let p = puzzle(["7N", "8", "8", "8", "8", "8", "8", "N6k"], "Nk").without_special_move();
    assert!(p.legal_moves().is_empty());
}

#[test]
fn only_chosen_pieces_capture_and_are_captured() {
    // "You may only capture one of the chosen piece types with the other
    // one. No other captures are allowed." The white rook a2 borrows the
    // white queen's move (a1) and reaches the black bishop g2 and the black
    // rook a8; only the bishop is chosen.
    let p = puzzle(["r7", "8", "8", "8", "8", "8", "R5b1", "Q6k"], "Rb");
    assert!(p.check_move(mv("a2g2")).is_ok(), "rook takes the chosen black bishop");
    let err = p.check_move(mv("a2a8")).unwrap_err();
    assert!(err.contains("black rook"), "{err}");
    // The queen is not chosen, so it may not capture even a chosen piece.
    let err = p.check_move(mv("a1h1")).unwrap_err();
    assert!(err.contains("not a chosen piece"), "{err}");
}

#[test]
fn chosen_cards_are_a_multiset_and_captures_ignore_colour() {
    // Ruling (docs/games/golf.md): two black bishop cards mean a black bishop must capture the
    // other black bishop; "a black bishop may capture a black bishop".
    let p = puzzle(["8", "8", "8", "8", "8", "8", "bq6", "b6K"], "bb");
    assert!(p.check_move(mv("a1a2")).is_ok(), "the bishop borrows the queen's move and takes its twin");
    assert!(p.check_path(&[mv("a1a2")]).is_ok());
    // One black bishop card only: a bishop may not take a bishop.
    let p = puzzle(["8", "8", "8", "8", "8", "8", "bq6", "b6K"], "bK");
    assert!(p.check_move(mv("a1a2")).unwrap_err().contains("may only capture the other chosen pieces"));
}

#[test]
fn after_the_first_capture_only_that_piece_captures() {
    // Ruling (docs/games/golf.md): "Once a piece has captured, only that piece may capture again
    // in that puzzle." Cards N, b, b: the knight a1 borrows the queen's move
    // (b1) and takes the bishop a4; the bishop h4, which borrows the black
    // queen's move (h5), may not take the knight back.
    let p = puzzle(["8", "8", "8", "7q", "b6b", "8", "8", "NQ5k"], "Nbb");
    let mut q = p;
    q.play(mv("a1a4")).unwrap();
    assert_eq!(q.capturer().map(|s| s.to_string()).as_deref(), Some("a4"));
    assert_eq!(q.remaining().to_string(), "b");
    assert_eq!(q.captures_needed(), 1);
    let err = q.check_move(mv("h4a4")).unwrap_err();
    assert!(err.contains("only the piece that captured first (the white knight on a4)"), "{err}");
}

#[test]
fn the_capturer_captures_every_other_chosen_card() {
    // Cards R, R, k: the rook b1 takes the king (borrowing the king b2's
    // step); the other rook may not take it back, and it must still take
    // the other rook, which it does with the king's step.
    let p = puzzle(["8", "8", "8", "8", "8", "8", "RK6", "kR6"], "RRk");
    let mut q = p;
    q.play(mv("b1a1")).unwrap();
    assert_eq!(q.remaining().to_string(), "R");
    assert!(!q.is_solved());
    let err = q.check_move(mv("a2a1")).unwrap_err();
    assert!(err.contains("only the piece that captured first (the white rook on a1)"), "{err}");
    let unsolved = p.check_path(&[mv("b1a1")]).unwrap_err().to_string();
    assert!(unsolved.contains("1 more capture is needed (white rook still to capture)"), "{unsolved}");
    assert!(p.check_path(&[mv("b1a1"), mv("a1a2")]).is_ok());
}

#[test]
fn layout_gaps_from_appendix_a() {
    // A knight (gap 1) goes on b1; a king (gap 6) leaves c1 to h1 empty and
    // goes on a2.
    let pieces: Vec<Piece> = "Nk".chars().map(|c| Piece::from_char(c).unwrap()).collect();
    let board = layout(&pieces).unwrap();
    assert_eq!(board.piece_at("b1".parse().unwrap()), Some(pieces[0]));
    assert_eq!(board.piece_at("a2".parse().unwrap()), Some(pieces[1]));
    // Too many pieces for the board: a clear error, not a panic.
    let many: Vec<Piece> = std::iter::repeat_n(Piece::from_char('K').unwrap(), 10).collect();
    assert!(layout(&many).unwrap_err().contains("runs off the board"));
}

#[test]
fn bad_puzzle_text_names_the_line() {
    let ok = ["8", "8", "8", "8", "8", "8", "8", "K6k"].join("\n");
    assert!(parse_puzzle(&format!("{ok}\nchosen: Kk")).is_ok());
    let cases = [
        (format!("{}\nchosen: Kk", ["8"; 7].join("\n")), "7 board lines"),
        (format!("{ok}\n8\nchosen: Kk"), "line 9: a 9th board line"),
        (format!("{}\nK6x\nchosen: Kk", ["8"; 7].join("\n")), "line 8 (rank 1, square h1): unknown piece letter 'x'"),
        (format!("{}\nK5k\nchosen: Kk", ["8"; 7].join("\n")), "line 8 (rank 1): 7 squares, expected 8"),
        (format!("{ok}\nchosen: Kq"), "line 9: chosen card q (black queen) has no piece on the board"),
        (format!("{ok}\nchosen: KKk"), "chosen 2 times but the board has only 1"),
        (format!("{ok}\nchosen: K"), "at least 2 cards"),
        (format!("{ok}\nchosen: Kp"), "pawn"),
        (format!("{ok}\ncolour: white\nchosen: Kk"), "line 9: unknown key \"colour\""),
        (format!("{ok}\nColour Of B: white\nchosen: Kk"), "unknown key \"Colour Of B\""),
        (ok.clone(), "no chosen: line"),
    ];
    for (text, expected) in cases {
        let err = parse_puzzle(&text).unwrap_err();
        assert!(err.contains(expected), "{expected:?} not in {err:?}");
    }
    assert!(parse_puzzle(&format!("{ok}\nCHOSEN: Kk")).is_ok(), "keys are read in either case");
    for bad in ["e5", "e5g9", "z1a1", "e5e5", "e5g6h7", "g1b1x", "xxg1b1", "g1--b1", "e5+g6"] {
        assert!(bad.parse::<GolfMove>().is_err(), "{bad}");
    }
    for good in ["e5g6", "e5-g6", "e5xg6", "E5XG6", " e5g6 "] {
        assert_eq!(good.parse::<GolfMove>().unwrap(), mv("e5g6"), "{good}");
    }
}
