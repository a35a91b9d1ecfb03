//! A line of text built on the stack, for what a signal handler says as it ends the process:
//! nothing in a handler may allocate.

/// A line of text built without allocating, for [`super::exit_now`]; what does not fit is
/// dropped.
pub(super) struct Line {
    pub(super) bytes: [u8; 320],
    pub(super) len: usize,
}

impl Default for Line {
    fn default() -> Line {
        Line {
            bytes: [0; 320],
            len: 0,
        }
    }
}

impl Line {
    pub(super) fn push(&mut self, text: &[u8]) {
        let room = self.bytes.len() - self.len;
        let taken = text.len().min(room);
        self.bytes[self.len..self.len + taken].copy_from_slice(&text[..taken]);
        self.len += taken;
    }

    /// `n` with its thousands grouped by commas, as the report writes numbers. Not
    /// `export::text::group`, which returns a `String`: this runs in a signal handler, where
    /// nothing may allocate.
    pub(super) fn push_grouped(&mut self, n: u64) {
        let mut digits = [0u8; 26];
        let (mut at, mut rest, mut written) = (digits.len(), n, 0);
        loop {
            if written > 0 && written % 3 == 0 {
                at -= 1;
                digits[at] = b',';
            }
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            written += 1;
            if rest == 0 {
                break;
            }
        }
        self.push(&digits[at..]);
    }
}

#[cfg(test)]
mod tests {
    use super::Line;

    #[test]
    fn numbers_are_grouped_as_the_report_writes_them() {
        for (n, text) in [
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1_000, "1,000"),
            (2_637_822, "2,637,822"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            let mut line = Line::default();
            line.push_grouped(n);
            assert_eq!(&line.bytes[..line.len], text.as_bytes());
        }
    }

    #[test]
    fn a_line_too_long_is_cut_not_overrun() {
        let mut line = Line::default();
        line.push(&[b'x'; 300]);
        line.push(&[b'y'; 30]);
        assert_eq!(line.len, 320);
        assert_eq!(line.bytes[319], b'y');
    }
}
