//! A `res://` world inside an Android APK, found where it lies: Godot 4.4's Android export
//! stores each exported file as its own zip entry `assets/<path>`, deflating any extension
//! it does not know (`.rlpack` and `.plnt` included) unless a Gradle build keeps them stored.
//! A stored entry is read in place with positioned reads of the APK (relief's
//! [`FileRange`](relief::io::FileRange)); a deflated one is refused with what to do, since
//! Android re-inflates a deflated asset from its start for every backwards seek.
//!
//! The APKs are the ones the process has mapped (`/proc/self/maps`: the base APK and any
//! split the asset manager opened). No engine types: the tests build zips by hand.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use relief::io::FileRange;
use relief::runtime::Ground;

/// Where an entry's bytes lie in its zip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// First byte of the entry's data (past its local header).
    pub offset: u64,
    /// Bytes stored (the compressed size when deflated).
    pub length: u64,
    /// Deflated (or any method but "stored").
    pub compressed: bool,
}

/// The APK files in a `/proc/self/maps` text, each once, in order of first mapping.
pub fn mapped_apks(maps: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for line in maps.lines() {
        // address perms offset dev inode path: the path is whatever follows the fifth field.
        let Some(path) = line.split_whitespace().nth(5) else {
            continue;
        };
        let path = line[line.find(path).unwrap_or(0)..].trim();
        if path.ends_with(".apk") && !out.iter().any(|p| p == Path::new(path)) {
            out.push(PathBuf::from(path));
        }
    }
    out
}

/// The zip entry for a `res://` path: `assets/` and the path.
pub fn asset_name(res_path: &str) -> String {
    format!("assets/{}", res_path.trim_start_matches("res://"))
}

/// Most central-directory bytes read: far beyond any APK's, and never more than the file.
const MAX_DIRECTORY: u64 = 64 << 20;
/// The end record is in the last 22 bytes plus a comment of at most 65,535.
const MAX_TAIL: u64 = 22 + 65_535;

fn bad(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("not a zip file: {what}"),
    )
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Finds `name` in the zip `file`: Some with where its bytes lie, None if it has no such
/// entry. A file that is not a zip, or a damaged one, is an `InvalidData` error.
pub fn find_entry(file: &mut (impl Read + Seek), name: &str) -> io::Result<Option<Entry>> {
    let size = file.seek(SeekFrom::End(0))?;
    let tail_len = size.min(MAX_TAIL);
    let mut tail = vec![0u8; tail_len as usize];
    file.seek(SeekFrom::Start(size - tail_len))?;
    file.read_exact(&mut tail)?;
    let end = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(&tail, i) == 0x0605_4b50)
        .ok_or_else(|| bad("no end of central directory"))?;
    let count = u16_at(&tail, end + 10) as usize;
    let dir_len = u32_at(&tail, end + 12) as u64;
    let dir_at = u32_at(&tail, end + 16) as u64;
    if dir_len == 0xFFFF_FFFF || dir_at == 0xFFFF_FFFF {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a zip64 APK (over 4 GiB) is not read in place",
        ));
    }
    if dir_len > MAX_DIRECTORY || dir_at.checked_add(dir_len).is_none_or(|e| e > size) {
        return Err(bad("central directory out of bounds"));
    }
    let mut dir = vec![0u8; dir_len as usize];
    file.seek(SeekFrom::Start(dir_at))?;
    file.read_exact(&mut dir)?;
    let mut at = 0usize;
    for _ in 0..count {
        if at + 46 > dir.len() || u32_at(&dir, at) != 0x0201_4b50 {
            return Err(bad("damaged central directory"));
        }
        let method = u16_at(&dir, at + 10);
        let stored_len = u32_at(&dir, at + 20) as u64;
        let (name_len, extra_len, comment_len) = (
            u16_at(&dir, at + 28) as usize,
            u16_at(&dir, at + 30) as usize,
            u16_at(&dir, at + 32) as usize,
        );
        let local = u32_at(&dir, at + 42) as u64;
        let name_end = at + 46 + name_len;
        if name_end > dir.len() {
            return Err(bad("damaged central directory"));
        }
        if &dir[at + 46..name_end] == name.as_bytes() {
            // The data follows the local header, whose extra field may differ in length.
            let mut header = [0u8; 30];
            if local.checked_add(30).is_none_or(|e| e > size) {
                return Err(bad("local header out of bounds"));
            }
            file.seek(SeekFrom::Start(local))?;
            file.read_exact(&mut header)?;
            if u32_at(&header, 0) != 0x0403_4b50 {
                return Err(bad("damaged local header"));
            }
            let offset = local + 30 + u16_at(&header, 26) as u64 + u16_at(&header, 28) as u64;
            if offset.checked_add(stored_len).is_none_or(|e| e > size) {
                return Err(bad("entry out of bounds"));
            }
            return Ok(Some(Entry {
                offset,
                length: stored_len,
                compressed: method != 0,
            }));
        }
        at = name_end + extra_len + comment_len;
    }
    Ok(None)
}

