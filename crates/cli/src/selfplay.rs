//! `chesskit selfplay`: balance statistics from games between computer players.

use chesskit_ai::selfplay::{self, SelfPlay};
use indicatif::{ProgressBar, ProgressStyle};

pub fn run(
    variant: String,
    players: Option<String>,
    games: u64,
    seed: u64,
    max_actions: usize,
    options: &[String],
    json: bool,
) -> Result<(), String> {
    let options = crate::play::parse_options(options)?;
    if games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    // The seats as these options make them (a golf round of 3 has 3).
    let sample = chesskit_games::create(&variant, options.clone(), seed, None).map_err(|e| e.0)?;
    let seats: Vec<String> = sample.seats().into_iter().map(|s| s.name).collect();
    let levels: Vec<String> = match players {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => vec!["random".to_string(); seats.len()],
    };
    if let Some(seat) = levels.iter().position(String::is_empty) {
        return Err(format!("--players names no level for seat {seat} (use e.g. level2,random)"));
    }
    let config = SelfPlay { variant, options, levels, games, seed, max_actions };
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left")
            .expect("valid template"),
    );
    let stats = selfplay::run(&config, &|| bar.inc(1));
    bar.finish_and_clear();
    let stats = stats?;
    if json {
        println!("{}", serde_json::to_string_pretty(&stats).map_err(|e| e.to_string())?);
        return Ok(());
    }
    println!("{} games of {} ({}):", stats.games, config.variant, config.levels.join(" vs "));
    let finished = (stats.games - stats.unfinished).max(1) as f64;
    for (seat, wins) in stats.wins.iter().enumerate() {
        let name = seats.get(seat).map_or("?", String::as_str);
        println!("  {name:<20} won {wins:>6} ({:.1}%)", *wins as f64 * 100.0 / finished);
    }
    println!("  {:<20}     {:>6} ({:.1}%)", "draws", stats.draws, stats.draws as f64 * 100.0 / finished);
    if stats.unfinished > 0 {
        println!("  {:<20}     {:>6} (stopped after {} actions)", "unfinished", stats.unfinished, config.max_actions);
    }
    println!("Endings:");
    for (reason, n) in &stats.reasons {
        println!("  {reason:<24} {n:>6}");
    }
    println!("Mean length: {:.1} actions", stats.mean_actions);
    if !stats.mean_scores.is_empty() {
        let means: Vec<String> = stats.mean_scores.iter().map(|m| format!("{m:.2}")).collect();
        println!("Mean score per seat: {}", means.join(", "));
    }
    Ok(())
}
