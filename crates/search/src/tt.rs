//! The transposition table: a lockless hash table shared by every search
//! thread (Lazy SMP). Each entry is two atomic words: the data (a move of up
//! to 32 bits, value and static evaluation) and a check word (48 bits of
//! the key, depth, bound and age) stored XORed with the data, so a torn
//! write by a racing thread reads as a miss rather than as a wrong entry.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value is at most this (every move failed low).
    Upper = 1,
    /// The value is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a fail-soft value says about a node searched with the window
    /// (alpha, beta).
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a value of this bound can tell that the true value lies on
    /// `value`'s side of `guess`: a lower bound says nothing of a guess
    /// above it, an upper bound nothing of one below it.
    pub fn tells_side(self, value: i32, guess: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value > guess,
            Bound::Upper => value < guess,
        }
    }
}

/// What a probe returns. `value` is as stored (mate scores relative to the
/// stored node); the search converts it with the ply.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The game's move bits (`SearchGame::move_bits`); 0 for none.
    pub mv: u32,
    pub value: i16,
    pub eval: i16,
    pub depth: i8,
    pub bound: Bound,
}

struct Slot {
    /// The check word XORed with `data`.
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

pub struct Table {
    /// The buckets, from `slots[first]` on, and up to a bucket's worth of
    /// unused slots around them.
    slots: Box<[Slot]>,
    /// The first slot of the first bucket: the first slot on a cache-line
    /// boundary, so that a probe waits for (and a prefetch fetches) one line
    /// from memory, not two. (Allocating with that alignment would make the
    /// allocator zero the table by hand, page by page, instead of lending
    /// untouched zero pages: see `zeroed_slots`.)
    first: usize,
    /// Bucket count minus one (a power of two).
    mask: usize,
    /// Search generation, 6 bits: older entries are replaced first.
    age: AtomicU64,
}

/// The key bits an entry keeps to recognise its position: the low 48 (the
/// bucket is chosen by bits from 32 up, so at least 32 bits are checked
/// beyond the bucket).
const TAG_BITS: u32 = 48;

fn tag(key: u64) -> u64 {
    key & ((1 << TAG_BITS) - 1)
}

/// The two words of an entry: (check word XORed with data, data).
fn pack(key: u64, e: &Entry, age: u8) -> (u64, u64) {
    let data = e.mv as u64 | (e.value as u16 as u64) << 32 | (e.eval as u16 as u64) << 48;
    let check = tag(key) << 16 | (e.depth as u8 as u64) << 8 | (e.bound as u64) | (age as u64) << 2;
    (check ^ data, data)
}

/// The key tag, entry and age of a slot's words; `None` for an empty slot.
fn unpack(stored_check: u64, data: u64) -> Option<(u64, Entry, u8)> {
    let check = stored_check ^ data;
    let bound = match check & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let e = Entry {
        mv: data as u32,
        value: (data >> 32) as u16 as i16,
        eval: (data >> 48) as u16 as i16,
        depth: (check >> 8) as u8 as i8,
        bound,
    };
    Some((check >> 16, e, (check >> 2 & 63) as u8))
}

impl Slot {
    fn read(&self) -> Option<(u64, Entry, u8)> {
        unpack(self.check.load(Ordering::Relaxed), self.data.load(Ordering::Relaxed))
    }

    fn write(&self, key: u64, e: &Entry, age: u8) {
        let (check, data) = pack(key, e, age);
        self.data.store(data, Ordering::Relaxed);
        self.check.store(check, Ordering::Relaxed);
    }
}

/// `n` empty slots, or `None` if the memory cannot be had. The memory
/// comes zeroed from the allocator (for a large table, fresh pages from the
/// OS that are mapped only when first written), so a table costs memory as
/// the search fills it, and clearing it touches no page.
fn zeroed_slots(n: usize) -> Option<Box<[Slot]>> {
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size; a slot is two AtomicU64, for
    // which all-zero bytes are a valid value (an empty slot); and the
    // pointer, from the global allocator with the layout of `[Slot; n]`, is
    // what `Box<[Slot]>` frees with that same layout.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if p.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)))
    }
}

/// The index of the first slot of `slots` on a cache-line boundary: one of
/// the first four when the allocator aligns to a slot's size, as the usual
/// ones do (16 bytes); 0 if it does not (the table works, only slower).
fn first_aligned(slots: &[Slot]) -> usize {
    let size = std::mem::size_of::<Slot>();
    let misalignment = slots.as_ptr() as usize % CACHE_LINE;
    if !misalignment.is_multiple_of(size) {
        return 0;
    }
    (CACHE_LINE - misalignment) % CACHE_LINE / size
}

/// Zeroed slots for a table of `buckets` buckets, plus one bucket's worth
/// to spare, so that a run of `buckets` buckets starting on a cache-line
/// boundary (`first_aligned`) always fits.
fn bucket_slots(buckets: usize) -> Option<Box<[Slot]>> {
    zeroed_slots((buckets + 1) * BUCKET)
}

const CACHE_LINE: usize = 64;
const _: () = assert!(BUCKET * std::mem::size_of::<Slot>() == CACHE_LINE);

