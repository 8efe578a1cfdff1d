//! The last few pieces read outside the streamer, kept for the next reader: a collision
//! chunk whose region or tile is not resident reads that piece's heights, and its neighbours
//! want the same piece next (a 512 m region holds 64 flat chunks). A handful of entries,
//! newest last, searched in order: no hashing, no allocation after the first fills.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;

pub struct Recent<K, V> {
    kept: Mutex<VecDeque<(K, Arc<V>)>>,
    most: usize,
}

impl<K: Copy + PartialEq, V> Recent<K, V> {
    /// Keeps at most `most` pieces (at least one).
    pub fn new(most: usize) -> Recent<K, V> {
        let most = most.max(1);
        Recent {
            kept: Mutex::new(VecDeque::with_capacity(most)),
            most,
        }
    }

    /// `key`'s piece if it is kept, else `read`'s, kept in place of the oldest. The read runs
    /// outside the lock: two threads may both read a piece, never wait on each other's read.
    /// A failed read keeps nothing.
    pub fn get_or_read<E>(&self, key: K, read: impl FnOnce() -> Result<V, E>) -> Result<Arc<V>, E> {
        if let Some((_, v)) = self.kept.lock().iter().find(|(k, _)| *k == key) {
            return Ok(v.clone());
        }
        let v = Arc::new(read()?);
        let mut kept = self.kept.lock();
        if !kept.iter().any(|(k, _)| *k == key) {
            if kept.len() == self.most {
                kept.pop_front();
            }
            kept.push_back((key, v.clone()));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_piece_is_read_once_and_the_oldest_goes_first() {
        let recent = Recent::new(2);
        let reads = std::cell::Cell::new(0);
        let get = |k: u32| {
            recent
                .get_or_read(k, || {
                    reads.set(reads.get() + 1);
                    Ok::<_, ()>(k * 10)
                })
                .unwrap()
        };
        assert_eq!((*get(1), *get(1), *get(2), reads.get()), (10, 10, 20, 2));
        get(3); // 1 goes
        assert_eq!((*get(2), reads.get()), (20, 3));
        assert_eq!((*get(1), reads.get()), (10, 4));
        assert!(recent.get_or_read(9, || Err::<u32, _>("no")).is_err());
        assert_eq!(
            (*get(1), reads.get()),
            (10, 4),
            "a failed read keeps nothing"
        );
    }
}
