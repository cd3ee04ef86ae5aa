// The data the server sends: chesskit_core::view::View and the HTTP API's
// bodies (docs/api.md). The declarations are generated from the Rust types
// into types.gen.ts (docs/web.md, "Types from the Rust code"), and a test
// fails when they differ; this file gives them the names the client uses
// and keeps by hand only what has no Rust twin.

export type {
  ActionInfo,
  FilledSeat,
  LobbyGame,
  LobbySeat,
  BoardView,
  CardZone,
  ChatLine,
  ClockView,
  Corner,
  LogEntry,
  Marker,
  MarkerDrawing,
  OptionKind,
  OptionSpec,
  Outcome,
  PieceView,
  Pick,
  RematchSeat,
  SeatInfo,
  SeatSummary,
  ServerMessage,
  SquareView,
  TakenSeatReply,
  TableDrawing,
  TableView,
  View,
  Viewer,
} from './types.gen.ts';
export type {
  /** A variant as `GET /api/variants` lists it (the server's variants::Listed). */
  Listed as VariantInfo,
  /** The answer of `GET /api/games/{id}/analysis` (the server's analysis::AnalysisReply). */
  AnalysisReply as Analysis,
  /** The answer of `POST /api/games` (the server's games::Created). */
  Created as CreatedGame,
  CreatedSeat,
  /** The answer of `GET /api/games/{id}` (the server's games::Summary). */
  Summary as GameInfo,
  /** The answer of `GET /api/games/{id}/view` (the server's games::SeatView). */
  SeatView as ViewResponse,
  /** The answer of `POST /api/games/{id}/actions` (the server's games::ActionReply). */
  ActionReply as ActionResponse,
  /** One of `GET /api/variants/{name}/examples` (the server's examples::ExampleInfo). */
  ExampleInfo as BookExample,
  /** The answer of `POST /api/variants/{name}/examples/{index}` (the server's examples::AttemptReply). */
  AttemptReply as ExampleAnswer,
} from './types.gen.ts';
import type { View } from './types.gen.ts';

/** A seat at the table, numbered from 0: core's `Seat`, a Rust type alias, which ts-rs cannot declare. */
export type Seat = number;

/**
 * How a seat is filled when a game is created: "human", "open", "computer"
 * or "computer:LEVEL". The server keeps it as a string (server's
 * state::SeatKind parses it), so the generated types say `string`.
 */
export type SeatKind = string;

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