impl Table {
    /// A table of about `mb` mebibytes (rounded down to a power of two of
    /// buckets, at least one), or an error if the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Table, String> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let slots = bucket_slots(buckets)
            .ok_or_else(|| format!("cannot allocate a {mb} MiB hash table (not enough memory)"))?;
        Ok(Table { first: first_aligned(&slots), slots, mask: buckets - 1, age: AtomicU64::new(0) })
    }

    /// As [`try_new`](Self::try_new), for sizes that surely fit (tests, tools).
    pub fn new(mb: usize) -> Table {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Empties the table by trading its memory for fresh zeroed memory of
    /// the same size: no page is written, so pages the search never used
    /// stay unmapped.
    pub fn clear(&mut self) {
        let n = self.slots.len();
        self.slots = Box::new([]);
        self.slots = zeroed_slots(n).unwrap_or_else(|| {
            // The memory just given back is not to be had again: fall back
            // to the smallest table rather than fail the command.
            self.mask = 0;
            bucket_slots(1).expect("a few bytes")
        });
        self.first = first_aligned(&self.slots);
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 63) as u8
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits pick the bucket: the low bits are the same for
        // positions that differ only in the side to move.
        let i = self.first + ((key >> 32) as usize & self.mask) * BUCKET;
        &self.slots[i..i + BUCKET]
    }

    /// Asks the processor to bring `key`'s bucket into the cache: called
    /// as soon as a child position is made, so the memory fetch overlaps
    /// the work before its probe (the table is far larger than the cache,
    /// and a probe that waits for memory was a fifth of the search's time).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot
            // fault, and the pointer is into the table anyway.
            unsafe { _mm_prefetch(bucket, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let tag = tag(key);
        self.bucket(key).iter().find_map(|slot| slot.read().filter(|(t, _, _)| *t == tag).map(|(_, e, _)| e))
    }

    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let age = self.age();
        let tag = tag(key);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let Some((old_tag, old, old_age)) = slot.read() else {
                victim = i;
                break;
            };
            if old_tag == tag {
                // Same position: keep a deeper entry of this search unless
                // the new one is exact; keep the old move if the new has none.
                if entry.bound != Bound::Exact && old_age == age && old.depth as i32 > entry.depth as i32 + 3 {
                    return;
                }
                let mut e = entry;
                if e.mv == 0 {
                    e.mv = old.mv;
                }
                slot.write(key, &e, age);
                return;
            }
            let stale = ((age as i32 - old_age as i32) & 63) * 8;
            let worth = old.depth as i32 - stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        bucket[victim].write(key, &entry, age);
    }

    /// Per mille of the first thousand slots holding an entry of this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = self.buckets_len().min(1000);
        let used = self.slots[self.first..self.first + n]
            .iter()
            .filter(|s| s.read().is_some_and(|(_, _, a)| a == age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }

    pub fn size_bytes(&self) -> usize {
        self.buckets_len() * std::mem::size_of::<Slot>()
    }

    /// How many slots the buckets hold.
    fn buckets_len(&self) -> usize {
        (self.mask + 1) * BUCKET
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let mut t = Table::new(1);
        assert!(t.size_bytes() <= 1 << 20 && t.size_bytes() >= 1 << 19);
        let e = Entry { mv: 0xBEEF_1234, value: -31_000, eval: 57, depth: 9, bound: Bound::Lower };
        t.store(0xDEAD_BEEF_0000_0001, e);
        let got = t.probe(0xDEAD_BEEF_0000_0001).expect("stored");
        assert_eq!((got.mv, got.value, got.eval, got.depth, got.bound), (0xBEEF_1234, -31_000, 57, 9, Bound::Lower));
        assert!(t.probe(0xDEAD_BEEF_0000_0002).is_none());
        let size = t.size_bytes();
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_0000_0001).is_none());
        assert_eq!(t.size_bytes(), size);
        assert_eq!(t.bucket(0xDEAD_BEEF_0000_0001).as_ptr() as usize % CACHE_LINE, 0, "a bucket is one cache line");
    }

    #[test]
    fn a_bound_tells_only_the_side_it_bounds() {
        assert!(Bound::Exact.tells_side(10, 50) && Bound::Exact.tells_side(90, 50));
        assert!(Bound::Lower.tells_side(90, 50), "at least 90: above 50");
        assert!(!Bound::Lower.tells_side(10, 50), "at least 10: maybe above 50, maybe not");
        assert!(Bound::Upper.tells_side(10, 50), "at most 10: below 50");
        assert!(!Bound::Upper.tells_side(90, 50));
    }

    #[test]
    fn a_torn_write_reads_as_a_miss() {
        let t = Table::new(1);
        let key = 0x0123_4567_89AB_CDEF;
        let e = Entry { mv: 7, value: 10, eval: 20, depth: 5, bound: Bound::Exact };
        t.store(key, e);
        // Another thread's data word lands without its check word.
        let other = Entry { mv: 0xFFFF_0001, value: -3, eval: 4, depth: 9, bound: Bound::Lower };
        let (_, data) = pack(0x1111_2222_3333_4444, &other, 0);
        let slot = t.bucket(key).iter().find(|s| s.read().is_some()).expect("stored");
        slot.data.store(data, Ordering::Relaxed);
        assert!(t.probe(key).is_none());
    }

    #[test]
    fn a_table_too_large_for_the_machine_is_an_error_not_an_abort() {
        // 2^50 MiB cannot be had anywhere (nor addressed on 64 bits).
        let err = Table::try_new(1 << 50).err().expect("refused");
        assert!(err.contains("cannot allocate"), "{err}");
        assert!(Table::try_new(1).is_ok());
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(5);
        let t = Table::new(1);
        for _ in 0..100_000 {
            t.store(rng.gen(), Entry { mv: 1, value: 0, eval: 0, depth: 1, bound: Bound::Exact });
        }
        assert!(t.hashfull() > 500, "{}", t.hashfull());
        t.new_search();
        assert_eq!(t.hashfull(), 0);
    }
}
