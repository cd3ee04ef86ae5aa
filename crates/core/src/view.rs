//! The generic view: everything one viewer may know, as plain data any
//! client (browser, terminal, program) can draw without knowing the game.

use serde::{Deserialize, Serialize};

use crate::game::{Outcome, Seat, SeatInfo, Viewer};

/// What one viewer sees of a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct View {
    /// The registry name of the game (filled in by the session).
    #[serde(default)]
    pub variant: String,
    /// Who the view is for (filled in by the session); sent as `null`,
    /// never left out, when not filled in.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = false))]
    pub viewer: Option<Viewer>,
    #[serde(default)]
    pub seats: Vec<SeatInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardView>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub zones: Vec<CardZone>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub tables: Vec<TableView>,
    /// Moves and public announcements, as this viewer may see them.
    #[serde(default)]
    pub log: Vec<LogEntry>,
    /// Private notes for this viewer only ("you buried the pawn under c6").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub notes: Vec<String>,
    /// What the viewer must decide now, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Seats that must act now (filled in by the session).
    #[serde(default)]
    pub to_act: Vec<Seat>,
    /// The viewer's legal actions (filled in by the session).
    #[serde(default)]
    pub actions: Vec<ActionInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Squares of the last move, to highlight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub last_move: Vec<String>,
    /// The square of a king in check, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// The squares of the pieces that give that check, where the game can
    /// name them by the orthodox attack (chess): a client marks them with
    /// the king, so a checkmate shows what mates. Empty when the game does
    /// not say (its checks follow rules of its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub checkers: Vec<String>,
    /// The table actions this viewer may send now, by their text:
    /// "resign", "offer draw", "accept draw", "decline draw", "abort"
    /// (filled in by the session; see [`crate::session::TableAction`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub session_actions: Vec<String>,
    /// The seat whose draw offer is open (filled in by the session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Seat>,
    /// The table chat, read by everyone at the table and by spectators
    /// (filled in by the session; see [`crate::session::ChatLine`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub chat: Vec<crate::session::ChatLine>,
    /// Why the viewer may not speak at the table now, when the rules keep
    /// them silent (a secret choice under way: Telepathy's "Definitely
    /// none before your move", Split-Brain's "They may not say anything");
    /// `None` when the viewer may talk or is not a seat (filled in by the
    /// session from [`crate::game::Game::check_talk`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_closed: Option<String>,
    /// The game's clocks, for games played with one (the talking clock of
    /// Crowded House): a client counts the running one down from the
    /// moment the view arrives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub clocks: Vec<ClockView>,
}

/// One side's clock: its time left when the view was made, whether it is
/// running now, and the coins of its pile where the game keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct ClockView {
    /// Whose clock: "White", "Black".
    pub name: String,
    /// The seats that play on this clock.
    pub seats: Vec<Seat>,
    /// Milliseconds left when the view was made.
    pub remaining_ms: u64,
    /// Whether it is counting down now (one of its seats is to act).
    pub running: bool,
    /// Coins in this side's pile (the talking clock), each worth time
    /// when the flag falls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coins: Option<u32>,
    /// A word about the clock's state ("talk paid until you move").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A board: its size, the squares in play, and what stands on each square.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct BoardView {
    pub files: u8,
    pub ranks: u8,
    /// The squares in play when not the whole board (the 6x6 Los Alamos area).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<Vec<String>>,
    /// Only squares with a piece or a marker are listed.
    pub squares: Vec<SquareView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct SquareView {
    pub square: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<PieceView>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub markers: Vec<Marker>,
}

/// A piece as the viewer sees it: a role of `None` is a hidden piece (a
/// cloaked checker) whose identity the viewer does not know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct PieceView {
    pub colour: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// A short label drawn on the piece, e.g. a checker's number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Something drawn on a square besides the piece: a zombie coin, a stack of
