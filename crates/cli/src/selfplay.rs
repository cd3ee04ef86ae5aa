//! `chesskit selfplay`: balance statistics from games between computer
//! players, per player, with the first seat's advantage, and side by side
//! for each value of a repeated `--option`.

use chesskit_ai::selfplay::{self, SelfPlay, Stats};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Map, Value};

/// What `chesskit selfplay` was asked.
pub struct Request {
    pub variant: String,
    pub players: Option<String>,
    pub games: u64,
    pub seed: u64,
    pub max_actions: usize,
    pub random_opening: usize,
    pub options: Vec<String>,
    pub json: bool,
}

pub fn run(request: Request) -> Result<(), String> {
    if request.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    let runs = option_runs(&request.options)?;
    let sample_options = crate::play::parse_options(&runs[0].1)?;
    let sample = chesskit_games::create(&request.variant, sample_options, request.seed, None).map_err(|e| e.0)?;
    let players: Vec<String> = match &request.players {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => vec!["random".to_string(); sample.seats().len()],
    };
    if let Some(seat) = players.iter().position(String::is_empty) {
        return Err(format!("--players names no level for player {} (use e.g. level4,random)", seat + 1));
    }
    let bar = ProgressBar::new(request.games * runs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left")
            .expect("valid template"),
    );
    let mut results = Vec::new();
    for (label, pairs) in &runs {
        let config = SelfPlay {
            variant: request.variant.clone(),
            options: crate::play::parse_options(pairs)?,
            players: players.clone(),
            games: request.games,
            seed: request.seed,
            max_actions: request.max_actions,
            random_opening: request.random_opening,
        };
        let stats = selfplay::run(&config, &|| bar.inc(1));
        results.push((label.clone(), stats.inspect_err(|_| bar.finish_and_clear())?));
    }
    bar.finish_and_clear();
    print_report(&request, &players, &results);
    // The JSON summary comes last, on one line, so a script reads the last line.
    if request.json {
        println!("{}", summary_json(&request.options, &results));
    }
    Ok(())
}

/// The runs to make: one for the options as given, or one per value of
/// the one option given more than once (`--option checkers=4 --option
/// checkers=6`), each labelled by that value.
fn option_runs(options: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let key_of = |pair: &String| pair.split_once('=').map(|(k, _)| k.trim().to_string());
    let mut keys: Vec<String> = Vec::new();
    let mut repeated: Option<String> = None;
    for pair in options {
        let key = key_of(pair).ok_or_else(|| format!("bad option {pair:?}: expected key=value"))?;
        if keys.contains(&key) {
            match &repeated {
                Some(other) if *other != key => {
                    return Err(format!(
                        "--option {other} and --option {key} are both repeated: compare one option at a time"
                    ))
                }
                _ => repeated = Some(key.clone()),
            }
        }
        keys.push(key);
    }
    let Some(repeated) = repeated else { return Ok(vec![(String::new(), options.to_vec())]) };
    let fixed: Vec<String> = options.iter().filter(|p| key_of(p).as_deref() != Some(&repeated)).cloned().collect();
    Ok(options
        .iter()
        .filter(|p| key_of(p).as_deref() == Some(&repeated))
        .map(|pair| (pair.clone(), fixed.iter().cloned().chain([pair.clone()]).collect()))
        .collect())
}

fn percent(score: f64, ci: f64) -> String {
    format!("{:5.1}% ± {:.1}%", score * 100.0, ci * 100.0)
}

