//! librelief and the Godot extension (librelief_godot) as Google Play takes them for Android:
//! every LOAD segment of each 64-bit library aligned to 16 KB (required of apps targeting Android 15+ since 1 November 2025), which
//! `.cargo/config.toml`'s linker flag gives.
//!
//! No Android NDK exists on the machines this runs on. The library is built for
//! aarch64-linux-android with rustup's standard library for that target and linked by clang
//! with LLVM's lld — the linker the NDK ships — against stand-ins for bionic's shared
//! libraries (empty linker scripts: a shared library leaves their symbols for the loader to
//! bind); the C the crates build (lz4, ring) compiles against Debian's aarch64 C headers in
//! place of bionic's. The segments' alignment is the linker's doing, under the flag this
//! checks, so it is what an NDK build produces at any optimisation; the check builds without
//! (Cargo.toml's `android-check` profile), and the library is not loaded on Android here.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{must, root, tool};

/// The library's LOAD segments: (file offset, virtual address, alignment) of each, from a
/// 64-bit little-endian ELF file's program headers, checked to be for `machine`.
fn load_segments(elf: &[u8], machine: u16) -> Result<Vec<(u64, u64, u64)>, String> {
    let u16_at = |at: usize| {
        elf.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let u32_at = |at: usize| {
        elf.get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    let u64_at = |at: usize| {
        elf.get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    };
    if elf.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 2, 1][..]) {
        return Err("not a 64-bit little-endian ELF file".into());
    }
    let found = u16_at(0x12).unwrap();
    if found != machine {
        return Err(format!("machine {found}, not {machine}"));
    }
    let (phoff, phentsize, phnum) = (
        u64_at(0x20).unwrap() as usize,
        u16_at(0x36).unwrap() as usize,
        u16_at(0x38).unwrap() as usize,
    );
    let mut loads = Vec::new();
    for i in 0..phnum {
        let at = phoff + i * phentsize;
        let kind = u32_at(at).ok_or("program headers run past the end")?;
        const PT_LOAD: u32 = 1;
        if kind == PT_LOAD {
            loads.push((
                u64_at(at + 8).unwrap(),
                u64_at(at + 16).unwrap(),
                u64_at(at + 48).ok_or("a program header runs past the end")?,
            ));
        }
    }
    Ok(loads)
}

/// What is wrong with `loads` for a device with 16 KB pages; nothing if all is well.
fn page_problems(loads: &[(u64, u64, u64)]) -> Vec<String> {
    const PAGE: u64 = 16 * 1024;
    let mut problems: Vec<String> = loads
        .iter()
        .filter(|(offset, vaddr, align)| *align < PAGE || offset % PAGE != vaddr % PAGE)
        .map(|(offset, vaddr, align)| {
            format!("LOAD at {offset:#x} (vaddr {vaddr:#x}) aligned {align:#x}")
        })
        .collect();
    if loads.is_empty() {
        problems.push("no LOAD segment".into());
    }
    problems
}

const EM_AARCH64: u16 = 183;

/// A script at `path` running `command` with the arguments it is given.
fn script(path: &Path, command: &str) {
    std::fs::write(path, format!("#!/bin/sh\nexec {command} \"$@\"\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_android_library_is_linked_for_16_kb_pages() {
    for t in ["clang", "ld.lld", "llvm-ar", "rustup"] {
        tool(t);
    }
    let installed = must(Command::new("rustup").args(["target", "list", "--installed"])).stdout;
    assert!(
        String::from_utf8_lossy(&installed).contains("aarch64-linux-android"),
        "the aarch64-linux-android standard library is missing: run .ci/deps"
    );
    let headers = Path::new("/usr/aarch64-linux-gnu/include");
    assert!(
        headers.is_dir(),
        "{} is missing: run .ci/deps",
        headers.display()
    );

    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("android");
    let stubs = tmp.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    for lib in ["c", "m", "dl", "log", "unwind"] {
        std::fs::write(
            stubs.join(format!("lib{lib}.so")),
            "/* bionic stand-in */\n",
        )
        .unwrap();
    }
    // Named as the NDK names its compiler drivers, which is how rustc knows the flavour.
    let linker = tmp.join("aarch64-linux-android24-clang");
    script(
        &linker,
        &format!(
            "clang --target=aarch64-linux-android24 -fuse-ld=lld -nostdlib -L{}",
            stubs.display()
        ),
    );
    let cc = tmp.join("aarch64-linux-android24-cc");
    script(
        &cc,
        &format!(
            "clang --target=aarch64-linux-android24 -isystem {}",
            headers.display()
        ),
    );
    let target_dir = tmp.join("target");
    let mut build = Command::new(env!("CARGO"));
    build
        .current_dir(root())
        .args([
            "build",
            "--profile",
            "android-check",
            "--quiet",
            "-p",
            "librelief",
            "-p",
            "relief-godot",
        ])
        .args(["--target", "aarch64-linux-android", "--target-dir"])
        .arg(&target_dir)
        // RUSTFLAGS would replace .cargo/config.toml's flags for the target.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_TARGET_AARCH64_LINUX_ANDROID_LINKER", &linker)
        .env("CC_aarch64_linux_android", &cc)
        .env("AR_aarch64_linux_android", "llvm-ar");
    must(&mut build);

    // The C library and the Godot extension, each as Google Play takes it.
    for lib in ["librelief.so", "librelief_godot.so"] {
        let so = target_dir
            .join("aarch64-linux-android/android-check")
            .join(lib);
        let elf = std::fs::read(&so).unwrap();
        let loads = load_segments(&elf, EM_AARCH64).unwrap();
        println!("{}: {loads:x?}", so.display());
        let problems = page_problems(&loads);
        assert!(problems.is_empty(), "{}: {problems:#?}", so.display());
    }
}

/// The check itself: 4 KB alignment (what an older NDK links without the flag) is caught, as
/// is a segment whose offset and address disagree within a page.
#[test]
fn the_page_check_catches_4_kb_segments() {
    let mut elf = vec![0u8; 0x40 + 2 * 56];
    elf[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1]);
    elf[0x12..0x14].copy_from_slice(&EM_AARCH64.to_le_bytes());
    elf[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes());
    elf[0x36..0x38].copy_from_slice(&56u16.to_le_bytes());
    elf[0x38..0x3a].copy_from_slice(&2u16.to_le_bytes());
    let mut segment = |i: usize, offset: u64, vaddr: u64, align: u64| {
        let at = 0x40 + i * 56;
        elf[at..at + 4].copy_from_slice(&1u32.to_le_bytes());
        elf[at + 8..at + 16].copy_from_slice(&offset.to_le_bytes());
        elf[at + 16..at + 24].copy_from_slice(&vaddr.to_le_bytes());
        elf[at + 48..at + 56].copy_from_slice(&align.to_le_bytes());
    };
    segment(0, 0, 0, 0x4000);
    segment(1, 0x10624, 0x11624, 0x1000);
    let loads = load_segments(&elf, EM_AARCH64).unwrap();
    assert_eq!(loads, [(0, 0, 0x4000), (0x10624, 0x11624, 0x1000)]);
    assert_eq!(page_problems(&loads).len(), 1);
    assert_eq!(page_problems(&[(0x10624, 0x11624, 0x4000)]).len(), 1);
    assert!(page_problems(&[(0x10624, 0x14624, 0x4000)]).is_empty());
    assert!(load_segments(&elf, 62).is_err(), "x86_64 is not aarch64");
}