/// checkers, the mirror side, a chosen piece, a circled square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct Marker {
    /// What the marker means, in a word ("zombie", "checkers", "mirror",
    /// "stacked", "chosen", "burial", "label", ...): for tests and clients
    /// that draw text (the terminal); a client that draws pictures draws
    /// `draw` instead, so it need not know the word.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// How the marker is drawn, in layers from the bottom up, as the game
    /// chooses (the game knows whether a coin lies under a piece or a frame
    /// goes round it). Empty: a client draws a plain badge of its text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub draw: Vec<MarkerDrawing>,
}

impl Marker {
    pub fn new(kind: &str) -> Marker {
        Marker { kind: kind.to_string(), colour: None, count: None, text: None, draw: Vec::new() }
    }

    pub fn colour(mut self, colour: &str) -> Marker {
        self.colour = Some(colour.to_string());
        self
    }

    pub fn count(mut self, count: u32) -> Marker {
        self.count = Some(count);
        self
    }

    pub fn text(mut self, text: &str) -> Marker {
        self.text = Some(text.to_string());
        self
    }

    /// A stack of `count` checkers of `colour` on the square, drawn as one.
    pub fn checkers(colour: &str, count: u32) -> Marker {
        let stack = MarkerDrawing::Stack { fill: colour.to_string(), text: count.to_string() };
        Marker::new("checkers").colour(colour).count(count).drawn(stack)
    }

    /// The marker drawn with `drawing` on top of its other layers.
    pub fn drawn(mut self, drawing: MarkerDrawing) -> Marker {
        self.draw.push(drawing);
        self
    }
}

/// One layer of a marker's picture on its square. Each says only a shape,
/// its place and its colours, so a client draws any game's markers without
/// knowing the game. Colours are the view's colour words ("white", "black",
/// "red", "blue", "green", "gold") or `#rrggbb`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum MarkerDrawing {
    /// A round badge with a short text in one corner of the square (a coin
    /// under a piece, a buried piece's letter), `rim` its edge.
    Badge {
        corner: Corner,
        fill: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rim: Option<String>,
        text: String,
    },
    /// A stack of discs with a count on it: small in a corner over a piece,
    /// large in the middle of an empty square.
    Stack { fill: String, text: String },
    /// A ring round the square; dashed, like a pencil line, when `dashed`.
    Ring {
        colour: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        dashed: bool,
    },
    /// A large disc on the square, with words under it (its first word
    /// on one line, the rest on the next).
    Disc { fill: String, text: String },
    /// A frame round the square with a tint of `fill` inside.
    Frame { fill: String, rim: String },
    /// A light tint of the whole square.
    Tint { fill: String },
}

/// A corner of a square, for a badge. A client's board writes the rank
/// numbers in the top left of the left-hand file and the file letters in the
/// bottom right of the first rank, so a badge that must stay clear of them
/// takes another corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Corner {
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
}

impl MarkerDrawing {
    /// A badge with `text` in `corner`, filled with `fill`.
    pub fn badge(corner: Corner, fill: &str, text: &str) -> MarkerDrawing {
        MarkerDrawing::Badge { corner, fill: fill.to_string(), rim: None, text: text.to_string() }
    }

    /// The same badge with an edge of `rim` (other drawings are unchanged).
    pub fn rim(self, rim: &str) -> MarkerDrawing {
        match self {
            MarkerDrawing::Badge { corner, fill, text, .. } => {
                MarkerDrawing::Badge { corner, fill, rim: Some(rim.to_string()), text }
            }
            other => other,
        }
    }

    /// A ring round the square, solid.
    pub fn ring(colour: &str) -> MarkerDrawing {
        MarkerDrawing::Ring { colour: colour.to_string(), dashed: false }
    }
}

/// Cards in one place: a hand, a pile, a line. Faces the viewer may not see
/// are only counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct CardZone {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Seat>,
    /// Visible faces in short card notation (`9h`, `10s`, `qh`), top last.
    pub cards: Vec<String>,
    /// How many face-down cards the zone also holds.
    #[serde(default)]
    pub hidden: usize,
}

