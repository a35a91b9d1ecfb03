//! The War loop of the "table" family: every player shows a card, the highest takes the table,
//! ties at the top go to war among the tied players only, and the pot goes under the winner's
//! pile in table order (war_card_game 0.3.1's order).
//!
//! Table order: each step's cards sorted highest first, lower seat first on equal ranks; the
//! pot is the first table, then each war's face-down cards (sorted the same way), then the next
//! table, and so on. A plain two-player round is `[winner's card, loser's card]`.
//!
//! Two players, the common case, take a short path for plain rounds; wars and larger tables go
//! through the general step loop.

use super::card::Card;
use super::pile::Pile;
use super::rules::{MAX_PLAYERS, Rules};
use super::{GameRecord, Outcome};

const SEATS: usize = MAX_PLAYERS as usize;

/// One card on the table and the seat (0-based) that played it.
#[derive(Clone, Copy, Default, Debug)]
struct Play<C> {
    card: C,
    seat: u8,
}

/// How one round ended.
#[derive(Debug, PartialEq, Eq)]
enum RoundEnd {
    /// A seat took the pot; `ties` is how many ties were chained (0 = no war).
    Taken { ties: u32 },
    /// Every player in the war ran out and nobody else holds a card: the game cannot go on.
    Stuck { ties: u32 },
}

/// The reusable state of one game: piles, the pot and the seats still in.
/// Boxed once per worker and reset for every game, so playing allocates nothing.
pub struct StandardGame<C: Card, const CAP: usize> {
    piles: [Pile<C, CAP>; SEATS],
    pot: [C; CAP],
    pot_len: usize,
    active: [u8; SEATS],
    active_len: usize,
    deck: [C; CAP],
}

impl<C: Card, const CAP: usize> StandardGame<C, CAP> {
    /// A boxed game with empty piles.
    pub fn boxed() -> Box<Self> {
        Box::new(StandardGame {
            piles: std::array::from_fn(|_| Pile::new()),
            pot: [C::default(); CAP],
            pot_len: 0,
            active: [0; SEATS],
            active_len: 0,
            deck: [C::default(); CAP],
        })
    }

