//! What each viewer sees: the board with the opponent's checkers hidden
//! (numbers only) and the viewer's own checkers shown with their identity
//! and a "cloaked" marker; the deduction grids; the captured pieces; the
//! public log; and the viewer's own setup as a private note.

use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::color_name;
use chesskit_core::chess::{Color, Square};
use chesskit_core::game::Viewer;
use chesskit_core::view::{BoardView, Corner, Marker, MarkerDrawing, PieceView, SquareView, TableView, View};

use super::knowledge::{Cell, CHECKER_KINDS};
use super::{colour_word, seat_color, CloakAndDagger, Step};

pub fn view(game: &CloakAndDagger, viewer: Viewer) -> View {
    let me = viewer.seat().filter(|&s| s < 2).map(seat_color);
    let mut view = View {
        board: Some(board(game, me)),
        tables: tables(game, me),
        notes: notes(game, me),
        prompt: prompt(game, me),
        last_move: game.last_move.iter().map(Square::to_string).collect(),
        ..View::default()
    };
    if game.outcome.is_none() && game.step != Step::Setup {
        let turn = game.pos.turn();
        if game.in_visible_check(turn) {
            view.check = game.pos.king_of(turn).map(|k| k.to_string());
        }
    }
    view
}

/// The board: pawns and uncloaked pieces for everyone; a cloaked checker is
/// a hidden piece with its number, except to its owner once placed. Once
/// the game is over nothing is secret: every view shows every identity
/// (a checker still cloaked keeps its `cloaked` marker).
fn board(game: &CloakAndDagger, me: Option<Color>) -> BoardView {
    let board = game.pos.board();
    let squares = Square::ALL
        .into_iter()
        .filter_map(|square| {
            let piece = board.piece_at(square)?;
            let checker = game.checker_at(piece.color, square);
            let mut markers = Vec::new();
            let mut shown = PieceView::from_piece(piece);
            if let Some(index) = checker {
                let cloaked = game.checkers.get(piece.color)[index].cloaked;
                let known =
                    (me == Some(piece.color) || game.outcome.is_some()) && game.placement.get(piece.color).is_some();
                if cloaked {
                    // A slate badge bottom left, clear of the rank numbers (top left).
                    let badge = MarkerDrawing::badge(Corner::BottomLeft, "#455a64", "C").rim("white");
                    markers.push(Marker::new("cloaked").colour(colour_word(piece.color)).drawn(badge));
                    if !known {
                        shown = PieceView::hidden(piece.color);
                    }
                }
                shown.label = Some((index + 1).to_string());
            }
            Some(SquareView { square: square.to_string(), piece: Some(shown), markers })
        })
        .collect();
    BoardView { files: 8, ranks: 8, active: None, squares }
}

/// The deduction grids (the viewer's own first), and the captured pieces.
fn tables(game: &CloakAndDagger, me: Option<Color>) -> Vec<TableView> {
    let order = match me {
        Some(color) => [color, color.other()],
        None => [Color::White, Color::Black],
    };
    let mut tables: Vec<TableView> = order
        .into_iter()
        .map(
            |color| {
                if game.outcome.is_some() {
                    revealed_grid(game, color)
                } else {
                    grid(game, color, me == Some(color))
                }
            },
        )
        .collect();
    tables.push(captured(game));
    tables
}

/// "Write a circle for each piece you know, and an X for each piece you
/// know is impossible. You might want to write X's for your own pieces as
/// your opponent learns which of your combinations are impossible." Rows
/// are the kinds, columns the checker numbers. The owner's grid has circles
/// for the true identities and X's for what the opponent has ruled out;
/// everyone else's has what the public clues and the Chess960 restrictions
/// prove.
fn grid(game: &CloakAndDagger, color: Color, own: bool) -> TableView {
    let public = game.clues.get(color).grid();
    let setup = game.placement.get(color).filter(|_| own);
    let rows = CHECKER_KINDS
        .iter()
        .enumerate()
        .map(|(row, &role)| {
            let mut cells = vec![role.upper_char().to_string()];
            for (checker, cell) in public[row].iter().enumerate() {
                let mark = match (setup, cell) {
                    (Some(setup), _) if setup[checker] == role => "O",
                    (Some(_), Cell::Impossible) => "X",
                    (Some(_), _) => "",
                    (None, Cell::Known) => "O",
                    (None, Cell::Impossible) => "X",
                    (None, Cell::Open) => "",
                };
                cells.push(mark.to_string());
            }
            cells
        })
        .collect();
    let title = if own {
        format!("{}'s checkers (yours: X where your opponent has ruled a piece out)", color_name(color))
    } else {
        format!("{}'s checkers (O known, X impossible)", color_name(color))
    };
    let mut columns = vec!["piece".to_string()];
    columns.extend((1..=8).map(|n| n.to_string()));
    TableView { title, columns, rows, drawn_as: None }
}

