//! One map of a region, as a slice of its element type. A map read from a file keeps the
//! bytes it was read into (no zeroing pass, no copy), and gives them back to the pool they
//! came from when dropped; a map built in memory keeps its Vec.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use crate::pool::BufferPool;
use plain::Plain;

pub struct Layer<T: Plain> {
    storage: Storage<T>,
    /// Where the bytes go back to when the layer is dropped (bytes storage only).
    home: Option<Arc<BufferPool>>,
}

enum Storage<T> {
    Typed(Vec<T>),
    /// Aligned for T and a whole number of T long, checked when built.
    Bytes(Vec<u8>),
}

impl<T: Plain> Layer<T> {
    /// Takes bytes read from a file. Uses them in place when the allocation is aligned for T
    /// (it always is with the system allocators relief runs on); copies otherwise.
    pub fn from_bytes(bytes: Vec<u8>) -> Layer<T> {
        let size = std::mem::size_of::<T>();
        assert_eq!(bytes.len() % size, 0, "a layer holds whole elements");
        if bytes.as_ptr() as usize % std::mem::align_of::<T>() == 0 {
            return Layer {
                storage: Storage::Bytes(bytes),
                home: None,
            };
        }
        Layer::from(copy_typed(&bytes))
    }

    /// As [`from_bytes`](Self::from_bytes), for bytes taken from `pool` if any: they go
    /// back to it when the layer is dropped.
    pub fn from_pooled(bytes: Vec<u8>, pool: Option<&Arc<BufferPool>>) -> Layer<T> {
        let mut layer = Layer::from_bytes(bytes);
        if matches!(layer.storage, Storage::Bytes(_)) {
            layer.home = pool.cloned();
        }
        layer
    }
}

impl<T: Plain> Drop for Layer<T> {
    fn drop(&mut self) {
        if let (Some(pool), Storage::Bytes(bytes)) = (&self.home, &mut self.storage) {
            pool.give(std::mem::take(bytes));
        }
    }
}

/// Whole elements copied out of bytes at any alignment: the path for a misaligned source.
fn copy_typed<T: Plain>(bytes: &[u8]) -> Vec<T> {
    let n = bytes.len() / std::mem::size_of::<T>();
    let mut typed: Vec<T> = Vec::with_capacity(n);
    // SAFETY: T is Plain (every bit pattern valid); the copy fills exactly n elements, byte by
    // byte into T-aligned storage, so the source's alignment doesn't matter.
    unsafe {
        std::ptr::copy_nonoverlapping(
            bytes.as_ptr(),
            typed.as_mut_ptr().cast::<u8>(),
            n * std::mem::size_of::<T>(),
        );
        typed.set_len(n);
    }
    typed
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
            // SAFETY: alignment and length were checked in from_bytes; T is Plain.
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
            // SAFETY: as in deref; the Vec is uniquely borrowed.
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
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let a = Layer::<f32>::from_bytes(bytes.clone());
        let b = Layer::from(v.clone());
        assert_eq!(&*a, &v[..]);
        assert_eq!(a, b);
        // A source misaligned for f32 (one byte into an f32-aligned buffer) is copied, not
        // reinterpreted: the path from_bytes takes when an allocator hands out such bytes.
        let mut padded = vec![0f32; v.len() + 1];
        let padded = plain::bytes_mut(&mut padded);
        padded[1..1 + bytes.len()].copy_from_slice(&bytes);
        let shifted = &padded[1..1 + bytes.len()];
        assert_ne!(shifted.as_ptr() as usize % std::mem::align_of::<f32>(), 0);
        assert_eq!(copy_typed::<f32>(shifted), v);
    }
}

/// Viewing plain-old-data slices as bytes. The formats are little-endian and so is every
/// platform relief targets; a big-endian build refuses to compile rather than misread files.
pub(crate) mod plain {
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

    pub fn bytes_mut<T: Plain>(s: &mut [T]) -> &mut [u8] {
        // SAFETY: as above, and every bit pattern is a valid T, so any write through the
        // byte view leaves valid values.
        unsafe {
            std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(s))
        }
    }
}
