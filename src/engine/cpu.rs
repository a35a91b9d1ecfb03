//! Processor features found at run time, as tokens: only `detect` makes a token, so a value
//! proves its feature, and the code that needs the feature (`fast/blocks.rs`,
//! `random/chacha_wide.rs`, `random/chacha_lanes.rs`) takes a token instead of trusting its
//! caller. Here, below the game state and the random streams that both hold one.

/// Proof that this processor runs the block pass: only [`Blocks::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks(());

impl Blocks {
    /// The token, when the processor has SSSE3 and POPCNT.
    pub(crate) fn detect() -> Option<Blocks> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Some(Blocks(()));
        }
        None
    }
}

/// Proof that the processor runs AVX-512F: only [`Wide::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wide(());

impl Wide {
    /// The token, where the processor has AVX-512F.
    #[inline]
    pub(crate) fn detect() -> Option<Wide> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            return Some(Wide(()));
        }
        None
    }
}
