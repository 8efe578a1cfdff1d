//! Every way reading a world, a pack or a planet can fail. Callers match on these; nothing in
//! the readers panics.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: file is missing")]
    Missing { path: PathBuf },
    #[error("not a {expected} file (magic {found:02x?})")]
    BadMagic {
        expected: &'static str,
        found: Vec<u8>,
    },
    #[error("{what} version {found} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        what: &'static str,
        found: u32,
        supported: u32,
    },
    #[error("file is truncated: {need} bytes needed, {have} present")]
    Truncated { need: u64, have: u64 },
    #[error("{extra} unexpected bytes after the last layer")]
    TrailingBytes { extra: u64 },
    #[error("checksum mismatch in {what}: stored {stored:08x}, computed {computed:08x}")]
    Checksum {
        what: String,
        stored: u32,
        computed: u32,
    },
    #[error("unknown codec {0}")]
    UnknownCodec(u8),
    #[error("unknown layer kind {0}")]
    UnknownLayer(u8),
    #[error("corrupt data: {0}")]
    Corrupt(String),
    /// A size or count the input declares past what its source holds or a documented cap
    /// (`crate::bounds`): refused before anything is allocated for it.
    #[error("{what} declares {declared}, more than the {limit} it may")]
    TooLarge {
        what: String,
        declared: u64,
        limit: u64,
    },
    #[error("region file holds location ({found_x}, {found_z}), expected ({want_x}, {want_z})")]
    WrongLocation {
        want_x: i32,
        want_z: i32,
        found_x: i32,
        found_z: i32,
    },
    #[error("manifest: {0}")]
    Manifest(String),
    /// A table (rivers, lakes, biomes) that reads but contradicts itself.
    #[error("{table}: {problem}")]
    Table {
        table: &'static str,
        problem: String,
    },
    #[error("{path}: manifest says {expected}, file has {found}")]
    ManifestMismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
    /// A load panicked on a loader thread (a bug); the key fails and is retried by policy.
    #[error(transparent)]
    LoadPanicked(#[from] LoadPanic),
    #[error("no region at location ({x}, {z}) in this world")]
    NoSuchRegion { x: i32, z: i32 },
    #[error("{path}: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
}

impl FormatError {
    /// A URL given to a build without the `http` feature.
    #[cfg_attr(feature = "http", allow(dead_code))]
    pub(crate) fn no_http(url: &str) -> FormatError {
        FormatError::io(
            std::path::Path::new(&crate::io::shown_url(url)),
            std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "this build of relief has no HTTP (the `relief` crate's `http` feature is off)",
            ),
        )
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> FormatError {
        if source.kind() == std::io::ErrorKind::NotFound {
            FormatError::Missing {
                path: path.to_path_buf(),
            }
        } else {
            FormatError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

/// A load that panicked on a loader thread, with the panic's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("loading panicked (a bug in relief or in the source): {0}")]
pub struct LoadPanic(pub String);

impl LoadPanic {
    /// From what `catch_unwind` caught: the message if the payload is a string.
    pub fn from_payload(payload: &(dyn std::any::Any + Send)) -> LoadPanic {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        LoadPanic(message)
    }
}