fn print_report(request: &Request, players: &[String], results: &[(String, Stats)]) {
    println!(
        "{} games of {} per run, players {} (the seats rotate between games):",
        request.games,
        request.variant,
        players.join(", ")
    );
    for (label, stats) in results {
        if !label.is_empty() {
            println!("\nWith {label}:");
        }
        // As wide as the longest name (a changed level: level6-nodes20000-no-lmr).
        let width = stats.players.iter().map(|p| p.name.len()).max().unwrap_or(0).max(12);
        println!(
            "  {:<width$} {:>6} {:>6} {:>6}  {:<18} points",
            "player", "wins", "draws", "losses", "score (95% CI)"
        );
        for p in &stats.players {
            let points = p.mean_points.map_or(String::new(), |m| format!("{m:.2}"));
            println!(
                "  {:<width$} {:>6} {:>6} {:>6}  {:<18} {points}",
                p.name,
                p.wins,
                p.draws,
                p.losses,
                percent(p.score, p.score_ci95)
            );
        }
        println!(
            "  The first seat scored {} (above 50%: moving first is an advantage).",
            percent(stats.first_player_score, stats.first_player_ci95)
        );
        let endings: Vec<String> = stats.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        println!("  Mean length {:.1} actions; endings: {}.", stats.mean_actions, endings.join(", "));
        if stats.unfinished > 0 {
            println!(
                "  {} games were stopped after {} actions (counted as draws).",
                stats.unfinished, request.max_actions
            );
        }
    }
    if results.len() > 1 {
        println!("\nSide by side:");
        let header: Vec<String> = results.iter().map(|(label, _)| format!("{label:>20}")).collect();
        println!("  {:<24}{}", "", header.join(""));
        for (i, name) in players.iter().enumerate() {
            let cells: Vec<String> = results
                .iter()
                .map(|(_, s)| format!("{:>20}", percent(s.players[i].score, s.players[i].score_ci95)))
                .collect();
            println!("  {:<24}{}", format!("{name} score"), cells.join(""));
        }
        let first: Vec<String> = results
            .iter()
            .map(|(_, s)| format!("{:>20}", percent(s.first_player_score, s.first_player_ci95)))
            .collect();
        println!("  {:<24}{}", "first seat score", first.join(""));
        let lengths: Vec<String> = results.iter().map(|(_, s)| format!("{:>20.1}", s.mean_actions)).collect();
        println!("  {:<24}{}", "mean length (actions)", lengths.join(""));
    }
}

/// The one-line JSON summary: the runs pooled, and each run apart when an
/// option was compared.
fn summary_json(options: &[String], results: &[(String, Stats)]) -> Value {
    let runs: Vec<Stats> = results.iter().map(|(_, s)| s.clone()).collect();
    let total = selfplay::combine(&runs);
    let mut summary = stats_json(&total);
    summary.insert("options".into(), options_json(options));
    if results.len() > 1 {
        let each: Vec<Value> = results
            .iter()
            .map(|(label, stats)| {
                let mut run = stats_json(stats);
                run.insert("option".into(), json!(label));
                Value::Object(run)
            })
            .collect();
        summary.insert("runs".into(), Value::Array(each));
    }
    Value::Object(summary)
}

fn stats_json(stats: &Stats) -> Map<String, Value> {
    let players: Vec<Value> = stats
        .players
        .iter()
        .map(|p| {
            let mut player = json!({
                "name": p.name, "wins": p.wins, "draws": p.draws, "losses": p.losses,
                "score": p.score, "score_ci95": p.score_ci95,
            });
            if let Some(points) = p.mean_points {
                player["mean_points"] = json!(points);
            }
            player
        })
        .collect();
    let reasons: Map<String, Value> = stats.reasons.iter().map(|(r, n)| (r.clone(), json!(n))).collect();
    match json!({
        "variant": stats.variant,
        "games": stats.games,
        "players": players,
        "first_player_score": stats.first_player_score,
        "first_player_ci95": stats.first_player_ci95,
        "mean_actions": stats.mean_actions,
        "unfinished": stats.unfinished,
        "endings": reasons,
    }) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The options as given: `{"checkers": 4}`, or a list of the values of a
/// compared option: `{"checkers": [4, 6]}`.
fn options_json(options: &[String]) -> Value {
    let mut map = Map::new();
    for pair in options {
        let Some((key, value)) = pair.split_once('=') else { continue };
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_string()));
        match map.get_mut(key.trim()) {
            Some(Value::Array(values)) => values.push(value),
            Some(single) => *single = Value::Array(vec![single.clone(), value]),
            None => {
                map.insert(key.trim().to_string(), value);
            }
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_option_makes_one_run_per_value_keeping_the_others() {
        let given = ["players=2", "checkers=4", "checkers=6"].map(String::from);
        let runs = option_runs(&given).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0], ("checkers=4".to_string(), ["players=2", "checkers=4"].map(String::from).to_vec()));
        assert_eq!(runs[1].1, ["players=2", "checkers=6"].map(String::from).to_vec());
        assert_eq!(options_json(&given), json!({"players": 2, "checkers": [4, 6]}));
        assert_eq!(option_runs(&[]).unwrap(), vec![(String::new(), vec![])]);
    }

    #[test]
    fn two_repeated_options_are_refused() {
        let given = ["a=1", "a=2", "b=1", "b=2"].map(String::from);
        assert!(option_runs(&given).unwrap_err().contains("compare one option at a time"));
        assert!(option_runs(&["novalue".to_string()]).unwrap_err().contains("expected key=value"));
    }
}