    /// Shuffles a fresh deck with `rng`, deals it, and plays the game out.
    pub fn play<R: rand_xoshiro::rand_core::Rng>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
    ) -> GameRecord {
        let cards = rules.cards() as usize;
        // Rank-major, as war_card_game builds its deck: every suit of rank 1, then rank 2, ...
        let mut i = 0;
        for rank in 1..=rules.ranks {
            for suit in 0..rules.suits {
                self.deck[i] = C::new(rank as u8, suit as u8);
                i += 1;
            }
        }
        super::random::shuffle(rng, &mut self.deck[..cards]);
        let players = rules.players as usize;
        for pile in &mut self.piles[..players] {
            pile.clear();
        }
        for (k, &card) in self.deck[..cards].iter().enumerate() {
            self.piles[k % players].push(card);
        }
        self.play_dealt(rules)
    }

    /// Plays from hands already dealt: `hands[s]` is seat s's pile, top first.
    pub fn play_hands(&mut self, rules: &Rules, hands: &[Vec<C>]) -> GameRecord {
        for (seat, pile) in self.piles.iter_mut().enumerate() {
            pile.set(hands.get(seat).map_or(&[][..], |h| &h[..]));
        }
        self.play_dealt(rules)
    }

    /// Seat s's pile, top first (for tests and single-game printing).
    pub fn pile(&self, seat: usize) -> Vec<C> {
        self.piles[seat].iter().collect()
    }

    /// The cards left on the table by a game that ended stuck.
    pub fn pot(&self) -> &[C] {
        &self.pot[..self.pot_len]
    }

    fn play_dealt(&mut self, rules: &Rules) -> GameRecord {
        self.pot_len = 0;
        self.active_len = 0;
        for seat in 0..rules.players as usize {
            if !self.piles[seat].is_empty() {
                self.active[self.active_len] = seat as u8;
                self.active_len += 1;
            }
        }
        let mut record = GameRecord::default();
        while self.active_len >= 2 {
            if record.rounds == rules.max_rounds {
                record.outcome = Outcome::Capped;
                return record;
            }
            record.rounds += 1;
            let end = if self.active_len == 2 {
                self.round_of_two(rules)
            } else {
                self.round_of_many(rules)
            };
            let ties = match end {
                RoundEnd::Taken { ties } => ties,
                RoundEnd::Stuck { ties } => {
                    record.note_war(ties);
                    record.outcome = Outcome::Draw;
                    return record;
                }
            };
            record.note_war(ties);
            self.drop_empty_seats();
        }
        if self.active_len == 1 {
            record.winner = Some(self.active[0]);
            record.outcome = Outcome::Win;
        } else {
            record.outcome = Outcome::Draw;
        }
        record
    }

    fn drop_empty_seats(&mut self) {
        let mut kept = 0;
        for i in 0..self.active_len {
            let seat = self.active[i];
            if !self.piles[seat as usize].is_empty() {
                self.active[kept] = seat;
                kept += 1;
            }
        }
        self.active_len = kept;
    }

    #[inline(always)]
    fn round_of_two(&mut self, rules: &Rules) -> RoundEnd {
        let (s0, s1) = (self.active[0] as usize, self.active[1] as usize);
        let a = self.piles[s0].pop();
        let b = self.piles[s1].pop();
        if a.rank() != b.rank() {
            let a_wins = a.rank() > b.rank();
            let winner = if a_wins { s0 } else { s1 };
            let (high, low) = if a_wins { (a, b) } else { (b, a) };
            let pile = &mut self.piles[winner];
            pile.push(high);
            pile.push(low);
            return RoundEnd::Taken { ties: 0 };
        }
        let mut table = [Play::default(); SEATS];
        table[0] = Play {
            card: a,
            seat: s0 as u8,
        };
        table[1] = Play {
            card: b,
            seat: s1 as u8,
        };
        self.resolve(rules, &mut table, 2)
    }

    fn round_of_many(&mut self, rules: &Rules) -> RoundEnd {
        let mut table = [Play::default(); SEATS];
        for (slot, &seat) in table.iter_mut().zip(&self.active[..self.active_len]) {
            *slot = Play {
                card: self.piles[seat as usize].pop(),
                seat,
            };
        }
        let n = self.active_len;
        sort_table(&mut table[..n]);
        self.resolve(rules, &mut table, n)
    }

    /// Settles a sorted table of `n` cards: wars while the top ranks tie, then the pot goes to
    /// the winner in table order.
    #[inline(never)]
    fn resolve(&mut self, rules: &Rules, table: &mut [Play<C>; SEATS], mut n: usize) -> RoundEnd {
        let first_table = *table;
        let first_n = n;
        let mut ties = 0;
        loop {
            let top = table[0].card.rank();
            let tied = table[..n]
                .iter()
                .take_while(|p| p.card.rank() == top)
                .count();
            if tied < 2 {
                break;
            }
            ties += 1;
            self.pot_extend_table(&table[..n]);
            let mut fighters = [0u8; SEATS];
            for (f, p) in fighters.iter_mut().zip(&table[..tied]) {
                *f = p.seat;
            }
            let mut still_in = [true; SEATS];
            // Face-down cards: a player who runs short is out of the war (its cards stay in).
            let down_start = self.pot_len;
            for (i, &seat) in fighters[..tied].iter().enumerate() {
                for _ in 0..rules.face_down {
                    match self.piles[seat as usize].try_pop() {
                        Some(card) => self.push_pot(card),
                        None => {
                            still_in[i] = false;
                            break;
                        }
                    }
                }
            }
            sort_cards(&mut self.pot[down_start..self.pot_len]);
            // Face-up cards form the next table.
            n = 0;
            for (i, &seat) in fighters[..tied].iter().enumerate() {
                if still_in[i]
                    && let Some(card) = self.piles[seat as usize].try_pop()
                {
                    table[n] = Play { card, seat };
                    n += 1;
                }
            }
            if n == 0 {
                // Nobody in the war can go on: the best card of the first table whose player
                // still holds cards takes the pot; if nobody holds any, the game is stuck.
                let heir = first_table[..first_n]
                    .iter()
                    .find(|p| !self.piles[p.seat as usize].is_empty());
                return match heir {
                    Some(p) => {
                        self.give_pot(p.seat as usize);
                        RoundEnd::Taken { ties }
                    }
                    None => RoundEnd::Stuck { ties },
                };
            }
            sort_table(&mut table[..n]);
        }
        self.pot_extend_table(&table[..n]);
        self.give_pot(table[0].seat as usize);
        RoundEnd::Taken { ties }
    }

    #[inline(always)]
    fn push_pot(&mut self, card: C) {
        self.pot[self.pot_len] = card;
        self.pot_len += 1;
    }

    fn pot_extend_table(&mut self, table: &[Play<C>]) {
        for p in table {
            self.push_pot(p.card);
        }
    }

    fn give_pot(&mut self, seat: usize) {
        self.piles[seat].extend(&self.pot[..self.pot_len]);
        self.pot_len = 0;
    }
}

/// Stable sort, highest rank first (insertion sort: tables are tiny).
fn sort_table<C: Card>(table: &mut [Play<C>]) {
    for i in 1..table.len() {
        let mut j = i;
        while j > 0 && table[j - 1].card.rank() < table[j].card.rank() {
            table.swap(j - 1, j);
            j -= 1;
        }
    }
}

fn sort_cards<C: Card>(cards: &mut [C]) {
    for i in 1..cards.len() {
        let mut j = i;
        while j > 0 && cards[j - 1].rank() < cards[j].rank() {
            cards.swap(j - 1, j);
            j -= 1;
        }
    }
}