/// A table of text: the Masquerade knowledge table, a score sheet. The
/// rows always say everything in words, for clients that draw text only
/// (the terminal); `drawn_as` tells a client that draws pictures how the
/// book lays the thing out on the table, so it need not know the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct TableView {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// How to draw the table as the thing it stands for; `None` is a plain
    /// table of text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn_as: Option<TableDrawing>,
}

impl TableView {
    /// A plain table of text.
    pub fn text(title: impl Into<String>, columns: Vec<String>, rows: Vec<Vec<String>>) -> TableView {
        TableView { title: title.into(), columns, rows, drawn_as: None }
    }

    /// The same table, drawn as `drawing`.
    pub fn drawn_as(mut self, drawing: TableDrawing) -> TableView {
        self.drawn_as = Some(drawing);
        self
    }
}

/// How a table is drawn when not as text. Each kind says what its cells
/// mean in general terms (places, pieces, counts), never which game it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableDrawing {
    /// A track of places beside the board: the columns are its places in
    /// order, and a coin lies on the place numbered `coin` (from 0), as
    /// Telepathy's coin lies beside the board.
    Track { coin: usize },
    /// Pieces in the cells of the listed `columns` and in the listed column
    /// `headers` (numbered from 0): each FEN letter (`p n b r q k`, upper
    /// case white, lower case black) is drawn as that piece, anything else
    /// (spaces, `?`) as written. With `colour` set, every letter is a piece
    /// of that colour whatever its case.
    Pieces {
        columns: Vec<usize>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        headers: Vec<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colour: Option<String>,
    },
    /// Counts drawn as stacks of pieces: each cell of `column` holds counts
    /// separated by spaces, one for each of `places` in order (the rows of
    /// a board, top down); each table row's pieces are of the colour of the
    /// same index in `colours`.
    Stacks { column: usize, places: Vec<String>, colours: Vec<String> },
}

/// One line of the game's story.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct LogEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub text: String,
    /// How many of the game's actions had been taken once this line was
    /// written: the view after that many actions (`GET
    /// /api/games/{id}/view?at=N`) is the first to show it, the position
    /// its move led to. A client steps through the moves by these (a draw
    /// offer or a chat line is an action but writes no line), and a click
    /// on a line of the move list goes there. Filled in by the session;
    /// `None` where it cannot tell, and for the table's ending line ("White
    /// resigns.", "Draw agreed."), which is no move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    /// The line tells that its seat made a choice the rules keep secret (a
    /// card played face down, a square circled, a piece buried) without
    /// saying what, so that a client can tell the others that something
    /// was chosen (the browser's sound for it) without knowing the game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    // `secret_choice?: boolean` in TypeScript: absent when false.
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub secret_choice: bool,
}

impl LogEntry {
    /// A line not yet placed among the actions (see [`LogEntry::at`]).
    pub fn new(seat: Option<Seat>, text: impl Into<String>) -> LogEntry {
        LogEntry { seat, text: text.into(), at: None, secret_choice: false }
    }
}

/// An action offered to a viewer, with its board geometry so a client can
/// offer it by drag, click or button.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct ActionInfo {
    /// The canonical action text to send back.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// A single square the action concerns (a burial, a checker placement).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<String>,
    /// A human label for a button ("Pass", "Bury under c6").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What taking this action means, for a client to show and have the
    /// player confirm before sending it: the action changes the game for
    /// good, and may end it (Neighbour's "Stop adding" with one piece on
    /// the board loses at once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
    /// How a client offers the action besides by its geometry (a drag from
    /// `from` to `to`, a click on `square`) or a button of its own: `None`
    /// when that is all. A client that draws pictures offers the actions
    /// that share a pick in the way it names, and lists them nowhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
}

