//! The one rule for a size that comes from outside relief — a file's header or table, a
//! server's Content-Range, a caller's length: before it sizes an allocation or a loop it must
//! fit both what the source can hold from where it would be read and a documented cap, with
//! every sum and product checked. A header of 128 bytes can claim a terabyte; only what passes
//! here is ever allocated, and reads grow their buffer as the bytes really arrive, so a source
//! that claims more than it delivers costs what it delivered.
//!
//! Each format names its caps next to its layout (`planet::format::MAX_TABLE_BYTES`,
//! `flat::store::MAX_WHOLE_FILE`, …) and docs/formats.md lists them; this module is how they
//! are applied.

use std::fmt::Display;

use crate::error::FormatError;
use crate::io::ReadAt;

/// Bytes one read step asks for: a buffer grows by at most this much past what the source has
/// actually delivered. A remote source's steps are larger (each is a request, a round trip):
/// a region or a planet's tables in one or two.
const STEP: usize = 8 << 20;
const REMOTE_STEP: usize = 32 << 20;

/// `declared` (a size or count read from `what`) as a `usize`, if it is at most `room` (what
/// the source can hold) and at most `cap` (the documented limit); a [`FormatError::TooLarge`]
/// naming the smaller limit otherwise.
pub fn fits(what: impl Display, declared: u64, room: u64, cap: u64) -> Result<usize, FormatError> {
    let limit = room.min(cap);
    match usize::try_from(declared) {
        Ok(n) if declared <= limit => Ok(n),
        _ => Err(FormatError::TooLarge {
            what: what.to_string(),
            declared,
            limit,
        }),
    }
}

/// `a · b` for sizes read from `what`; an overflow is corrupt.
pub fn product(what: impl Display, a: u64, b: u64) -> Result<u64, FormatError> {
    a.checked_mul(b).ok_or_else(|| overflow(what))
}

/// `a + b` for sizes read from `what`; an overflow is corrupt.
pub fn sum(what: impl Display, a: u64, b: u64) -> Result<u64, FormatError> {
    a.checked_add(b).ok_or_else(|| overflow(what))
}

fn overflow(what: impl Display) -> FormatError {
    FormatError::Corrupt(format!("{what}: the sizes it declares overflow"))
}

/// The `len` bytes at `offset` of `bytes`, read as `what` (named in errors, `name` for I/O
/// ones): `len` must fit what lies past `offset` and `cap`. The buffer grows a step at a time
/// as reads succeed, so a source whose claimed length is a lie fails having allocated at most
/// one step past what it delivered (a remote source's steps are requests of up to 32 MiB).
pub fn read(
    bytes: &dyn ReadAt,
    name: &std::path::Path,
    what: impl Display,
    offset: u64,
    len: u64,
    cap: u64,
) -> Result<Vec<u8>, FormatError> {
    let room = bytes.length().saturating_sub(offset);
    let len = fits(what, len, room, cap)?;
    let step = if bytes.is_remote() { REMOTE_STEP } else { STEP };
    let mut out = Vec::new();
    while out.len() < len {
        let at = out.len();
        let step = (len - at).min(step);
        // Exactly a step more (`resize` alone would double the buffer).
        out.reserve_exact(step);
        out.resize(at + step, 0);
        bytes
            .read_at(offset + at as u64, &mut out[at..])
            .map_err(|e| FormatError::io(name, e))?;
    }
    Ok(out)
}

/// A whole file at `path`, read as `what`: a regular file (a FIFO or a directory is an error,
/// not a hang) of at most `cap` bytes, checked before reading; the buffer grows as bytes
/// arrive, so a file that grows or lies while read still costs at most `cap`.
pub fn read_file(path: &std::path::Path, cap: u64) -> Result<Vec<u8>, FormatError> {
    use std::io::Read;
    let io = |e| FormatError::io(path, e);
    let file = crate::io::open_regular(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    fits(path.display(), len, u64::MAX, cap)?;
    let mut out = Vec::new();
    file.take(cap + 1).read_to_end(&mut out).map_err(io)?;
    fits(path.display(), out.len() as u64, u64::MAX, cap)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claims `claimed` bytes and holds `held` (zeros); reads past them fail.
    struct Liar {
        claimed: u64,
        held: u64,
        asked: std::sync::atomic::AtomicU64,
    }

    impl ReadAt for Liar {
        fn length(&self) -> u64 {
            self.claimed
        }
        fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
            self.asked.fetch_max(
                offset + out.len() as u64,
                std::sync::atomic::Ordering::Relaxed,
            );
            if offset + out.len() as u64 > self.held {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the source ends here",
                ));
            }
            out.fill(0);
            Ok(())
        }
    }

    #[test]
    fn a_size_fits_the_room_and_the_cap() {
        assert_eq!(fits("x", 10, 10, 20).unwrap(), 10);
        let room = fits("x", 11, 10, 20).unwrap_err();
        assert!(
            matches!(
                room,
                FormatError::TooLarge {
                    declared: 11,
                    limit: 10,
                    ..
                }
            ),
            "{room}"
        );
        let cap = fits("the index", 30, 100, 20).unwrap_err();
        assert!(
            matches!(
                cap,
                FormatError::TooLarge {
                    declared: 30,
                    limit: 20,
                    ..
                }
            ),
            "{cap}"
        );
        assert!(cap.to_string().contains("the index"), "{cap}");
        assert!(product("x", u64::MAX, 2).is_err());
        assert!(sum("x", u64::MAX, 1).is_err());
        assert_eq!(product("x", 1 << 20, 1 << 20).unwrap(), 1 << 40);
    }

    #[test]
    fn a_lying_source_costs_only_what_it_delivered() {
        let liar = Liar {
            claimed: 1 << 40,
            held: 1 << 20,
            asked: Default::default(),
        };
        let name = std::path::Path::new("liar");
        // Within the claim and the cap, beyond what it holds: fails after one step.
        let e = read(&liar, name, "tables", 0, 1 << 30, 1 << 30).unwrap_err();
        assert!(matches!(e, FormatError::Io { .. }), "{e}");
        let asked = liar.asked.load(std::sync::atomic::Ordering::Relaxed);
        assert!(asked <= STEP as u64, "asked for {asked} bytes at once");
        // Past the cap: refused before any read.
        let e = read(&liar, name, "tables", 0, 1 << 40, 1 << 30).unwrap_err();
        assert!(matches!(e, FormatError::TooLarge { .. }), "{e}");
        // What it holds reads whole.
        assert_eq!(
            read(&liar, name, "tables", 16, 1000, 1 << 30)
                .unwrap()
                .len(),
            1000
        );
    }
}
