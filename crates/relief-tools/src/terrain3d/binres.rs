//! Godot 4's binary resource serialisation (what `ResourceSaver` writes to `.res`), read as
//! untrusted input. The stream (inside an `RSCC` container it starts at the endianness word;
//! uncompressed it starts with `RSRC`):
//!
//! - u32 big-endian flag, u32 64-bit-reals flag, u32 engine major and minor, u32 format
//!   version (4–6), the main resource's class (a string), u64 import-metadata offset, u32
//!   flags (1 named scene ids, 2 uids, 4 64-bit reals, 8 script class), the uid (u64, with
//!   flag 2), the script class (a string, with flag 8), 11 reserved u32;
//! - the string table (u32 count, strings): property names, referred to by index;
//! - external resources (u32 count; class, path and, with uids, a u64 uid each);
//! - internal resources (u32 count; a path such as `local://Image_x` or the file's own path for
//!   the main resource, and the u64 offset of its body);
//! - each body: its class, u32 property count, then (u32 name index, variant) per property.
//!
//! Strings are a u32 byte count (NUL included) and UTF-8; packed byte arrays are padded to 4.
//! Only the variant types a Terrain3D region can hold are read; any other is an
//! [`ResError::UnsupportedVariant`] naming it. Every count and length is checked against the
//! bytes left before anything is allocated for it; bodies may not overlap (Godot writes them
//! one after another), so no byte is parsed twice; and the parsed structure (values of arrays
//! and dictionaries, names, properties) shares one allowance ([`MAX_VALUES_BYTES`]), so a
//! file's parse costs at most its length and that allowance.

use super::ResError;

pub const MAGIC: &[u8; 4] = b"RSRC";
pub const FLAG_UIDS: u32 = 2;
pub const FLAG_REAL_T_IS_DOUBLE: u32 = 4;
pub const FLAG_HAS_SCRIPT_CLASS: u32 = 8;
pub const RESERVED_FIELDS: usize = 11;
/// Nesting deeper than this (arrays in dictionaries in arrays …) is a damaged file.
const MAX_DEPTH: u32 = 32;
/// The memory one file's parsed structure may take: its arrays' and dictionaries' values
/// (about 1.6 million in all), its string table's entries, its properties and each
/// property's copy of its name, 64 MiB together. A value costs 4 bytes in the file and ten
/// times that parsed, and a name is stored once and copied by every property naming it, so
/// this, not the file's length, bounds them; a Terrain3D region's own structure (its
/// instances) is a small fraction of it, and its maps are packed arrays, parsed at their
/// length.
pub const MAX_VALUES_BYTES: usize = 64 << 20;

/// Godot's variant type tags in binary resources.
pub mod tag {
    pub const NIL: u32 = 1;
    pub const BOOL: u32 = 2;
    pub const INT: u32 = 3;
    pub const FLOAT: u32 = 4;
    pub const STRING: u32 = 5;
    pub const VECTOR2: u32 = 10;
    pub const OBJECT: u32 = 24;
    pub const DICTIONARY: u32 = 26;
    pub const ARRAY: u32 = 30;
    pub const PACKED_BYTE_ARRAY: u32 = 31;
    pub const PACKED_INT32_ARRAY: u32 = 32;
    pub const PACKED_FLOAT32_ARRAY: u32 = 33;
    pub const INT64: u32 = 40;
    pub const DOUBLE: u32 = 41;
    pub const STRING_NAME: u32 = 44;
    pub const VECTOR2I: u32 = 45;
    pub const VECTOR3I: u32 = 47;
}

/// `OBJECT` variants: what kind of reference follows.
const OBJECT_EMPTY: u32 = 0;
const OBJECT_INTERNAL: u32 = 2;
const OBJECT_EXTERNAL_INDEX: u32 = 3;

