//! The transposition table: results of earlier searches by Zobrist key,
//! in buckets of two (one kept for depth, one always replaced).

use quadrille_engine::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The search that wrote it (older entries are replaced first).
    generation: u8,
}

/// A fixed-size table of entries, indexed by the low bits of the key.
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` (at least one bucket).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        // A power of two, so the index is a mask.
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table {
            buckets: vec![[Entry::default(); 2]; n],
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
        self.generation = 0;
    }

    /// Marks the start of a new search.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        key as usize & (self.buckets.len() - 1)
    }

    /// The entry stored for this key, if any (key 0 marks an empty slot).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a result. The first slot keeps the deepest result of the
    /// current search; the second takes whatever the first does not.
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.bucket(key);
        let bucket = &mut self.buckets[i];
        let depth = depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        // Keep the old best move when the new result has none.
        let mv = mv.or_else(|| bucket.iter().find(|e| e.key == key).and_then(|e| e.mv));
        let entry = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            generation,
        };
        let first = &bucket[0];
        if first.key == key || first.generation != generation || depth >= first.depth {
            if first.key != key {
                bucket[1] = bucket[0];
            }
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }

    /// Per mille of the first slots written by the current search (UCI's
    /// `hashfull`), from a sample.
    pub fn permille_full(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used = self.buckets[..sample]
            .iter()
            .filter(|b| b[0].generation == self.generation && b[0].key != 0)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(1);
        let m = Move::new(12, 28);
        t.store(0xABCD, Some(m), 35, 4, Bound::Lower);
        let e = t.probe(0xABCD).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(m), 35, 4, Bound::Lower)
        );
        assert!(t.probe(0xABCE).is_none());
        // A result without a move keeps the old move.
        t.store(0xABCD, None, -10, 6, Bound::Upper);
        assert_eq!(t.probe(0xABCD).unwrap().mv, Some(m));
        t.clear();
        assert!(t.probe(0xABCD).is_none());
    }

    #[test]
    fn deep_results_survive_shallow_ones_in_the_same_bucket() {
        let mut t = Table::new(1);
        let n = t.buckets.len() as u64;
        let (a, b, c) = (5, 5 + n, 5 + 2 * n);
        t.store(a, None, 1, 9, Bound::Exact);
        t.store(b, None, 2, 1, Bound::Exact);
        t.store(c, None, 3, 1, Bound::Exact);
        assert_eq!(t.probe(a).unwrap().score, 1);
        assert_eq!(t.probe(c).unwrap().score, 3);
        assert!(t.probe(b).is_none());
    }
}