/// How a client offers an action, declared by the game so that the client
/// need not read the action's text to know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pick {
    /// One of a named group of actions offered behind a single button
    /// captioned `caption` ("Make your bonus move…"); pressed, it lets the
    /// player choose one of the group's actions over the board (asking
    /// first, with their `confirm`, when they have one).
    Group { name: String, caption: String },
    /// A secret pairing of piece types with capture moves, chosen in a
    /// picture of both: the piece type of each FEN letter of `pieces`
    /// captures like the piece of the letter at the same place in
    /// `captures` (`KQRBN`, `RKNBQ`: the king captures like a rook, ...).
    Assignment { pieces: String, captures: String },
    /// A placement of the viewer's numbered pieces (those whose label is
    /// 1, 2, ...), chosen on the board: the piece labelled `n` becomes the
    /// piece of the `n`th FEN letter of `roles` (`RNBQKBNR`).
    Placement { roles: String },
}

impl ActionInfo {
    pub fn text_only(text: String) -> ActionInfo {
        ActionInfo { text, ..ActionInfo::default() }
    }
}

/// Who may read a journal entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    Everyone,
    Seats(Vec<Seat>),
}

/// A game's story with per-entry visibility: moves and announcements that
/// everyone hears, and private lines only some seats may read. An entry may
/// also be a turn's move, with its PGN token, so that a variant's PGN is
/// read from the same story its players read.
///
/// The session keeps the one journal of a game ([`crate::Session`]) and
/// hands it to each step of the game, which writes what the rules
/// announce; a game keeps none of its own. A [`Journal::muted`] one
/// records nothing, for the copies a computer searches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Journal {
    entries: Vec<JournalEntry>,
    /// Whether every line written is dropped (see [`Journal::muted`]).
    muted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct JournalEntry {
    audience: Audience,
    entry: LogEntry,
    /// The PGN move token, when this entry is the move of a turn.
    movetext: Option<String>,
}

impl Journal {
    /// A journal that records nothing: the story handed to a copy of a
    /// game that the computer searches, or that a test plays without
    /// reading its log, so that no step of a search builds a line.
    pub fn muted() -> Journal {
        Journal { entries: Vec::new(), muted: true }
    }

    /// Whether lines written here are dropped: a game may skip work that
    /// serves only the log (for a single line, the `_with` methods such as
    /// [`Journal::public_with`] already skip its wording).
    pub fn is_muted(&self) -> bool {
        self.muted
    }

    /// A line everyone reads. Like every eager method here, it converts
    /// `text` only when it will be kept (a `&str` costs no allocation in a
    /// muted journal); the `_with` methods also defer the wording.
    pub fn public(&mut self, seat: Option<Seat>, text: impl Into<String>) {
        self.public_with(seat, || text);
    }

    /// A line only the seats `to` read.
    pub fn private(&mut self, to: &[Seat], seat: Option<Seat>, text: impl Into<String>) {
        self.private_with(to, seat, || text);
    }

    /// The move of `seat`'s turn, public: `movetext` is its PGN token
    /// (`--` when nothing moved), `text` what the log says.
    pub fn public_move(&mut self, seat: Seat, movetext: impl Into<String>, text: impl Into<String>) {
        self.public_move_with(seat, || (movetext, text));
    }

    /// A public line saying that `seat` made a secret choice, without what
    /// (see [`LogEntry::secret_choice`]): "plays a card face down".
    pub fn public_secret_choice(&mut self, seat: Seat, text: impl Into<String>) {
        self.public_secret_choice_with(seat, || text);
    }

    /// [`Journal::public`] with the text worded only when it will be kept:
    /// a search applies its steps with a muted journal, and wording a line
    /// (the `format!` of names and squares) is most of what a muted line
    /// cost, so a game hands the wording over undone.
    pub fn public_with<S: Into<String>>(&mut self, seat: Option<Seat>, text: impl FnOnce() -> S) {
        self.push_with(|| JournalEntry {
            audience: Audience::Everyone,
            entry: LogEntry::new(seat, text()),
            movetext: None,
        });
    }

