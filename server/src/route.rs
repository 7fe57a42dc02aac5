//! Which game thread holds a table: every table's code routes to one thread, the same way on
//! every machine, so the hub, the bot threads and the store's resume agree without asking.

/// Which thread holds the table `code`.
pub fn thread_of(code: &str, threads: usize) -> usize {
    // FNV-1a: the same on every machine, so any front can route a code the same way.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in code.bytes() {
        h ^= u64::from(b.to_ascii_uppercase());
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    (h % threads.max(1) as u64) as usize
}
