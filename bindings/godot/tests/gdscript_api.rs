//! Every engine call in the repository's GDScript, checked by name against Godot 4.4's
//! published API (`extension_api.json` for 4.4, from the `gdextension-api` crate gdext builds
//! with) and relief's own classes (parsed from this crate's `#[func]`, `#[signal]` and
//! exported fields). No Godot runs here, so a misspelt or missing method would otherwise
//! only show in the editor.
//!
//! What is checked, in every `.gd` under `bindings/godot/addons` and `samples/godot`:
//! - `Class.member` for an engine, builtin or relief class or a singleton (`OS.kill`,
//!   `Image.FORMAT_RF`, `DirAccess.open`, `Vector2.ZERO`): the class or an ancestor has it;
//! - `name.member` where the script gives `name` a type (`var x := Label.new()`,
//!   `var x: ReliefTerrain`, `x := y as ReliefWorld`, a typed parameter or `for` variable,
//!   `(expr as FileAccess).member`, a constant preloading another script);
//! - bare calls `name(...)`: the script's own function, one of its base class's methods, a
//!   global utility function, a GDScript built-in or a constructor.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A class's own members and its parent.
#[derive(Default, Debug)]
struct Class {
    inherits: Option<String>,
    members: BTreeSet<String>,
}

#[derive(Default)]
struct Api {
    classes: HashMap<String, Class>,
    /// Singleton name → its class (`OS` → `OS`, `EditorInterface` → `EditorInterface`).
    singletons: HashMap<String, String>,
    globals: BTreeSet<String>,
}

impl Api {
    fn has(&self, class: &str, member: &str) -> bool {
        let mut at = Some(class.to_string());
        while let Some(c) = at {
            let Some(info) = self.classes.get(&c) else {
                return false;
            };
            if info.members.contains(member) {
                return true;
            }
            at = info.inherits.clone();
        }
        false
    }

    fn is_class(&self, name: &str) -> bool {
        self.classes.contains_key(name)
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Godot 4.4's `extension_api.json`, from the registry copy of the crate gdext uses.
fn api_json() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let src = home.join("registry/src");
    for index in std::fs::read_dir(&src)
        .expect("the cargo registry")
        .flatten()
    {
        for krate in std::fs::read_dir(index.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = krate.file_name().to_string_lossy().to_string();
            let json = krate.path().join("src/4.4/extension_api.json");
            if name.starts_with("gdextension-api-") && json.is_file() {
                return json;
            }
        }
    }
    panic!(
        "no gdextension-api crate with 4.4's extension_api.json under {}",
        src.display()
    );
}

fn names<'a>(v: &'a serde_json::Value, key: &'a str) -> impl Iterator<Item = String> + 'a {
    v[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["name"].as_str().map(str::to_string))
}

fn load_api() -> Api {
    let text = std::fs::read_to_string(api_json()).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut api = Api::default();
    // Engine classes (with a parent) and builtin ones (Vector2, String, Array…) alike: their
    // methods, properties or members, signals, constants, enums and enum values.
    for (list, keys) in [
        ("classes", ["methods", "properties", "signals", "constants"]),
        (
            "builtin_classes",
            ["methods", "members", "constants", "signals"],
        ),
    ] {
        for c in json[list].as_array().unwrap() {
            let mut class = Class {
                inherits: c["inherits"].as_str().map(str::to_string),
                members: keys.iter().flat_map(|k| names(c, k)).collect(),
            };
            for e in c["enums"].as_array().into_iter().flatten() {
                class.members.extend(names(e, "values"));
                class
                    .members
                    .insert(e["name"].as_str().unwrap().to_string());
            }
            api.classes
                .insert(c["name"].as_str().unwrap().to_string(), class);
        }
    }
    for s in json["singletons"].as_array().unwrap() {
        api.singletons.insert(
            s["name"].as_str().unwrap().to_string(),
            s["type"].as_str().unwrap().to_string(),
        );
    }
    api.globals.extend(names(&json, "utility_functions"));
    for e in json["global_enums"].as_array().unwrap() {
        api.globals.extend(names(e, "values"));
    }
    api.globals.extend(names(&json, "global_constants"));
    api
}

/// relief's classes as Godot sees them: `#[class(base = X)]` structs, their exported or
/// `#[var]` fields, `#[func]` and `#[signal]` functions.
fn add_relief_classes(api: &mut Api) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(src).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let mut current: Option<String> = None;
        let mut pending: Option<&str> = None;
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("#[class(") {
                let base = line
                    .split("base = ")
                    .nth(1)
                    .map(|b| b.trim_end_matches([')', ']']).trim().to_string())
                    .unwrap_or_else(|| "RefCounted".into());
                let name = lines[i + 1..]
                    .iter()
                    .find_map(|l| l.strip_prefix("pub struct "))
                    .map(|l| l.split([' ', '{', ';']).next().unwrap().to_string())
                    .unwrap();
                api.classes.entry(name.clone()).or_default().inherits = Some(base);
                current = Some(name);
                continue;
            }
            if let Some(rest) = line.strip_prefix("impl ") {
                let name = rest.split([' ', '{']).next().unwrap().to_string();
                current = api.classes.contains_key(&name).then_some(name).or(current);
            }
            if line.starts_with("#[export") || line.starts_with("#[var") {
                pending = Some("field");
            } else if *line == "#[func]" || *line == "#[signal]" {
                pending = Some("fn");
            } else if let (Some(kind), Some(class)) = (pending, &current) {
                if line.starts_with("#[") {
                    continue;
                }
                let line = line.trim_start_matches("pub ");
                let name = match kind {
                    "fn" => line
                        .strip_prefix("fn ")
                        .map(|l| l.split('(').next().unwrap()),
                    _ => line.split(':').next().filter(|n| !n.contains(' ')),
                };
                if let Some(n) = name {
                    api.classes
                        .get_mut(class)
                        .unwrap()
                        .members
                        .insert(n.to_string());
                }
                pending = None;
            }
        }
    }
}