/// A value as the file holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Variant {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    Vector2([f64; 2]),
    Vector2i([i32; 2]),
    Vector3i([i32; 3]),
    /// An internal resource by its index in the file's list, an external one by its index in
    /// the external list, or none.
    Internal(u32),
    External(u32),
    NullObject,
    Dictionary(Vec<(Variant, Variant)>),
    Array(Vec<Variant>),
    Bytes(Vec<u8>),
    Int32s(Vec<i32>),
    Float32s(Vec<f32>),
}

impl Variant {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Variant::Int(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_float(&self) -> Option<f64> {
        match self {
            Variant::Float(v) => Some(*v),
            Variant::Int(v) => Some(*v as f64),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Variant::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value under string key `key` of a dictionary.
    pub fn get(&self, key: &str) -> Option<&Variant> {
        match self {
            Variant::Dictionary(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// One resource in the file: its class and its properties in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// `local://Image_x` for a sub-resource, the file's own `res://` path for the main one.
    pub path: String,
    pub class: String,
    pub properties: Vec<(String, Variant)>,
}

impl Body {
    pub fn get(&self, name: &str) -> Option<&Variant> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

/// The header fields a writer must reproduce.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub engine: (u32, u32),
    pub format: u32,
    pub class: String,
    pub flags: u32,
    pub uid: Option<u64>,
    pub strings: Vec<String>,
    pub external: Vec<(String, String)>,
}

/// A whole resource file: the header and every internal resource, the main one last (as
/// Godot writes it).
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub header: Header,
    pub bodies: Vec<Body>,
}

impl Resource {
    /// The main resource: the last body.
    pub fn main(&self) -> Option<&Body> {
        self.bodies.last()
    }

    /// Internal resource `index` (what [`Variant::Internal`] names).
    pub fn internal(&self, index: u32) -> Option<&Body> {
        self.bodies.get(index as usize)
    }
}

/// A bounds-checked little-endian cursor.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    /// What is left of [`MAX_VALUES_BYTES`] for this file.
    values_left: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ResError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(ResError::Truncated {
                what,
                at: self.at as u64,
            });
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, ResError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("four"),
        ))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, ResError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("eight"),
        ))
    }

    fn f32(&mut self, what: &'static str) -> Result<f32, ResError> {
        Ok(f32::from_bits(self.u32(what)?))
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// A count of items each at least `each` bytes long, checked against what is left.
    fn count(&mut self, each: usize, what: &'static str) -> Result<usize, ResError> {
        let at = self.at as u64;
        let n = self.u32(what)? as usize;
        if n.saturating_mul(each) > self.left() {
            return Err(ResError::Corrupt {
                at,
                problem: format!("{what}: {n} items can't fit the {} bytes left", self.left()),
            });
        }
        Ok(n)
    }

    fn string(&mut self, what: &'static str) -> Result<String, ResError> {
        let at = self.at as u64;
        let n = self.count(1, what)?;
        let raw = self.take(n, what)?;
        let text = raw.strip_suffix(&[0]).unwrap_or(raw);
        String::from_utf8(text.to_vec()).map_err(|_| ResError::Corrupt {
            at,
            problem: format!("{what}: not UTF-8"),
        })
    }

    /// Takes `n` parsed values' memory from the file's allowance.
    fn values(&mut self, n: usize, what: &'static str) -> Result<(), ResError> {
        self.charge(n, std::mem::size_of::<Variant>(), what)
    }

    /// Takes `n` items of `each` bytes of parsed structure from the file's allowance.
    fn charge(&mut self, n: usize, each: usize, what: &'static str) -> Result<(), ResError> {
        let cost = n.saturating_mul(each);
        if cost > self.values_left {
            return Err(ResError::Corrupt {
                at: self.at as u64,
                problem: format!(
                    "{what} of {n} items: the file's arrays, dictionaries, names and \
                     properties would take more than {} MiB parsed",
                    MAX_VALUES_BYTES >> 20
                ),
            });
        }
        self.values_left -= cost;
        Ok(())
    }

    fn pad(&mut self, len: usize) -> Result<(), ResError> {
        let extra = (4 - len % 4) % 4;
        self.take(extra, "padding").map(|_| ())
    }
}