/// What the APKs hold for `res_path`: the APK and entry found first, or None if none has it.
pub fn find_asset(apks: &[PathBuf], res_path: &str) -> io::Result<Option<(PathBuf, Entry)>> {
    let name = asset_name(res_path);
    for apk in apks {
        let Ok(mut file) = std::fs::File::open(apk) else {
            continue; // a mapping of a file since removed: not ours
        };
        if let Some(entry) = find_entry(&mut file, &name)? {
            return Ok(Some((apk.clone(), entry)));
        }
    }
    Ok(None)
}

/// Opens `res_path` where it lies in one of `apks`: Some world if an APK stores it, an error
/// if it is deflated (or the APK is damaged), None if no APK has it (an expansion `.obb`
/// pack, say: then Godot's FileAccess reads it).
pub fn open_in(apks: &[PathBuf], res_path: &str) -> Result<Option<Ground>, String> {
    let found = find_asset(apks, res_path).map_err(|e| format!("{res_path}: {e}"))?;
    let Some((apk, entry)) = found else {
        return Ok(None);
    };
    if entry.compressed {
        return Err(compressed_error(res_path, &apk));
    }
    let bytes = FileRange::open(&apk, entry.offset, entry.length)
        .map_err(|e| format!("{res_path} in {}: {e}", apk.display()))?;
    Ground::open_bytes(res_path, Box::new(bytes))
        .map(Some)
        .map_err(|e| format!("{res_path}: {e}"))
}

