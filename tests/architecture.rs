//! The architecture invariants of ARCHITECTURE.md, checked on the source text: the crate layering
//! (Cargo dependencies and the paths the code names), `models`' view of `sim` (`sim::activity`
//! and `sim::config` only), no import cycle between the modules of one directory level, and the
//! SM's stage files importing nothing from `timing/sm/`.
//!
//! The check reads every library source file of the workspace (`*/src/**.rs`, following the
//! `mod` declarations from each crate's `lib.rs`), blanks comments and string literals, and
//! collects the paths the code names: every leaf of a `use` tree and every other path that starts
//! with `crate`, `super`, `self`, a child module or a workspace crate. A path resolves to the
//! deepest module of the crate it names (`crate::timing::dwf::formation::FormationStats` → the
//! module `timing::dwf::formation`). Code compiled only for tests (`#[cfg(test)]` items and
//! modules) is left out: the invariants are about the library's structure.
//!
//! Module graph: at one directory level (a crate's root, `timing`, `timing::sm`, …) each child
//! module stands for itself and everything below it; a path from a file under child `a` to an item
//! under child `b` is an arrow `a → b`. The strongly connected components (Tarjan) of that graph
//! must be single modules. A failure names each cycle's modules and every file and line that
//! makes one of its arrows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace crates, their source folders, and the workspace crates each may depend on
/// (ARCHITECTURE.md's crate table: techlib → models → calibration → root, sim on its own).
const CRATES: &[(&str, &str, &[&str])] = &[
    ("techlib", "techlib", &[]),
    ("sim", "sim", &[]),
    ("models", "models", &["techlib", "sim"]),
    ("calibration", "calibration", &["techlib", "models"]),
    (
        "gpuenergy",
        "",
        &["techlib", "sim", "models", "calibration"],
    ),
];

/// The modules of `sim` that `models` may name (ARCHITECTURE.md: models use only `GpuConfig` and
/// `Activity`).
const MODELS_MAY_USE_OF_SIM: &[&str] = &["activity", "config"];

/// The SM's stage files (ARCHITECTURE.md's stage table), as modules of `sim`: each imports nothing
/// from `timing::sm`.
const SM_STAGES: &[&str] = &[
    "timing::warps",
    "timing::frontend",
    "timing::issueunit",
    "timing::opcoll",
    "timing::execunits",
    "timing::ldstunit",
];

/// The directory levels whose child modules must not import each other in a cycle: every crate's
/// root, and every level inside `sim`'s `timing` (ARCHITECTURE.md: no file in `timing/` imports
/// one that imports it back).
fn cycle_free_levels(krate: &Crate) -> Vec<Vec<String>> {
    let mut levels = vec![Vec::new()];
    if krate.name == "sim" {
        for m in &krate.modules {
            if m.path.first().map(String::as_str) == Some("timing")
                && krate
                    .modules
                    .iter()
                    .any(|c| c.path.len() == m.path.len() + 1 && c.path.starts_with(&m.path))
            {
                levels.push(m.path.clone());
            }
        }
    }
    levels
}

// ---------------------------------------------------------------------------------------------
// Source text: blanking comments and literals, tokens.

