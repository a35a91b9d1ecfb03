//! One figure of a summary, typed: what a CSV cell and a JSON value are written from.

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
