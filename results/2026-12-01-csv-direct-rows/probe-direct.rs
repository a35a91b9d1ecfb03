// The row writer tried on 2026-12-01 (not kept): every digit stored once, straight into the
// buffer's room past its end, so that nothing reads a just-stored digit back (the copies out of
// `itoa`'s own buffer do). It replaced `format_rows` in src/export/csv.rs as a module of its own.

const ROW_MOST: usize = 7 * 20 + 2 * 16 + 9;

const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

pub fn format_rows(
    prefix: &[u8],
    spec: &BatchSpec,
    first: u64,
    records: &[GameRecord],
    rows: &mut Vec<u8>,
) {
    for (offset, record) in records.iter().enumerate() {
        let game = first + offset as u64;
        rows.extend_from_slice(prefix);
        rows.reserve(ROW_MOST);
        unsafe {
            let start = rows.as_mut_ptr().add(rows.len());
            let mut at = start;
            at = number(at, game);
            at = byte(at, b',');
            at = number(at, spec.rules.game_seed(spec.seed, game));
            at = byte(at, b',');
            at = number(at, record.rounds.into());
            at = byte(at, b',');
            if let Some(seat) = record.winner {
                at = number(at, u64::from(seat) + 1);
            }
            at = byte(at, b',');
            at = name(at, record.outcome.name());
            at = byte(at, b',');
            at = number(at, record.wars);
            at = byte(at, b',');
            at = number(at, record.longest_war.into());
            at = byte(at, b',');
            at = name(at, record.win_by.map_or("", |by| by.name()));
            at = byte(at, b',');
            at = number(at, record.cards_played);
            at = byte(at, b'\n');
            rows.set_len(rows.len() + at.offset_from(start) as usize);
        }
    }
}

#[inline(always)]
unsafe fn byte(at: *mut u8, value: u8) -> *mut u8 {
    unsafe {
        at.write(value);
        at.add(1)
    }
}

#[inline(always)]
unsafe fn name(at: *mut u8, name: &str) -> *mut u8 {
    let mut at = at;
    for &letter in name.as_bytes().iter().take(16) {
        at = unsafe { byte(at, letter) };
    }
    at
}

#[inline(always)]
unsafe fn pair(at: *mut u8, pair: u32) {
    unsafe { std::ptr::copy_nonoverlapping(PAIRS.as_ptr().add(pair as usize * 2), at, 2) };
}

#[inline(always)]
unsafe fn eight(at: *mut u8, n: u32) {
    let (high, low) = (n / 10_000, n % 10_000);
    unsafe {
        pair(at, high / 100);
        pair(at.add(2), high % 100);
        pair(at.add(4), low / 100);
        pair(at.add(6), low % 100);
    }
}

#[inline(always)]
unsafe fn short(at: *mut u8, mut n: u32) -> *mut u8 {
    let digits = n.checked_ilog10().map_or(1, |log| log as usize + 1);
    unsafe {
        let after = at.add(digits);
        let mut end = after;
        while n >= 100 {
            end = end.sub(2);
            pair(end, n % 100);
            n /= 100;
        }
        if n >= 10 {
            pair(end.sub(2), n);
        } else {
            end.sub(1).write(b'0' + n as u8);
        }
        after
    }
}

#[inline(always)]
unsafe fn number(at: *mut u8, n: u64) -> *mut u8 {
    const E8: u64 = 100_000_000;
    unsafe {
        if n < E8 {
            return short(at, n as u32);
        }
        if n < E8 * E8 {
            let at = short(at, (n / E8) as u32);
            eight(at, (n % E8) as u32);
            return at.add(8);
        }
        let (top, rest) = (n / (E8 * E8), n % (E8 * E8));
        let at = short(at, top as u32);
        eight(at, (rest / E8) as u32);
        eight(at.add(8), (rest % E8) as u32);
        at.add(16)
    }
}
