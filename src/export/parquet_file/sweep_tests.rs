//! A sweep's Parquet file (its cells' settings as leading columns) through checkpoints and a
//! resume: the short row group a checkpoint ends may hold games of two cells, and is written
//! again, or read back, with each game's settings, so the file ends as one never stopped.

use super::resume::Holding;
use super::tests::{file, opened_with};
use super::*;

/// The two cells [`file`] writes: 2,500 games of cell 0, then 3,000 of cell 1, each numbered
/// from 0, in row groups of 1,000; the file never stopped, as bytes, and a fresh writer for
/// the same rows at `games.parquet`, named ([`opened_with`]).
fn cells() -> (
    BatchSpec,
    Vec<GameRecord>,
    tempfile::TempDir,
    GameParquet,
    Vec<u8>,
) {
    let (spec, records, dir, parquet) = opened_with(5_500, 19, &LEADS);
    let never = dir.path().join("never.parquet");
    file(&never, &spec, &records, 0);
    let expected = std::fs::read(&never).unwrap();
    let mut parquet = parquet.named(&dir.path().join("games.parquet"));
    parquet.encoders = 0;
    (spec, records, dir, parquet, expected)
}

const LEADS: [(&str, LeadKind); 2] = [("cell", LeadKind::Number), ("rules", LeadKind::Name)];

/// What the file holds after `count` rows, for going on with it.
fn rows(count: u64) -> Holding {
    let leads = LEADS.iter().map(|(name, kind)| (name.to_string(), *kind));
    Holding::Rows(count, leads.collect())
}

fn cell(index: usize) -> Vec<String> {
    let rules = ["classic", "cards-war"][index];
    vec![index.to_string(), rules.to_string()]
}

/// Sealed inside cell 0, and where the short group holds games of both cells, the file reads
/// at each checkpoint with every row so far, and ends byte for byte as one never sealed.
#[test]
fn a_sweep_file_sealed_across_cells_ends_as_one_never_sealed() {
    let (spec, records, dir, mut parquet, expected) = cells();
    let path = dir.path().join("games.parquet");
    let checkpoint = |parquet: &mut GameParquet, rows: i64| {
        parquet.seal("{}".to_string()).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let metadata = parquet::file::metadata::ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        assert_eq!(metadata.file_metadata().num_rows(), rows);
        parquet.go_on().unwrap();
    };
    parquet.start_batch(&cell(0));
    (parquet.write_games(&spec, 0, &records[..700], None)).unwrap();
    checkpoint(&mut parquet, 700);
    (parquet.write_games(&spec, 700, &records[700..2_500], None)).unwrap();
    parquet.start_batch(&cell(1));
    (parquet.write_games(&spec, 0, &records[2_500..2_800], None)).unwrap();
    checkpoint(&mut parquet, 2_800);
    (parquet.write_games(&spec, 300, &records[2_800..], None)).unwrap();
    parquet.close("{}".to_string()).unwrap();
    assert!(
        std::fs::read(&path).unwrap() == expected,
        "the files differ"
    );
}

/// Killed after a checkpoint whose short group holds games of both cells, the file is put
/// back as the state counts it; resumed, its short group is read back with each game's
/// settings, and the sweep going on from cell 1 ends it byte for byte as one never stopped.
#[test]
fn a_sweep_file_resumed_inside_a_group_of_two_cells_ends_as_one_never_stopped() {
    let (spec, records, dir, mut parquet, expected) = cells();
    let path = dir.path().join("games.parquet");
    parquet.start_batch(&cell(0));
    (parquet.write_games(&spec, 0, &records[..2_500], None)).unwrap();
    parquet.start_batch(&cell(1));
    (parquet.write_games(&spec, 0, &records[2_500..2_800], None)).unwrap();
    parquet.seal("{}".to_string()).unwrap();
    parquet.go_on().unwrap();
    (parquet.write_games(&spec, 300, &records[2_800..3_200], None)).unwrap();
    parquet.writer.as_mut().unwrap().flush().unwrap();
    drop(parquet);

    let held = check_resumable(&path, rows(2_800)).unwrap();
    assert!(held.put_back);
    // A sweep's rows are counted.
    assert!(check_resumable(&path, rows(2_500)).is_err());
    let mut parquet = GameParquet::resumed(&path, held).unwrap();
    (parquet.group_rows, parquet.encoders) = (1_000, 0);
    assert_eq!(
        parquet.batches,
        [cell(0), cell(1)],
        "the short group's cells"
    );
    // As the sweep does: each cell's batch begun again, cell 0's with no games left.
    parquet.start_batch(&cell(0));
    parquet.start_batch(&cell(1));
    (parquet.write_games(&spec, 300, &records[2_800..], None)).unwrap();
    parquet.close("{}".to_string()).unwrap();
    assert!(
        std::fs::read(&path).unwrap() == expected,
        "the files differ"
    );
}