/// A line with its comment gone and every string literal emptied.
fn code(line: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                    out.push(c);
                }
            }
            None if c == '#' => break,
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                out.push(c);
            }
            None => out.push(c),
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
}

fn tokens(line: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let cs: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(cs[start..i].iter().collect()));
            continue;
        }
        if c.is_ascii_digit() {
            // A number, decimals and exponent included (`1e6` is no identifier).
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '.' || cs[i] == '_') {
                i += 1;
            }
            continue;
        }
        if !c.is_whitespace() {
            out.push(Tok::Punct(c));
        }
        i += 1;
    }
    out
}

const KEYWORDS: &[&str] = &[
    "if",
    "elif",
    "else",
    "for",
    "while",
    "match",
    "return",
    "and",
    "or",
    "not",
    "in",
    "is",
    "as",
    "await",
    "var",
    "const",
    "func",
    "signal",
    "extends",
    "class_name",
    "pass",
    "break",
    "continue",
    "true",
    "false",
    "null",
    "self",
    "super",
    "void",
    "static",
    "enum",
    "breakpoint",
    "PI",
    "TAU",
    "INF",
    "NAN",
    "when",
];

/// @GDScript's own functions (not in extension_api.json).
const GDSCRIPT: &[&str] = &[
    "preload",
    "load",
    "range",
    "len",
    "assert",
    "char",
    "convert",
    "print_debug",
    "print_stack",
    "get_stack",
    "inst_to_dict",
    "dict_to_inst",
    "is_instance_of",
    "type_exists",
    "Color8",
    "ord",
];

