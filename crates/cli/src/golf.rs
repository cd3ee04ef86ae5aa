//! `chesskit golf ...`: the Chess Golf tools (issue 3).

#[derive(clap::Subcommand, Debug)]
pub enum GolfCommand {}

pub fn run(command: GolfCommand) -> Result<(), String> {
    match command {}
}