    /// [`Journal::private`] with the text worded only when it will be kept
    /// (see [`Journal::public_with`]).
    pub fn private_with<S: Into<String>>(&mut self, to: &[Seat], seat: Option<Seat>, text: impl FnOnce() -> S) {
        self.push_with(|| JournalEntry {
            audience: Audience::Seats(to.to_vec()),
            entry: LogEntry::new(seat, text()),
            movetext: None,
        });
    }

    /// [`Journal::public_move`] with the PGN token and the text worded only
    /// when they will be kept (see [`Journal::public_with`]): one closure
    /// gives both, as the token is often part of the text.
    pub fn public_move_with<M: Into<String>, S: Into<String>>(&mut self, seat: Seat, words: impl FnOnce() -> (M, S)) {
        self.push_with(|| {
            let (movetext, text) = words();
            JournalEntry {
                audience: Audience::Everyone,
                entry: LogEntry::new(Some(seat), text),
                movetext: Some(movetext.into()),
            }
        });
    }

    /// [`Journal::public_secret_choice`] with the text worded only when it
    /// will be kept (see [`Journal::public_with`]).
    pub fn public_secret_choice_with<S: Into<String>>(&mut self, seat: Seat, text: impl FnOnce() -> S) {
        self.push_with(|| {
            let entry = LogEntry { secret_choice: true, ..LogEntry::new(Some(seat), text()) };
            JournalEntry { audience: Audience::Everyone, entry, movetext: None }
        });
    }

    /// Keep the entry `build` makes, building it only when the journal is
    /// open: the one place a muted journal drops a line.
    fn push_with(&mut self, build: impl FnOnce() -> JournalEntry) {
        if !self.muted {
            self.entries.push(build());
        }
    }

