//! The Parquet writer's tests: row groups encoded by the writer thread or on threads of
//! their own (some refused by the system) make the same file, and a file given up after a
//! write error keeps its whole row groups.

use super::*;
use crate::engine::Preset;
use crate::export::Target;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor;

/// A sweep-like file (`cell` and `rules` leading) of `records` over two cells, in row groups
/// of 1,000 games, encoded by `encoders` threads (none: by the writer thread).
pub(super) fn file(
    path: &std::path::Path,
    spec: &BatchSpec,
    records: &[GameRecord],
    encoders: usize,
) {
    let out = Stream::create(&Target::File(path.into())).unwrap();
    let leads = [("cell", LeadKind::Number), ("rules", LeadKind::Name)];
    let mut parquet = GameParquet::new(out, &leads);
    (parquet.group_rows, parquet.encoders) = (1_000, encoders);
    parquet.start_batch(&["0".to_string(), "classic".to_string()]);
    parquet
        .write_games(spec, 0, &records[..2_500], None)
        .unwrap();
    parquet.start_batch(&["1".to_string(), "cards-war".to_string()]);
    parquet
        .write_games(spec, 0, &records[2_500..], None)
        .unwrap();
    parquet.close("{}".to_string()).unwrap();
}

#[test]
fn row_groups_encoded_on_threads_are_those_the_writer_encodes() {
    // Capped at 200 rounds, many games have no winner: the nullable columns have gaps.
    let mut rules = Preset::Classic.rules();
    rules.max_rounds = 200;
    let spec = BatchSpec {
        rules,
        first: 0,
        games: 5_500,
        seed: 3,
        threads: 1,
    };
    let records = spec.played_one_by_one();
    let capped = records.iter().filter(|r| r.winner.is_none()).count();
    assert!(
        (1_000..4_500).contains(&capped),
        "{capped} games without a winner"
    );
    let dir = tempfile::tempdir().unwrap();
    let by_writer = dir.path().join("writer.parquet");
    file(&by_writer, &spec, &records, 0);
    let reader = SerializedFileReader::new(std::fs::File::open(&by_writer).unwrap()).unwrap();
    let groups = reader.metadata().row_groups();
    assert_eq!(
        groups.len(),
        6,
        "5 full groups of 1,000 games and one of 500"
    );
    assert_eq!(groups.iter().map(|g| g.num_rows()).sum::<i64>(), 5_500);
    let expected = std::fs::read(&by_writer).unwrap();
    // Then with the system refusing threads: the third and fifth of five groups' (the third
    // while two are being encoded), and every one; the writer encodes those groups itself.
    for (encoders, refused) in [(1, 0), (3, 0), (3, 0b10100), (1, 0b11111)] {
        let threaded = dir.path().join(format!("{encoders}-{refused}.parquet"));
        encoders::tests::REFUSED.with(|r| r.set(refused));
        file(&threaded, &spec, &records, encoders);
        assert_eq!(
            encoders::tests::REFUSED.with(|r| r.get()),
            0,
            "every start was tried"
        );
        let bytes = std::fs::read(&threaded).unwrap();
        assert!(
            bytes == expected,
            "{encoders} encoders, {refused:#b} refused: the files differ"
        );
    }
}

/// After a write error the writer is given up, and what is asked of the file later (its end,
/// after a CSV beside it failed too) fails with that error again, not with one of its own.
#[test]
fn a_file_whose_write_failed_fails_again_with_the_same_error() {
    let spec = BatchSpec {
        rules: Preset::Classic.rules(),
        first: 0,
        games: 1_500,
        seed: 3,
        threads: 1,
    };
    let records = spec.played_one_by_one();
    let out = Stream::create(&Target::File("/dev/full".into())).unwrap();
    let mut parquet = GameParquet::new(out, &[]);
    parquet.group_rows = 1_000;
    let first = parquet.write_games(&spec, 0, &records, None).unwrap_err();
    assert_eq!(first.kind(), io::ErrorKind::StorageFull, "{first}");
    // A device cannot be cut back to its whole row groups.
    assert_eq!(parquet.salvaged(), None);
    let again = parquet.close("{}".to_string()).unwrap_err();
    assert_eq!(
        (again.kind(), again.to_string()),
        (first.kind(), first.to_string())
    );
}

