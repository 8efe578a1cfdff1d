//! The workspace's shape, checked: no import cycles between the files of any crate, modules
//! used only downward through the layers docs/architecture.md draws, and crates depending
//! only on the crates below them. Reads the sources as text (every `use` tree and every
//! `crate::`, `super::` and `self::` path outside comments and strings) and asks
//! `cargo metadata` for the crates' dependencies.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The runtime crate's modules by layer: each may use only modules of a lower layer.
const RUNTIME_LAYERS: &[&[&str]] = &[
    &[
        "background",
        "config",
        "io",
        "hash",
        "pool",
        "reach",
        "recent",
    ],
    &["error"],
    &["layer", "http", "bounds"],
    &["codec", "stream", "lod", "things"],
    &["flat", "planet"],
    &["runtime"],
];

/// The tools crate's modules by layer.
const TOOLS_LAYERS: &[&[&str]] = &[
    &["progress", "write", "bench"],
    &["bake", "terrain3d"],
    &["import"],
];

/// The workspace's crates and the ones each may depend on (normal, build and dev
/// dependencies alike, so no test or bench reaches upward either); the tests package
/// (`relief-tests`) may use them all, the benchmarks' (`relief-benches`) the runtime and tools.
const CRATE_DEPENDENCIES: &[(&str, &[&str])] = &[
    ("relief", &[]),
    ("relief-c", &["relief"]),
    ("librelief", &["relief-c"]),
    ("relief-tools", &["relief"]),
    ("relief-godot", &["relief", "relief-tools"]),
    ("relief-tests", &["relief", "relief-c", "relief-tools"]),
    ("relief-benches", &["relief", "relief-tools"]),
];

/// Module path (segments below the crate root) → the file it is.
type Modules = BTreeMap<Vec<String>, PathBuf>;
/// Module → the modules it uses.
type Edges = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The modules of the crate rooted at `src_root` (lib.rs or main.rs), by their files.
fn modules(dir: &Path) -> Modules {
    fn walk(dir: &Path, prefix: &[String], out: &mut Modules) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            if path.is_dir() {
                if name != "bin" {
                    let mut p = prefix.to_vec();
                    p.push(name);
                    walk(&path, &p, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if !matches!(name.as_str(), "mod" | "lib" | "main") {
                    p.push(name);
                }
                out.insert(p, path);
            }
        }
    }
    let mut out = Modules::new();
    walk(dir, &[], &mut out);
    out
}

/// The text with comments, string literals and char literals blanked out.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(b' ');
        } else if b[i] == b'r'
            && (i == 0 || !ident(b[i - 1]))
            && rest.len() > 1
            && (rest[1] == b'"' || rest[1] == b'#')
        {
            // A raw string: r"…", r#"…"#, …
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat(b'#').take(hashes))
                .collect();
            i += 2 + hashes;
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), else a lifetime or label.
            if rest.get(1) == Some(&b'\\') {
                let end = rest[2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map_or(1, |p| p + 3);
                i += end;
                out.extend_from_slice(b"' '");
            } else if let Some(len) = std::str::from_utf8(&rest[1..rest.len().min(6)])
                .ok()
                .or_else(|| std::str::from_utf8(&rest[1..rest.len().min(5)]).ok())
                .and_then(|s| s.chars().next())
                .map(char::len_utf8)
                .filter(|&l| rest.get(1 + l) == Some(&b'\''))
            {
                i += len + 2;
                out.extend_from_slice(b"' '");
            } else {
                out.push(b[i]);
                i += 1;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Punct(char),
    Path, // `::`
}

fn tokens(code: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' || c.is_alphanumeric() || c == '_' {
            let mut w = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    w.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Token::Word(w));
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push(Token::Path);
        } else if !c.is_whitespace() {
            out.push(Token::Punct(c));
        }
    }
    out
}