    /// Drop the entries from the `len`th on: what a refused step wrote
    /// before it was refused, so that a refusal changes nothing.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
    }

    /// The entries `viewer` may read, in order.
    pub fn for_viewer(&self, viewer: Viewer, seats: &[SeatInfo]) -> Vec<LogEntry> {
        self.for_viewer_from(0, viewer, seats)
    }

    /// The entries `viewer` may read among those from the `from`th on (the
    /// journal's [`Journal::len`] at some earlier time): what was added
    /// since, with the cost of the new entries alone.
    pub fn for_viewer_from(&self, from: usize, viewer: Viewer, seats: &[SeatInfo]) -> Vec<LogEntry> {
        self.indexed_for_viewer_from(from, viewer, seats).into_iter().map(|(_, entry)| entry).collect()
    }

    /// [`Journal::for_viewer_from`], each entry with its index in the
    /// journal (so the session can tell which action wrote it).
    pub fn indexed_for_viewer_from(&self, from: usize, viewer: Viewer, seats: &[SeatInfo]) -> Vec<(usize, LogEntry)> {
        self.entries
            .iter()
            .enumerate()
            .skip(from)
            .filter(|(_, e)| match &e.audience {
                Audience::Everyone => true,
                Audience::Seats(allowed) => allowed.iter().any(|&s| viewer.includes(s, seats)),
            })
            .map(|(i, e)| (i, e.entry.clone()))
            .collect()
    }

    /// Every entry, secrets included, with its audience and move token: for
    /// exports once the game is over.
    pub fn entries(&self) -> impl Iterator<Item = (&Audience, &LogEntry, Option<&str>)> {
        self.entries.iter().map(|e| (&e.audience, &e.entry, e.movetext.as_deref()))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl BoardView {
    /// An 8x8 board view of the pieces on `board`, restricted to `mask`
    /// (the active squares are listed when the mask is not the whole board),
    /// with markers from `markers`.
    pub fn from_board(
        board: &shakmaty::Board,
        mask: shakmaty::Bitboard,
        markers: &dyn Fn(shakmaty::Square) -> Vec<Marker>,
    ) -> BoardView {
        let active = (mask != shakmaty::Bitboard::FULL).then(|| mask.into_iter().map(|sq| sq.to_string()).collect());
        let squares = shakmaty::Square::ALL
            .into_iter()
            .filter_map(|sq| {
                let piece = board.piece_at(sq).map(PieceView::from_piece);
                let markers = markers(sq);
                (piece.is_some() || !markers.is_empty()).then(|| SquareView { square: sq.to_string(), piece, markers })
            })
            .collect();
        BoardView { files: 8, ranks: 8, active, squares }
    }

    /// The view of one square, if listed.
    pub fn square(&self, name: &str) -> Option<&SquareView> {
        self.squares.iter().find(|s| s.square == name)
    }
}

impl PieceView {
    pub fn from_piece(piece: shakmaty::Piece) -> PieceView {
        PieceView {
            colour: piece.color.fold_wb("white", "black").to_string(),
            role: Some(crate::chess::diagram::role_name(piece.role).to_string()),
            label: None,
        }
    }

    /// A piece whose colour is known but whose identity is hidden.
    pub fn hidden(colour: shakmaty::Color) -> PieceView {
        PieceView { colour: colour.fold_wb("white", "black").to_string(), role: None, label: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The browser reads `drawn_as` by its `kind` alone (web/src/types.ts
    /// mirrors this shape); a plain table says nothing about drawing, so
    /// older clients and the terminal see the table they always saw.
    #[test]
    fn a_table_says_how_it_is_drawn_by_kind_and_a_plain_table_says_nothing() {
        let plain = TableView::text("Score", vec!["a".to_string()], vec![vec!["1".to_string()]]);
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            serde_json::json!({"title": "Score", "columns": ["a"], "rows": [["1"]]})
        );
        let track = plain.clone().drawn_as(TableDrawing::Track { coin: 2 });
        assert_eq!(serde_json::to_value(&track).unwrap()["drawn_as"], serde_json::json!({"kind": "track", "coin": 2}));
        let pieces = TableDrawing::Pieces { columns: vec![1], headers: vec![], colour: None };
        assert_eq!(serde_json::to_value(&pieces).unwrap(), serde_json::json!({"kind": "pieces", "columns": [1]}));
        let stacks =
            TableDrawing::Stacks { column: 4, places: vec!["row 1".to_string()], colours: vec!["white".to_string()] };
        let json = serde_json::to_string(&stacks).unwrap();
        assert_eq!(serde_json::from_str::<TableDrawing>(&json).unwrap(), stacks, "read back as written");
        let unknown = serde_json::from_str::<TableDrawing>(r#"{"kind": "spiral"}"#);
        assert!(unknown.is_err(), "an unknown drawing is refused, not guessed");
    }

    /// The browser draws a marker from its layers (`draw`) and offers an
    /// action as its `pick` says, each read by a tag (`shape`, `kind`)
    /// that names no game; a marker without layers and an action without
    /// a pick say nothing new, so their JSON is what it always was.
    #[test]
    fn markers_say_how_they_are_drawn_and_actions_how_they_are_picked_by_tag() {
        let plain = Marker::new("label").text("last");
        assert_eq!(serde_json::to_value(&plain).unwrap(), serde_json::json!({"kind": "label", "text": "last"}));
        let coin = Marker::new("zombie").drawn(MarkerDrawing::badge(Corner::BottomLeft, "gold", "Z").rim("#7a5c00"));
        assert_eq!(
            serde_json::to_value(&coin).unwrap()["draw"],
            serde_json::json!([{"shape": "badge", "corner": "bottom_left", "fill": "gold", "rim": "#7a5c00", "text": "Z"}])
        );
        let stack = Marker::checkers("red", 3);
        assert_eq!(
            serde_json::to_value(&stack).unwrap()["draw"],
            serde_json::json!([{"shape": "stack", "fill": "red", "text": "3"}])
        );
        assert_eq!(
            serde_json::to_value(MarkerDrawing::ring("green")).unwrap(),
            serde_json::json!({"shape": "ring", "colour": "green"})
        );
        let unknown = serde_json::from_str::<MarkerDrawing>(r#"{"shape": "spiral"}"#);
        assert!(unknown.is_err(), "an unknown shape is refused, not guessed");

        let button = ActionInfo::text_only("done".to_string());
        assert_eq!(serde_json::to_value(&button).unwrap(), serde_json::json!({"text": "done"}));
        let bonus = ActionInfo {
            pick: Some(Pick::Group { name: "bonus".to_string(), caption: "Make your bonus move…".to_string() }),
            ..ActionInfo::text_only("bonus e4e5".to_string())
        };
        assert_eq!(
            serde_json::to_value(&bonus).unwrap()["pick"],
            serde_json::json!({"kind": "group", "name": "bonus", "caption": "Make your bonus move…"})
        );
        let place = Pick::Placement { roles: "RNBQKBNR".to_string() };
        let json = serde_json::to_string(&place).unwrap();
        assert_eq!(serde_json::from_str::<Pick>(&json).unwrap(), place, "read back as written");
    }

    /// A client hears that a seat chose something in secret from the flag
    /// alone; every other line says nothing of it, so the JSON of ordinary
    /// lines is what it always was.
    #[test]
    fn a_secret_choice_is_marked_on_its_public_line_and_other_lines_say_nothing() {
        let mut journal = Journal::default();
        journal.public(Some(0), "e4");
        journal.public_secret_choice(1, "plays a card face down");
        let log = journal.for_viewer(Viewer::Spectator, &[]);
        assert_eq!(serde_json::to_value(&log[0]).unwrap(), serde_json::json!({"seat": 0, "text": "e4"}));
        assert_eq!(
            serde_json::to_value(&log[1]).unwrap(),
            serde_json::json!({"seat": 1, "text": "plays a card face down", "secret_choice": true})
        );
        let read: LogEntry = serde_json::from_str(r#"{"text": "e4"}"#).unwrap();
        assert!(!read.secret_choice, "a line without the flag is no secret choice");
    }

    /// Each way of writing a line, worded eagerly and lazily.
    fn write_every_kind(journal: &mut Journal, lazy: bool, worded: &mut u32) {
        let mut word = |text: &str| {
            *worded += 1;
            text.to_string()
        };
        if lazy {
            journal.public_with(Some(0), || word("announces"));
            journal.private_with(&[1], Some(1), || word("a secret"));
            journal.public_move_with(0, || (word("e2e4"), word("plays e4")));
            journal.public_secret_choice_with(1, || word("plays a card face down"));
        } else {
            journal.public(Some(0), word("announces"));
            journal.private(&[1], Some(1), word("a secret"));
            journal.public_move(0, word("e2e4"), word("plays e4"));
            journal.public_secret_choice(1, word("plays a card face down"));
        }
    }

    /// A search's journal is muted, and wording is most of what a muted
    /// line cost: the lazy methods must not word a line nobody keeps.
    #[test]
    fn a_muted_journal_never_words_a_lazy_line() {
        let mut journal = Journal::muted();
        let mut worded = 0;
        write_every_kind(&mut journal, true, &mut worded);
        assert_eq!(worded, 0, "no closure is called");
        write_every_kind(&mut journal, false, &mut worded);
        assert!(journal.is_empty(), "no line is kept, lazy or eager");
    }

    /// Worded lazily or eagerly, an open journal keeps the same entries.
    #[test]
    fn an_open_journal_keeps_the_same_entries_worded_lazily_or_eagerly() {
        let (mut lazy, mut eager) = (Journal::default(), Journal::default());
        let (mut lazily_worded, mut eagerly_worded) = (0, 0);
        write_every_kind(&mut lazy, true, &mut lazily_worded);
        write_every_kind(&mut eager, false, &mut eagerly_worded);
        assert_eq!(lazy.len(), 4);
        assert_eq!(lazy, eager);
        assert_eq!(lazily_worded, eagerly_worded, "each line is worded once");
    }
}
