//! The table actions (resign, draw offers, abort) over HTTP and the
//! WebSocket, the view of the past (`at=N`), `updated`, and the PGN's
//! date and players: docs/api.md.

use crate::common::{id, stored_actions, token, TestServer};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// Stop a server without any shutdown step, as a crash would, keeping its directory.
fn crash(server: TestServer) -> tempfile::TempDir {
    let TestServer { dir, state, app } = server;
    drop(app);
    drop(state);
    dir
}

/// A chess game between two people who have both come (each fetched a view).
async fn two_players(server: &TestServer) -> (String, String, String) {
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    server.view(&g, Some(&white)).await;
    server.view(&g, Some(&black)).await;
    (g, white, black)
}

fn session_actions(view: &Value) -> Vec<String> {
    match view["view"].get("session_actions") {
        None => Vec::new(),
        Some(list) => list.as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect(),
    }
}

async fn summary(server: &TestServer, g: &str) -> Value {
    let (status, summary) = server.json("GET", &format!("/api/games/{g}"), None).await;
    assert_eq!(status, StatusCode::OK);
    summary
}

#[tokio::test]
async fn a_resignation_ends_the_game_for_the_other_side_and_survives_a_restart() {
    let server = TestServer::new().await;
    let (g, white, black) = two_players(&server).await;
    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(session_actions(&server.view(&g, Some(&black)).await), ["resign", "offer draw"]);
    let (status, reply) = server.act(&g, &black, "resign").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["action"], "resign");
    assert_eq!(reply["version"], 2);
    assert_eq!(reply["view"]["outcome"], json!({"winners": [0], "reason": "resignation"}));
    assert!(reply["view"].get("session_actions").is_none(), "a game over offers nothing: {reply}");
    assert_eq!(reply["view"]["log"].as_array().unwrap().last().unwrap()["text"], "Black resigns.");
    assert_eq!(stored_actions(&server.db(), &g), [(0, "e2e4".to_string()), (1, "resign".to_string())]);
    let over = summary(&server, &g).await;
    assert_eq!(over["over"], true);
    assert_eq!(over["outcome"]["reason"], "resignation");
    for action in ["resign", "offer draw", "e5"] {
        let (status, reply) = server.act(&g, &white, action).await;
        assert_eq!(status, StatusCode::CONFLICT, "{action}: {reply}");
        assert_eq!(reply["error"], "the game is over");
    }
    let (_, pgn) = server.send("GET", &format!("/api/games/{g}/export?format=pgn"), None).await;
    assert!(pgn.contains("[Result \"1-0\"]") && pgn.contains("[Termination \"resignation\"]"), "{pgn}");
    assert!(pgn.ends_with("1. e4 {Black resigns.} 1-0\n"), "{pgn}");

    let web = server.dir.path().join("no-client");
    let server = TestServer::open(crash(server), web).await;
    assert_eq!(summary(&server, &g).await, over, "the log replays to the same ending");
}

#[tokio::test]
async fn a_draw_is_offered_then_accepted_or_declined_by_the_other_side() {
    let server = TestServer::new().await;
    let (g, white, black) = two_players(&server).await;
    let (status, reply) = server.act(&g, &white, "Offer Draw").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["action"], "offer draw", "the canonical text");
    assert_eq!(reply["view"]["draw_offer"], 0);
    assert_eq!(session_actions(&reply), ["resign"]);
    let seen = server.view(&g, Some(&black)).await;
    assert_eq!(seen["view"]["draw_offer"], 0);
    assert_eq!(session_actions(&seen), ["resign", "accept draw", "decline draw"]);
    assert_eq!(server.view(&g, None).await["view"]["draw_offer"], 0, "spectators see the offer");
    let (status, reply) = server.act(&g, &black, "decline draw").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(reply["view"].get("draw_offer").is_none(), "{reply}");

    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(server.act(&g, &white, "offer draw").await.0, StatusCode::OK, "out of turn is fine");
    let (status, reply) = server.act(&g, &black, "accept draw").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["view"]["outcome"], json!({"winners": [], "reason": "draw agreed"}));
    let actions: Vec<String> = stored_actions(&server.db(), &g).into_iter().map(|(_, a)| a).collect();
    assert_eq!(actions, ["offer draw", "decline draw", "e2e4", "offer draw", "accept draw"]);
    let (_, pgn) = server.send("GET", &format!("/api/games/{g}/export?format=pgn"), None).await;
    assert!(pgn.contains("[Result \"1/2-1/2\"]") && pgn.ends_with("{Draw agreed.} 1/2-1/2\n"), "{pgn}");
}

