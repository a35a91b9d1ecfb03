//! The few fields of each cell of a summary JSON that the other-part check compares (its
//! batch's settings and which games it holds), read as a stream. A sweep's summary holds a few
//! KB a cell and a sweep may have 100,000 cells: read whole into a `serde_json::Value` it would
//! take GBs, while the check wants a few dozen small values a cell. Every other field is
//! skipped as it is read (serde's `IgnoredAny`).

use std::collections::BTreeSet;
use std::fmt;
use std::io::Read;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// One cell's wanted fields, by key.
pub(super) type Fields = Vec<(String, Value)>;

/// Each cell's `wanted` fields of the summary JSON `reader` gives: a sweep's, under `cells`, or
/// a run's (the top level, one cell). `None` for what is no JSON object.
pub(super) fn summary_cells(reader: impl Read, wanted: &BTreeSet<String>) -> Option<Vec<Fields>> {
    let mut json = serde_json::Deserializer::from_reader(std::io::BufReader::new(reader));
    let top = Wanted(wanted).deserialize(&mut json).ok()?;
    Some(match top.cells {
        Some(cells) => cells,
        None => vec![top.fields],
    })
}

/// An object's wanted fields, and its cells' (a sweep's `cells`).
struct Object {
    fields: Fields,
    cells: Option<Vec<Fields>>,
}

/// Reads an object, keeping only the keys wanted (and `cells`).
#[derive(Clone, Copy)]
struct Wanted<'a>(&'a BTreeSet<String>);

impl<'de> DeserializeSeed<'de> for Wanted<'_> {
    type Value = Object;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Object, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Wanted<'_> {
    type Value = Object;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a summary object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
        let mut object = Object {
            fields: Vec::new(),
            cells: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            if key == "cells" {
                object.cells = Some(map.next_value_seed(Cells(self))?);
            } else if self.0.contains(&key) {
                let value = map.next_value::<Value>()?;
                object.fields.push((key, value));
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(object)
    }
}

/// Reads a sweep's `cells`, each an object of which the keys wanted are kept.
struct Cells<'a>(Wanted<'a>);

impl<'de> DeserializeSeed<'de> for Cells<'_> {
    type Value = Vec<Fields>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Fields>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Cells<'_> {
    type Value = Vec<Fields>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of cells")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Fields>, A::Error> {
        let mut cells = Vec::new();
        while let Some(cell) = seq.next_element_seed(self.0)? {
            cells.push(cell.fields);
        }
        Ok(cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wanted(keys: &[&str]) -> BTreeSet<String> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn a_runs_summary_is_one_cell_of_its_wanted_fields() {
        let text = r#"{"rules": "classic", "seed": 3, "rounds": {"mean": 2.5}, "games": 10}"#;
        let cells = summary_cells(text.as_bytes(), &wanted(&["seed", "games", "x"])).unwrap();
        assert_eq!(
            cells,
            [vec![
                ("seed".to_string(), json!(3)),
                ("games".to_string(), json!(10))
            ]]
        );
    }

    #[test]
    fn a_sweeps_cells_each_keep_their_wanted_fields() {
        let text = r#"{"seed": 1, "cells": [{"players": 2, "games": 5, "seats": [1, 2]},
            {"players": 3, "games": 6, "seats": [1, 2, 3]}]}"#;
        let cells = summary_cells(text.as_bytes(), &wanted(&["players", "games"])).unwrap();
        assert_eq!(
            cells,
            [
                vec![
                    ("players".to_string(), json!(2)),
                    ("games".to_string(), json!(5))
                ],
                vec![
                    ("players".to_string(), json!(3)),
                    ("games".to_string(), json!(6))
                ],
            ]
        );
    }

    #[test]
    fn what_is_no_object_is_none() {
        for text in ["[1, 2]", "rounds,games", "{\"seed\": ", ""] {
            assert_eq!(summary_cells(text.as_bytes(), &wanted(&["seed"])), None);
        }
    }
}
