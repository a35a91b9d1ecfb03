use super::*;

fn opened(dir: &tempfile::TempDir) -> (Stream, PathBuf) {
    let path = dir.path().join("games.csv");
    (Stream::create(&Target::File(path.clone())).unwrap(), path)
}

#[test]
fn a_file_removed_while_written_stops_the_batch_within_a_few_mib() {
    let dir = tempfile::tempdir().unwrap();
    let (mut stream, path) = opened(&dir);
    let mib = vec![b'x'; 1 << 20];
    stream.write_all(&mib).unwrap();
    std::fs::remove_file(&path).unwrap();
    // Counted every 4 MiB: not yet.
    assert!(stream.stop_reason().is_none());
    for _ in 0..3 {
        stream.write_all(&mib).unwrap();
    }
    let stop = stream.stop_reason().expect("removed");
    assert!(Lost::is(&stop), "{stop}");
}

#[test]
fn a_file_removed_on_nfs_is_found_by_the_name_the_client_holds_it_under() {
    let dir = tempfile::tempdir().unwrap();
    let (stream, path) = opened(&dir);
    assert!(!stream.removed());
    // What an NFS client does with a file removed while a process holds it open.
    std::fs::rename(&path, dir.path().join(".nfs000000000123abcd00000001")).unwrap();
    assert!(stream.removed());
    // A file given such a name to begin with is written on.
    let path = dir.path().join(".nfs00ab");
    let stream = Stream::create(&Target::File(path.clone())).unwrap();
    assert!(!stream.removed());
}

#[test]
fn a_file_cut_short_has_lost_its_rows_from_its_start_resumed_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let (mut stream, path) = opened(&dir);
    let mib = vec![b'x'; 1 << 20];
    stream.write_all(&mib).unwrap();
    assert_eq!(stream.lost(), None);
    File::create(&path).unwrap();
    stream.write_all(&mib).unwrap();
    assert_eq!(
        stream.lost(),
        Some(Lost::CutShort {
            from: 0,
            to: 1 << 20
        })
    );
    // A resumed file's earlier rows count as much as its own.
    drop(stream);
    let mut stream = Stream::resume(&path, 2 << 20).unwrap();
    stream.write_all(&mib).unwrap();
    assert_eq!(
        stream.lost(),
        Some(Lost::CutShort {
            from: 0,
            to: 1 << 20
        })
    );
}

#[test]
fn a_cut_below_the_bytes_last_found_whole_is_found_and_said_from_where_it_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let (mut stream, path) = opened(&dir);
    let mib = vec![b'x'; 1 << 20];
    for _ in 0..4 {
        stream.write_all(&mib).unwrap();
        assert_eq!(stream.lost(), None);
    }
    let cut = OpenOptions::new().write(true).open(&path).unwrap();
    cut.set_len((1 << 20) + 7).unwrap();
    let lost = Lost::CutShort {
        from: (1 << 20) + 7,
        to: 4 << 20,
    };
    assert_eq!(stream.lost(), Some(lost), "not written on since");
    stream.write_all(&mib).unwrap();
    assert_eq!(stream.lost(), Some(lost), "written on after zeros");
}

#[test]
fn a_file_kept_or_moved_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (mut stream, path) = opened(&dir);
    let mib = vec![b'x'; 1 << 20];
    for _ in 0..4 {
        stream.write_all(&mib).unwrap();
    }
    assert!(stream.stop_reason().is_none());
    // Moved, its rows are kept under the new name.
    std::fs::rename(&path, dir.path().join(".nfs-moved.csv")).unwrap();
    for _ in 0..4 {
        stream.write_all(&mib).unwrap();
    }
    assert!(stream.stop_reason().is_none());
    assert!(!stream.removed());
}