#[tokio::test]
async fn table_actions_that_do_not_fit_are_refused_and_change_nothing() {
    let server = TestServer::new().await;
    let (g, white, black) = two_players(&server).await;
    let refusals = [
        (&black, "accept draw", "illegal action \"accept draw\": no draw offer is open"),
        (&black, "decline draw", "illegal action \"decline draw\": no draw offer is open"),
    ];
    for (token, action, error) in refusals {
        let (status, reply) = server.act(&g, token, action).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
        assert_eq!(reply["error"], error);
    }
    server.act(&g, &white, "offer draw").await;
    let before = server.view(&g, Some(&white)).await;
    let refusals = [
        (&white, "offer draw", "White's draw offer is still open"),
        (&white, "accept draw", "the draw offer is your own side's; the other side answers it"),
        (&black, "offer draw", "White has offered a draw: accept or decline it"),
    ];
    for (token, action, error) in refusals {
        let (status, reply) = server.act(&g, token, action).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
        assert!(reply["error"].as_str().unwrap().ends_with(error), "{reply}");
    }
    assert_eq!(server.view(&g, Some(&white)).await, before);
    assert_eq!(stored_actions(&server.db(), &g).len(), 1);
    // The offering side's move withdraws its offer.
    server.act(&g, &white, "e4").await;
    assert!(server.view(&g, Some(&black)).await["view"].get("draw_offer").is_none());
    let (status, _) = server.act(&g, &black, "accept draw").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_game_is_aborted_only_while_a_player_has_never_come() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    assert_eq!(session_actions(&server.view(&g, Some(&white)).await), ["resign", "offer draw", "abort"]);
    server.act(&g, &white, "e4").await;
    assert!(session_actions(&server.view(&g, Some(&white)).await).contains(&"abort".to_string()));
    // Black comes: nobody is missing, so there is nothing to abort.
    let black_view = server.view(&g, Some(&black)).await;
    assert!(!session_actions(&black_view).contains(&"abort".to_string()), "White has acted: {black_view}");
    assert_eq!(session_actions(&server.view(&g, Some(&white)).await), ["resign", "offer draw"]);
    let (status, reply) = server.act(&g, &white, "abort").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply["error"].as_str().unwrap().contains("only while another player has never come"), "{reply}");
    assert_eq!(stored_actions(&server.db(), &g).len(), 1);
    let (status, reply) = server.act(&g, &black, "abort").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply["error"].as_str().unwrap().ends_with("only while the other side has not yet acted"), "{reply}");
    let golf = server.create(json!({"variant": "golf", "options": {"players": 1}})).await;
    let (status, reply) = server.act(&id(&golf), &token(&golf, 0), "resign").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply["error"], "illegal action \"resign\": Chess Golf is not played by two sides");
    assert!(server.view(&id(&golf), Some(&token(&golf, 0))).await["view"].get("session_actions").is_none());

    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white) = (id(&game), token(&game, 0));
    server.act(&g, &white, "e4").await;
    let (status, reply) = server.act(&g, &white, "abort").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["view"]["outcome"], json!({"winners": [], "reason": "aborted"}));
    let (_, pgn) = server.send("GET", &format!("/api/games/{g}/export?format=pgn"), None).await;
    assert!(pgn.contains("[Result \"*\"]") && pgn.contains("[Termination \"aborted\"]"), "{pgn}");
    let web = server.dir.path().join("no-client");
    let server = TestServer::open(crash(server), web).await;
    assert_eq!(summary(&server, &g).await["outcome"]["reason"], "aborted");
}