/// `text` with comments, string and character literals replaced by spaces (newlines kept, so
/// that line numbers hold).
fn blank(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let keep = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(c[i]));
                    i += 1;
                }
            }
        } else if (at(i) == 'r' || (at(i) == 'b' && at(i + 1) == 'r'))
            && !is_ident(at(i.wrapping_sub(1)))
            && {
                let mut k = i + if at(i) == 'b' { 2 } else { 1 };
                while at(k) == '#' {
                    k += 1;
                }
                at(k) == '"'
            }
        {
            // raw string r#"…"#
            let mut k = i + if at(i) == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1;
            loop {
                if k >= c.len() {
                    break;
                }
                if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &ch in &c[i..k.min(c.len())] {
                out.push(keep(ch));
            }
            i = k;
        } else if at(i) == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(keep(c[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if at(i) == '\'' && (at(i + 1) == '\\' || (at(i + 2) == '\'' && at(i + 1) != '\'')) {
            // a character literal ('x', '\n', '\u{1F600}'); a lifetime ('a) has no closing quote
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(keep(c[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// One token of blanked source: an identifier, `::` or a single punctuation character, with its
/// 1-based line.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    line: usize,
}

fn tokens(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident(ch) {
            let s = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            // `r#ident` raw identifiers
            let mut text: String = c[s..i].iter().collect();
            if text == "r" && c.get(i) == Some(&'#') && c.get(i + 1).is_some_and(|&x| is_ident(x)) {
                let s2 = i + 1;
                i = s2;
                while i < c.len() && is_ident(c[i]) {
                    i += 1;
                }
                text = c[s2..i].iter().collect();
            }
            out.push(Tok { text, line });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Tok {
                text: ch.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// Index of the token after the item that starts at `i` (attributes skipped): the one after its
/// `;` at nesting depth 0, or after the `}` that closes its first `{`.
fn item_end(t: &[Tok], mut i: usize) -> usize {
    i = skip_attributes(t, i);
    let mut depth = 0i32;
    while i < t.len() {
        match t[i].text.as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            ";" if depth == 0 => return i + 1,
            "{" if depth == 0 => return matching(t, i) + 1,
            _ => {}
        }
        i += 1;
    }
    t.len()
}

/// Index of the bracket that closes the one at `i`.
fn matching(t: &[Tok], i: usize) -> usize {
    let (open, close) = match t[i].text.as_str() {
        "{" => ("{", "}"),
        "(" => ("(", ")"),
        _ => ("[", "]"),
    };
    let mut depth = 0;
    for (k, tok) in t.iter().enumerate().skip(i) {
        if tok.text == open {
            depth += 1;
        } else if tok.text == close {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    t.len() - 1
}

fn skip_attributes(t: &[Tok], mut i: usize) -> usize {
    while i + 1 < t.len() && t[i].text == "#" && t[i + 1].text == "[" {
        i = matching(t, i + 1) + 1;
    }
    i
}

/// `#[cfg(…test…)]` without `not`: the item it is on is compiled for tests only.
fn is_test_cfg(attr: &[Tok]) -> bool {
    attr.get(2).is_some_and(|x| x.text == "cfg")
        && attr.iter().any(|x| x.text == "test")
        && !attr.iter().any(|x| x.text == "not")
}

// ---------------------------------------------------------------------------------------------
// Crates and modules.

/// One module backed by a file.
#[derive(Debug)]
struct Module {
    /// Path from the crate root (empty for the root).
    path: Vec<String>,
    /// The file, relative to the workspace root.
    file: PathBuf,
    /// Compiled for tests only (declared under `#[cfg(test)]`, or inside such a module).
    test: bool,
}

#[derive(Debug)]
struct Crate {
    name: &'static str,
    /// The package folder, relative to the workspace root.
    dir: &'static str,
    allowed: &'static [&'static str],
    modules: Vec<Module>,
}

/// A path named in the code, resolved.
#[derive(Clone, Debug)]
struct Use {
    /// The module whose file names the path.
    from: Vec<String>,
    file: PathBuf,
    line: usize,
    /// The path as written, `::`-joined.
    text: String,
    target: Target,
}

#[derive(Clone, Debug)]
enum Target {
    /// A module of the same crate (the deepest one the path names).
    Local(Vec<String>),
    /// Another crate, with the path after the crate name.
    Extern(String, Vec<String>),
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The file of child module `name` of the module in file `file` (`file` being `lib.rs`,
/// `mod.rs` or `foo.rs`).
fn child_file(root: &Path, file: &Path, name: &str) -> Option<PathBuf> {
    let dir = file.parent().unwrap();
    let stem = file.file_stem().unwrap().to_string_lossy();
    let base = if stem == "lib" || stem == "mod" || stem == "main" {
        dir.to_path_buf()
    } else {
        dir.join(&*stem)
    };
    [
        base.join(format!("{name}.rs")),
        base.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| root.join(p).is_file())
}

fn load_crate(
    root: &Path,
    name: &'static str,
    dir: &'static str,
    allowed: &'static [&'static str],
) -> Crate {
    let mut modules = Vec::new();
    let mut todo = vec![(
        Vec::<String>::new(),
        Path::new(dir).join("src/lib.rs"),
        false,
    )];
    while let Some((path, file, test)) = todo.pop() {
        let text = std::fs::read_to_string(root.join(&file))
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let t = tokens(&blank(&text));
        let mut i = 0;
        let mut test_until = 0;
        let mut inline_until = 0;
        while i < t.len() {
            if t[i].text == "#" && t.get(i + 1).is_some_and(|x| x.text == "[") {
                let close = matching(&t, i + 1);
                if is_test_cfg(&t[i..=close]) {
                    test_until = test_until.max(item_end(&t, i));
                }
                i = close + 1;
                continue;
            }
            // `mod name;` at the file's top level (inline modules' declarations are not followed)
            if t[i].text == "mod"
                && i >= inline_until
                && t.get(i + 2).is_some_and(|x| x.text == ";")
            {
                let child = t[i + 1].text.clone();
                let f = child_file(root, &file, &child)
                    .unwrap_or_else(|| panic!("{}: no file for `mod {child};`", file.display()));
                let mut p = path.clone();
                p.push(child);
                todo.push((p, f, test || i < test_until));
            }
            if t[i].text == "mod" && t.get(i + 2).is_some_and(|x| x.text == "{") {
                inline_until = inline_until.max(matching(&t, i + 2));
            }
            i += 1;
        }
        modules.push(Module { path, file, test });
    }
    modules.sort_by(|a, b| a.path.cmp(&b.path));
    Crate {
        name,
        dir,
        allowed,
        modules,
    }
}

const CRATE_NAMES: &[&str] = &["techlib", "sim", "models", "calibration", "gpuenergy"];

/// A path as written in one module, before resolution.
#[derive(Clone, Debug)]
struct Written {
    segs: Vec<String>,
    /// The module (file module plus inline modules) the path is written in.
    at: Vec<String>,
    line: usize,
    /// A `use` leaf: the name it brings into scope (`None` for a glob or `as _`).
    binds: Option<String>,
    is_use: bool,
}

/// The non-test paths of module `m`'s file, and the names of its inline modules.
fn written_in(root: &Path, m: &Module) -> (Vec<Written>, BTreeSet<String>) {
    let text = std::fs::read_to_string(root.join(&m.file)).unwrap();
    let t = tokens(&blank(&text));
    // token ranges compiled for tests only, and inline modules (name, start, end)
    let mut test_ranges: Vec<(usize, usize)> = Vec::new();
    let mut inline: Vec<(String, usize, usize)> = Vec::new();
    for i in 0..t.len() {
        if t[i].text == "#" && t.get(i + 1).is_some_and(|x| x.text == "[") {
            let close = matching(&t, i + 1);
            if is_test_cfg(&t[i..=close]) {
                test_ranges.push((i, item_end(&t, i)));
            }
        }
        if t[i].text == "mod" && t.get(i + 2).is_some_and(|x| x.text == "{") {
            inline.push((t[i + 1].text.clone(), i + 2, matching(&t, i + 2)));
        }
    }
    let in_test = |i: usize| test_ranges.iter().any(|&(s, e)| i >= s && i < e);
    let module_at = |i: usize| {
        let mut p = m.path.clone();
        for (name, s, e) in &inline {
            if i > *s && i < *e {
                p.push(name.clone());
            }
        }
        p
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i].text == "use" && (i == 0 || t[i - 1].text != "::") {
            let end = (i..t.len()).find(|&k| t[k].text == ";").unwrap_or(t.len());
            if !in_test(i) {
                let mut leaves = Vec::new();
                use_tree(&t[i + 1..end], &mut Vec::new(), &mut leaves);
                for (segs, binds, line) in leaves {
                    out.push(Written {
                        segs,
                        at: module_at(i),
                        line,
                        binds,
                        is_use: true,
                    });
                }
            }
            i = end + 1;
            continue;
        }
        let starts_path = is_ident(t[i].text.chars().next().unwrap_or(' '))
            && t.get(i + 1).is_some_and(|x| x.text == "::")
            && (i == 0 || t[i - 1].text != "::");
        if starts_path && !in_test(i) {
            let mut segs = vec![t[i].text.clone()];
            let mut k = i + 1;
            while k + 1 < t.len()
                && t[k].text == "::"
                && is_ident(t[k + 1].text.chars().next().unwrap_or(' '))
            {
                segs.push(t[k + 1].text.clone());
                k += 2;
            }
            out.push(Written {
                segs,
                at: module_at(i),
                line: t[i].line,
                binds: None,
                is_use: false,
            });
            i = k;
            continue;
        }
        i += 1;
    }
    (out, inline.into_iter().map(|x| x.0).collect())
}

/// The names a module's `use` declarations bring into scope, by module path and name: the
/// absolute path each stands for.
type Aliases = BTreeMap<(Vec<String>, String), Target>;

/// A crate's paths, resolved: every non-test path of every non-test module, with re-exports and
/// imports followed to the module that defines the item.
fn all_uses(ws: &Workspace, k: &Crate) -> Vec<Use> {
    let is_module = |p: &[String]| k.modules.iter().any(|x| x.path == p);
    let parsed: Vec<(&Module, Vec<Written>, BTreeSet<String>)> = k
        .modules
        .iter()
        .filter(|m| !m.test)
        .map(|m| {
            let (w, inline) = written_in(&ws.root, m);
            (m, w, inline)
        })
        .collect();
    // the first segment relative to where the path is written: `crate`, `self`, `super`, a child
    // module, an inline module, a name the module imports, or another crate
    let anchor = |w: &Written, inline: &BTreeSet<String>, aliases: &Aliases| -> Option<Target> {
        let first = w.segs.first()?;
        let here = &w.at;
        Some(match first.as_str() {
            "crate" => Target::Local(w.segs[1..].to_vec()),
            "self" => Target::Local(here.iter().chain(&w.segs[1..]).cloned().collect()),
            "super" => {
                let mut p = here.clone();
                let mut rest = &w.segs[..];
                while rest.first().is_some_and(|s| s == "super") {
                    p.pop();
                    rest = &rest[1..];
                }
                Target::Local(p.into_iter().chain(rest.iter().cloned()).collect())
            }
            f => {
                let mut child = here.clone();
                child.push(f.to_string());
                if is_module(&child) || inline.contains(f) {
                    Target::Local(here.iter().chain(&w.segs).cloned().collect())
                } else if let (false, Some(t)) =
                    (w.is_use, aliases.get(&(here.clone(), f.to_string())))
                {
                    match t {
                        Target::Local(p) => {
                            Target::Local(p.iter().chain(&w.segs[1..]).cloned().collect())
                        }
                        Target::Extern(c, p) => Target::Extern(
                            c.clone(),
                            p.iter().chain(&w.segs[1..]).cloned().collect(),
                        ),
                    }
                } else if CRATE_NAMES.contains(&f) && f != k.name {
                    Target::Extern(f.to_string(), w.segs[1..].to_vec())
                } else {
                    return None;
                }
            }
        })
    };
    // imports first (an import may name another import), then everything
    let mut aliases: Aliases = BTreeMap::new();
    for _ in 0..4 {
        let mut next = Aliases::new();
        for (_, ws_, inline) in &parsed {
            for w in ws_.iter().filter(|w| w.is_use) {
                if let (Some(name), Some(t)) = (&w.binds, anchor(w, inline, &aliases)) {
                    next.insert((w.at.clone(), name.clone()), t);
                }
            }
        }
        aliases = next;
    }
    // the module that defines what an absolute path names: descend through modules, following
    // imports and re-exports (a bounded number of times: a cycle of re-exports stops there)
    let deepest = |abs: &[String]| -> Target {
        let mut segs = abs.to_vec();
        let mut cur: Vec<String> = Vec::new();
        let mut i = 0;
        let mut hops = 0;
        while i < segs.len() {
            let mut next = cur.clone();
            next.push(segs[i].clone());
            if is_module(&next) {
                cur = next;
                i += 1;
                continue;
            }
            match aliases.get(&(cur.clone(), segs[i].clone())) {
                Some(Target::Local(p)) if hops < 16 => {
                    hops += 1;
                    segs = p.iter().chain(&segs[i + 1..]).cloned().collect();
                    cur.clear();
                    i = 0;
                }
                Some(Target::Extern(c, p)) if hops < 16 => {
                    return Target::Extern(
                        c.clone(),
                        p.iter().chain(&segs[i + 1..]).cloned().collect(),
                    );
                }
                _ => break,
            }
        }
        Target::Local(cur)
    };
    let mut out = Vec::new();
    for (m, written, inline) in &parsed {
        for w in written {
            let Some(t) = anchor(w, inline, &aliases) else {
                continue;
            };
            let target = match t {
                Target::Local(abs) => deepest(&abs),
                e => e,
            };
            out.push(Use {
                from: m.path.clone(),
                file: m.file.clone(),
                line: w.line,
                text: w.segs.join("::"),
                target,
            });
        }
    }
    out
}

/// Expands a `use` tree (the tokens between `use` and `;`) into its leaf paths, each with the
/// name it binds (`None` for a glob or `as _`) and the line of its last segment. A trailing
/// `self` names the prefix.
fn use_tree(
    t: &[Tok],
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) {
    let depth0 = prefix.len();
    let mut i = 0;
    if t.first().is_some_and(|x| x.text == "::") {
        i += 1;
    }
    let mut line = t.first().map_or(0, |x| x.line);
    let mut binds: Option<Option<String>> = None;
    while i < t.len() {
        let x = &t[i];
        match x.text.as_str() {
            "{" => {
                let close = matching(t, i);
                // split the group at top-level commas
                let inner = &t[i + 1..close];
                let mut start = 0;
                let mut depth = 0;
                for (k, y) in inner.iter().enumerate() {
                    match y.text.as_str() {
                        "{" => depth += 1,
                        "}" => depth -= 1,
                        "," if depth == 0 => {
                            if k > start {
                                use_tree(&inner[start..k], prefix, out);
                            }
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                if inner.len() > start {
                    use_tree(&inner[start..], prefix, out);
                }
                prefix.truncate(depth0);
                return;
            }
            "*" => {
                binds = Some(None);
                break;
            }
            "as" => {
                let name = t.get(i + 1).map(|y| y.text.clone());
                binds = Some(name.filter(|n| n != "_"));
                break;
            }
            "::" => {}
            "self" if i > 0 => break,
            s => {
                prefix.push(s.to_string());
                line = x.line;
            }
        }
        i += 1;
    }
    if !prefix.is_empty() {
        let name = binds.unwrap_or_else(|| prefix.last().cloned());
        out.push((prefix.clone(), name, line));
    }
    prefix.truncate(depth0);
}

// ---------------------------------------------------------------------------------------------
// The checks.

struct Workspace {
    root: PathBuf,
    crates: Vec<Crate>,
}

fn workspace() -> Workspace {
    let root = workspace_root();
    let crates = CRATES
        .iter()
        .map(|&(name, dir, allowed)| load_crate(&root, name, dir, allowed))
        .collect();
    Workspace { root, crates }
}

fn show(u: &Use) -> String {
    format!("{}:{}: {}", u.file.display(), u.line, u.text)
}

/// The cycles among the child modules of `level` in crate `k`: each strongly connected component
/// of more than one module, with the uses that make its arrows.
fn cycles(uses: &[Use], level: &[String]) -> Vec<(Vec<String>, Vec<String>)> {
    let child_of = |p: &[String]| -> Option<String> {
        (p.len() > level.len() && p.starts_with(level)).then(|| p[level.len()].clone())
    };
    let mut edges: BTreeMap<(String, String), Vec<&Use>> = BTreeMap::new();
    for u in uses {
        let Target::Local(t) = &u.target else {
            continue;
        };
        let (Some(a), Some(b)) = (child_of(&u.from), child_of(t)) else {
            continue;
        };
        if a != b {
            edges.entry((a, b)).or_default().push(u);
        }
    }
    let nodes: Vec<String> = edges
        .keys()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let idx = |n: &str| nodes.iter().position(|x| x == n).unwrap();
    let mut adj = vec![Vec::new(); nodes.len()];
    for (a, b) in edges.keys() {
        adj[idx(a)].push(idx(b));
    }
    let mut out = Vec::new();
    for comp in tarjan(&adj) {
        if comp.len() < 2 {
            continue;
        }
        let names: Vec<String> = comp.iter().map(|&i| nodes[i].clone()).collect();
        let mut evidence = Vec::new();
        for ((a, b), us) in &edges {
            if names.contains(a) && names.contains(b) {
                for u in us {
                    evidence.push(format!("{a} -> {b}: {}", show(u)));
                }
            }
        }
        let mut sorted = names.clone();
        sorted.sort();
        out.push((sorted, evidence));
    }
    out
}

/// Tarjan's strongly connected components of the graph `adj`.
fn tarjan(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct S<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut S, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        for k in 0..s.adj[v].len() {
            let w = s.adj[v][k];
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let n = adj.len();
    let mut s = S {
        adj,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The workspace crates a package's Cargo.toml names in any dependency table, with their lines.
fn cargo_deps(root: &Path, dir: &str) -> Vec<(String, usize)> {
    let file = root.join(dir).join("Cargo.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut section = String::new();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('[') {
            section = l.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        if !section.ends_with("dependencies") || section.starts_with("workspace") {
            continue;
        }
        let key = l.split(['=', '.', ' ']).next().unwrap_or("");
        if CRATE_NAMES.contains(&key) {
            out.push((key.to_string(), n + 1));
        }
    }
    out
}

#[test]
fn the_module_tree_is_found() {
    let ws = workspace();
    let sim = ws.crates.iter().find(|k| k.name == "sim").unwrap();
    for m in ["activity", "config", "timing::sm", "timing::dwf::formation"] {
        let p: Vec<String> = m.split("::").map(str::to_string).collect();
        assert!(
            sim.modules.iter().any(|x| x.path == p),
            "module sim::{m} not found"
        );
    }
    for s in SM_STAGES {
        let p: Vec<String> = s.split("::").map(str::to_string).collect();
        assert!(
            sim.modules.iter().any(|x| x.path == p),
            "stage module sim::{s} not found"
        );
    }
    // the scanner sees through comments, strings and groups
    let t = tokens(&blank(
        "use a::{b::{c, d as e}, f::self, g::*}; // use x::y;\nlet s = \"crate::z\"; let c = '\"';",
    ));
    let mut leaves = Vec::new();
    let end = t.iter().position(|x| x.text == ";").unwrap();
    use_tree(&t[1..end], &mut Vec::new(), &mut leaves);
    let got: Vec<String> = leaves
        .iter()
        .map(|(s, b, _)| format!("{} {}", s.join("::"), b.as_deref().unwrap_or("*")))
        .collect();
    assert_eq!(got, ["a::b::c c", "a::b::d e", "a::f f", "a::g *"]);
    assert!(!t.iter().any(|x| x.text == "z" || x.text == "y"));
}

#[test]
fn crates_depend_only_down_the_layering() {
    let ws = workspace();
    let mut bad = Vec::new();
    for k in &ws.crates {
        for (dep, line) in cargo_deps(&ws.root, k.dir) {
            if dep != k.name && !k.allowed.contains(&dep.as_str()) {
                bad.push(format!(
                    "{}/Cargo.toml:{line}: {} depends on {dep} (allowed: {:?})",
                    k.dir, k.name, k.allowed
                ));
            }
        }
        for u in all_uses(&ws, k) {
            if let Target::Extern(c, _) = &u.target {
                if !k.allowed.contains(&c.as_str()) {
                    bad.push(format!(
                        "{} ({} names {c}; allowed: {:?})",
                        show(&u),
                        k.name,
                        k.allowed
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "arrows up the crate layering:\n{}",
        bad.join("\n")
    );
}

#[test]
fn models_use_only_the_activity_and_the_configuration_of_sim() {
    let ws = workspace();
    let models = ws.crates.iter().find(|k| k.name == "models").unwrap();
    let bad: Vec<String> = all_uses(&ws, models)
        .iter()
        .filter(|u| match &u.target {
            Target::Extern(c, rest) => {
                c == "sim"
                    && !rest
                        .first()
                        .is_some_and(|m| MODELS_MAY_USE_OF_SIM.contains(&m.as_str()))
            }
            _ => false,
        })
        .map(show)
        .collect();
    assert!(
        bad.is_empty(),
        "models names sim outside sim::activity and sim::config:\n{}",
        bad.join("\n")
    );
}

#[test]
fn stage_files_import_nothing_from_the_sm() {
    let ws = workspace();
    let sim = ws.crates.iter().find(|k| k.name == "sim").unwrap();
    let sm = ["timing".to_string(), "sm".to_string()];
    let bad: Vec<String> = all_uses(&ws, sim)
        .iter()
        .filter(|u| {
            let stage = SM_STAGES.iter().any(|s| {
                u.from.join("::") == *s || u.from.join("::").starts_with(&format!("{s}::"))
            });
            stage && matches!(&u.target, Target::Local(t) if t.starts_with(&sm))
        })
        .map(show)
        .collect();
    assert!(
        bad.is_empty(),
        "stage files naming timing::sm:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_import_cycles_between_sibling_modules() {
    let ws = workspace();
    let mut report = Vec::new();
    for k in &ws.crates {
        let uses = all_uses(&ws, k);
        for level in cycle_free_levels(k) {
            for (names, evidence) in cycles(&uses, &level) {
                let at = if level.is_empty() {
                    format!("{} (crate root)", k.name)
                } else {
                    format!("{}::{}", k.name, level.join("::"))
                };
                report.push(format!(
                    "cycle in {at} among {{{}}}:\n  {}",
                    names.join(", "),
                    evidence.join("\n  ")
                ));
            }
        }
    }
    assert!(
        report.is_empty(),
        "{} import cycles:\n{}",
        report.len(),
        report.join("\n")
    );
}

/// Every library file below `dir` (relative to the workspace root) with the extension `ext`,
/// leaving out test-only files (`tests.rs`, anything under a `tests/` folder).
fn library_files(dir: &str, ext: &str, out: &mut Vec<PathBuf>) {
    let root = workspace_root();
    let mut stack = vec![root.join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if name != "tests" {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == ext) && name != "tests.rs" {
                out.push(p.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
}

/// The built-in techniques whose footprint `files_naming_each_technique` watches, with the most
/// library files each may live in: its own modules, the parent modules that declare them (the
/// registrations), and its config section; issue #37's bound of 8 for TRIC, SOCGPU and LOOG.
const TECHNIQUE_FILE_BOUNDS: &[(&str, usize)] =
    &[("socgpu", 8), ("loog", 8), ("tric", 8), ("coma", 7)];

/// The segments of an identifier, lower-cased: split at `_` and at case changes
/// (`SmSocgpu` → `sm`, `socgpu`; `RFCache` → `rf`, `cache`; `tric_ctrl` → `tric`, `ctrl`).
fn ident_segments(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in ident.split('_').filter(|p| !p.is_empty()) {
        let c: Vec<char> = part.chars().collect();
        let mut cur = String::new();
        for (i, &ch) in c.iter().enumerate() {
            let prev = i.checked_sub(1).map(|k| c[k]);
            let next = c.get(i + 1).copied();
            let boundary = ch.is_uppercase()
                && prev
                    .is_some_and(|p| !p.is_uppercase() || next.is_some_and(|n| n.is_lowercase()));
            if boundary && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            cur.extend(ch.to_lowercase());
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

/// The files each watched technique lives in, over the library sources and the presets and
/// node data, test code left out (files named `tests.rs`, folders `tests/`, and an inline
/// `#[cfg(test)] mod tests` at the end of a file): a file whose code names it — an identifier
/// with the technique as one of its segments (`socgpu`, `SocgpuStats`, `SmSocgpu`,
/// `RegisterFileSlot::Tric`), comments and literals left out (its documentation may name it:
/// issue #37, "its own module(s), one registration, its config section and its docs"), a TOML
/// key or table of the name — or a file under a folder of its name. ARCHITECTURE.md's recipe:
/// generic code reaches a technique through the registries and names none, so this count grows
/// only with a new registry or a new module of the technique. `--nocapture` prints the lists.
#[test]
fn files_naming_each_technique() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "techlib/src",
        "sim/src",
        "models/src",
        "calibration/src",
    ] {
        library_files(dir, "rs", &mut files);
    }
    library_files("sim/presets", "toml", &mut files);
    library_files("techlib/data", "toml", &mut files);
    files.sort();
    let root = workspace_root();
    let texts: Vec<(PathBuf, BTreeSet<String>)> = files
        .into_iter()
        .map(|f| {
            let mut text = std::fs::read_to_string(root.join(&f)).unwrap();
            if let Some(at) = text.find("#[cfg(test)]\nmod tests {") {
                text.truncate(at);
            }
            let code = if f.extension().is_some_and(|x| x == "rs") {
                blank(&text)
            } else {
                text.lines()
                    .map(|l| l.split('#').next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let mut segments: BTreeSet<String> = code
                .split(|c: char| !is_ident(c))
                .flat_map(ident_segments)
                .collect();
            let dirs = f.parent().map(|p| p.iter()).into_iter().flatten();
            segments.extend(dirs.map(|d| d.to_string_lossy().to_lowercase()));
            if let Some(stem) = f.file_stem() {
                segments.insert(stem.to_string_lossy().to_lowercase());
            }
            (f, segments)
        })
        .collect();
    let mut over = Vec::new();
    for &(name, bound) in TECHNIQUE_FILE_BOUNDS {
        let naming: Vec<String> = texts
            .iter()
            .filter(|(_, segments)| segments.contains(name))
            .map(|(f, _)| f.display().to_string())
            .collect();
        println!("{name}: {} files\n  {}", naming.len(), naming.join("\n  "));
        if naming.len() > bound {
            over.push(format!(
                "{name}: {} files name it (at most {bound}):\n  {}",
                naming.len(),
                naming.join("\n  ")
            ));
        }
    }
    assert!(
        over.is_empty(),
        "a technique is named in more files than before; reach it through its registry \
         instead:\n{}",
        over.join("\n")
    );
}

#[test]
fn identifiers_split_into_segments() {
    assert_eq!(ident_segments("SmSocgpu"), ["sm", "socgpu"]);
    assert_eq!(ident_segments("RFCache"), ["rf", "cache"]);
    assert_eq!(ident_segments("tric_ctrl"), ["tric", "ctrl"]);
    assert_eq!(ident_segments("LOOG_UNIT_NAMES"), ["loog", "unit", "names"]);
    assert_eq!(ident_segments("metric"), ["metric"]);
}

/// Most lines a library file may hold.
const MAX_FILE_LINES: usize = 1000;
/// Most lines a function may span (signature to closing brace) without a stated reason.
const MAX_FN_LINES: usize = 200;
/// The stated reason a longer function's doc comment carries.
const LONG_FN_REASON: &str = "Longer than 200 lines on purpose";

/// Every function of `text` as (name, first line, lines spanned, doc comment), found on the
/// blanked text (comments and literals do not count) by matching the braces of its body.
fn functions(text: &str) -> Vec<(String, usize, usize, String)> {
    let b = blank(text);
    let lines: Vec<&str> = text.lines().collect();
    let c: Vec<char> = b.chars().collect();
    let line_of: Vec<usize> = {
        let mut v = Vec::with_capacity(c.len());
        let mut l = 1;
        for &ch in &c {
            v.push(l);
            if ch == '\n' {
                l += 1;
            }
        }
        v
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < c.len() {
        let starts_fn =
            c[i] == 'f' && c[i + 1] == 'n' && c[i + 2] == ' ' && (i == 0 || !is_ident(c[i - 1]));
        if !starts_fn {
            i += 1;
            continue;
        }
        let mut k = i + 3;
        let name: String = c[k..].iter().take_while(|&&ch| is_ident(ch)).collect();
        k += name.len();
        // the body's opening brace, unless a `;` ends a declaration first
        while k < c.len() && c[k] != '{' && c[k] != ';' {
            k += 1;
        }
        if k >= c.len() || c[k] == ';' {
            i = k.max(i + 1);
            continue;
        }
        let mut depth = 0usize;
        let mut e = k;
        while e < c.len() {
            match c[e] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            e += 1;
        }
        let (first, last) = (line_of[i], line_of[e.min(c.len() - 1)]);
        // the doc comment: the `///` lines right above the item (attributes in between)
        let mut doc = Vec::new();
        let mut l = first - 1;
        while l > 0 {
            let t = lines[l - 1].trim_start();
            if t.starts_with("///") {
                doc.push(t.to_string());
            } else if !t.starts_with("#[") && !t.starts_with("pub") {
                break;
            }
            l -= 1;
        }
        doc.reverse();
        out.push((name, first, last - first + 1, doc.join("\n")));
        // nested functions are scanned too: go on inside the body
        i = k + 1;
    }
    out
}

#[test]
fn no_library_file_or_function_is_too_long() {
    let root = workspace_root();
    let mut files = Vec::new();
    for (_, dir, _) in CRATES {
        let src = if dir.is_empty() {
            "src".to_string()
        } else {
            format!("{dir}/src")
        };
        library_files(&src, "rs", &mut files);
    }
    files.sort();
    let mut report = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            report.push(format!(
                "{}: {n} lines (at most {MAX_FILE_LINES})",
                f.display()
            ));
        }
        for (name, line, span, doc) in functions(&text) {
            if span > MAX_FN_LINES && !doc.contains(LONG_FN_REASON) {
                report.push(format!(
                    "{}:{line}: fn {name} spans {span} lines (at most {MAX_FN_LINES}, or a doc \
                     comment that says \"{LONG_FN_REASON}\" and why)",
                    f.display()
                ));
            }
        }
    }
    assert!(
        files.len() > 100,
        "only {} library files found",
        files.len()
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}
