//! The C ABI's first exports, called as a C program would, with hostile input.

mod common;

use std::ffi::{CStr, CString};
use std::ptr;

use relief_c::world::{
    relief_world, relief_world_destroy, relief_world_get_info, relief_world_info, relief_world_open,
};
use relief_c::*;

fn last_error() -> String {
    unsafe { CStr::from_ptr(relief_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn version_comes_from_cargo() {
    let v = unsafe { CStr::from_ptr(relief_version()) }
        .to_str()
        .unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
}

#[test]
fn open_and_describe_a_world() {
    let path = CString::new(common::world_dir().to_str().unwrap()).unwrap();
    let mut world: *mut relief_world = ptr::null_mut();
    assert_eq!(
        unsafe { relief_world_open(path.as_ptr(), &mut world) },
        RELIEF_STATUS_OK
    );
    assert!(!world.is_null());
    let mut info = relief_world_info {
        struct_size: std::mem::size_of::<relief_world_info>() as u32,
        ..Default::default()
    };
    assert_eq!(
        unsafe { relief_world_get_info(world, &mut info) },
        RELIEF_STATUS_OK
    );
    assert_eq!(
        (info.region_size, info.region_count, info.vertex_spacing),
        (256, 64, 2.0)
    );
    assert!(info.height_max > info.height_min && info.reach_count > 10 && info.lake_count > 0);

    // A caller built against a newer header passes a larger struct: refused, not half-filled
    // (its newer fields would be left as garbage it believes relief wrote).
    #[repr(C)]
    struct Newer {
        info: relief_world_info,
        added_later: u64,
    }
    let mut newer = Newer {
        info: relief_world_info {
            struct_size: std::mem::size_of::<Newer>() as u32,
            ..Default::default()
        },
        added_later: 0xdead_beef,
    };
    assert_eq!(
        unsafe { relief_world_get_info(world, &mut newer.info) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("struct_size"), "{}", last_error());
    assert_eq!(newer.info.region_count, 0);
    assert_eq!(
        newer.added_later, 0xdead_beef,
        "nothing is written on failure"
    );
    unsafe { relief_world_destroy(world) };
}

#[test]
fn hostile_input_gets_a_status_and_a_message_never_a_crash() {
    let mut world: *mut relief_world = ptr::null_mut();
    let missing = CString::new("/nonexistent/world").unwrap();
    assert_eq!(
        unsafe { relief_world_open(ptr::null(), &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("must not be NULL"));
    assert_eq!(
        unsafe { relief_world_open(missing.as_ptr(), ptr::null_mut()) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { relief_world_open(missing.as_ptr(), &mut world) },
        RELIEF_STATUS_NOT_FOUND
    );
    assert!(last_error().contains("missing"), "{}", last_error());
    assert!(
        world.is_null(),
        "out-parameters are written only on success"
    );
    let not_utf8 = CString::new(vec![0xff, 0xfe, b'x']).unwrap();
    assert_eq!(
        unsafe { relief_world_open(not_utf8.as_ptr(), &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("UTF-8"));

    // A damaged manifest is CORRUPT, with the reason.
    let dir = common::copy_world("ffi-bad-manifest");
    std::fs::write(dir.join("world.json"), b"{").unwrap();
    let path = CString::new(dir.to_str().unwrap()).unwrap();
    assert_eq!(
        unsafe { relief_world_open(path.as_ptr(), &mut world) },
        RELIEF_STATUS_CORRUPT
    );
    assert!(last_error().contains("world.json"));

    // info: NULL handle, NULL struct, a struct from an older, smaller header.
    let mut info = relief_world_info {
        struct_size: 8,
        ..Default::default()
    };
    assert_eq!(
        unsafe { relief_world_get_info(ptr::null(), &mut info) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    let good = CString::new(common::world_dir().to_str().unwrap()).unwrap();
    assert_eq!(
        unsafe { relief_world_open(good.as_ptr(), &mut world) },
        RELIEF_STATUS_OK
    );
    assert_eq!(
        unsafe { relief_world_get_info(world, ptr::null_mut()) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { relief_world_get_info(world, &mut info) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("struct_size 8"));
    assert_eq!(info.region_count, 0, "untouched on failure");
    unsafe { relief_world_destroy(world) };
    unsafe { relief_world_destroy(ptr::null_mut()) }; // a no-op

    // Errors are per thread.
    let other = std::thread::spawn(last_error).join().unwrap();
    assert_eq!(other, "");
}

/// `world` (open through the C ABI) describes as many regions as `direct` has.
fn assert_has_the_regions_of(world: *mut relief_world, direct: &relief::World) {
    let mut info = relief_world_info {
        struct_size: std::mem::size_of::<relief_world_info>() as u32,
        ..Default::default()
    };
    assert_eq!(
        unsafe { relief_world_get_info(world, &mut info) },
        RELIEF_STATUS_OK
    );
    assert_eq!(
        info.region_count as usize,
        direct.region_locations().count()
    );
}

/// An archive-like file: `lead` bytes before the default world's pack, a planet after it,
/// junk at the end. Its path, length, the pack's length, the planet's offset and length.
fn archive(name: &str, lead: usize) -> (std::path::PathBuf, u64, u64, u64, u64) {
    let pack = common::world_pack();
    let planet = common::planet_blob(name);
    let mut file = vec![0x5au8; lead];
    file.extend_from_slice(pack);
    file.extend_from_slice(planet);
    file.extend_from_slice(&[7u8; 333]);
    let path = common::scratch(&format!("ffi-{name}")).with_extension("apk");
    std::fs::write(&path, &file).unwrap();
    let planet_at = (lead + pack.len()) as u64;
    (
        path,
        file.len() as u64,
        pack.len() as u64,
        planet_at,
        planet.len() as u64,
    )
}

/// Android's `AssetManager.openFd` hands over a descriptor of the APK and the entry's range:
/// relief duplicates it, so the caller's can be closed at once and loads still read.
#[test]
fn a_pack_and_a_planet_open_from_a_file_descriptor_the_caller_then_closes() {
    use relief_c::planet::{relief_planet, relief_planet_destroy, relief_planet_open_fd};
    use relief_c::world::relief_world_open_fd;
    use std::os::fd::AsRawFd;
    let (path, len, pack_len, planet_at, planet_len) = archive("fd", 777);

    let apk = std::fs::File::open(&path).unwrap();
    let mut world: *mut relief_world = ptr::null_mut();
    let status = unsafe { relief_world_open_fd(apk.as_raw_fd(), 777, pack_len, &mut world) };
    assert_eq!(status, RELIEF_STATUS_OK, "{}", last_error());
    let mut p: *mut relief_planet = ptr::null_mut();
    let status = unsafe { relief_planet_open_fd(apk.as_raw_fd(), planet_at, planet_len, &mut p) };
    assert_eq!(status, RELIEF_STATUS_OK, "{}", last_error());
    drop(apk);
    let direct = relief::World::open(common::world_dir()).unwrap();
    assert_has_the_regions_of(world, &direct);
    unsafe { relief_world_destroy(world) };
    unsafe { relief_planet_destroy(p) };

    // Every region read after the caller's descriptor closed is the region read by path.
    let apk = std::fs::File::open(&path).unwrap();
    let by_fd = relief::World::open_in_file(apk, 777, pack_len, "test").unwrap();
    for loc in direct.region_locations() {
        assert_eq!(
            by_fd.read_region(loc).unwrap().height.to_vec(),
            direct.read_region(loc).unwrap().height.to_vec(),
            "{loc:?}"
        );
    }

    // Descriptors that aren't, a directory's, a range past the end, a NULL out.
    let dir = std::fs::File::open(path.parent().unwrap()).unwrap();
    let apk = std::fs::File::open(&path).unwrap();
    let mut world: *mut relief_world = ptr::null_mut();
    for (fd, offset, length, status, words) in [
        (
            -1,
            0,
            1,
            RELIEF_STATUS_INVALID_ARGUMENT,
            "not a file descriptor",
        ),
        (
            i32::MAX,
            0,
            1,
            RELIEF_STATUS_INVALID_ARGUMENT,
            "is it open?",
        ),
        (
            dir.as_raw_fd(),
            0,
            1,
            RELIEF_STATUS_IO,
            "not a regular file",
        ),
        (
            apk.as_raw_fd(),
            len - 10,
            11,
            RELIEF_STATUS_IO,
            "past the end",
        ),
        (apk.as_raw_fd(), 776, pack_len, RELIEF_STATUS_CORRUPT, ""),
    ] {
        let got = unsafe { relief_world_open_fd(fd, offset, length, &mut world) };
        assert_eq!(got, status, "fd {fd} {offset}+{length}: {}", last_error());
        assert!(last_error().contains(words), "{}", last_error());
        assert!(world.is_null(), "untouched on failure");
    }
    let got = unsafe { relief_world_open_fd(apk.as_raw_fd(), 777, pack_len, ptr::null_mut()) };
    assert_eq!(got, RELIEF_STATUS_INVALID_ARGUMENT);
}

#[test]
fn a_pack_and_a_planet_open_from_a_byte_range_of_a_larger_file() {
    use relief_c::planet::{relief_planet, relief_planet_destroy, relief_planet_open_file_range};
    use relief_c::world::relief_world_open_file_range;
    let (path, len, pack_len, planet_at, planet_len) = archive("range", 1000);
    let c_path = CString::new(path.to_str().unwrap()).unwrap();

    let mut world: *mut relief_world = ptr::null_mut();
    let status =
        unsafe { relief_world_open_file_range(c_path.as_ptr(), 1000, pack_len, &mut world) };
    assert_eq!(status, RELIEF_STATUS_OK, "{}", last_error());
    let direct = relief::World::open(common::world_dir()).unwrap();
    assert_has_the_regions_of(world, &direct);
    unsafe { relief_world_destroy(world) };

    let mut p: *mut relief_planet = ptr::null_mut();
    let status =
        unsafe { relief_planet_open_file_range(c_path.as_ptr(), planet_at, planet_len, &mut p) };
    assert_eq!(status, RELIEF_STATUS_OK, "{}", last_error());
    unsafe { relief_planet_destroy(p) };

    // Past the end, off by one byte, NULLs, and a range holding no pack.
    let mut world: *mut relief_world = ptr::null_mut();
    for (offset, length, status, words) in [
        (len - 10, 11, RELIEF_STATUS_IO, "past the end"),
        (u64::MAX, 2, RELIEF_STATUS_IO, "past the end"),
        (999, pack_len, RELIEF_STATUS_CORRUPT, ""),
        (0, len, RELIEF_STATUS_CORRUPT, ""),
    ] {
        let got =
            unsafe { relief_world_open_file_range(c_path.as_ptr(), offset, length, &mut world) };
        assert_eq!(got, status, "{offset}+{length}: {}", last_error());
        assert!(last_error().contains(words), "{}", last_error());
        assert!(world.is_null(), "untouched on failure");
    }
    let got = unsafe { relief_world_open_file_range(ptr::null(), 0, 1, &mut world) };
    assert_eq!(got, RELIEF_STATUS_INVALID_ARGUMENT);
    let got = unsafe { relief_world_open_file_range(c_path.as_ptr(), 0, 1, ptr::null_mut()) };
    assert_eq!(got, RELIEF_STATUS_INVALID_ARGUMENT);
    let missing = CString::new("/nonexistent/relief.apk").unwrap();
    let got = unsafe { relief_world_open_file_range(missing.as_ptr(), 0, 1, &mut world) };
    assert_eq!(got, RELIEF_STATUS_NOT_FOUND);
}