/// Parses a binary resource stream: `RSRC` first (an uncompressed file) or the endianness
/// word first (the inside of an `RSCC` container).
pub fn parse(stream: &[u8]) -> Result<Resource, ResError> {
    let body = stream.strip_prefix(MAGIC).unwrap_or(stream);
    let mut c = Cursor {
        bytes: body,
        at: 0,
        values_left: MAX_VALUES_BYTES,
    };
    let big_endian = c.u32("header")?;
    let real64 = c.u32("header")?;
    if big_endian != 0 {
        return Err(ResError::Unsupported("big-endian resources".into()));
    }
    if real64 != 0 {
        return Err(ResError::Unsupported("64-bit reals".into()));
    }
    let engine = (c.u32("header")?, c.u32("header")?);
    let format = c.u32("header")?;
    if !(4..=6).contains(&format) {
        return Err(ResError::Unsupported(format!(
            "binary resource format {format} (Godot 4 writes 4 to 6)"
        )));
    }
    let class = c.string("class name")?;
    let _import_metadata = c.u64("header")?;
    let flags = c.u32("header")?;
    if flags & FLAG_REAL_T_IS_DOUBLE != 0 {
        return Err(ResError::Unsupported("64-bit reals".into()));
    }
    let uid = if flags & FLAG_UIDS != 0 {
        Some(c.u64("uid")?)
    } else {
        None
    };
    if flags & FLAG_HAS_SCRIPT_CLASS != 0 {
        c.string("script class")?;
    }
    c.take(4 * RESERVED_FIELDS, "reserved fields")?;
    let n = c.count(4, "string table")?;
    c.charge(n, std::mem::size_of::<String>(), "string table")?;
    let strings = (0..n)
        .map(|_| c.string("string table"))
        .collect::<Result<Vec<_>, _>>()?;
    let n = c.count(8, "external resources")?;
    let mut external = Vec::with_capacity(n);
    for _ in 0..n {
        let class = c.string("external resource")?;
        let path = c.string("external resource")?;
        if flags & FLAG_UIDS != 0 {
            c.u64("external uid")?;
        }
        external.push((class, path));
    }
    let n = c.count(12, "internal resources")?;
    let mut index = Vec::with_capacity(n);
    for _ in 0..n {
        let path = c.string("internal resource")?;
        let offset = c.u64("internal resource offset")?;
        index.push((path, offset));
    }
    let header = Header {
        engine,
        format,
        class,
        // The script class is read past, not kept, so neither is its flag: what is written
        // back has none.
        flags: flags & !FLAG_HAS_SCRIPT_CLASS,
        uid,
        strings,
        external,
    };
    let mut bodies = Vec::with_capacity(index.len());
    // Where the last body ended: the next starts there or later. Bodies that overlap (a
    // thousand entries naming one 60 MiB array) would parse the same bytes again and again.
    let mut parsed_to = c.at;
    let mut values_total = c.values_left;
    for (path, offset) in index {
        // Offsets count from the start of the stream, `RSRC` included when it is there.
        let skip = stream.len() - body.len();
        let at = (offset as usize)
            .checked_sub(skip)
            .filter(|&a| a <= body.len())
            .ok_or(ResError::Corrupt {
                at: offset,
                problem: format!("{path}: offset past the end"),
            })?;
        if at < parsed_to {
            return Err(ResError::Corrupt {
                at: offset,
                problem: format!("{path}: its body overlaps the one before it"),
            });
        }
        let mut c = Cursor {
            bytes: body,
            at,
            values_left: values_total,
        };
        let class = c.string("resource class")?;
        let n = c.count(8, "properties")?;
        c.charge(n, std::mem::size_of::<(String, Variant)>(), "properties")?;
        let mut properties = Vec::with_capacity(n);
        for _ in 0..n {
            let at = c.at as u64;
            let name = c.u32("property name")? as usize;
            let name = header.strings.get(name).ok_or(ResError::Corrupt {
                at,
                problem: format!("property name {name} past the string table"),
            })?;
            // Each property holds its own copy of its name: one long name named by a million
            // properties would be a million copies.
            c.charge(1, name.len(), "property names")?;
            properties.push((name.clone(), variant(&mut c, 0)?));
        }
        parsed_to = c.at;
        values_total = c.values_left;
        bodies.push(Body {
            path,
            class,
            properties,
        });
    }
    Ok(Resource { header, bodies })
}