/// The error for a world Godot's APK export deflated, saying how to keep it stored.
pub fn compressed_error(res_path: &str, apk: &Path) -> String {
    format!(
        "{res_path} is stored compressed in {}: Android re-inflates a compressed asset from its \
         start for every backwards seek, which streaming makes constantly. Godot 4.4's APK \
         export deflates .rlpack and .plnt; export with a Gradle build and, in \
         android/build/build.gradle, add androidResources {{ noCompress += ['rlpack', 'plnt'] }} \
         (bindings/godot/README.md, \"Shipping a world\")",
        apk.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use relief::io::ReadAt;
    use std::io::Cursor;

    /// A zip of `(name, data, method, local extra)` entries, as an APK tool writes it.
    fn zip(entries: &[(&str, &[u8], u16, usize)]) -> Vec<u8> {
        let (mut out, mut dir) = (Vec::new(), Vec::new());
        for &(name, data, method, extra) in entries {
            let local = out.len() as u32;
            out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            out.extend_from_slice(&[20, 0, 0, 0]);
            out.extend_from_slice(&method.to_le_bytes());
            out.extend_from_slice(&[0; 4]); // time, date
            out.extend_from_slice(&[0; 4]); // crc (not checked)
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&(extra as u16).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend(std::iter::repeat_n(0u8, extra)); // zipalign's padding
            out.extend_from_slice(data);
            dir.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            dir.extend_from_slice(&[20, 0, 20, 0, 0, 0]);
            dir.extend_from_slice(&method.to_le_bytes());
            dir.extend_from_slice(&[0; 4]); // time, date
            dir.extend_from_slice(&[0; 4]); // crc
            dir.extend_from_slice(&(data.len() as u32).to_le_bytes());
            dir.extend_from_slice(&(data.len() as u32).to_le_bytes());
            dir.extend_from_slice(&(name.len() as u16).to_le_bytes());
            dir.extend_from_slice(&[0; 2]); // central extra: none
            dir.extend_from_slice(&[0; 2]); // comment
            dir.extend_from_slice(&[0; 4]); // disk, internal attributes
            dir.extend_from_slice(&[0; 4]); // external attributes
            dir.extend_from_slice(&local.to_le_bytes());
            dir.extend_from_slice(name.as_bytes());
        }
        let dir_at = out.len() as u32;
        out.extend_from_slice(&dir);
        out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        out.extend_from_slice(&(dir.len() as u32).to_le_bytes());
        out.extend_from_slice(&dir_at.to_le_bytes());
        out.extend_from_slice(&[0; 2]);
        out
    }

    #[test]
    fn a_stored_world_is_read_in_place_and_a_deflated_one_is_flagged() {
        let world: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 256) as u8).collect();
        let bytes = zip(&[
            ("AndroidManifest.xml", b"<manifest/>", 8, 0),
            ("assets/world/default.rlpack", &world, 0, 3),
            ("assets/moon.plnt", b"deflated bytes", 8, 0),
        ]);
        let dir = std::env::temp_dir().join(format!("relief-apk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let apk = dir.join("base.apk");
        std::fs::write(&apk, &bytes).unwrap();
        let maps = format!(
            "7f00-7f10 r--p 00000000 fd:01 1 /system/lib64/libc.so\n\
             7f10-7f20 r--s 00001000 fd:02 2 {}\n7f20-7f30 r--s 00009000 fd:02 2 {}\n\
             7f30-7f40 rw-p 00000000 00:00 0 \n",
            apk.display(),
            apk.display()
        );
        let apks = mapped_apks(&maps);
        assert_eq!(apks, vec![apk.clone()]);

        let (found, entry) = find_asset(&apks, "res://world/default.rlpack")
            .unwrap()
            .unwrap();
        assert_eq!(found, apk);
        assert!(!entry.compressed);
        let range = FileRange::open(&apk, entry.offset, entry.length).unwrap();
        let mut back = vec![0u8; world.len()];
        range.read_at(0, &mut back).unwrap();
        assert_eq!(back, world);

        let (_, moon) = find_asset(&apks, "res://moon.plnt").unwrap().unwrap();
        assert!(moon.compressed);
        assert!(compressed_error("res://moon.plnt", &apk).contains("noCompress"));
        assert_eq!(find_asset(&apks, "res://other.rlpack").unwrap(), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_packed_world_in_an_apk_streams_from_it() {
        let dir = crate::test_worlds::scratch("apk-world");
        let pack = crate::test_worlds::small_pack(&dir);
        let world = std::fs::read(&pack).unwrap();
        let apk = dir.join("base.apk");
        std::fs::write(
            &apk,
            zip(&[
                ("classes.dex", b"dex", 8, 0),
                ("assets/worlds/w.rlpack", &world, 0, 2),
                ("assets/worlds/deflated.rlpack", &world[..100], 8, 0),
            ]),
        )
        .unwrap();
        let apks = [apk.clone()];
        let Some(Ground::Flat(w)) = open_in(&apks, "res://worlds/w.rlpack").unwrap() else {
            panic!("a flat world from the APK")
        };
        let direct = relief::World::open(&pack).unwrap();
        let bits = crate::test_worlds::height_bits;
        assert!(bits(&w) == bits(&direct), "the heights differ");
        let e = open_in(&apks, "res://worlds/deflated.rlpack")
            .err()
            .unwrap();
        assert!(e.contains("compressed") && e.contains("noCompress"), "{e}");
        assert!(open_in(&apks, "res://worlds/absent.rlpack")
            .unwrap()
            .is_none());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Against a zip another writer made (Python's zipfile, as build tools write them):
    /// stored and deflated entries, with a comment, are found where they lie.
    #[test]
    fn a_zip_written_by_another_tool_reads_the_same() {
        let dir = std::env::temp_dir().join(format!("relief-apk-py-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let apk = dir.join("made.apk");
        let script = "import sys, zipfile\n\
            z = zipfile.ZipFile(sys.argv[1], 'w')\n\
            z.writestr(zipfile.ZipInfo('AndroidManifest.xml'), b'm' * 300, zipfile.ZIP_DEFLATED)\n\
            z.writestr(zipfile.ZipInfo('assets/w.rlpack'), bytes(range(256)) * 40, zipfile.ZIP_STORED)\n\
            z.writestr(zipfile.ZipInfo('assets/p.plnt'), b'p' * 999, zipfile.ZIP_DEFLATED)\n\
            z.comment = b'signed'\n\
            z.close()\n";
        let made = std::process::Command::new("python3")
            .args(["-c", script])
            .arg(&apk)
            .status()
            .expect("python3");
        assert!(made.success());
        let bytes = std::fs::read(&apk).unwrap();
        let mut file = std::fs::File::open(&apk).unwrap();
        let w = find_entry(&mut file, "assets/w.rlpack").unwrap().unwrap();
        assert!(!w.compressed);
        let at = w.offset as usize;
        let want: Vec<u8> = (0..40).flat_map(|_| 0..=255u8).collect();
        assert_eq!(&bytes[at..at + w.length as usize], &want[..]);
        assert!(
            find_entry(&mut file, "assets/p.plnt")
                .unwrap()
                .unwrap()
                .compressed
        );
        assert_eq!(find_entry(&mut file, "assets/none").unwrap(), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn paths_with_spaces_in_maps_are_kept_whole() {
        let maps = "7f10-7f20 r--s 00001000 fd:02 2 /data/app/My Game-1/base.apk\n";
        assert_eq!(
            mapped_apks(maps),
            vec![PathBuf::from("/data/app/My Game-1/base.apk")]
        );
    }

    proptest! {
        /// Any bytes at all, or a real zip cut or scribbled on: an answer or an error,
        /// never a panic, a hang or a huge allocation; an entry found always lies in the file.
        #[test]
        fn damaged_or_hostile_zips_are_errors_not_panics(
            junk in proptest::collection::vec(any::<u8>(), 0..400),
            cut in 0usize..200,
            scribble in proptest::collection::vec((0usize..200, any::<u8>()), 0..6),
        ) {
            let _ = find_entry(&mut Cursor::new(&junk), "assets/w.rlpack");
            let mut z = zip(&[("assets/w.rlpack", b"0123456789", 0, 1), ("b", b"x", 8, 0)]);
            for (at, v) in scribble {
                let n = z.len();
                z[at % n] = v;
            }
            z.truncate(z.len().saturating_sub(cut));
            if let Ok(Some(e)) = find_entry(&mut Cursor::new(&z), "assets/w.rlpack") {
                prop_assert!(e.offset + e.length <= z.len() as u64);
            }
        }
    }
}
