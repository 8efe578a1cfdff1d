//! The library a C or C++ program links (`librelief.so`, `relief.dll`, `librelief.dylib`,
//! `librelief.a`): every export of `include/relief.h`, which live in the `relief-c` crate.
//! A crate of its own because the files must be named `relief`, the name the runtime crate's
//! Rust library already has.

pub use relief_c;
