//! What a card is to the engine: a rank, and for single games that print hands, a suit.
//!
//! Batch runs use bare `u8` ranks (one byte a card, the smallest piles). `play` uses
//! [`SuitedCard`] so that hands can be printed; the engine is generic over both and compares
//! ranks only, so both give the same games.

/// Only the crate's card types can be cards: the block pass relies on what `bytes_mut` says of
/// a type, so no outside type may claim it.
mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for super::SuitedCard {}
}

/// A card the engine can play with (`u8` and [`SuitedCard`]; sealed). Ranks run 1..=R, 1 the
/// lowest.
pub trait Card:
    sealed::Sealed + Copy + Default + Eq + Send + Sync + std::fmt::Debug + 'static
{
    /// True when a card is its rank alone, so two cards of one rank are the same card and any
    /// order of equal ranks is the stable one.
    const RANK_ONLY: bool = false;

    /// Makes the card of this rank and suit (suit 0..S).
    fn new(rank: u8, suit: u16) -> Self;
    /// The rank, the only thing play compares.
    fn rank(self) -> u8;

    /// Writes `first` at `slot[0]` and `second` at `slot[1]` (one store for byte cards).
    #[inline(always)]
    fn write_pair(slot: &mut [Self; 2], first: Self, second: Self) {
        *slot = [first, second];
    }

    /// The linear piles as bytes when a card is a byte (the block pass works on bytes only).
    #[doc(hidden)]
    #[inline(always)]
    fn bytes_mut<const N: usize>(_piles: &mut [[Self; N]; 2]) -> Option<&mut [[u8; N]; 2]> {
        None
    }
}

impl Card for u8 {
    const RANK_ONLY: bool = true;

    #[inline(always)]
    fn new(rank: u8, _suit: u16) -> Self {
        rank
    }

    #[inline(always)]
    fn rank(self) -> u8 {
        self
    }

    #[inline(always)]
    fn write_pair(slot: &mut [Self; 2], first: Self, second: Self) {
        // One two-byte store instead of two: stores are the plain round's bottleneck.
        let pair = u16::from_ne_bytes([first, second]);
        // SAFETY: `slot` is two valid, writable bytes; the write is unaligned.
        unsafe { (slot as *mut [u8; 2]).cast::<u16>().write_unaligned(pair) };
    }

    #[inline(always)]
    fn bytes_mut<const N: usize>(piles: &mut [[Self; N]; 2]) -> Option<&mut [[u8; N]; 2]> {
        Some(piles)
    }
}

/// A card that remembers its suit, for printing single games.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct SuitedCard {
    /// 1..=R, 1 the lowest.
    pub rank: u8,
    /// 0..S (up to 1024 suits: a u8 would wrap).
    pub suit: u16,
}

impl Card for SuitedCard {
    #[inline(always)]
    fn new(rank: u8, suit: u16) -> Self {
        SuitedCard { rank, suit }
    }

    #[inline(always)]
    fn rank(self) -> u8 {
        self.rank
    }
}
