// The data the server sends: chesskit_core::view::View and the HTTP API's
// bodies (docs/api.md), as TypeScript types. Field names follow the Rust
// serialisation; optional fields are the ones the server skips when empty.

export type Seat = number;

export interface SeatInfo {
  name: string;
  colour?: string;
  team?: number;
}

export interface Outcome {
  /** Winning seats; empty for a draw. */
  winners: Seat[];
  reason: string;
  scores?: number[];
}

/** `{"seat": 0}`, `{"team": 1}` or `"spectator"`. */
export type Viewer = { seat: Seat } | { team: number } | 'spectator';

export interface PieceView {
  colour: string;
  /** Absent for a hidden piece whose identity the viewer does not know. */
  role?: string;
  label?: string;
}

export interface Marker {
  /** "zombie", "checkers", "mirror", "stacked", "chosen", "burial", "label", ... */
  kind: string;
  colour?: string;
  count?: number;
  text?: string;
}

export interface SquareView {
  square: string;
  piece?: PieceView;
  markers?: Marker[];
}

export interface BoardView {
  files: number;
  ranks: number;
  /** The squares in play when not the whole board. */
  active?: string[];
  squares: SquareView[];
}

export interface CardZone {
  name: string;
  owner?: Seat;
  /** Visible faces in short notation (`9h`, `10s`, `qh`), top last. */
  cards: string[];
  /** Face-down cards, only counted. */
  hidden: number;
}

export interface TableView {
  title: string;
  columns: string[];
  rows: string[][];
  /** How to draw it as the thing the book keeps on the table; absent: a table of text. */
  drawn_as?: TableDrawing;
}

/**
 * How a table is drawn (core's view::TableDrawing), by what its cells mean,
 * never by game. The rows still say everything in text.
 */
export type TableDrawing =
  /** The columns are the places of a track, in order; a coin lies on place `coin` (from 0). */
  | { kind: 'track'; coin: number }
  /**
   * In the cells of `columns` and the headers listed in `headers`, each FEN
   * letter is a piece (upper case white, lower case black; all of `colour`
   * when given); anything else is written as is.
   */
  | { kind: 'pieces'; columns: number[]; headers?: number[]; colour?: string }
  /** Each cell of `column` holds counts, one per place, drawn as stacks of pieces of the row's colour in `colours`. */
  | { kind: 'stacks'; column: number; places: string[]; colours: string[] };

export interface LogEntry {
  seat?: Seat;
  text: string;
  /** How many actions had been taken once this line was written: the view `at` that many shows its move (core's view::LogEntry::at). */
  at?: number;
  /** The line tells that its seat made a secret choice, without what (core's view::LogEntry::secret_choice). */
  secret_choice?: boolean;
}

export interface ActionInfo {
  /** The canonical text to send back. */
  text: string;
  from?: string;
  to?: string;
  square?: string;
  card?: string;
  promotion?: string;
  label?: string;
  /** What taking it means, shown for the player to confirm before it is sent (core's view::ActionInfo::confirm). */
  confirm?: string;
}

export interface View {
  variant: string;
  viewer?: Viewer | null;
  seats: SeatInfo[];
  board?: BoardView;
  zones?: CardZone[];
  tables?: TableView[];
  log: LogEntry[];
  notes?: string[];
  prompt?: string;
  to_act: Seat[];
  actions: ActionInfo[];
  outcome?: Outcome;
  last_move?: string[];
  check?: string;
  /** The squares of the pieces giving that check, where the game names them (core's view::View::checkers). */
  checkers?: string[];
  /** Table actions this viewer may send now: "resign", "offer draw", "accept draw", "decline draw", "abort" (docs/api.md, "Table actions"). */
  session_actions?: string[];
  /** The seat whose draw offer is open. */
  draw_offer?: Seat;
  /** The table chat, public to everyone (core's session::ChatLine). */
  chat?: ChatLine[];
  /** Why this seat may not talk now (a secret choice under way), when the rules keep it silent. */
  chat_closed?: string;
  /** The game's clocks, when it is played on time (core's view::ClockView). */
  clocks?: ClockView[];
}

