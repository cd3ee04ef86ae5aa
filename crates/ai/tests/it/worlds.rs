//! The search over drawn worlds (levels 4 to 8 in games that hide
//! something) weighs each action by its expected result, not by raw
//! values: a certain material lead is not traded for a coin toss between
//! winning and losing the game.

use chesskit_ai::search::{Budget, SearchPlayer};
use chesskit_ai::Player;
use chesskit_core::Options;

/// Masquerade Chess, White to move (from a level 4 game that it lost to a
/// random player): Black's queen on e2, next to White's king, captures as a
/// queen (White assigned it), so White must deal with it. White's queen
/// captures as a queen or a rook (its answered attempts say so) and takes
/// the black queen along the second rank for certain. The knight on h6
/// may capture the black king on h7, but only if it captures as a king,
/// queen or rook: in a world where it does, Nxh7 wins at once; in the
/// others White's king falls next move. Averaged raw, a win in half the
/// worlds outweighed the sure queen; weighed by expected result it does not.
const MASQUERADE_QUEEN_NEXT_TO_KING: &str = "7r/4b2k/p4p1N/PB2pnBp/2p1P3/2P4P/Q3qPP1/R3K1R1 w Q - 2 44
white captures: KN QR RQ BK NB
black captures: KK QQ RR BB NN
white attempts: Nf3xb7 [QB] yes, Qe3xf3 [KQR] yes, Qg4xg7 [QR] yes, Ne4xc5 [N] no, Qg7xe8 [N] no, Ne4xf6 [N] no, \
Ne4xd5 [KQB] yes, Nc7xd6 [KQB] yes, Qf7xh5 [QB] no, Bh4xg5 [KQB] yes, Nh6xf5 [N] no
black attempts: Nc6xd4 [N] yes, Bc8xb7 [KQB] yes, Nd4xf2 [QB] no, Nf3xg2 [KQB] no, Rb5xe2 [QB] no, Rb5xc3 [N] no, \
Rb5xa4 [KQB] no, Rb5xc3 [N] no, Rb5xb4 [KQR] yes, Kh7xf5 [QB] no";

#[test]
fn a_sure_queen_is_not_traded_for_a_coin_toss_between_winning_and_losing() {
    let game = chesskit_games::create("masquerade", Options::new(), 0, Some(MASQUERADE_QUEEN_NEXT_TO_KING)).unwrap();
    for seed in 0..4 {
        let choice = SearchPlayer::new(seed, Budget::nodes(120_000, 12)).choose(game.as_ref(), 0);
        assert_eq!(choice.as_deref(), Some("a2e2"), "seed {seed}");
    }
}