/// After the game: the true identities, O on each and X elsewhere.
fn revealed_grid(game: &CloakAndDagger, color: Color) -> TableView {
    let setup = game.placement.get(color);
    let rows = CHECKER_KINDS
        .iter()
        .map(|&role| {
            let mut cells = vec![role.upper_char().to_string()];
            cells.extend((0..8).map(|i| match setup {
                Some(setup) if setup[i] == role => "O".to_string(),
                Some(_) => "X".to_string(),
                None => String::new(),
            }));
            cells
        })
        .collect();
    let mut columns = vec!["piece".to_string()];
    columns.extend((1..=8).map(|n| n.to_string()));
    TableView {
        title: format!("{}'s checkers (revealed: the game is over)", color_name(color)),
        columns,
        rows,
        drawn_as: None,
    }
}

/// "If one of your checkers is captured, tell your opponent which piece
/// they captured": each player's captured checkers, and the pawns each may
/// take back with a bonus move.
fn captured(game: &CloakAndDagger) -> TableView {
    let rows = Color::ALL
        .into_iter()
        .map(|color| {
            let lost: Vec<String> = game
                .checkers
                .get(color)
                .iter()
                .enumerate()
                .filter(|(_, c)| c.square.is_none())
                .map(|(i, _)| {
                    let role = game.identity(color, i).map_or('?', |r| r.upper_char());
                    format!("{}={role}", i + 1)
                })
                .collect();
            vec![color_name(color).to_string(), lost.join(" "), game.hands.get(color).to_string()]
        })
        .collect();
    TableView {
        title: "Captured".to_string(),
        columns: vec!["player".to_string(), "checkers lost".to_string(), "pawns to take back".to_string()],
        rows,
        drawn_as: None,
    }
}

/// The viewer's own setup; once the game is over, both setups for everyone.
fn notes(game: &CloakAndDagger, me: Option<Color>) -> Vec<String> {
    if game.outcome.is_some() {
        return Color::ALL
            .into_iter()
            .filter_map(|color| {
                let setup = game.placement.get(color).as_ref()?;
                let names: Vec<&str> = setup.iter().map(|&r| role_name(r)).collect();
                Some(format!("{}'s checkers 1 to 8 were: {}.", color_name(color), names.join(", ")))
            })
            .collect();
    }
    let Some(color) = me else { return Vec::new() };
    match game.placement.get(color) {
        Some(setup) => {
            let letters: Vec<String> = setup.iter().map(|r| r.upper_char().to_string()).collect();
            vec![format!("Your checkers 1 to 8 are {} (they started on files a to h).", letters.join(" "))]
        }
        None => Vec::new(),
    }
}

/// What the viewer is asked to do, in words (the actions' labels say the
/// rest). During the secret placement everyone sees who is still placing.
fn prompt(game: &CloakAndDagger, me: Option<Color>) -> Option<String> {
    if game.outcome.is_some() {
        return None;
    }
    if game.step == Step::Setup {
        let placing: Vec<Color> = Color::ALL.into_iter().filter(|&c| game.placement.get(c).is_none()).collect();
        return Some(match (me, placing.as_slice()) {
            (Some(color), _) if placing.contains(&color) => "Place your checkers in secret: choose which piece \
                each of your checkers 1 to 8 is (checker 1 stands on the a-file, checker 8 on the h-file). Your \
                king must stand between your two rooks, and your bishops on squares of both colours."
                .to_string(),
            (Some(color), _) => format!("Waiting for {} to place their checkers.", color_name(color.other())),
            (None, [one]) => format!(
                "{} has placed their checkers; {} is still placing theirs, in secret.",
                color_name(one.other()),
                color_name(*one)
            ),
            (None, _) => "White and Black are both placing their checkers, in secret.".to_string(),
        });
    }
    let turn = game.pos.turn();
    if me != Some(turn) {
        return Some(format!("{} to play.", color_name(turn)));
    }
    Some(match game.step {
        Step::Start if game.bonus_for == Some(turn) => "Your opponent guessed wrong, so you may first make a \
            bonus move: a pawn move, or taking back one of your captured pawns onto your second rank. You keep \
            your turn after it. Guessing or moving first gives the bonus move up."
            .to_string(),
        Step::Start => {
            "Your turn: you may first guess what one of your opponent's cloaked checkers is, then make your move."
                .to_string()
        }
        Step::Guessed { correct: true } => {
            "Your guess was right: make your regular move, then you may make a bonus move.".to_string()
        }
        Step::Guessed { correct: false } => "Your guess was wrong: make your move.".to_string(),
        Step::Bonus => "Your guess was right: make your bonus move (a pawn move, or taking back one of your \
            captured pawns onto your second rank). Uncloaking a checker or ending your turn gives it up."
            .to_string(),
        Step::Uncloak | Step::Setup => {
            "End of your turn: you may uncloak any of your checkers, then end your turn.".to_string()
        }
    })
}