fn variant(c: &mut Cursor, depth: u32) -> Result<Variant, ResError> {
    let at = c.at as u64;
    if depth > MAX_DEPTH {
        return Err(ResError::Corrupt {
            at,
            problem: "values nested too deep".into(),
        });
    }
    let t = c.u32("variant type")?;
    Ok(match t {
        tag::NIL => Variant::Nil,
        tag::BOOL => Variant::Bool(c.u32("bool")? != 0),
        tag::INT => Variant::Int(c.u32("int")? as i32 as i64),
        tag::INT64 => Variant::Int(c.u64("int64")? as i64),
        tag::FLOAT => Variant::Float(c.f32("float")? as f64),
        tag::DOUBLE => Variant::Float(f64::from_bits(c.u64("double")?)),
        tag::STRING | tag::STRING_NAME => Variant::String(c.string("string")?),
        tag::VECTOR2 => Variant::Vector2([c.f32("vector2")? as f64, c.f32("vector2")? as f64]),
        tag::VECTOR2I => Variant::Vector2i([c.u32("vector2i")? as i32, c.u32("vector2i")? as i32]),
        tag::VECTOR3I => Variant::Vector3i([
            c.u32("vector3i")? as i32,
            c.u32("vector3i")? as i32,
            c.u32("vector3i")? as i32,
        ]),
        tag::OBJECT => match c.u32("object kind")? {
            OBJECT_EMPTY => Variant::NullObject,
            OBJECT_INTERNAL => Variant::Internal(c.u32("object index")?),
            OBJECT_EXTERNAL_INDEX => Variant::External(c.u32("object index")?),
            kind => {
                return Err(ResError::Corrupt {
                    at,
                    problem: format!("object reference kind {kind}"),
                })
            }
        },
        tag::DICTIONARY => {
            // The top bit once meant "shared"; Godot masks it off.
            let n = (c.u32("dictionary")? & 0x7fff_ffff) as usize;
            if n.saturating_mul(8) > c.left() {
                return Err(ResError::Corrupt {
                    at,
                    problem: format!("dictionary of {n} entries can't fit"),
                });
            }
            c.values(n.saturating_mul(2), "dictionary")?;
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                let k = variant(c, depth + 1)?;
                entries.push((k, variant(c, depth + 1)?));
            }
            Variant::Dictionary(entries)
        }
        tag::ARRAY => {
            let n = (c.u32("array")? & 0x7fff_ffff) as usize;
            if n.saturating_mul(4) > c.left() {
                return Err(ResError::Corrupt {
                    at,
                    problem: format!("array of {n} values can't fit"),
                });
            }
            c.values(n, "array")?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(variant(c, depth + 1)?);
            }
            Variant::Array(items)
        }
        tag::PACKED_BYTE_ARRAY => {
            let n = c.count(1, "byte array")?;
            let bytes = c.take(n, "byte array")?.to_vec();
            c.pad(n)?;
            Variant::Bytes(bytes)
        }
        tag::PACKED_INT32_ARRAY => {
            let n = c.count(4, "int32 array")?;
            let raw = c.take(4 * n, "int32 array")?;
            Variant::Int32s(
                raw.chunks_exact(4)
                    .map(|b| i32::from_le_bytes(b.try_into().expect("four")))
                    .collect(),
            )
        }
        tag::PACKED_FLOAT32_ARRAY => {
            let n = c.count(4, "float32 array")?;
            let raw = c.take(4 * n, "float32 array")?;
            Variant::Float32s(
                raw.chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().expect("four")))
                    .collect(),
            )
        }
        other => return Err(ResError::UnsupportedVariant { tag: other, at }),
    })
}