/// A file given up after an error keeps the row groups it holds whole, read back as written:
/// two of three when the third is cut short on the disk by the error, and two when the third
/// is still being encoded on a thread of its own.
#[test]
fn a_file_given_up_keeps_the_row_groups_it_holds_whole() {
    let spec = BatchSpec {
        rules: Preset::Classic.rules(),
        first: 0,
        games: 3_500,
        seed: 5,
        threads: 1,
    };
    let records = spec.played_one_by_one();
    let dir = tempfile::tempdir().unwrap();
    for (encoders, cut) in [(0, true), (1, false)] {
        let path = dir.path().join(format!("{encoders}.parquet"));
        let mut parquet =
            GameParquet::new(Stream::create(&Target::File(path.clone())).unwrap(), &[]);
        (parquet.group_rows, parquet.encoders) = (1_000, encoders);
        parquet
            .write_games(&spec, 0, &records[..3_000], None)
            .unwrap();
        let writer = parquet.writer.as_mut().unwrap();
        writer.flush().unwrap();
        if cut {
            // The error came as the third group was written: the file ends inside it.
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.set_len(writer.bytes_written() as u64 - 100).unwrap();
        }
        let error = parquet.fail(io::Error::other("the disk is full"), None);
        assert_eq!(error.to_string(), "the disk is full");
        assert_eq!(parquet.salvaged(), Some(2_000), "{encoders} encoders");
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let games: Vec<u64> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|row| row.unwrap().get_ulong(0).unwrap())
            .collect();
        assert_eq!(games, (0..2_000).collect::<Vec<_>>(), "{encoders} encoders");
    }
}

/// `games` classic games seeded `seed`, played, and a Parquet file of row groups of 1,000
/// games opened for them as `games.parquet` in a fresh folder.
fn opened(games: u64, seed: u64) -> (BatchSpec, Vec<GameRecord>, tempfile::TempDir, GameParquet) {
    opened_with(games, seed, &[])
}

/// [`opened`], its rows led by the columns `leads` (a sweep's).
pub(super) fn opened_with(
    games: u64,
    seed: u64,
    leads: &[(&str, LeadKind)],
) -> (BatchSpec, Vec<GameRecord>, tempfile::TempDir, GameParquet) {
    let spec = BatchSpec {
        rules: Preset::Classic.rules(),
        first: 0,
        games,
        seed,
        threads: 1,
    };
    let records = spec.played_one_by_one();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    let mut parquet = GameParquet::new(Stream::create(&Target::File(path)).unwrap(), leads);
    parquet.group_rows = 1_000;
    (spec, records, dir, parquet)
}

