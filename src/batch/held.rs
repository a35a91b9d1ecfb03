//! A worker's finished ranges on their way to the thread that writes them: held, and handed
//! over together once the first of them is [`TARGET`] old, when the worker would wait for room,
//! and when it stops. Ranges start at one game and shrink again at a batch's end, so a short
//! batch is many ranges (a sweep's cell of 100 games on two threads about twenty): sent one by
//! one, each woke the writing thread, which on a busy machine waits its turn for a core.

use std::cell::RefCell;
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::claims::TARGET;
use super::ordered::Played;

/// The ranges a worker played and has not handed over yet, and when the first of them started
/// (meaningless while none is held).
pub struct Held {
    ranges: RefCell<(Vec<Played>, Instant)>,
    writer: Sender<Vec<Played>>,
}

impl Held {
    /// Nothing held yet; hand-overs go to `writer`.
    pub fn new(writer: Sender<Vec<Played>>) -> Held {
        Held {
            ranges: RefCell::new((Vec::new(), Instant::now())),
            writer,
        }
    }

    /// Keeps a range whose play began at `started`, and hands over what is held once the first
    /// range held began [`TARGET`] ago. False when the writer has stopped (on an error, which it
    /// reports).
    pub fn keep(&self, range: Played, started: Instant) -> bool {
        let due = {
            let mut held = self.ranges.borrow_mut();
            if held.0.is_empty() {
                held.1 = started;
            }
            held.0.push(range);
            held.1.elapsed() >= TARGET
        };
        !due || self.hand_over()
    }

    /// Hands every range held to the writer; false when it has stopped.
    pub fn hand_over(&self) -> bool {
        let ranges = std::mem::take(&mut self.ranges.borrow_mut().0);
        ranges.is_empty() || self.writer.send(ranges).is_ok()
    }
}
