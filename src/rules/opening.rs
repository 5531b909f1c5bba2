//! The opening throw: who plays first. Every game decides it the same way (RULES.md §7): every
//! seat throws, the highest throw starts, and only the seats tied on the highest throw again,
//! until one seat is highest alone. Games differ only in how many dice a throw has (two in
//! Uckers, one elsewhere) and in the events they report, which [`first_to_play`] leaves to
//! them, one [`Round`] at a time.

use super::{DiceSource, Seat};

/// Rounds after which the opening ends even on a tie: the lowest of the seats tied on the
/// highest throw starts, so that a game always gets under way. Fair dice tie this often with
/// odds below 6^-64; only a broken source (one that keeps giving the same value) gets there.
pub const MAX_ROUNDS: usize = 64;

/// One round of the opening, for the game to report.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Round<'a, const N: usize> {
    /// Each seat's throw, by seat: `None` for a seat no longer in contention.
    pub throws: &'a [Option<[u8; N]>],
    /// The seats tied on the highest total, in seat order: one seat when the round decides.
    pub highest: &'a [Seat],
    /// The seat that plays first, on the round that ends the opening (the seat highest alone,
    /// or after [`MAX_ROUNDS`] the lowest of `highest`); `None` while the tied seats throw again.
    pub starts: Option<Seat>,
}

/// Throws for the opening among seats `0..seats` (at least one), each throw of `N` dice from
/// `dice`, the seats in seat order and each seat's dice one after the other; `round` sees every
/// round as it is thrown. Returns the seat that plays first.
pub(crate) fn first_to_play<const N: usize, D: DiceSource + ?Sized>(
    seats: usize,
    dice: &mut D,
    mut round: impl FnMut(Round<'_, N>),
) -> Seat {
    let mut contenders: Vec<Seat> = (0..seats).collect();
    let mut throws = vec![None; seats];
    for rounds in 1.. {
        throws.fill(None);
        for &seat in &contenders {
            let mut throw = [0; N];
            for d in &mut throw {
                *d = dice.die();
            }
            throws[seat] = Some(throw);
        }
        let total = |seat: Seat| throws[seat].map_or(0, |t: [u8; N]| t.iter().map(|&d| u32::from(d)).sum());
        let best = contenders.iter().map(|&s| total(s)).max().unwrap_or(0);
        contenders.retain(|&s| total(s) == best);
        let first = contenders.first().copied().unwrap_or(0);
        let starts = (contenders.len() <= 1 || rounds >= MAX_ROUNDS).then_some(first);
        round(Round { throws: &throws, highest: &contenders, starts });
        if let Some(seat) = starts {
            return seat;
        }
    }
    unreachable!("the rounds are bounded by MAX_ROUNDS")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;
    use crate::rules::dice::StuckDice;

    #[test]
    fn the_highest_throw_starts_and_only_the_tied_throw_again() {
        let mut dice = ScriptedDice::new([5, 2, 5, 1, 3, 6, 4]);
        let mut rounds = Vec::new();
        let first = first_to_play::<1, _>(4, &mut dice, |r| {
            rounds.push((r.throws.to_vec(), r.highest.to_vec(), r.starts));
        });
        assert_eq!(first, 2);
        assert_eq!(
            rounds,
            [
                (vec![Some([5]), Some([2]), Some([5]), Some([1])], vec![0, 2], None),
                (vec![Some([3]), None, Some([6]), None], vec![2], Some(2)),
            ]
        );
        assert_eq!(dice.remaining(), 1);
    }

    #[test]
    fn two_dice_throws_rank_by_their_total() {
        let mut dice = ScriptedDice::new([6, 1, 3, 5]);
        assert_eq!(first_to_play::<2, _>(2, &mut dice, |_| {}), 1);
    }

    #[test]
    fn a_source_that_keeps_tying_ends_after_max_rounds_with_the_lowest_seat() {
        let mut rounds = 0;
        let mut last = None;
        let first = first_to_play::<2, _>(3, &mut StuckDice(4), |r| {
            rounds += 1;
            assert_eq!(r.highest, [0, 1, 2]);
            last = Some(r.starts);
        });
        assert_eq!((first, rounds, last), (0, MAX_ROUNDS, Some(Some(0))));
    }
}