/// One script: its base, own members, and the types it gives names.
struct Script {
    path: PathBuf,
    extends: String,
    own: BTreeSet<String>,
    types: BTreeMap<String, BTreeSet<String>>,
    lines: Vec<Vec<Tok>>,
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

fn read_script(path: &Path, api: &Api) -> Script {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<Vec<Tok>> = text.lines().map(|l| tokens(&code(l))).collect();
    let mut s = Script {
        path: path.to_path_buf(),
        extends: "RefCounted".into(),
        own: BTreeSet::new(),
        types: BTreeMap::new(),
        lines: Vec::new(),
    };
    for t in &lines {
        let mut type_of = |name: &str, ty: &str| {
            s.types
                .entry(name.to_string())
                .or_default()
                .insert(ty.to_string());
        };
        for (i, tok) in t.iter().enumerate() {
            let next = ident(t.get(i + 1));
            match (tok, next) {
                (Tok::Ident(k), Some(b)) if k == "extends" => s.extends = b.to_string(),
                (Tok::Ident(k), Some(n))
                    if ["func", "var", "const", "signal", "enum"].contains(&k.as_str()) =>
                {
                    s.own.insert(n.to_string());
                }
                _ => {}
            }
            // `name: Type` (vars, parameters, for variables) and `name := Type.new(`/
            // `Type(`/`expr as Type` (declarations).
            if let (Tok::Ident(n), Some(Tok::Punct(':'))) = (tok, t.get(i + 1)) {
                if let Some(ty) = ident(t.get(i + 2)) {
                    if api.is_class(ty) {
                        type_of(n, ty);
                    }
                }
                if let (Some(Tok::Punct('=')), Some(ty)) = (t.get(i + 2), ident(t.get(i + 3))) {
                    let constructed = t.get(i + 4) == Some(&Tok::Punct('('))
                        || (t.get(i + 4) == Some(&Tok::Punct('.'))
                            && ident(t.get(i + 5)) == Some("new"));
                    if api.is_class(ty) && constructed {
                        type_of(n, ty);
                    }
                    if ty == "preload" {
                        // `const X := preload("other.gd")`: a script type, checked by path.
                        type_of(n, &format!("script:{n}"));
                    }
                    if let Some(p) = t.iter().skip(i).position(|x| *x == Tok::Ident("as".into())) {
                        if let Some(ty) = ident(t.get(i + p + 1)) {
                            type_of(n, ty);
                        }
                    }
                }
            }
        }
    }
    s.lines = lines;
    s
}

/// The problems in `script`, and how many names were checked.
fn check(
    script: &Script,
    api: &Api,
    scripts: &HashMap<String, BTreeSet<String>>,
) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut checked = 0;
    let member_of = |ty: &str, member: &str| -> bool {
        if let Some(name) = ty.strip_prefix("script:") {
            return scripts.get(name).is_some_and(|m| m.contains(member))
                || api.has("RefCounted", member);
        }
        if let Some(own) = scripts.get(ty) {
            if own.contains(member) {
                return true;
            }
        }
        api.has(ty, member) || api.has(api.singletons.get(ty).map_or(ty, String::as_str), member)
    };
    for (n, t) in script.lines.iter().enumerate() {
        let at = format!("{}:{}", script.path.display(), n + 1);
        for (i, tok) in t.iter().enumerate() {
            let Tok::Ident(name) = tok else { continue };
            let prev = t.get(i.wrapping_sub(1)).filter(|_| i > 0);
            if matches!(prev, Some(Tok::Punct('.' | '@' | '$' | '%' | '&' | '^'))) {
                continue;
            }
            if prev == Some(&Tok::Ident("func".into())) || KEYWORDS.contains(&name.as_str()) {
                continue;
            }
            let member = (t.get(i + 1) == Some(&Tok::Punct('.')))
                .then(|| ident(t.get(i + 2)))
                .flatten();
            // `(expr as Type).member`
            if prev == Some(&Tok::Ident("as".into()))
                && t.get(i + 1) == Some(&Tok::Punct(')'))
                && t.get(i + 2) == Some(&Tok::Punct('.'))
            {
                if let Some(m) = ident(t.get(i + 3)) {
                    checked += 1;
                    if !member_of(name, m) {
                        problems.push(format!("{at}: {name} has no `{m}`"));
                    }
                }
                continue;
            }
            if let Some(m) = member {
                let types: Vec<String> = if api.is_class(name)
                    || api.singletons.contains_key(name)
                    || scripts.contains_key(name)
                {
                    vec![name.clone()]
                } else {
                    script
                        .types
                        .get(name)
                        .into_iter()
                        .flatten()
                        .cloned()
                        .collect()
                };
                if !types.is_empty() && m != "new" {
                    checked += 1;
                    if !types.iter().any(|ty| member_of(ty, m)) {
                        problems.push(format!(
                            "{at}: {name} ({}) has no `{m}`",
                            types.join(" or ")
                        ));
                    }
                }
                continue;
            }
            if t.get(i + 1) == Some(&Tok::Punct('(')) {
                checked += 1;
                let known = script.own.contains(name)
                    || api.has(&script.extends, name)
                    || scripts
                        .get(&script.extends)
                        .is_some_and(|m| m.contains(name))
                    || api.globals.contains(name)
                    || GDSCRIPT.contains(&name.as_str())
                    || api.is_class(name);
                if !known {
                    problems.push(format!(
                        "{at}: `{name}(` is no function the script, {} or Godot has",
                        script.extends
                    ));
                }
            }
        }
    }
    (problems, checked)
}

