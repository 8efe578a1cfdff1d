//! The files a world comes in, by extension: a `.rlpack` pack or a `.plnt` planet. The
//! resource loader recognizes these, and an exported game can only open a world in one.

/// The extensions relief's worlds come in, as Godot spells them (no dot, lower case).
pub const EXTENSIONS: [&str; 2] = ["rlpack", "plnt"];

/// Whether `path` names a world file by its extension (Godot compares them without case).
pub fn is_world_file(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.ends_with('/') && EXTENSIONS.iter().any(|e| ext.eq_ignore_ascii_case(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_files_are_told_by_their_extension() {
        for yes in [
            "res://w.rlpack",
            "res://a/b.PLNT",
            "user://x.y.RlPack",
            "w.plnt",
        ] {
            assert!(is_world_file(yes), "{yes}");
        }
        for no in [
            "res://w.rlpack.uid",
            "res://w",
            "res://dir.rlpack/",
            "res://.rlpackx",
            "res://a/.png",
        ] {
            assert!(!is_world_file(no), "{no}");
        }
    }
}
