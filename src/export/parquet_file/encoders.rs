//! Row groups encoded on threads of their own while the next one fills (machines of four cores
//! or more), appended to the file in game order. A thread the system will not start (a limit
//! on threads or on address space, met part-way through a run) leaves its group to be encoded
//! by the writer thread, after the groups before it: the same bytes, only later, and the run
//! plays on rather than stopping on a write error.

use std::io;
use std::sync::mpsc::sync_channel;
use std::thread::{self, JoinHandle};

use super::group::{self, Chunks, InMemory, Rows};
use super::{GameParquet, into_io, row_group};

/// A row group being encoded: its column chunks and its emptied rows, once done.
pub(super) type Encoding = JoinHandle<parquet::errors::Result<(Chunks, Rows)>>;

/// Row groups that may still be written once a batch stops, with `encoders` threads encoding
/// them: the rest of one being written, those being encoded, and the one being gathered. The
/// room kept in hand past the file's end holds them.
pub(super) fn groups_in_flight(encoders: usize) -> u64 {
    encoders as u64 + 2
}

impl GameParquet {
    /// Encodes the gathered rows as a row group: on a thread of its own, once fewer than
    /// `encoders` groups are being encoded (the oldest appended to the file first), or here
    /// without encoders, or when no thread will start.
    pub(super) fn write_group(&mut self) -> io::Result<()> {
        while self.encoders > 0 && self.encoding.len() >= self.encoders {
            self.append_oldest()?;
        }
        let next = (self.spare.take()).unwrap_or_else(|| Rows::with_capacity(self.group_rows));
        let rows = std::mem::replace(&mut self.rows, next);
        let batches = std::mem::take(&mut self.batches);
        // Only the batch being written on stays wanted.
        self.batches = vec![batches.last().cloned().unwrap_or_default()];
        if self.encoders > 0 {
            // The rows go to the thread once it has started, so that they stay here if it
            // does not.
            let (hand_over, handed) = sync_channel::<(Rows, Vec<Vec<String>>)>(1);
            let layout = self.layout.clone();
            let encode = move || {
                let (rows, batches) = handed.recv().expect("sent once the thread has started");
                let mut columns = InMemory::new(&layout);
                group::encode(&mut columns, &layout.leads, &rows, &batches)?;
                Ok((columns.chunks, rows))
            };
            if let Ok(job) = start_encoder(encode) {
                hand_over
                    .send((rows, batches))
                    .expect("the thread waits for them");
                self.encoding.push_back(job);
                return Ok(());
            }
            while !self.encoding.is_empty() {
                self.append_oldest()?;
            }
        }
        self.writer()?;
        let (writer, leads) = (self.writer.as_mut().expect("just made"), &self.layout.leads);
        row_group(writer, |group| group::encode(group, leads, &rows, &batches))?;
        self.appended(rows.game.len());
        self.spare = Some(rows.cleared());
        Ok(())
    }

    /// Appends the oldest row group being encoded, once it is, to the file.
    pub(super) fn append_oldest(&mut self) -> io::Result<()> {
        let Some(job) = self.encoding.pop_front() else {
            return Ok(());
        };
        let chunks = job
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            .map_err(into_io)?;
        self.append(chunks)
    }

    /// Appends an encoded row group to the file, keeping its emptied columns for the next.
    fn append(&mut self, (chunks, rows): (Chunks, Rows)) -> io::Result<()> {
        let count = rows.game.len();
        self.spare = Some(rows.cleared());
        row_group(self.writer()?, |group| {
            (chunks.into_iter()).try_for_each(|(bytes, closed)| group.append_column(&bytes, closed))
        })?;
        self.appended(count);
        Ok(())
    }
}

/// Starts an encoder thread running `encode`, or says why the system would not.
fn start_encoder(
    encode: impl FnOnce() -> parquet::errors::Result<(Chunks, Rows)> + Send + 'static,
) -> io::Result<Encoding> {
    #[cfg(test)]
    if tests::REFUSED.with(|refused| refused.replace(refused.get() >> 1) & 1 == 1) {
        return Err(io::Error::from(io::ErrorKind::WouldBlock));
    }
    thread::Builder::new()
        .name("warsim-parquet".to_string())
        .spawn(encode)
}

#[cfg(test)]
pub(super) mod tests {
    use std::cell::Cell;

    thread_local! {
        /// Which of the next encoder threads started on this writer thread the system is to
        /// refuse: the next if bit 0 is set, the one after it if bit 1 is, and so on.
        pub static REFUSED: Cell<u32> = const { Cell::new(0) };
    }
}
