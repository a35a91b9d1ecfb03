//! Signals that ask a long job to stop: SIGINT (Ctrl-C), SIGTERM and SIGHUP. The first one
//! only raises a flag that the job polls between chunks of games, so it can end on whole games
//! and write what it has; a second one ends the process at once, with the usual status of that
//! signal (128 + its number).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signals that stop a run.
const STOPPING: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Whether a stopping signal has arrived, and which.
#[derive(Clone)]
pub struct Interrupt {
    requested: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers for the rest of the process.
    pub fn install() -> io::Result<Interrupt> {
        let requested = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for number in STOPPING {
            // Registered first, so it sees the flag as the previous signal left it: a second
            // signal exits at once.
            signal_hook::flag::register_conditional_shutdown(
                number,
                128 + number,
                Arc::clone(&requested),
            )?;
            signal_hook::flag::register_usize(number, Arc::clone(&signal), number as usize)?;
            signal_hook::flag::register(number, Arc::clone(&requested))?;
        }
        Ok(Interrupt { requested, signal })
    }

    /// True once a stopping signal has arrived.
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }

    /// The signal that arrived, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            number => Some(number as i32),
        }
    }

    /// The exit status for the signal that arrived: 128 + its number (130 for Ctrl-C, 143 for
    /// SIGTERM, 129 for SIGHUP).
    pub fn exit_status(&self) -> Option<u8> {
        self.signal().map(|number| (128 + number) as u8)
    }

    /// The signal's name for messages.
    pub fn signal_name(&self) -> &'static str {
        match self.signal() {
            Some(SIGINT) => "SIGINT, Ctrl-C",
            Some(SIGTERM) => "SIGTERM",
            Some(SIGHUP) => "SIGHUP",
            _ => "a signal",
        }
    }
}