#[tokio::test]
async fn a_computer_declines_a_draw_and_a_game_against_it_is_not_aborted() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer:random"]})).await;
    let (g, white) = (id(&game), token(&game, 0));
    assert_eq!(session_actions(&server.view(&g, Some(&white)).await), ["resign", "offer draw"]);
    let (status, reply) = server.act(&g, &white, "offer draw").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["version"], 2, "the offer and the computer's answer");
    assert!(reply["view"].get("draw_offer").is_none(), "{reply}");
    assert_eq!(stored_actions(&server.db(), &g), [(0, "offer draw".to_string()), (1, "decline draw".to_string())]);
    let (status, _) = server.act(&g, &white, "abort").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn the_table_chat_is_stored_read_by_everyone_and_does_not_stop_the_computer() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer:random"]})).await;
    let (g, white) = (id(&game), token(&game, 0));
    let (status, reply) = server.act(&g, &white, "say  good luck ").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["action"], "say good luck");
    assert_eq!(reply["view"]["chat"], json!([{"seat": 0, "text": "good luck", "at": 0}]));
    let watched = server.view(&g, None).await;
    assert_eq!(watched["view"]["chat"][0]["text"], "good luck", "spectators read the chat: {watched}");
    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    server.wait_for_version(&g, 3).await;
    let actions = stored_actions(&server.db(), &g);
    assert_eq!(actions[..2], [(0, "say good luck".to_string()), (0, "e2e4".to_string())]);
    assert_eq!(actions[2].0, 1, "the computer answered the move: {actions:?}");
    let (status, reply) = server.act(&g, &white, "say").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "an empty line is refused: {reply}");
    assert_eq!(stored_actions(&server.db(), &g).len(), 3, "and nothing was stored");
}

/// Telepathy's "Definitely none before your move": the server refuses a
/// chat line of the team to move with the book's reason, stores nothing,
/// and the seat's view says why its chat is closed.
#[tokio::test]
async fn no_talking_before_your_move_in_telepathy_is_refused_with_the_reason_and_stores_nothing() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "telepathy", "seats": ["human", "open", "open", "open"]})).await;
    let (g, white_a, black_a) = (id(&game), token(&game, 0), token(&game, 1));
    let (status, reply) = server.act(&g, &white_a, "say I'll predict the knight").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("Definitely none before your move"), "{reply}");
    assert!(stored_actions(&server.db(), &g).is_empty(), "nothing was stored");
    let seen = server.view(&g, Some(&white_a)).await;
    assert!(seen["view"]["chat_closed"].as_str().unwrap().contains("no talking before your move"), "{seen}");
    assert!(seen["view"].get("chat").is_none(), "{seen}");
    let theirs = server.view(&g, Some(&black_a)).await;
    assert!(theirs["view"].get("chat_closed").is_none(), "Black's team may talk: {theirs}");
    assert!(server.view(&g, None).await["view"].get("chat_closed").is_none(), "a spectator has no chat box");
    let (status, reply) = server.act(&g, &black_a, "say good luck").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(stored_actions(&server.db(), &g), [(1, "say good luck".to_string())]);
}

