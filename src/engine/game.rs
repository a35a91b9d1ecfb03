//! The state shared by the shared-deck families (table and groups): piles, spoil heaps, the
//! round log, the cycle watch's saved position (the deal is in `deal.rs`, the loop that plays a
//! game to its end in `game_loop.rs`).
//!
//! One `PileGame` is boxed per worker and reused for every game, so playing allocates nothing.
//! Each family's round lives in its own file (`table.rs`, `groups.rs`) as more methods here.

use super::random::GameRandom;

use super::card::Card;
use super::cpu::Blocks;
use super::pile::Pile;
use super::record::GameRecord;
use super::rules::{MAX_CARDS, MAX_PLAYERS, Rules, Spoils, Uneven};

pub use super::observe::{Observer, Step};

pub(super) const SEATS: usize = MAX_PLAYERS as usize;

/// Cards in each of the fast loop's linear pile buffers (`fast/`): the largest deck, room for the head to advance about a
/// thousand rounds between moves, and a margin for the cards a round writes.
pub(super) const LINEAR: usize = 2 * MAX_CARDS as usize + 64;

/// Round from which positions are checked for repetition. Almost every game ends before it, so
/// the check costs ordinary games nothing; a looping game is caught a few hundred rounds later.
pub const CYCLE_CHECK_FROM: u32 = 1024;

/// One card played in a round and the seat (0-based) that played it.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Play<C> {
    /// The card.
    pub card: C,
    /// Who played it, 0-based.
    pub seat: u8,
}

/// How one round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RoundEnd {
    /// A two-player round without a tie whose loser still holds cards: nothing else to do.
    Plain,
    /// Someone took the cards (or, in the groups family, they went back to their owners).
    Taken,
    /// The round can never be settled: the game is a draw.
    Stuck,
    /// cards-war's rule: a tie at the smaller hand's last card gave the larger hand every card.
    ShortTie,
    /// A fast loop found the position saved by the cycle watch again: the game loops forever.
    Cycle,
    /// A war a tied player could not lay ended the game (`--war-shortage end-game`).
    Ended,
    /// Too many rounds in a row without a winner (`--abandon-after`).
    Abandoned,
}