/// A file cut back to its whole row groups after a write error (a footer without the run's
/// summary) is taken up by a resumed run, which writes the games after them: read back, the
/// file holds every game in order, and the tail saved while it was written is gone once the
/// run's state is said to count them.
#[test]
fn a_file_cut_back_after_an_error_goes_on_after_its_row_groups() {
    let (spec, records, dir, mut parquet) = opened(3_500, 7);
    let path = dir.path().join("games.parquet");
    (parquet.write_games(&spec, 0, &records[..2_500], None)).unwrap();
    let writer = parquet.writer.as_mut().unwrap();
    writer.flush().unwrap();
    let groups = writer.flushed_row_groups().to_vec();
    let layout = parquet.layout.clone();
    // Let go of (a writer given up keeps its descriptor, and its lock, to the process's end).
    drop(parquet);
    let mut file = (std::fs::OpenOptions::new().write(true).open(&path)).unwrap();
    assert_eq!(
        salvage::salvage(&mut file, &groups, &layout).unwrap(),
        2_000
    );

    assert!(
        check_resumable(&path, 0..2_500).is_err(),
        "it holds 2,000 games"
    );
    let held = check_resumable(&path, 0..2_000).unwrap();
    let mut parquet = GameParquet::resumed(&path, held).unwrap();
    assert!(tail::tail_path(&path).exists(), "its tail saved");
    (parquet.write_games(&spec, 2_000, &records[2_000..], None)).unwrap();
    parquet.close("{}".to_string()).unwrap();
    forget_saved_tail(&path);
    assert!(!tail::tail_path(&path).exists());
    let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let rows: Vec<(u64, u32)> = (reader.get_row_iter(None).unwrap())
        .map(|row| row.unwrap())
        .map(|row| (row.get_ulong(0).unwrap(), row.get_uint(2).unwrap()))
        .collect();
    let expected: Vec<(u64, u32)> = (records.iter().enumerate())
        .map(|(game, record)| (game as u64, record.rounds))
        .collect();
    assert!(rows == expected, "every game in order");
}

/// A resumed file whose write fails before the short row group it writes again is whole gets
/// back what it held, not its full row groups alone: the games of that group stay in the file.
#[test]
fn a_resumed_file_that_fails_at_once_keeps_every_game_it_held() {
    let (spec, records, dir, mut parquet) = opened(2_500, 9);
    let path = dir.path().join("games.parquet");
    (parquet.write_games(&spec, 0, &records, None)).unwrap();
    parquet.close("{}".to_string()).unwrap();
    drop(parquet);

    // Its last group (500 games) is read back, and the file cut where it began.
    let held = check_resumable(&path, 0..2_500).unwrap();
    let mut parquet = GameParquet::resumed(&path, held).unwrap();
    parquet.fail(io::Error::other("the disk is full"), None);
    assert_eq!(parquet.salvaged(), Some(2_500));
    assert!(!tail::tail_path(&path).exists(), "the tail put back");
    let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let games: Vec<u64> = (reader.get_row_iter(None).unwrap())
        .map(|row| row.unwrap().get_ulong(0).unwrap())
        .collect();
    assert_eq!(games, (0..2_500).collect::<Vec<_>>());
}

/// The games a Parquet file at `path` holds, in order, and its summary.
fn games_held(path: &std::path::Path) -> (Vec<u64>, Option<String>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let summary = (reader.metadata().file_metadata().key_value_metadata())
        .and_then(|kv| kv.iter().find(|kv| kv.key == PARQUET_SUMMARY_KEY))
        .and_then(|kv| kv.value.clone());
    let games = (reader.get_row_iter(None).unwrap())
        .map(|row| row.unwrap().get_ulong(0).unwrap())
        .collect();
    (games, summary)
}

/// A file sealed at checkpoints (the games gathered as a short row group, then a footer) reads
/// at each one, holding every game taken and the summary it was given; written on, it ends
/// byte for byte as a file never sealed, its row groups encoded here or on threads.
#[test]
fn a_file_sealed_at_checkpoints_reads_at_each_and_ends_as_one_never_sealed() {
    for encoders in [0, 1] {
        let (spec, records, dir, parquet) = opened(5_500, 11);
        let path = dir.path().join("games.parquet");
        let mut parquet = parquet.named(&path);
        parquet.encoders = encoders;
        let mut taken = 0;
        // Inside a group, at a group's end, two in a row, and one group further.
        for end in [700, 2_000, 2_000, 2_300, 4_100] {
            let range = taken..end;
            let first = range.start as u64;
            (parquet.write_games(&spec, first, &records[range], None)).unwrap();
            parquet.seal(format!("{{\"games\":{end}}}")).unwrap();
            let (games, summary) = games_held(&path);
            assert_eq!(games, (0..end as u64).collect::<Vec<_>>(), "{encoders}");
            assert_eq!(summary.unwrap(), format!("{{\"games\":{end}}}"));
            parquet.go_on().unwrap();
            assert!(tail::tail_path(&path).exists(), "its tail saved");
            taken = end;
        }
        (parquet.write_games(&spec, taken as u64, &records[taken..], None)).unwrap();
        parquet.close("{}".to_string()).unwrap();
        forget_saved_tail(&path);
        assert!(!tail::tail_path(&path).exists());

        let (_, _, other, mut never) = opened(5_500, 11);
        never.encoders = encoders;
        (never.write_games(&spec, 0, &records, None)).unwrap();
        never.close("{}".to_string()).unwrap();
        let expected = std::fs::read(other.path().join("games.parquet")).unwrap();
        assert!(
            std::fs::read(&path).unwrap() == expected,
            "{encoders}: the files differ"
        );
    }
}