#[tokio::test]
async fn the_token_may_come_in_the_query() {
    let server = TestServer::new().await;
    let (g, white, black) = two_players(&server).await;
    let uri = format!("/api/games/{g}/actions?token={white}");
    let (status, reply) = server.json("POST", &uri, Some(json!({"action": "resign"}))).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["view"]["outcome"]["winners"], json!([1]));
    let (status, reply) = server.json("POST", &uri, Some(json!({"action": "resign", "token": black}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    assert_eq!(reply["error"], "the query and the body name different tokens");
}

/// Every seat's and the spectator's `at=N` view equals what it was shown
/// live after N actions, in a game that hides information (Zombie Chess:
/// burials are private), including a table action.
#[tokio::test]
async fn a_view_of_the_past_is_the_view_the_viewer_had_then() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "zombie", "seed": 3, "seats": ["human", "open"]})).await;
    let (g, tokens) = (id(&game), [token(&game, 0), token(&game, 1)]);
    let viewers = [Some(tokens[0].as_str()), Some(tokens[1].as_str()), None];
    let mut live: Vec<Vec<(Value, Value)>> = Vec::new();
    let snapshot =
        |views: Vec<Value>| views.into_iter().map(|v| (v["version"].clone(), v["view"].clone())).collect::<Vec<_>>();
    // Both players come first: "abort" is offered by who has come now, not then.
    for token in &tokens {
        server.view(&g, Some(token)).await;
    }
    let mut views = Vec::new();
    for viewer in viewers {
        views.push(server.view(&g, viewer).await);
    }
    live.push(snapshot(views));
    let mut rng = chesskit_core::GameRng::from_seed(7);
    for step in 0..24 {
        let view = server.view(&g, None).await;
        if view["view"]["outcome"].is_object() {
            break;
        }
        let seat = view["view"]["to_act"][0].as_u64().unwrap() as usize;
        let action = if step == 5 {
            "offer draw".to_string()
        } else {
            let mine = server.view(&g, Some(&tokens[seat])).await;
            let actions = mine["view"]["actions"].as_array().unwrap().clone();
            actions[rng.below(actions.len())]["text"].as_str().unwrap().to_string()
        };
        let (status, reply) = server.act(&g, &tokens[seat], &action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
        let mut views = Vec::new();
        for viewer in viewers {
            views.push(server.view(&g, viewer).await);
        }
        live.push(snapshot(views));
    }
    assert!(live.len() > 10, "the game went on");
    for (n, seen) in live.iter().enumerate() {
        for (viewer, (version, view)) in viewers.iter().zip(seen) {
            let query = viewer.map(|t| format!("token={t}&")).unwrap_or_default();
            let (status, past) = server.json("GET", &format!("/api/games/{g}/view?{query}at={n}"), None).await;
            assert_eq!(status, StatusCode::OK, "{past}");
            assert_eq!(&past["version"], version);
            assert_eq!(past["version"], n);
            assert_eq!(&past["view"], view, "viewer {viewer:?} after {n} actions");
        }
    }
    let version = live.len() - 1;
    let (status, reply) = server.json("GET", &format!("/api/games/{g}/view?at={}", version + 1), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply["error"],
        format!("at={} is beyond this game's {version} actions (use 0 to {version})", version + 1)
    );
    let (status, _) = server.json("GET", &format!("/api/games/{g}/view?at=-1"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server.json("GET", &format!("/api/games/{g}/view?token=nope&at=0"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a wrong token is refused for the past too");
}

#[tokio::test]
async fn updated_is_the_time_of_the_last_action_and_survives_a_restart() {
    let server = TestServer::new().await;
    let (g, white, _) = two_players(&server).await;
    let fresh = summary(&server, &g).await;
    assert_eq!(fresh["updated"], fresh["created"], "no action yet");
    server.act(&g, &white, "e4").await;
    let after = summary(&server, &g).await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let updated = after["updated"].as_u64().unwrap();
    assert!(updated >= fresh["created"].as_u64().unwrap() && updated <= now, "{after}");
    let web = server.dir.path().join("no-client");
    let server = TestServer::open(crash(server), web).await;
    assert_eq!(summary(&server, &g).await["updated"], after["updated"]);
}

#[tokio::test]
async fn updated_comes_from_the_stored_action_times() {
    use chesskit_core::ActionRecord;
    use chesskit_server::store::{Store, StoredGame};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chesskit.db");
    let record = crate::common::chess_after_e4();
    let (store, _) = Store::open(&db).unwrap();
    let game = StoredGame {
        id: "g".into(),
        record,
        seat_kinds: vec!["human".into(), "human".into()],
        seat_tokens: vec![Some("a".into()), Some("b".into())],
        created: 1_000,
        updated: 2_000,
    };
    store.insert_game(game.clone()).await.unwrap();
    store.append_action("g", 1, &ActionRecord::new(1, "e7e5"), 3_000).await.unwrap();
    drop(store);
    let loaded = chesskit_server::store::read_games(&db).unwrap();
    assert_eq!((loaded[0].created, loaded[0].updated), (1_000, 3_000));
}

/// A database of schema 1 (no action times) is upgraded: its games were
/// last updated, as far as anyone knows, when created, and their old
/// actions have no game time (they replay as taking none).
#[tokio::test]
async fn a_schema_1_database_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chesskit.db");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT NOT NULL,
                seed INTEGER NOT NULL, position TEXT, seat_kinds TEXT NOT NULL, seat_tokens TEXT NOT NULL,
                created INTEGER NOT NULL);
             CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
                seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (game_id, idx)) WITHOUT ROWID;
             INSERT INTO games VALUES ('old', 'chess', '{}', 1, NULL, '[\"human\",\"human\"]', '[\"ta\",\"tb\"]', 1000);
             INSERT INTO actions VALUES ('old', 0, 0, 'e2e4');
             PRAGMA user_version=1;",
        )
        .unwrap();
    }
    let server = TestServer::open(dir, std::path::PathBuf::from("no-client")).await;
    let old = summary(&server, "old").await;
    assert_eq!((old["created"].clone(), old["updated"].clone()), (json!(1000), json!(1000)));
    assert_eq!(server.act("old", "tb", "e5").await.0, StatusCode::OK);
    assert!(summary(&server, "old").await["updated"].as_i64().unwrap() > 1000);
    let conn = rusqlite::Connection::open(server.db()).unwrap();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0)).unwrap();
    assert_eq!(version, 5, "schema 1 is upgraded through 2, 3 and 4 to 5");
    drop(conn);
    let stored = chesskit_server::store::read_games(&server.db()).unwrap();
    let times: Vec<Option<u64>> = stored[0].record.actions.iter().map(|a| a.ms).collect();
    assert!(times[0].is_none() && times[1].is_some(), "the old action has no game time, the new one has: {times:?}");
    assert!(stored[0].record.actions.iter().all(|a| a.found.is_none()), "chess moves find nothing");
}

#[tokio::test]
async fn the_pgn_names_its_date_and_players() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["open", "computer:level3"]})).await;
    let g = id(&game);
    let created = summary(&server, &g).await["created"].as_i64().unwrap();
    let (status, pgn) = server.send("GET", &format!("/api/games/{g}/export?format=pgn"), None).await;
    assert_eq!(status, StatusCode::OK);
    let date = chesskit_core::chess::pgn::date_tag(created);
    assert!(pgn.contains(&format!("[Date \"{date}\"]\n")), "{pgn}");
    assert!(pgn.contains("[White \"Human\"]\n[Black \"Computer (level3)\"]\n"), "{pgn}");
    let game = server.create(json!({"variant": "zombie", "seats": ["computer", "human"]})).await;
    let g = id(&game);
    server.act(&g, &token(&game, 1), "resign").await;
    let (status, pgn) = server.send("GET", &format!("/api/games/{g}/export?format=pgn"), None).await;
    assert_eq!(status, StatusCode::OK, "{pgn}");
    assert!(pgn.contains("[White \"Computer (level2)\"]\n[Black \"Human\"]\n"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}