/// Every path a `use` tree starting at `toks[i]` names, expanded (`a::{b, c::d}` → `a::b`,
/// `a::c::d`); returns them and the index after the tree.
fn use_tree(toks: &[Token], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i) {
            Some(Token::Word(w)) if w == "as" => {
                i += 2; // `as name`
                out.push(path);
                return i;
            }
            Some(Token::Word(w)) => {
                path.push(w.clone());
                i += 1;
            }
            Some(Token::Path) => i += 1,
            Some(Token::Punct('*')) => i += 1,
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some(Token::Punct('}')) => return i + 1,
                        Some(Token::Punct(',')) => i += 1,
                        None => return i,
                        _ => i = use_tree(toks, i, &path, out),
                    }
                }
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// The modules the file of module `me` uses (paths resolved against `modules`).
fn uses(me: &[String], src: &str, modules: &Modules) -> BTreeSet<Vec<String>> {
    let toks = tokens(&code_only(src));
    let mut found = BTreeSet::new();
    // Inline modules (`mod tests { … }`) shift what `self` and `super` mean.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let scope: Vec<String> = me
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect();
        match &toks[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            Token::Word(w) if w == "mod" => {
                if let (Some(Token::Word(name)), Some(Token::Punct('{'))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Token::Word(w) if w == "use" => {
                let mut paths = Vec::new();
                i = use_tree(&toks, i + 1, &[], &mut paths);
                for p in paths {
                    if let Some(m) = resolve(&scope, &p, modules, true) {
                        found.insert(m);
                    }
                }
                continue;
            }
            Token::Word(w)
                if matches!(w.as_str(), "crate" | "$crate" | "super" | "self")
                    && toks.get(i + 1) == Some(&Token::Path) =>
            {
                let mut p = Vec::new();
                let mut j = i;
                while let Some(Token::Word(w)) = toks.get(j) {
                    p.push(w.clone());
                    if toks.get(j + 1) != Some(&Token::Path) {
                        break;
                    }
                    j += 2;
                }
                if let Some(m) = resolve(&scope, &p, modules, false) {
                    found.insert(m);
                }
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The module a path names (the longest prefix that is one), from within `scope`. A `use`
/// path without `crate`/`super`/`self` names a child of the scope or an outside crate.
fn resolve(
    scope: &[String],
    path: &[String],
    modules: &Modules,
    bare_ok: bool,
) -> Option<Vec<String>> {
    let mut base: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate" | "$crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = scope.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            base = scope.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some(_) if bare_ok => base = scope.to_vec(),
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    while !base.is_empty() {
        if modules.contains_key(&base) {
            return Some(base);
        }
        base.pop();
    }
    None
}

/// Module → modules it uses, leaving out a module's own ancestors (a folder's mod.rs
/// declares and re-exports its files: using it is using the folder) and itself.
fn edges(modules: &Modules) -> Edges {
    let mut out = Edges::new();
    for (me, path) in modules {
        let src = std::fs::read_to_string(path).unwrap();
        let used = uses(me, &src, modules)
            .into_iter()
            .filter(|m| !me.starts_with(m))
            .collect();
        out.insert(me.clone(), used);
    }
    out
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &Edges) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn show(m: &[String]) -> String {
    if m.is_empty() {
        "(root)".into()
    } else {
        m.join("::")
    }
}

/// Every crate's sources, each a tree of its own (a binary's modules are its own crate).
fn crate_roots() -> Vec<PathBuf> {
    [
        "crates/relief/src",
        "crates/relief-c/src",
        "crates/librelief/src",
        "crates/relief-tools/src",
        "crates/relief-tools/src/bin/relief",
        "bindings/godot/src",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect()
}

/// The module-level cycles in the crate at `dir`, each as its modules' names, sorted.
fn cycles_in(dir: &Path) -> Vec<Vec<String>> {
    cycles(&edges(&modules(dir)))
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|m| show(m)).collect();
            names.sort();
            names
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_cycle() {
    let found: Vec<String> = crate_roots()
        .iter()
        .flat_map(|d| {
            cycles_in(d)
                .into_iter()
                .map(move |c| format!("{}: {}", d.display(), c.join(" <-> ")))
        })
        .collect();
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

/// Edges between top-level modules that break `layers`, and top-level modules the table
/// does not place (or places but do not exist).
fn layer_breaks(dir: &Path, layers: &[&[&str]]) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(k, ms)| ms.iter().map(move |&m| (m, k)))
        .collect();
    let modules = modules(dir);
    let tops: BTreeSet<&str> = modules
        .keys()
        .filter_map(|m| m.first())
        .map(String::as_str)
        .collect();
    let mut found = Vec::new();
    for t in &tops {
        if !layer_of.contains_key(t) {
            found.push(format!(
                "module `{t}` is in no layer: place it in tests/layout.rs and docs/architecture.md"
            ));
        }
    }
    for m in layer_of.keys() {
        if !tops.contains(m) {
            found.push(format!(
                "layer table names `{m}`, which {} does not have",
                dir.display()
            ));
        }
    }
    for (from, to) in edges(&modules) {
        let Some(a) = from.first() else { continue };
        for t in to {
            let Some(b) = t.first() else { continue };
            let (Some(&la), Some(&lb)) = (layer_of.get(a.as_str()), layer_of.get(b.as_str()))
            else {
                continue;
            };
            if a != b && lb >= la {
                found.push(format!(
                    "{} (layer {la}) uses {} (layer {lb})",
                    show(&from),
                    show(&t)
                ));
            }
        }
    }
    found
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let mut found = layer_breaks(&root().join("crates/relief/src"), RUNTIME_LAYERS);
    found.extend(layer_breaks(
        &root().join("crates/relief-tools/src"),
        TOOLS_LAYERS,
    ));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn crates_depend_only_on_the_crates_below_them() {
    let out = std::process::Command::new(env!("CARGO"))
        .current_dir(root())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = doc["packages"].as_array().unwrap();
    let ours: BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let allowed: BTreeMap<&str, &[&str]> = CRATE_DEPENDENCIES.iter().copied().collect();
    assert_eq!(
        ours,
        allowed.keys().copied().collect(),
        "the workspace's crates and tests/layout.rs's table differ"
    );
    let mut found = Vec::new();
    for p in packages {
        let name = p["name"].as_str().unwrap();
        for d in p["dependencies"].as_array().unwrap() {
            let dep = d["name"].as_str().unwrap();
            if ours.contains(dep) && !allowed[name].contains(&dep) {
                let kind = d["kind"].as_str().unwrap_or("normal");
                found.push(format!("{name} depends on {dep} ({kind})"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// The checker itself, on sources made to fail it.

fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("layout-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn the_checker_finds_a_cycle_through_use_trees_paths_and_super() {
    let dir = tree(
        "cycle",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("a/mod.rs", "pub mod x;\npub mod y;\n"),
            // x -> y by a nested use tree, y -> b by a path in an expression, b -> x via super.
            ("a/x.rs", "use crate::{a::{y::{self, Thing as T}}, c};\n"),
            ("a/y.rs", "fn f() { crate::b::g(); }\n"),
            ("b.rs", "use super::a::x;\npub fn g() {}\n"),
            // c only looks like it uses a: in a comment, a string and a char.
            (
                "c.rs",
                "// use crate::a::x;\nconst S: &str = \"crate::a::x\";\nconst C: char = '\"';\n",
            ),
        ],
    );
    assert_eq!(cycles_in(&dir), vec![vec!["a::x", "a::y", "b"]]);
}

#[test]
fn the_checker_reads_inline_modules_and_finds_upward_and_unplaced_modules() {
    let dir = tree(
        "layers",
        &[
            ("lib.rs", "pub mod low;\npub mod high;\npub mod stray;\n"),
            ("high.rs", "use crate::low::f;\n"),
            // `super::super` inside `mod tests` of `low` is the root, so this is low -> high.
            (
                "low.rs",
                "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::super::high;\n}\n",
            ),
            ("stray.rs", ""),
        ],
    );
    let found = layer_breaks(&dir, &[&["low"], &["high"], &["gone"]]);
    let text = found.join("\n");
    assert!(text.contains("low (layer 0) uses high (layer 1)"), "{text}");
    assert!(text.contains("module `stray` is in no layer"), "{text}");
    assert!(text.contains("names `gone`"), "{text}");
    assert!(!text.contains("high (layer 1) uses low"), "{text}");
}
