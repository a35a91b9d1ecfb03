//! One figure of a summary, typed: what a CSV cell and a JSON value are written from; and a
//! share with its interval, written as three.

use serde::Serialize;

/// One figure: a whole number, a real number, text, a yes/no, or nothing (no value exists,
/// e.g. the mean length when no game finished): empty in CSV, `null` in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Figure {
    /// A count.
    Int(u64),
    /// A measured or estimated value.
    Real(f64),
    /// A name.
    Text(String),
    /// Yes or no.
    Bool(bool),
    /// No value.
    Missing,
}

impl Figure {
    /// A real number, or [`Figure::Missing`] where none exists.
    pub fn real(value: Option<f64>) -> Figure {
        value.map_or(Figure::Missing, Figure::Real)
    }

    pub(super) fn int(value: Option<u64>) -> Figure {
        value.map_or(Figure::Missing, Figure::Int)
    }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Figure::Int(v) => write!(f, "{v}"),
            Figure::Real(v) => write!(f, "{v}"),
            Figure::Text(v) => f.write_str(v),
            Figure::Bool(v) => write!(f, "{v}"),
            Figure::Missing => Ok(()),
        }
    }
}

/// A share of all games with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    /// The share.
    pub share: f64,
    /// Lower end of the 95% interval.
    pub ci95_low: f64,
    /// Upper end of the 95% interval.
    pub ci95_high: f64,
}

impl Proportion {
    /// The share of [`crate::stats::wilson_95`]'s `(share, low, high)`.
    pub(super) fn of(wilson: Option<(f64, f64, f64)>) -> Option<Proportion> {
        let (share, ci95_low, ci95_high) = wilson?;
        Some(Proportion {
            share,
            ci95_low,
            ci95_high,
        })
    }

    /// The share, then the interval's ends, as the files hold them (empty for none).
    pub fn figures(proportion: Option<Proportion>) -> [Figure; 3] {
        match proportion {
            Some(p) => [p.share, p.ci95_low, p.ci95_high].map(Figure::Real),
            None => [Figure::Missing, Figure::Missing, Figure::Missing],
        }
    }
}