/// The reusable state of one game of the table or groups family.
pub struct PileGame<C: Card, const CAP: usize> {
    pub(super) piles: [Pile<C, CAP>; SEATS],
    pub(super) heaps: [Pile<C, CAP>; SEATS],
    /// Every card played this round, in play order, with segment ends for the table order.
    pub(super) log: [Play<C>; CAP],
    pub(super) log_len: usize,
    pub(super) segment_ends: [u16; CAP],
    pub(super) segment_steps: [Step; CAP],
    pub(super) segments: usize,
    /// Scratch for arranging won cards and for shuffles.
    pub(super) scratch: [C; CAP],
    /// The unshuffled deck of the last rules dealt, and what it was built from (suits, ranks,
    /// cards in play, which cards are dropped): building it card by card cost a tenth of a
    /// short game.
    pub(super) deck: [C; CAP],
    pub(super) deck_key: (u32, u32, u32, Uneven),
    /// The fast two-player loop's piles (see `fast.rs`).
    pub(super) linear: [[C; LINEAR]; 2],
    /// Set when the processor runs the fast loop's block pass (`blocks.rs`).
    pub(super) blocks: Option<Blocks>,
    pub(super) active: [u8; SEATS],
    pub(super) active_len: usize,
    /// Ties in the current round and the deepest chain.
    pub(super) ties: u32,
    pub(super) chain: u32,
    /// Single-game mode: every round is logged, and its winner kept, for an observer.
    pub(super) trace: bool,
    pub(super) round_winner: Option<u8>,
    /// Brent's cycle detection (`families/endings.rs`): the saved position's cards, seat after
    /// seat in `saved_active` order, with each seat's count (flat, so that the fast loops
    /// compare a slice), the round it was saved at, and the rounds from it to the next save
    /// (0: nothing saved yet); `watching` when the game is watched at all.
    pub(super) watching: bool,
    pub(super) saved: [C; CAP],
    pub(super) saved_counts: [u16; SEATS],
    /// Each seat's heap size in the saved position (its cards follow its pile's).
    pub(super) saved_heaps: [u16; SEATS],
    pub(super) saved_active: [u8; SEATS],
    pub(super) saved_len: usize,
    pub(super) saved_round: u32,
    pub(super) saved_power: u32,
    /// Where the two-player fast loop's last save still lies in its linear buffers instead of
    /// `saved` (the head of both piles), or usize::MAX (see `fast/mod.rs`).
    pub(super) saved_in_linear: usize,
    /// Cards laid on the table this game (the record's `cards_played`).
    pub(super) laid: u64,
    /// `--spoils heap-unshuffled`: an empty pile takes the heap as it lies, not shuffled.
    pub(super) unshuffled_heaps: bool,
    /// Rounds in a row without a round winner, for `--abandon-after`.
    pub(super) idle_rounds: u32,
    /// False when the environment sets `WARSIM_NO_CYCLE_SKIP`: loops under `--at-cap
    /// larger-pile` are then played round by round to the cap, unwatched, to measure what the
    /// cycle watch costs (`families/endings.rs`). The games are the same either way.
    pub(super) skips_laps: bool,
    /// Single-game mode under `--at-cap larger-pile`: the round whose position the cycle watch
    /// saw come back, and the round it came back after (`observe.rs`'s `loop_found`).
    pub(super) loop_found: Option<(u32, u32)>,
}

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// The pile size class must fit the fast loop's buffers ([`LINEAR`] holds two piles of
    /// [`MAX_CARDS`] cards and the slack `fast/blocks.rs` checks it needs).
    const FITS: () = assert!(
        CAP <= MAX_CARDS as usize,
        "a pile class larger than the engine's buffers"
    );

    /// A boxed game with empty piles.
    pub fn boxed() -> Box<Self> {
        let () = Self::FITS;
        Box::new(PileGame {
            piles: std::array::from_fn(|_| Pile::new()),
            heaps: std::array::from_fn(|_| Pile::new()),
            log: [Play::default(); CAP],
            log_len: 0,
            segment_ends: [0; CAP],
            segment_steps: [Step::Shown; CAP],
            segments: 0,
            scratch: [C::default(); CAP],
            deck: [C::default(); CAP],
            deck_key: (0, 0, 0, Uneven::DealAll),
            linear: [[C::default(); LINEAR]; 2],
            blocks: Blocks::detect(),
            active: [0; SEATS],
            active_len: 0,
            ties: 0,
            chain: 0,
            trace: false,
            round_winner: None,
            watching: false,
            saved: [C::default(); CAP],
            saved_counts: [0; SEATS],
            saved_heaps: [0; SEATS],
            saved_active: [0; SEATS],
            saved_len: 0,
            saved_round: 0,
            saved_power: 0,
            saved_in_linear: usize::MAX,
            laid: 0,
            unshuffled_heaps: false,
            idle_rounds: 0,
            skips_laps: std::env::var_os("WARSIM_NO_CYCLE_SKIP").is_none(),
            loop_found: None,
        })
    }

    /// Plays with the one-round-at-a-time pass even where the processor runs the block pass,
    /// so that tests check both fast loops on any machine. Same games either way.
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    pub fn use_scalar_pass(&mut self) {
        self.blocks = None;
    }

    /// Builds the deck, shuffles it with `rng`, deals it, and plays the game out. Panics when
    /// the rules' cards do not fit this game's piles (checked by the deal): piles never
    /// overwrite cards. [`super::Engine::for_rules`] picks a size that fits valid rules.
    pub fn play<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R) -> GameRecord {
        self.deal(rules, rng);
        self.trace = false;
        self.play_dealt(rules, rng, None)
    }

    /// Cards seat s holds, pile and heap.
    #[inline(always)]
    pub(super) fn holding(&self, seat: usize) -> usize {
        self.piles[seat].len() + self.heaps[seat].len()
    }

    /// True when every one of `seats` holds a card (a slice of known length is unrolled).
    #[inline(always)]
    pub(super) fn all_hold(&self, seats: &[u8]) -> bool {
        seats.iter().all(|&seat| self.holding(seat as usize) > 0)
    }

    /// The top card of seat s, shuffling its heap in when the pile is empty.
    #[inline(always)]
    pub(super) fn draw<R: GameRandom>(&mut self, seat: usize, rng: &mut R) -> Option<C> {
        if self.piles[seat].is_empty() {
            if self.heaps[seat].is_empty() {
                return None;
            }
            self.refill(seat, rng);
        }
        Some(self.piles[seat].pop())
    }

    #[inline(never)]
    fn refill<R: GameRandom>(&mut self, seat: usize, rng: &mut R) {
        if self.unshuffled_heaps {
            self.turn_heap_over(seat);
        } else {
            self.shuffle_under_pile(seat, true, rng);
        }
    }

    /// Makes seat s's heap its (empty) pile as the heap lies: the last card put on the heap
    /// becomes the top of the pile (rustwar pops the end of its won pile).
    fn turn_heap_over(&mut self, seat: usize) {
        let n = self.heaps[seat].len();
        for (slot, card) in self.scratch[..n]
            .iter_mut()
            .rev()
            .zip(self.heaps[seat].iter())
        {
            *slot = card;
        }
        self.heaps[seat].clear();
        self.piles[seat].set(&self.scratch[..n]);
    }

    /// Takes every card of seat s's heap (or, with `from_heap` false, its pile), shuffles them
    /// and puts them under its pile.
    pub(super) fn shuffle_under_pile<R: GameRandom>(
        &mut self,
        seat: usize,
        from_heap: bool,
        rng: &mut R,
    ) {
        // A refill finds the pile empty, and a heap only grows from its start until a refill
        // empties it, so it lies in one piece: shuffled where it lies and copied in once.
        if from_heap && self.piles[seat].is_empty() {
            let heap = &mut self.heaps[seat];
            let (cards, head, len) = heap.raw();
            if head + len <= CAP {
                let run = &mut cards[head..head + len];
                rng.shuffle(run);
                self.piles[seat].set(run);
                heap.clear();
                return;
            }
        }
        let source = if from_heap {
            &mut self.heaps[seat]
        } else {
            &mut self.piles[seat]
        };
        let n = source.len();
        source.copy_to(&mut self.scratch);
        source.clear();
        rng.shuffle(&mut self.scratch[..n]);
        // A refill finds the pile empty: one copy instead of a card-by-card append.
        if self.piles[seat].is_empty() {
            self.piles[seat].set(&self.scratch[..n]);
        } else {
            self.piles[seat].extend(&self.scratch[..n]);
        }
    }

    /// Gives won cards to seat s: under its pile or onto its heap.
    #[inline(always)]
    pub(super) fn receive(&mut self, rules: &Rules, seat: usize, cards: &[C]) {
        match rules.spoils {
            Spoils::UnderPile => self.piles[seat].extend(cards),
            Spoils::Heap | Spoils::HeapUnshuffled => self.heaps[seat].extend(cards),
        }
    }

    /// Gives the logged cards in `range`, in log order, to seat s.
    pub(super) fn give_logged(
        &mut self,
        rules: &Rules,
        seat: usize,
        range: std::ops::Range<usize>,
    ) {
        let target = match rules.spoils {
            Spoils::UnderPile => &mut self.piles[seat],
            Spoils::Heap | Spoils::HeapUnshuffled => &mut self.heaps[seat],
        };
        target.extend_from(self.log[range].iter().map(|p| p.card));
    }

    /// Logs a played card.
    #[inline(always)]
    pub(super) fn log_play(&mut self, card: C, seat: usize) {
        self.laid += 1;
        self.log[self.log_len] = Play {
            card,
            seat: seat as u8,
        };
        self.log_len += 1;
    }

    /// Ends the current segment of the log, holding cards of kind `step`.
    #[inline(always)]
    pub(super) fn close_segment(&mut self, step: Step) {
        let start = if self.segments == 0 {
            0
        } else {
            self.segment_ends[self.segments - 1] as usize
        };
        if self.log_len > start {
            self.segment_ends[self.segments] = self.log_len as u16;
            self.segment_steps[self.segments] = step;
            self.segments += 1;
        }
    }

    #[inline(always)]
    pub(super) fn start_round(&mut self) {
        self.round_winner = None;
        self.log_len = 0;
        self.segments = 0;
        self.ties = 0;
        self.chain = 0;
    }

    /// Records a tie at `depth` chained ties.
    #[inline(always)]
    pub(super) fn note_tie(&mut self, depth: u32) {
        self.ties += 1;
        self.chain = self.chain.max(depth);
    }
}

/// True when every card has the same rank (or there is none).
pub(super) fn one_rank<C: Card>(mut cards: impl Iterator<Item = C>) -> bool {
    let rank = cards.next().map(|c| c.rank());
    cards.all(|c| Some(c.rank()) == rank)
}

/// Stable sort of plays, highest rank first.
#[inline]
pub(super) fn sort_plays<C: Card>(plays: &mut [Play<C>]) {
    sort_high_first(plays, |p| p.card.rank());
}

/// Stable sort, highest `rank` first (insertion sort: tables and layouts are tiny).
#[inline]
pub(super) fn sort_high_first<T: Copy>(items: &mut [T], rank: impl Fn(T) -> u8) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && rank(items[j - 1]) < rank(items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}
