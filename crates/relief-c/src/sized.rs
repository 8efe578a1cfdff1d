//! Structs that grow: how relief reads and writes a struct whose size the caller states.
//!
//! Every struct a caller passes whole starts with `uint32_t struct_size`, and arrays of small
//! structs come with their element size. A caller built against an older header states an
//! older, smaller size; relief accepts every size from the struct's first released one
//! ([`Grows::FIRST`], from tests/abi/relief-0.2.0.h) up to its own, and
//!
//! - reads `min(caller, ours)` bytes of a struct it is given, the fields past the caller's
//!   size taking their defaults;
//! - writes `min(caller, ours)` bytes of a struct it fills, `struct_size` included, and never
//!   a byte past the caller's size.
//!
//! A size below the first released one, or above ours (a header newer than this library), is
//! INVALID_ARGUMENT and nothing is read or written. Copies are byte copies (`memcpy`), which
//! carry padding without reading it as a value.

use super::Failure;

/// A struct that starts with `struct_size` and may grow at its end.
///
/// # Safety
/// The implementor is `repr(C)` and every byte pattern is a valid value (plain numbers and
/// raw pointers only). One passed whole (through [`read_in`], [`write_out`], [`check_size`])
/// starts with its `u32` size; an array element (through [`write_element`]) needs none.
pub(crate) unsafe trait Grows: Copy {
    /// The size the struct had in the first header that promised growth.
    const FIRST: usize;
    /// What fields the caller's size does not reach are read as.
    fn defaults() -> Self;
}

/// Implements [`Grows`] for structs whose defaults are all zero (results and views).
macro_rules! grows_zeroed {
    ($($t:ty = $first:expr),* $(,)?) => {$(
        // SAFETY: repr(C) structs of numbers and raw pointers, starting with struct_size.
        unsafe impl $crate::sized::Grows for $t {
            const FIRST: usize = $first;
            fn defaults() -> Self {
                // SAFETY: all-zero bytes are a valid value of numbers and raw pointers.
                unsafe { std::mem::zeroed() }
            }
        }
    )*};
}
pub(crate) use grows_zeroed;

/// The size `what` says, checked against `T`'s released sizes.
fn checked<T: Grows>(what: &str, name: &str, size: usize) -> Result<usize, Failure> {
    let ours = std::mem::size_of::<T>();
    if size < T::FIRST || size > ours {
        let newer = if size > ours {
            " (a header newer than this library: link the relief it came with)"
        } else {
            ""
        };
        return Err(Failure::invalid(format!(
            "{what}: {name} {size} is not a size of {} this relief reads ({} to {ours}){newer}; set it to sizeof the struct from your header",
            short_name::<T>(),
            T::FIRST,
        )));
    }
    Ok(size)
}

/// `relief_runtime_config` from `relief_c::runtime::relief_runtime_config`.
pub(crate) fn short_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

/// The `struct_size` at the start of the caller's struct, checked.
///
/// # Safety
/// `p` non-NULL and readable for 4 bytes.
unsafe fn stated_size<T: Grows>(what: &str, p: *const T) -> Result<usize, Failure> {
    // SAFETY: forwarded contract; it may be unaligned.
    let size = unsafe { p.cast::<u32>().read_unaligned() } as usize;
    checked::<T>(what, "struct_size", size)
}

/// Reads the caller's struct: the bytes its `struct_size` covers, the rest defaults. The
/// value's own `struct_size` is ours.
///
/// # Safety
/// `p` non-NULL and readable for the size it states, when that size is one relief accepts.
pub(crate) unsafe fn read_in<T: Grows>(what: &str, p: *const T) -> Result<T, Failure> {
    // SAFETY: forwarded contract.
    let size = unsafe { stated_size(what, p) }?;
    let mut value = T::defaults();
    // SAFETY: `size` bytes are readable by contract and fit in `value` (size ≤ ours); a
    // byte copy, and any bytes are a valid T (Grows).
    unsafe { std::ptr::copy_nonoverlapping(p.cast::<u8>(), (&mut value as *mut T).cast(), size) };
    // SAFETY: the first field is a u32 (Grows).
    unsafe {
        (&mut value as *mut T)
            .cast::<u32>()
            .write(std::mem::size_of::<T>() as u32)
    };
    Ok(value)
}

/// Writes `value` into the caller's struct, as much of it as the caller's `struct_size`
/// holds, with `struct_size` set to that size. Nothing is written if the size is refused.
///
/// # Safety
/// `out` non-NULL, readable for 4 bytes and writable for the size it states.
pub(crate) unsafe fn write_out<T: Grows>(what: &str, out: *mut T, value: T) -> Result<(), Failure> {
    // SAFETY: forwarded contract.
    let size = unsafe { stated_size(what, out) }?;
    // SAFETY: forwarded contract; `size` ≤ size_of::<T>(), a byte copy.
    unsafe {
        std::ptr::copy_nonoverlapping((&value as *const T).cast::<u8>(), out.cast(), size);
        out.cast::<u32>().write_unaligned(size as u32);
    }
    Ok(())
}

/// Checks the caller's `struct_size` without writing: for calls that check everything before
/// writing anything.
///
/// # Safety
/// `p` non-NULL and readable for 4 bytes.
pub(crate) unsafe fn check_size<T: Grows>(what: &str, p: *const T) -> Result<(), Failure> {
    // SAFETY: forwarded contract.
    unsafe { stated_size(what, p) }.map(drop)
}

/// Checks an array relief fills: its element size (called `name`), and that a NULL array
/// comes with a capacity of 0.
pub(crate) fn check_elements<T: Grows>(
    what: &str,
    name: &str,
    array: *const T,
    size: usize,
    capacity: usize,
) -> Result<(), Failure> {
    checked::<T>(what, name, size)?;
    if capacity > 0 && array.is_null() {
        return Err(Failure::invalid(format!(
            "{what}: a NULL buffer with a length of {capacity}"
        )));
    }
    Ok(())
}

/// Writes `item` as element `index` of the caller's array of elements of `element_size`
/// bytes (checked with [`check_elements`]): the first `element_size` bytes of the item.
///
/// # Safety
/// `out` writable for `index + 1` elements of `element_size` bytes.
pub(crate) unsafe fn write_element<T: Grows>(
    out: *mut T,
    element_size: usize,
    index: usize,
    item: &T,
) {
    // SAFETY: forwarded contract: element `index` starts `index · element_size` bytes in.
    unsafe {
        let at = out.cast::<u8>().add(index * element_size);
        std::ptr::copy_nonoverlapping((item as *const T).cast::<u8>(), at, element_size);
    }
}
