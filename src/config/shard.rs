//! Reading `--shard K/N` (the shard itself is the batch runner's [`Shard`]).

use crate::batch::Shard;

/// Parses `K/N` with 0 ≤ K < N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = |why: &str| {
        format!("'{text}' is not a shard: {why} (write K/N with 0 ≤ K < N, e.g. 0/4 to 3/4)")
    };
    let (index, count) = text.trim().split_once('/').ok_or_else(|| bad("no '/'"))?;
    let number = |part: &str| {
        part.parse::<u64>()
            .map_err(|_| bad("K and N are whole numbers"))
    };
    let (index, count) = (number(index)?, number(count)?);
    if count == 0 {
        return Err(bad("N must be at least 1"));
    }
    if index >= count {
        return Err(bad("K counts from 0, so it must be less than N"));
    }
    Ok(Shard { index, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shards_are_refused() {
        assert_eq!(parse_shard("3/4"), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(parse_shard("0/1"), Ok(Shard { index: 0, count: 1 }));
        for bad in [
            "3/3", "0/0", "-1/4", "1/4/2", "1", "a/4", "1/", " /4", "4/3",
        ] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
