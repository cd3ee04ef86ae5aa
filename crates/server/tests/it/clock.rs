//! The talking clock of Crowded House on the server: actions are stored
//! with their time, the view shows the clocks, and a flag falls while
//! nobody moves: the server's timer records the `flag` claim, so the game
//! ends on time for everyone watching and replays to the same ending.

use crate::common::{id, stored_actions, token, TestServer};
use axum::http::StatusCode;
use serde_json::json;

/// The start of Crowded House, as a text position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A Crowded House game with a one-minute clock and four people, from the
/// start with the clock lines `clock_lines` (time left, coins).
async fn clocked_game(server: &TestServer, clock_lines: &str) -> serde_json::Value {
    let position = format!("{START}\n{clock_lines}");
    server
        .create(json!({
            "variant": "crowded-house",
            "options": {"clock": 1},
            "position": position,
            "seats": ["human", "human", "human", "human"],
        }))
        .await
}

#[tokio::test]
async fn a_flag_falls_while_nobody_moves_and_the_server_records_it() {
    let server = TestServer::new().await;
    let game = clocked_game(&server, "clock: 60000 700").await;
    let g = id(&game);
    let view = server.view(&g, None).await;
    let clocks = view["view"]["clocks"].as_array().unwrap();
    assert_eq!(clocks.len(), 2);
    assert_eq!(clocks[1]["remaining_ms"], 700);
    assert_eq!(clocks[0]["running"], false, "the clocks start with the first move");

    let (status, reply) = server.act(&g, &token(&game, 0), "e4").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["view"]["clocks"][1]["running"], true, "Black's clock runs");
    // Nobody moves: Black's 0.7 s run out and the timer claims the flag.
    server.wait_for_version(&g, 2).await;
    let over = server.view(&g, None).await;
    assert_eq!(over["view"]["outcome"], json!({"winners": [0, 2], "reason": "time forfeit"}), "{over}");
    let log = over["view"]["log"].as_array().unwrap();
    assert!(log.last().unwrap()["text"].as_str().unwrap().contains("Black loses on time"), "{over}");
    assert_eq!(stored_actions(&server.db(), &g), [(0, "e2e4".to_string()), (1, "flag".to_string())]);
    let stored = chesskit_server::store::read_games(&server.db()).unwrap();
    let record = &stored.iter().find(|s| s.id == g).unwrap().record;
    let (moved, flag) = (record.actions[0].ms.unwrap(), record.actions[1].ms.unwrap());
    assert!(flag >= moved + 700, "the claim is stamped after the fall: {moved} then {flag}");
    let replayed = chesskit_games::replay(record).unwrap();
    assert_eq!(
        replayed.to_act().outcome().unwrap().reason,
        "time forfeit",
        "the stored log replays to the same ending"
    );

    let (status, reply) = server.act(&g, &token(&game, 1), "e5").await;
    assert_eq!(status, StatusCode::CONFLICT, "{reply}");
}

#[tokio::test]
async fn a_move_in_time_moves_the_deadline_and_the_old_timer_claims_nothing() {
    let server = TestServer::new().await;
    let game = clocked_game(&server, "clock: 60000 60000\ncoins: 0 0").await;
    let g = id(&game);
    for (seat, action) in [(0, "e4"), (1, "say quick"), (1, "e5")] {
        let (status, reply) = server.act(&g, &token(&game, seat), action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
    }
    let view = server.view(&g, None).await;
    assert_eq!(view["view"]["clocks"][0]["coins"], 1, "Black's talk gave White a coin: {view}");
    let (status, reply) = server.act(&g, &token(&game, 1), "flag").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "no flag is down: {reply}");
    assert!(reply["error"].as_str().unwrap_or_default().contains("no flag has fallen"), "{reply}");
    assert_eq!(server.version(&g).await, 3);
}

#[tokio::test]
async fn a_computer_on_the_clock_spends_a_share_of_its_time_and_moves_before_its_flag() {
    let server = TestServer::new().await;
    // Black's team, two computers at level 8, has 0.7 s: less than level
    // 8's own time a decision (0.9 s), so a fixed level time would flag.
    let position = format!("{START}\nclock: 60000 700");
    let game = server
        .create(json!({
            "variant": "crowded-house",
            "options": {"clock": 1},
            "position": position,
            "seats": ["human", "computer:level8", "human", "computer:level8"],
        }))
        .await;
    let g = id(&game);
    let (status, reply) = server.act(&g, &token(&game, 0), "e4").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    server.wait_for_version(&g, 2).await;
    let view = server.view(&g, None).await;
    assert_eq!(view["view"]["outcome"], serde_json::Value::Null, "Black moved in time: {view}");
    let stored = chesskit_server::store::read_games(&server.db()).unwrap();
    let record = &stored.iter().find(|s| s.id == g).unwrap().record;
    assert_eq!(record.actions.len(), 2, "{:?}", record.actions);
    assert_ne!(record.actions[1].action, "flag", "{:?}", record.actions);
    let (moved, answered) = (record.actions[0].ms.unwrap(), record.actions[1].ms.unwrap());
    assert!(answered < moved + 700, "the game's own stamps: {moved} then {answered}");
}
