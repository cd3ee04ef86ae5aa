//! The talking clock of Crowded House (new-rules-2023a, "Talking"): "add
//! a chess clock. Decide on an overall time, then decide on a time cost
//! for talking ... put a handful of coins next to the board. Whenever
//! your team discusses a move, either move a coin from the centre to your
//! opponents' pile or from your pile to the centre. If a team runs out of
//! time, they can add 2 minutes for each coin in their pile and put their
//! pile back in the centre. Once a team pays a coin, they can discuss as
//! much as they want until they make a move."
//!
//! Teams are numbered as the seats' teams: 0 is White, 1 is Black. Time
//! is in milliseconds since the game began, the stamps of the action log.

/// A minute, in milliseconds.
pub const MINUTE_MS: u64 = 60_000;

/// The clocks, the coin piles and who has paid for talk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TalkingClock {
    /// What a coin is worth when a flag falls: "add 2 minutes for each coin".
    pub coin_ms: u64,
    /// Time left on each team's clock.
    pub left_ms: [u64; 2],
    /// The coins in each team's pile. The centre holds "a handful of
    /// coins": it never runs out, so it is not counted.
    pub piles: [u32; 2],
    /// Whether each team has paid for talk since it last moved.
    pub paid: [bool; 2],
    /// The time of the last step that had one. None before the first:
    /// the clocks start with the first timed step of the game, so that
    /// nobody's time runs while the players are still sitting down.
    pub now: Option<u64>,
}

/// How a team paid for talk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payment {
    /// A coin from its own pile back to the centre.
    FromPile,
    /// A coin from the centre to the opponents' pile.
    ToOpponents,
    /// Nothing: it has paid since it last moved.
    AlreadyPaid,
}

/// What happened when a team's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fall {
    /// Its pile went back to the centre for `coins` times the coin's worth.
    Bought { coins: u32, ms: u64, at: u64 },
    /// No coin in its pile: the team loses on time.
    Lost { at: u64 },
}

impl TalkingClock {
    /// Both clocks at `minutes`, no coins in either pile.
    pub fn new(minutes: u64, talk_minutes: u64) -> TalkingClock {
        TalkingClock {
            coin_ms: talk_minutes * MINUTE_MS,
            left_ms: [minutes * MINUTE_MS; 2],
            piles: [0; 2],
            paid: [false; 2],
            now: None,
        }
    }

    /// `team` talks. Our ruling on the book's "either ... or": a team
    /// with a coin in its pile gives it back to the centre; a team with
    /// none gives the opponents a coin from the centre. Either way the
    /// talk costs the team one coin's worth of time against the other
    /// team. Once paid, talk is free until the team moves.
    pub fn pay_for_talk(&mut self, team: usize) -> Payment {
        if self.paid[team] {
            return Payment::AlreadyPaid;
        }
        self.paid[team] = true;
        if self.piles[team] > 0 {
            self.piles[team] -= 1;
            Payment::FromPile
        } else {
            self.piles[1 - team] += 1;
            Payment::ToOpponents
        }
    }

    /// `team` made a move (or passed): "until they make a move".
    pub fn moved(&mut self, team: usize) {
        self.paid[team] = false;
    }

    /// Run `team`'s clock (the team to act) up to `ms`. A time before the
    /// last one counts as no time. Each time its clock reaches zero the
    /// team's pile buys it time; with an empty pile it has lost, and the
    /// clock stops at zero.
    pub fn run(&mut self, team: usize, ms: u64) -> Vec<Fall> {
        let Some(now) = self.now else {
            self.now = Some(ms);
            return Vec::new();
        };
        let mut spent = ms.saturating_sub(now);
        self.now = Some(now.max(ms));
        let mut falls = Vec::new();
        while spent >= self.left_ms[team] {
            spent -= self.left_ms[team];
            self.left_ms[team] = 0;
            let at = ms - spent;
            let coins = self.piles[team];
            if coins == 0 {
                falls.push(Fall::Lost { at });
                return falls;
            }
            self.piles[team] = 0;
            self.left_ms[team] = u64::from(coins) * self.coin_ms;
            falls.push(Fall::Bought { coins, ms: self.left_ms[team], at });
        }
        self.left_ms[team] -= spent;
        falls
    }

    /// When `team`'s clock reaches zero if nobody acts, once the clocks run.
    pub fn deadline(&self, team: usize) -> Option<u64> {
        self.now.map(|now| now + self.left_ms[team])
    }
}

/// `ms` as minutes and seconds, `m:ss` (tenths under ten seconds are not
/// worth showing on a clock of minutes).
pub fn clock_text(ms: u64) -> String {
    let seconds = ms.div_ceil(1000);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fall_with_coins_counts_from_the_moment_the_clock_reached_zero() {
        let mut clock = TalkingClock::new(1, 2);
        clock.piles = [1, 0];
        clock.run(0, 1_000);
        // 60 s left, then 70 s pass: the coin buys 120 s at 61 000 ms, 10 s of which are spent.
        let falls = clock.run(0, 71_000);
        assert_eq!(falls, [Fall::Bought { coins: 1, ms: 120_000, at: 61_000 }]);
        assert_eq!((clock.left_ms[0], clock.piles[0]), (110_000, 0));
        assert_eq!(clock.deadline(0), Some(181_000));
        assert_eq!(clock_text(110_000), "1:50");
        assert_eq!(clock_text(1), "0:01", "a clock shows zero only when it is");
    }
}