fn gd_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            gd_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "gd") {
            out.push(p);
        }
    }
}

fn scripts() -> Vec<PathBuf> {
    let mut out = Vec::new();
    gd_files(&repo().join("bindings/godot/addons"), &mut out);
    // The sample's own scripts (its addons/ copy, if build.sh made one, is the same files).
    for entry in std::fs::read_dir(repo().join("samples/godot"))
        .unwrap()
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "gd") {
            out.push(entry.path());
        }
    }
    out.sort();
    out
}

/// Runs the checker over `files`.
fn check_all(files: &[PathBuf]) -> (Vec<String>, usize) {
    let mut api = load_api();
    add_relief_classes(&mut api);
    let parsed: Vec<Script> = files.iter().map(|f| read_script(f, &api)).collect();
    // Scripts by what names them: a `class_name`, or a constant preloading them.
    let mut by_name: HashMap<String, BTreeSet<String>> = HashMap::new();
    for s in &parsed {
        let text = std::fs::read_to_string(&s.path).unwrap();
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("class_name ") {
                by_name.insert(name.trim().to_string(), s.own.clone());
            }
        }
    }
    for s in &parsed {
        for (name, types) in &s.types {
            if types.iter().any(|t| t.starts_with("script:")) {
                let text = std::fs::read_to_string(&s.path).unwrap();
                let target = text
                    .lines()
                    .find(|l| l.contains(&format!("const {name}")) && l.contains("preload(\""))
                    .and_then(|l| l.split("preload(\"").nth(1))
                    .and_then(|l| l.split('"').next())
                    .map(|f| s.path.with_file_name(f));
                if let Some(other) = target.and_then(|p| parsed.iter().find(|o| o.path == p)) {
                    by_name.insert(name.clone(), other.own.clone());
                }
            }
        }
    }
    let mut problems = Vec::new();
    let mut checked = 0;
    for s in &parsed {
        let (p, n) = check(s, &api, &by_name);
        problems.extend(p);
        checked += n;
    }
    (problems, checked)
}

#[test]
fn every_engine_call_in_the_gdscript_is_in_godot_4_4_s_api() {
    let files = scripts();
    assert!(files.len() >= 9, "{files:?}");
    let (problems, checked) = check_all(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked > 150,
        "only {checked} names checked: the checker reads too little"
    );
}

/// The checker itself: a script calling what 4.4 does not have is caught.
#[test]
fn a_misnamed_engine_call_is_caught() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gdscript-api");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.gd");
    std::fs::write(
        &bad,
        "extends Node\n\nvar _bar := ProgressBar.new()\n\n\nfunc _ready() -> void:\n\
         \tOS.execute_with_pipes(\"x\", [])\n\t_bar.maximum = 1.0\n\tadd_chlid(_bar)\n\
         \tvar w := get_node(\"w\") as ReliefWorld\n\tw.open_now()\n\
         \tvar t: ReliefTerrain = null\n\tt.on_region_loaded.connect(print)\n",
    )
    .unwrap();
    let (problems, _) = check_all(&[bad]);
    let said = problems.join("\n");
    for wrong in [
        "execute_with_pipes",
        "maximum",
        "add_chlid",
        "open_now",
        "on_region_loaded",
    ] {
        assert!(said.contains(wrong), "{wrong} not caught:\n{said}");
    }
    assert_eq!(problems.len(), 5, "{said}");
}
