//! The groups family's rounds of three and four players under the rules of the common war
//! (spoils on heaps, the champion laid last, the highest group first), outside single-game
//! mode: played in a loop of their own until a player is out, with the shown ranks compared
//! in registers and the war of a single pair settled without the general search for groups
//! (`groups.rs`), which takes every other round. The loop here plays on the ring piles, for
//! the largest size class; the others play on linear halves (`small_halves.rs`). A test
//! checks that all of them give the same games.

use crate::engine::card::Card;
use crate::engine::game::{PileGame, Play, RoundEnd};
use crate::engine::random::GameRandom;
use crate::engine::record::GameRecord;
use crate::engine::rules::{Champion, GroupOrder, Rules, Spoils};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// True when the rounds of three and four players may go through
    /// [`PileGame::small_group_rounds`].
    pub(in crate::engine) fn small_groups(&self, rules: &Rules) -> bool {
        !self.trace
            && rules.spoils == Spoils::Heap
            && rules.champion == Champion::Last
            && rules.group_order == GroupOrder::HighestFirst
    }

    /// Plays rounds of the three or four active players until one is out, a round ends
    /// otherwise than with its cards taken, or round `limit` is reached (a plain end: the
    /// caller's cap decides). The rules must pass [`PileGame::small_groups`], and there must
    /// be no reshuffles, no cycle watch and no `--abandon-after`.
    pub(in crate::engine) fn small_group_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(self.small_groups(rules) && rules.abandon_after == 0);
        match (self.active_len, Self::SMALL_HALVES) {
            (3, true) => self.small_halves_rounds::<3, R>(rules, rng, record, limit),
            (4, true) => self.small_halves_rounds::<4, R>(rules, rng, record, limit),
            (3, false) => self.small_rounds::<3, R>(rules, rng, record, limit),
            (4, false) => self.small_rounds::<4, R>(rules, rng, record, limit),
            (n, _) => unreachable!("small group rounds for {n} players"),
        }
    }

    /// [`PileGame::small_group_rounds`] for `N` players on the ring piles.
    fn small_rounds<const N: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        loop {
            if record.rounds == limit {
                return RoundEnd::Plain;
            }
            record.rounds += 1;
            let end = self.small_round::<N, R>(rules, rng);
            self.count_wars(end, record);
            if end != RoundEnd::Taken || !self.all_hold(&self.active[..N]) {
                return end;
            }
        }
    }

    /// A round of `N` (three or four) players under the rules [`PileGame::one_pair_war`]
    /// needs, outside single-game mode. The shown ranks are compared in registers as they
    /// are drawn, not read back from the log into a bit set, and the pair they find is the
    /// one the war settles. No two equal: the highest takes them. Exactly one pair: its war is
    /// settled at once when it can be. Anything else goes through [`PileGame::settle_groups`].
    #[inline(always)]
    pub(super) fn small_round<const N: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
    ) -> RoundEnd {
        self.start_round();
        let seats: [u8; N] = std::array::from_fn(|i| self.active[i]);
        let mut ranks = [0u8; N];
        for i in 0..N {
            let card = self.draw(usize::from(seats[i]), rng);
            let card = card.expect("an active player holds a card");
            self.log[i] = Play {
                card,
                seat: seats[i],
            };
            ranks[i] = card.rank();
        }
        (self.log_len, self.laid) = (N, self.laid + N as u64);
        let shown = shown_ranks(ranks);
        if let Shown::Highest(best) = shown {
            self.give_logged(rules, usize::from(seats[best]), 0..N);
            self.idle_rounds = 0;
            return RoundEnd::Taken;
        }
        if let Shown::OnePair(pair) = shown
            && self.one_pair_war(rules, rng, seats, ranks, pair)
        {
            self.idle_rounds = 0;
            return RoundEnd::Taken;
        }
        self.settle_groups(rules, rng, N)
    }

    /// Settles a round of `N` logged cards (by `seats`, of `ranks`) holding exactly one pair,
    /// `pair`, when both of its players hold a whole layout and their champions differ: the
    /// war has a winner and nests no war. Returns false, having drawn nothing, otherwise
    /// (refills aside, below). The cards move as [`PileGame::settle_groups`] moves them: the
    /// war's in the order laid onto its winner's heap, then the shown cards to the highest of
    /// the pair and the single cards.
    #[inline(always)]
    fn one_pair_war<const N: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        seats: [u8; N],
        ranks: [u8; N],
        pair: [usize; 2],
    ) -> bool {
        let layout = rules.face_down as usize + 1;
        let fighters = pair.map(|i| usize::from(seats[i]));
        if fighters.iter().any(|&seat| self.holding(seat) < layout) {
            return false;
        }
        // A fighter whose pile runs out in the war shuffles its heap in under it there, after
        // the pile's last card and before the other fighter's cards: done first here, in the
        // same order and with the same draws, so that the champions can be seen. A war that
        // then goes to `settle_groups` finds the same piles its draws would have made.
        for seat in fighters {
            if self.piles[seat].len() < layout {
                self.shuffle_under_pile(seat, true, rng);
            }
        }
        let champions = fighters.map(|seat| self.piles[seat].peek(layout - 1).rank());
        if champions[0] == champions[1] {
            return false;
        }
        let war_winner = usize::from(champions[1] > champions[0]);
        let (war_winner, pair_winner) = (fighters[war_winner], pair[war_winner]);
        self.note_tie(1);
        // The war's cards go straight from the piles onto the winner's heap, in the order laid.
        let heap = &mut self.heaps[war_winner];
        for seat in fighters {
            let pile = &mut self.piles[seat];
            heap.extend_from((0..layout).map(|_| pile.pop()));
        }
        self.laid += 2 * layout as u64;
        let winner = beside_pair(ranks, pair, pair_winner);
        self.give_logged(rules, usize::from(seats[winner]), 0..N);
        true
    }
}

/// What a round's shown ranks (by player, in seat order) call for.
#[derive(Clone, Copy)]
pub(super) enum Shown {
    /// No two are equal: this player's is the highest.
    Highest(usize),
    /// Exactly two are equal: these players'.
    OnePair([usize; 2]),
    /// Two groups or more, or a group of three or more.
    Groups,
}

/// Compares a round's shown ranks in registers (three or four of them, so every pair of
/// players is compared): shared by the rounds on the ring piles and on the halves.
#[inline(always)]
pub(super) fn shown_ranks<const N: usize>(ranks: [u8; N]) -> Shown {
    let (mut pairs, mut first, mut second) = (0, 0, 0);
    for i in 0..N {
        for j in i + 1..N {
            if ranks[i] == ranks[j] {
                (pairs, first, second) = (pairs + 1, i, j);
            }
        }
    }
    match pairs {
        0 => {
            let mut best = 0;
            for i in 1..N {
                if ranks[i] > ranks[best] {
                    best = i;
                }
            }
            Shown::Highest(best)
        }
        1 => Shown::OnePair([first, second]),
        _ => Shown::Groups,
    }
}

/// The round's winner when `pair` fought the only war and `war_winner` (one of the pair) won
/// it: the holder of a single card above the pair's rank, the highest, or else `war_winner`.
#[inline(always)]
pub(super) fn beside_pair<const N: usize>(
    ranks: [u8; N],
    pair: [usize; 2],
    war_winner: usize,
) -> usize {
    let (mut winner, mut best) = (war_winner, ranks[pair[0]]);
    for i in (0..N).filter(|&i| i != pair[0] && i != pair[1]) {
        if ranks[i] > best {
            (winner, best) = (i, ranks[i]);
        }
    }
    winner
}
