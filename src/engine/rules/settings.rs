//! The named values a rule setting can take (`--pickup loser-first`, `--spoils heap`, ...),
//! each with the name the command line and the outputs use.

use std::fmt;

/// A setting with a fixed set of named values, as written on the command line.
pub trait Named: Copy + Sized + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// The name of this value.
    fn name(self) -> &'static str;
    /// The value with this name (ASCII case ignored: `--rules Classic`).
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }
    /// Every name, comma separated.
    fn names() -> String {
        Self::ALL
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

macro_rules! named {
    ($type:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl Named for $type {
            const ALL: &'static [Self] = &[$($type::$variant),+];
            fn name(self) -> &'static str {
                match self { $($type::$variant => $name),+ }
            }
        }
        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

/// The shape of a game: which engine loop plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Shared deck; the highest card takes the table; only the top tie goes to war.
    Table,
    /// Shared deck; every group of equal cards fights its own war, with nested wars.
    Groups,
    /// Each player its own deck; a fixed number of rounds compares card i with card i; no wars.
    FixedRounds,
}
named!(Family { Table => "table", Groups => "groups", FixedRounds => "fixed-rounds" });

/// What happens when a player in a war has fewer cards than the layout asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortage {
    /// A player who cannot put down a card is out of the war; its cards stay in the pot.
    Lose,
    /// Play what you have, the last card face up; with none left, the tied card counts again.
    PlayWhatYouHave,
    /// Both play as many cards as the smaller hand holds; a tie there ends the game for the
    /// larger hand (two players).
    SmallerHand,
    /// A tied player who cannot lay the whole layout ends the game: the cards in play are set
    /// aside, and the player holding the most cards wins (a tie for the most: a draw). French
    /// bataille's programs (cristal-smac/bataille, bataille_cpp).
    EndGame,
    /// A tied player with no card left loses the war: the one tied player with cards takes the
    /// pot at once (with none, the last tied seat does); one with fewer than the layout lays
    /// what it has, the last card face up (kbWar).
    LoseWhenEmpty,
}
named!(Shortage {
    Lose => "lose",
    PlayWhatYouHave => "play-what-you-have",
    SmallerHand => "smaller-hand",
    EndGame => "end-game",
    LoseWhenEmpty => "lose-when-empty",
});

/// The order in which the winner puts the cards of a round under its pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pickup {
    /// war_card_game's order: each step's cards highest first, lower seat first on ties.
    Table,
    /// The winner's own cards first (in play order), then the others' by seat.
    WinnerFirst,
    /// The others' cards first (by seat, in play order), then the winner's.
    LoserFirst,
    /// Seat 1's cards, then seat 2's, ... each in play order.
    Seats,
    /// The last seat's cards first, down to seat 1's, each in play order.
    ReverseSeats,
    /// A uniformly random order.
    Shuffled,
    /// The pot turned over as it lies: the last step's cards first, back to the first table,
    /// each step's cards highest first (la bataille's "rangement naturel", Delahaye & Mathieu).
    Natural,
    /// The pot as laid (each table by seat, a war's face-down cards seat by seat) taken back
    /// turned over, the last card laid first (kbWar).
    Reversed,
    /// The pot in the order it was laid when players lay one card at a time in turn: each step
    /// seat by seat, a war's face-down cards one from each player in turn (rustwar).
    Alternating,
}
named!(Pickup {
    Table => "table",
    WinnerFirst => "winner-first",
    LoserFirst => "loser-first",
    Seats => "seats",
    ReverseSeats => "reverse-seats",
    Shuffled => "shuffled",
    Natural => "natural",
    Reversed => "reversed",
    Alternating => "alternating",
});

/// Where won cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spoils {
    /// Under the winner's pile.
    UnderPile,
    /// Onto the winner's spoil heap, shuffled into its pile when the pile runs out.
    Heap,
    /// Onto the winner's spoil heap, each card on top of the last; when the pile runs out the
    /// heap becomes the pile as it lies, unshuffled, the last card won on top (rustwar's
    /// unshuffled mode).
    HeapUnshuffled,
}
named!(Spoils { UnderPile => "under-pile", Heap => "heap", HeapUnshuffled => "heap-unshuffled" });

/// How every shuffle orders the cards: the deck, spoil heaps, reshuffles, shuffled pickups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// Fisher–Yates: every order equally likely.
    FisherYates,
    /// Sattolo's algorithm, WarSimulator's `Next(i)`: each position swapped with one strictly
    /// before it, so no card stays in place; the list then read from its end, as WarSimulator
    /// pushes it onto a pile.
    Sattolo,
    /// Each card in turn swapped with one drawn from the whole pile (Game-of-War's reshuffle):
    /// some orders likelier than others.
    SwapAny,
}
named!(Shuffle { FisherYates => "fisher-yates", Sattolo => "sattolo", SwapAny => "swap-any" });

/// What the round cap decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtCap {
    /// Nobody: the game's outcome is `capped`.
    Capped,
    /// The larger pile wins; equal piles play one sudden-death round, after which seat 1 wins
    /// only with strictly more cards, otherwise seat 2 (Game-of-War; two players).
    LargerPile,
}
named!(AtCap { Capped => "capped", LargerPile => "larger-pile" });

/// How the deck is cut when it does not split evenly among the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uneven {
    /// Deal every card; the first seats get one more.
    DealAll,
    /// Drop the (cards mod players) lowest cards first (WarSimulator's description).
    DropLowest,
    /// Build the deck suit by suit (1, 2, … of each suit in turn) and drop its (cards mod
    /// players) first cards: the values 1, 2, … of the first suit (WarSimulator's code).
    DropFirst,
}
named!(Uneven { DealAll => "deal-all", DropLowest => "drop-lowest", DropFirst => "drop-first" });

/// The order in which the groups family settles a table's groups and collects its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupOrder {
    /// Highest rank first.
    HighestFirst,
    /// In the order the ranks were first shown, by seat, each rank's cards together
    /// (WarSimulator's code walks a `Dictionary` filled as the cards are shown).
    AsShown,
}
named!(GroupOrder { HighestFirst => "highest-first", AsShown => "as-shown" });

/// When a fighter of the groups family shows its champion, the card that decides its war.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Champion {
    /// After its stakes: the last card it lays (WarSimulator's description).
    Last,
    /// Before its stakes: the first card it lays (WarSimulator's code).
    First,
}
named!(Champion { Last => "last", First => "first" });

/// How the shuffled deck goes to the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deal {
    /// One card at a time from the top of the deck, seat 1 first; the first card dealt is on top.
    FromTop,
    /// One card at a time from the end of the deck (war_card_game pops its Vec): seat 1 gets
    /// the last card, seat 2 the one before, ...; the first card dealt is on top.
    FromEnd,
    /// One card at a time from the top, the last seat first: card k to seat P − 1 − (k mod
    /// P), the first card dealt on top. With the Sattolo shuffle's list read from its end,
    /// this is WarSimulator's deal (card k of its list pushed onto seat k mod P's pile).
    LastSeatFirst,
}
named!(Deal { FromTop => "from-top", FromEnd => "from-end", LastSeatFirst => "last-seat-first" });

/// The random generator and how game seeds are derived from the base seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// xoshiro256++; game i of a batch plays SplitMix64 output i of the base seed.
    Xoshiro,
    /// war_card_game 0.3.1's ChaCha12 (rand 0.8 `StdRng`); game i plays seed base + i, as the
    /// crate's `--range` does.
    WarCardGame,
}
named!(Generator { Xoshiro => "xoshiro256++", WarCardGame => "chacha12-stdrng-0.8" });