/// A run killed after going on from a checkpoint leaves a file without a footer and the
/// tail: `check_resumable` puts the file back as the checkpoint sealed it. Killed between the
/// footer and its state, the file holds the new checkpoint's games and the tail the last one's:
/// it is put back to the last, which the state on the disk counts.
#[test]
fn a_file_killed_after_a_checkpoint_is_put_back_as_the_state_counts_it() {
    let (spec, records, dir, parquet) = opened(3_500, 13);
    let path = dir.path().join("games.parquet");
    let mut parquet = parquet.named(&path);
    parquet.encoders = 0;
    (parquet.write_games(&spec, 0, &records[..1_500], None)).unwrap();
    parquet.seal("{}".to_string()).unwrap();
    parquet.go_on().unwrap();
    (parquet.write_games(&spec, 1_500, &records[1_500..3_200], None)).unwrap();
    parquet.writer.as_mut().unwrap().flush().unwrap();
    // Killed: dropped unclosed, with nothing left to flush, no footer reaches the file.
    drop(parquet);
    let opened = SerializedFileReader::new(std::fs::File::open(&path).unwrap());
    assert!(opened.is_err(), "no footer");
    let held = check_resumable(&path, 0..1_500).unwrap();
    assert!(held.put_back && !tail::tail_path(&path).exists());
    assert_eq!(games_held(&path).0, (0..1_500).collect::<Vec<_>>());

    // Going on from there, killed once sealed again but before its state was written.
    let mut parquet = GameParquet::resumed(&path, held).unwrap();
    (parquet.write_games(&spec, 1_500, &records[1_500..], None)).unwrap();
    parquet.seal("{}".to_string()).unwrap();
    drop(parquet);
    assert_eq!(games_held(&path).0.len(), 3_500, "sealed");
    let held = check_resumable(&path, 0..1_500).unwrap();
    assert!(held.put_back, "the last checkpoint's tail put back");
    assert_eq!(games_held(&path).0, (0..1_500).collect::<Vec<_>>());
}

/// A file whose tail cannot be saved after a checkpoint (here a folder stands at its name) is
/// not cut: it stays as sealed, readable, holding every game, and says why it stopped.
#[test]
fn a_file_whose_tail_cannot_be_saved_stays_as_sealed() {
    let (spec, records, dir, parquet) = opened(1_500, 17);
    let path = dir.path().join("games.parquet");
    let mut parquet = parquet.named(&path);
    std::fs::create_dir(tail::tail_path(&path)).unwrap();
    (parquet.write_games(&spec, 0, &records, None)).unwrap();
    parquet.seal("{}".to_string()).unwrap();
    let error = parquet.go_on().unwrap_err().to_string();
    assert!(
        error.starts_with("its tail could not be saved as ")
            && error.contains("games.parquet.warsim-tail: "),
        "{error}"
    );
    assert_eq!(parquet.salvaged(), Some(1_500));
    drop(parquet);
    assert_eq!(games_held(&path).0, (0..1_500).collect::<Vec<_>>());
}