/// Serialises `r` as Godot's binary resource stream: with the `RSRC` magic for an
/// uncompressed `.res` file, without it for the inside of an `RSCC` container. Godot's
/// layout: header, string table (the header's, with any property name it lacks added), the
/// resource list with each body's offset, the bodies, and `RSRC` at the end. Floats that
/// survive a round trip through f32 are written as f32 (`FLOAT`), others as f64, and
/// integers in i32 range as `INT`, as Godot does.
pub fn write(r: &Resource, with_magic: bool) -> Vec<u8> {
    let h = &r.header;
    let mut strings = h.strings.clone();
    for (name, _) in r.bodies.iter().flat_map(|b| &b.properties) {
        if !strings.contains(name) {
            strings.push(name.clone());
        }
    }
    let mut out = Vec::new();
    if with_magic {
        out.extend_from_slice(MAGIC);
    }
    let u32s = |out: &mut Vec<u8>, vs: &[u32]| {
        for v in vs {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    u32s(&mut out, &[0, 0, h.engine.0, h.engine.1, h.format]);
    put_string(&mut out, &h.class);
    out.extend_from_slice(&0u64.to_le_bytes());
    let flags = (h.flags & !FLAG_HAS_SCRIPT_CLASS) | h.uid.map_or(0, |_| FLAG_UIDS);
    u32s(&mut out, &[flags]);
    if let Some(uid) = h.uid {
        out.extend_from_slice(&uid.to_le_bytes());
    }
    u32s(&mut out, &[0; RESERVED_FIELDS]);
    u32s(&mut out, &[strings.len() as u32]);
    for s in &strings {
        put_string(&mut out, s);
    }
    u32s(&mut out, &[h.external.len() as u32]);
    for (class, path) in &h.external {
        put_string(&mut out, class);
        put_string(&mut out, path);
        if h.uid.is_some() {
            // No uid known for the dependency: Godot's "invalid id".
            out.extend_from_slice(&u64::MAX.to_le_bytes());
        }
    }
    u32s(&mut out, &[r.bodies.len() as u32]);
    let mut slots = Vec::with_capacity(r.bodies.len());
    for b in &r.bodies {
        put_string(&mut out, &b.path);
        slots.push(out.len());
        out.extend_from_slice(&0u64.to_le_bytes());
    }
    for (b, slot) in r.bodies.iter().zip(slots) {
        let offset = out.len() as u64;
        out[slot..slot + 8].copy_from_slice(&offset.to_le_bytes());
        put_string(&mut out, &b.class);
        u32s(&mut out, &[b.properties.len() as u32]);
        for (name, value) in &b.properties {
            let index = strings.iter().position(|s| s == name).expect("added above");
            u32s(&mut out, &[index as u32]);
            put_variant(&mut out, value);
        }
    }
    out.extend_from_slice(MAGIC);
    out
}

fn put_string(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32 + 1).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

fn put_variant(out: &mut Vec<u8>, v: &Variant) {
    let mut u = |v: u32| out.extend_from_slice(&v.to_le_bytes());
    match v {
        Variant::Nil => u(tag::NIL),
        Variant::Bool(b) => {
            u(tag::BOOL);
            u(*b as u32);
        }
        Variant::Int(i) => match i32::try_from(*i) {
            Ok(small) => {
                u(tag::INT);
                u(small as u32);
            }
            Err(_) => {
                u(tag::INT64);
                out.extend_from_slice(&i.to_le_bytes());
            }
        },
        Variant::Float(f) => {
            if (*f as f32) as f64 == *f || f.is_nan() {
                u(tag::FLOAT);
                u((*f as f32).to_bits());
            } else {
                u(tag::DOUBLE);
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
        }
        Variant::String(s) => {
            u(tag::STRING);
            put_string(out, s);
        }
        Variant::Vector2(p) => {
            u(tag::VECTOR2);
            u((p[0] as f32).to_bits());
            u((p[1] as f32).to_bits());
        }
        Variant::Vector2i(p) => {
            u(tag::VECTOR2I);
            for c in p {
                u(*c as u32);
            }
        }
        Variant::Vector3i(p) => {
            u(tag::VECTOR3I);
            for c in p {
                u(*c as u32);
            }
        }
        Variant::Internal(i) => {
            u(tag::OBJECT);
            u(OBJECT_INTERNAL);
            u(*i);
        }
        Variant::External(i) => {
            u(tag::OBJECT);
            u(OBJECT_EXTERNAL_INDEX);
            u(*i);
        }
        Variant::NullObject => {
            u(tag::OBJECT);
            u(OBJECT_EMPTY);
        }
        Variant::Dictionary(entries) => {
            u(tag::DICTIONARY);
            u(entries.len() as u32);
            for (k, v) in entries {
                put_variant(out, k);
                put_variant(out, v);
            }
        }
        Variant::Array(items) => {
            u(tag::ARRAY);
            u(items.len() as u32);
            for v in items {
                put_variant(out, v);
            }
        }
        Variant::Bytes(b) => {
            u(tag::PACKED_BYTE_ARRAY);
            u(b.len() as u32);
            out.extend_from_slice(b);
            out.resize(out.len() + (4 - b.len() % 4) % 4, 0);
        }
        Variant::Int32s(vs) => {
            u(tag::PACKED_INT32_ARRAY);
            u(vs.len() as u32);
            for v in vs {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Variant::Float32s(vs) => {
            u(tag::PACKED_FLOAT32_ARRAY);
            u(vs.len() as u32);
            for v in vs {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn leaf() -> impl Strategy<Value = Variant> {
        prop_oneof![
            Just(Variant::Nil),
            any::<bool>().prop_map(Variant::Bool),
            any::<i64>().prop_map(Variant::Int),
            any::<f32>()
                .prop_filter("NaN never equals itself", |f| !f.is_nan())
                .prop_map(|f| Variant::Float(f as f64)),
            (-1e300f64..1e300).prop_map(Variant::Float),
            "[a-z_ ]{0,12}".prop_map(Variant::String),
            (any::<f32>(), any::<f32>())
                .prop_filter("finite", |(a, b)| a.is_finite() && b.is_finite())
                .prop_map(|(a, b)| Variant::Vector2([a as f64, b as f64])),
            any::<[i32; 2]>().prop_map(Variant::Vector2i),
            any::<u32>().prop_map(Variant::Internal),
            Just(Variant::NullObject),
            prop::collection::vec(any::<u8>(), 0..40).prop_map(Variant::Bytes),
            prop::collection::vec(any::<i32>(), 0..10).prop_map(Variant::Int32s),
        ]
    }

    fn value() -> impl Strategy<Value = Variant> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Variant::Array),
                prop::collection::vec(("[a-z]{1,6}".prop_map(Variant::String), inner), 0..4)
                    .prop_map(Variant::Dictionary),
            ]
        })
    }

    fn resource() -> impl Strategy<Value = Resource> {
        let body = (
            "[A-Z][a-z]{0,8}",
            prop::collection::vec(("[a-z_]{1,10}", value()), 0..5),
        );
        (prop::collection::vec(body, 1..4), any::<Option<u64>>()).prop_map(|(bodies, uid)| {
            let n = bodies.len();
            let bodies: Vec<Body> = bodies
                .into_iter()
                .enumerate()
                .map(|(k, (class, properties))| Body {
                    path: if k + 1 == n {
                        "res://x.res".into()
                    } else {
                        format!("local://{class}_{k}")
                    },
                    class,
                    properties,
                })
                .collect();
            let mut strings: Vec<String> = Vec::new();
            for (name, _) in bodies.iter().flat_map(|b| &b.properties) {
                if !strings.contains(name) {
                    strings.push(name.clone());
                }
            }
            Resource {
                header: Header {
                    engine: (4, 4),
                    format: 5,
                    class: bodies[n - 1].class.clone(),
                    flags: uid.map_or(0, |_| FLAG_UIDS),
                    uid,
                    strings,
                    external: Vec::new(),
                },
                bodies,
            }
        })
    }

    /// A resource of `bodies` bodies, each an `Image` holding `data`, the last the main one.
    fn images(bodies: usize, data: Variant) -> Resource {
        let bodies: Vec<Body> = (0..bodies)
            .map(|k| Body {
                path: if k + 1 == bodies {
                    "res://x.res".into()
                } else {
                    format!("local://Image_{k}")
                },
                class: "Image".into(),
                properties: vec![("data".into(), data.clone())],
            })
            .collect();
        Resource {
            header: Header {
                engine: (4, 4),
                format: 5,
                class: "Image".into(),
                flags: 0,
                uid: None,
                strings: vec!["data".into()],
                external: Vec::new(),
            },
            bodies,
        }
    }

    /// Where body `path`'s offset is written in the resource list of `bytes`.
    fn offset_slot(bytes: &[u8], path: &str) -> usize {
        let name = [path.as_bytes(), &[0]].concat();
        bytes.windows(name.len()).position(|w| w == name).unwrap() + name.len()
    }

    /// A thousand entries naming one body's bytes (as a hostile file names one 60 MiB
    /// array thousands of times) would parse it a thousand times: bodies may not overlap.
    #[test]
    fn bodies_that_overlap_are_refused() {
        let r = images(4, Variant::Bytes(vec![7; 4096]));
        let mut bytes = write(&r, true);
        assert_eq!(parse(&bytes).unwrap(), r);
        let first = offset_slot(&bytes, "local://Image_0");
        let offset: [u8; 8] = bytes[first..first + 8].try_into().unwrap();
        for path in ["local://Image_1", "local://Image_2", "res://x.res"] {
            let at = offset_slot(&bytes, path);
            bytes[at..at + 8].copy_from_slice(&offset);
        }
        match parse(&bytes) {
            Err(ResError::Corrupt { problem, .. }) => {
                assert!(problem.contains("overlaps"), "{problem}")
            }
            other => panic!("{other:?}"),
        }
    }

    /// A value costs 4 bytes in the file and ten times that parsed: arrays and dictionaries
    /// share one allowance, so a file's parse stays within its length and that allowance.
    #[test]
    fn arrays_past_the_allowance_are_refused() {
        let n = MAX_VALUES_BYTES / std::mem::size_of::<Variant>();
        // Less a little for the rest of the file's structure (its names and property).
        let within = images(1, Variant::Array(vec![Variant::Nil; n - 16]));
        assert!(parse(&write(&within, false)).is_ok());
        let past = images(1, Variant::Array(vec![Variant::Nil; n + 1]));
        let refused = |r: &Resource| match parse(&write(r, false)) {
            Err(ResError::Corrupt { problem, .. }) => {
                assert!(problem.contains("would take more than 64 MiB"), "{problem}")
            }
            other => panic!("{:?}", other.map(|_| ())),
        };
        refused(&past);
        // Shared over the file's bodies: two arrays of half as many and one more.
        refused(&images(2, Variant::Array(vec![Variant::Nil; n / 2 + 1])));
        // One long name named by many properties: each property's copy counts.
        let mut named = images(1, Variant::Nil);
        let name = "n".repeat(1 << 20);
        named.header.strings = vec![name.clone()];
        named.bodies[0].properties = vec![(name, Variant::Nil); 65];
        refused(&named);
    }

    proptest! {
        #[test]
        fn what_is_written_parses_back(r in resource(), magic in any::<bool>()) {
            prop_assert_eq!(parse(&write(&r, magic)).unwrap(), r);
        }

        /// Any byte damaged or any cut: an error or a resource, never a panic.
        #[test]
        fn damaged_streams_fail_cleanly(
            r in resource(),
            at in any::<prop::sample::Index>(),
            with in any::<u8>(),
            cut in any::<prop::sample::Index>(),
        ) {
            let bytes = write(&r, false);
            let mut bad = bytes.clone();
            let i = at.index(bad.len());
            bad[i] ^= with | 1;
            let _ = parse(&bad);
            let _ = parse(&bytes[..cut.index(bytes.len())]);
        }
    }
}
