//! One map (a region's layer, a planet tile's field), as a slice of its element type. A map read from a file keeps the
//! bytes it was read into (no zeroing pass, no copy), and gives them back to the pool they
//! came from when dropped; a map built in memory keeps its Vec.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use crate::pool::{Buffer, BufferPool};
use plain::Plain;

pub struct Layer<T: Plain> {
    storage: Storage<T>,
    /// Where the bytes go back to when the layer is dropped (bytes storage only).
    home: Option<Arc<BufferPool>>,
}

enum Storage<T> {
    Typed(Vec<T>),
    /// A whole number of T long, checked when built; aligned for any T relief stores.
    Bytes(Buffer),
}

impl<T: Plain> Layer<T> {
    /// Takes bytes read from a file, in place, and gives them back to `pool` (if any) when
    /// dropped.
    pub fn from_buffer(bytes: Buffer, pool: Option<&Arc<BufferPool>>) -> Layer<T> {
        let size = std::mem::size_of::<T>();
        assert_eq!(bytes.len() % size, 0, "a layer holds whole elements");
        // Buffers are 64-byte aligned, more than any Plain type needs.
        assert!(std::mem::align_of::<T>() <= 64);
        Layer {
            storage: Storage::Bytes(bytes),
            home: pool.cloned(),
        }
    }
}

impl<T: Plain> Drop for Layer<T> {
    fn drop(&mut self) {
        if let (Some(pool), Storage::Bytes(bytes)) = (&self.home, &mut self.storage) {
            pool.give(std::mem::replace(bytes, Buffer::zeroed(0)));
        }
    }
}

impl<T: Plain> From<Vec<T>> for Layer<T> {
    fn from(v: Vec<T>) -> Layer<T> {
        Layer {
            storage: Storage::Typed(v),
            home: None,
        }
    }
}

impl<T: Plain> FromIterator<T> for Layer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Layer<T> {
        Layer::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Plain> Deref for Layer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.storage {
            Storage::Typed(v) => v,
            // SAFETY: length checked in from_buffer, alignment is the buffer's 64; T is Plain.
            Storage::Bytes(b) => unsafe {
                std::slice::from_raw_parts(
                    b.as_ptr().cast::<T>(),
                    b.len() / std::mem::size_of::<T>(),
                )
            },
        }
    }
}

impl<T: Plain> DerefMut for Layer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.storage {
            Storage::Typed(v) => v,
            // SAFETY: as in deref; the buffer is uniquely borrowed.
            Storage::Bytes(b) => unsafe {
                std::slice::from_raw_parts_mut(
                    b.as_mut_ptr().cast::<T>(),
                    b.len() / std::mem::size_of::<T>(),
                )
            },
        }
    }
}

impl<T: Plain> Clone for Layer<T> {
    fn clone(&self) -> Layer<T> {
        Layer::from(self.to_vec())
    }
}

impl<T: Plain + std::fmt::Debug> std::fmt::Debug for Layer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Layer({} × {})", self.len(), std::any::type_name::<T>())
    }
}

impl<T: Plain + PartialEq> PartialEq for Layer<T> {
    fn eq(&self, other: &Layer<T>) -> bool {
        plain::bytes(self) == plain::bytes(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_vecs_give_the_same_slice() {
        let v: Vec<f32> = vec![1.5, -2.0, 3.25];
        let mut bytes = Buffer::zeroed(v.len() * 4);
        bytes.copy_from_slice(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        let pool = Arc::new(BufferPool::new(1 << 10));
        let a = Layer::<f32>::from_buffer(bytes, Some(&pool));
        let b = Layer::from(v.clone());
        assert_eq!(&*a, &v[..]);
        assert_eq!(a, b);
        drop(a);
        assert_eq!(pool.stats().free_bytes, 12, "the bytes went home");
    }
}

/// Viewing plain-old-data slices as bytes. The formats are little-endian and so is every
/// platform relief targets; a big-endian build refuses to compile rather than misread files.
pub mod plain {
    #[cfg(target_endian = "big")]
    compile_error!("relief's file formats are read by reinterpreting little-endian bytes");

    /// Types with no padding and no invalid bit patterns.
    ///
    /// # Safety
    /// Implement only for types where every byte is initialised and every bit pattern is a
    /// valid value.
    pub unsafe trait Plain: Copy {}
    unsafe impl Plain for u8 {}
    unsafe impl Plain for u16 {}
    unsafe impl Plain for u32 {}
    unsafe impl Plain for f32 {}
    unsafe impl Plain for [u8; 4] {}

    pub fn bytes<T: Plain>(s: &[T]) -> &[u8] {
        // SAFETY: T is Plain (no padding), u8 has alignment 1, the length covers exactly s.
        unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), std::mem::size_of_val(s)) }
    }

    /// Bytes as elements; panics unless they are aligned for T and a whole number of T long
    /// (a [`Buffer`](crate::pool::Buffer) always is aligned).
    pub fn cast_mut<T: Plain>(b: &mut [u8]) -> &mut [T] {
        let size = std::mem::size_of::<T>();
        assert!(
            b.as_ptr() as usize % std::mem::align_of::<T>() == 0 && b.len() % size == 0,
            "bytes viewed as elements must be aligned and whole"
        );
        // SAFETY: alignment and length checked above; every bit pattern is a valid T.
        unsafe { std::slice::from_raw_parts_mut(b.as_mut_ptr().cast::<T>(), b.len() / size) }
    }

    pub fn bytes_mut<T: Plain>(s: &mut [T]) -> &mut [u8] {
        // SAFETY: as above, and every bit pattern is a valid T, so any write through the
        // byte view leaves valid values.
        unsafe {
            std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(s))
        }
    }
}