/** One side's clock: time left when the view was made; the running one counts down. */
export interface ClockView {
  name: string;
  seats: Seat[];
  remaining_ms: number;
  running: boolean;
  /** Coins in the side's pile (Crowded House's talking clock). */
  coins?: number;
  note?: string;
}

/** One line of the table chat: `at` is the number of log actions before it. */
export interface ChatLine {
  seat: Seat;
  text: string;
  at: number;
}

export type OptionSpec = {
  name: string;
  default: unknown;
  help: string;
  /** Tucked behind the lobby's "More options" (Golf's solver nodes). */
  advanced?: boolean;
  /** The option's name in words for the form ("Number of players"). */
  label?: string;
} & (
  | { type: 'bool' }
  | { type: 'int'; min: number; max: number }
  | { type: 'choice'; choices: string[] }
  | { type: 'text' }
);

export interface VariantInfo {
  name: string;
  title: string;
  seats: string[];
  options: OptionSpec[];
  experimental: boolean;
  hidden_information: boolean;
  /** Whether its games export as PGN. */
  pgn: boolean;
  summary: string;
  /** Whether its finished games have an analysis (`GET /api/games/{id}/analysis`). */
  analysis?: boolean;
  /** The fewest and the most players (an option may set how many: Chess Golf's 1 to 8). */
  min_players?: number;
  max_players?: number;
}

/** What the server's solver says of a finished game's deal (`GET /api/games/{id}/analysis`). */
export interface Analysis {
  /** `line_found`, `no_line_exists` or `ran_out`. */
  verdict: string;
  /** The verdict in words, for the player. */
  words: string;
  score: number | null;
  proven: boolean;
  /** The best line found, from the deal's start. */
  line: string[];
  nodes: number;
  node_limit: number;
}

/** How a seat is filled when a game is created. */
export type SeatKind = string; // "human" | "open" | "computer" | "computer:LEVEL"

export interface CreatedSeat {
  seat: Seat;
  name: string;
  kind: SeatKind;
  token?: string;
  invite?: string;
}

export interface CreatedGame {
  id: string;
  variant: string;
  seats: CreatedSeat[];
}

/** A seat as the game's summary and the view response describe it. */
export interface SeatSummary {
  seat: Seat;
  name: string;
  kind: SeatKind;
  /**
   * Human and open seats: whether a client with the seat's token has come
   * (fetched a view, connected, acted). Absent for computer seats, and
   * from servers that do not tell.
   */
  joined?: boolean;
}

export interface GameInfo {
  id: string;
  variant: string;
  title: string;
  seats: SeatSummary[];
  over: boolean;
  outcome: Outcome | null;
  /** The seats that must act now. */
  to_act?: Seat[];
  /** Unix seconds. */
  created: number;
  /** Unix seconds of the last accepted action (creation time if none); absent from older servers. */
  updated?: number;
  /** Once the game is over and a seat started its rematch: the rematch's id. */
  rematch?: string;
}

export interface ViewResponse {
  id: string;
  variant: string;
  title: string;
  seat: Seat | null;
  /** Every seat, with whether its player has joined. */
  seats?: SeatSummary[];
  version: number;
  /** Present when `view` is the change since this version (see `applyChange`). */
  from?: number;
  view: View;
}

export interface ActionResponse {
  action: string;
  version: number;
  /** Present when `view` is the change since this version (see `applyChange`). */
  from?: number;
  view: View;
}

/** Messages the game's WebSocket sends. */
export type ServerMessage =
  | { type: 'view'; version: number; view: View }
  /** The view of `version` as the change from `from`: only the log entries and chat lines added since. */
  | { type: 'change'; from: number; version: number; view: View }
  | { type: 'ack'; action: string; version?: number }
  | { type: 'error'; error: string; status?: number };

/**
 * The view a change leads to, from the view `held` of the version the change
 * is from: everything as the change has it, the log and the chat appended.
 */
export function applyChange(held: View, change: View): View {
  return {
    ...change,
    log: [...held.log, ...change.log],
    chat: [...(held.chat ?? []), ...(change.chat ?? [])],
  };
}
