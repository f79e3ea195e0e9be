//! The meaning of every configuration key, read from the schema's own doc comments.
//!
//! The schema documents each key beside its field (`///` on the serde struct's field); this
//! module embeds the schema's source files ([`schema_sources`]: the schema files and each
//! registered technique section's own) and reads those comments back, so that the key
//! reference (`gpuenergy presets --keys`, `docs/config-keys.md`) quotes the one text a
//! developer edits and can never drift from it. [`DocIndex::parse`] collects, per
//! struct, each field's name, type and doc comment, and the doc comment of every struct and
//! enum (used when a field's own comment only names its key and the type says the rest);
//! [`DocIndex::meaning`] walks a dotted key from a root struct (`GpuConfig`) through the
//! field types to the leaf.
//!
//! The reader understands the plain `pub struct NAME { … }` form and the two macros the schema
//! declares structs with: `cache_struct!` (a `pub struct $name` template whose invocations
//! `NAME { extra fields }` get the template's fields and their own) and `section_fields!`
//! (the technique sections' `GpuConfig` fields, `name: Type` inside `$then! { … }`). A key it
//! cannot resolve is reported by name, so a new form of declaration fails the reference's test
//! rather than leaving a key undocumented.

use std::collections::BTreeMap;

/// The schema's source files, as (path from the repository root, text).
pub const SCHEMA_SOURCES: &[(&str, &str)] = &[
    (
        "sim/src/config/schema/mod.rs",
        include_str!("schema/mod.rs"),
    ),
    (
        "sim/src/config/schema/machine.rs",
        include_str!("schema/machine.rs"),
    ),
    (
        "sim/src/config/schema/memory.rs",
        include_str!("schema/memory.rs"),
    ),
    (
        "sim/src/config/schema/pipeline.rs",
        include_str!("schema/pipeline.rs"),
    ),
    (
        "sim/src/config/schema/sched.rs",
        include_str!("schema/sched.rs"),
    ),
    ("sim/src/config/schema/io.rs", include_str!("schema/io.rs")),
    ("sim/src/config/ooo.rs", include_str!("ooo.rs")),
    ("sim/src/config/pg.rs", include_str!("pg.rs")),
    ("sim/src/config/fold.rs", include_str!("fold.rs")),
    ("sim/src/config/physical.rs", include_str!("physical.rs")),
    ("sim/src/config/prf.rs", include_str!("prf.rs")),
    ("sim/src/config/reconv.rs", include_str!("reconv.rs")),
    (
        "sim/src/config/technique/mod.rs",
        include_str!("technique/mod.rs"),
    ),
];

/// [`SCHEMA_SOURCES`] and the source file of every registered technique section
/// (`config::technique::SECTIONS`, each naming its own), so that a new section's keys are
/// documented without a line here.
pub fn schema_sources() -> Vec<(&'static str, &'static str)> {
    let mut v = SCHEMA_SOURCES.to_vec();
    v.extend(super::technique::SECTIONS.iter().map(|s| s.source));
    v
}

/// One field of a struct: its type (the last path segment, generics and `Option` removed) and
/// its doc comment (lines joined by spaces).
#[derive(Clone, Debug)]
struct Field {
    ty: String,
    doc: String,
}

/// The doc comments of the schema's structs, fields and enums.
#[derive(Debug, Default)]
pub struct DocIndex {
    /// Struct name → field name → field.
    structs: BTreeMap<String, BTreeMap<String, Field>>,
    /// Struct or enum name → its doc comment.
    items: BTreeMap<String, String>,
}

/// The template struct name of `cache_struct!`.
const TEMPLATE: &str = "$name";

/// `s` if it is a Rust identifier (or a macro variable such as `$name`).
fn ident(s: &str) -> Option<&str> {
    let body = s.strip_prefix('$').unwrap_or(s);
    let ok = !body.is_empty()
        && body
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && body.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(s)
}

/// The type name a field's type text reduces to: `Option<crate::a::B>` → `B`,
/// `Vec<f64>` → `Vec`, `[u32; 2]` → `[u32; 2]`.
fn type_name(ty: &str) -> String {
    let mut t = ty.trim().trim_end_matches(',').trim();
    if let Some(inner) = t.strip_prefix("Option<").and_then(|x| x.strip_suffix('>')) {
        t = inner;
    }
    if t.starts_with('[') {
        return t.to_string();
    }
    let head = t.split('<').next().unwrap_or(t);
    head.rsplit("::").next().unwrap_or(head).trim().to_string()
}

/// `(name, type)` of a field line `pub name: Type,` (also `pub(crate)` and without `pub`).
fn field_line(line: &str) -> Option<(String, String)> {
    let t = line.trim();
    let t = t
        .strip_prefix("pub(crate) ")
        .or_else(|| t.strip_prefix("pub "))
        .unwrap_or(t);
    let (name, ty) = t.split_once(':')?;
    let name = ident(name.trim())?;
    if name.starts_with('$') || ty.starts_with(':') || ty.trim().is_empty() {
        return None;
    }
    Some((name.to_string(), type_name(ty)))
}

/// Net count of `[` over `]` in `s` (for attributes that span lines).
fn bracket_depth(s: &str) -> i32 {
    s.chars()
        .map(|c| match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        })
        .sum()
}

impl DocIndex {
    /// Reads the structs, fields and item docs of `sources` (as [`SCHEMA_SOURCES`]: path,
    /// text); later sources add to earlier ones.
    pub fn parse(sources: &[(&str, &str)]) -> DocIndex {
        let mut index = DocIndex::default();
        for (_, text) in sources {
            index.parse_one(text);
            // A struct template is local to the file that declares it.
            index.structs.remove(TEMPLATE);
        }
        index
    }

    fn parse_one(&mut self, text: &str) {
        let mut doc: Vec<String> = Vec::new();
        let mut attr_depth = 0;
        // The struct whose fields are being read, and whether it inherits the template's.
        let mut current: Option<String> = None;
        let mut in_macro_call = false;
        for raw in text.lines() {
            let line = raw.trim();
            if attr_depth > 0 {
                attr_depth += bracket_depth(line);
                continue;
            }
            if let Some(d) = line.strip_prefix("///") {
                doc.push(d.strip_prefix(' ').unwrap_or(d).to_string());
                continue;
            }
            if line.starts_with("#[") || line.starts_with("$(#[") {
                attr_depth = bracket_depth(line).max(0);
                continue;
            }
            let joined = doc.join(" ");
            if line.ends_with("$then! {") {
                current = Some("GpuConfig".to_string());
                doc.clear();
                continue;
            }
            if line.ends_with("!(") && !line.starts_with("macro_rules") {
                in_macro_call = true;
                doc.clear();
                continue;
            }
            if in_macro_call && line.starts_with(')') {
                in_macro_call = false;
                current = None;
                doc.clear();
                continue;
            }
            let decl = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            if let Some(rest) = decl
                .strip_prefix("struct ")
                .or_else(|| decl.strip_prefix("enum "))
            {
                let name = rest
                    .split(|c: char| c.is_whitespace() || c == '{' || c == '(' || c == ';')
                    .next()
                    .unwrap_or("");
                if !joined.is_empty() {
                    self.items.insert(name.to_string(), joined);
                }
                doc.clear();
                current = (decl.starts_with("struct ") && line.ends_with('{')).then(|| {
                    self.structs.entry(name.to_string()).or_default();
                    name.to_string()
                });
                continue;
            }
            if in_macro_call && current.is_none() {
                // An invocation `NAME {` / `NAME {}` of a struct-declaring macro.
                if let Some(name) = line
                    .strip_suffix("{}")
                    .or_else(|| line.strip_suffix('{'))
                    .and_then(|n| ident(n.trim()))
                    .filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
                {
                    let name = name.to_string();
                    if !joined.is_empty() {
                        self.items.insert(name.clone(), joined);
                    }
                    doc.clear();
                    let inherited = self.structs.get(TEMPLATE).cloned().unwrap_or_default();
                    self.structs
                        .entry(name.clone())
                        .or_default()
                        .extend(inherited);
                    if !line.ends_with("{}") {
                        current = Some(name);
                    }
                    continue;
                }
            }
            if let Some(s) = &current {
                if line.starts_with('}') {
                    current = None;
                } else if let Some((name, ty)) = field_line(line) {
                    self.structs
                        .entry(s.clone())
                        .or_default()
                        .insert(name, Field { ty, doc: joined });
                }
            }
            doc.clear();
        }
    }

    /// The doc comment of struct or enum `name`, if it has one.
    pub fn item_doc(&self, name: &str) -> Option<&str> {
        self.items.get(name).map(String::as_str)
    }

    /// The meaning of the dotted `path` below struct `root`: the leaf field's doc comment
    /// without a leading mention of its own key, preceded by the doc of the field's type (an
    /// enum's or struct's) when that leaves nothing or only a remark in brackets. Rustdoc link brackets are removed. `Err` names the
    /// first part of the path that no struct of the index declares, or a leaf without a doc.
    pub fn meaning(&self, root: &str, path: &[&str]) -> Result<String, String> {
        let mut strukt = root.to_string();
        let mut walked = String::new();
        for (i, part) in path.iter().enumerate() {
            let fields = self
                .structs
                .get(&strukt)
                .ok_or_else(|| format!("struct {strukt} (of '{walked}') not found"))?;
            let field = fields
                .get(*part)
                .ok_or_else(|| format!("'{part}' is not a field of {strukt}"))?;
            if !walked.is_empty() {
                walked.push('.');
            }
            walked.push_str(part);
            if i + 1 == path.len() {
                let own = clean(&field.doc, &walked, part);
                // A doc that only names its key (or adds a remark in brackets) takes the
                // type's doc first.
                let text = if own.is_empty() || own.starts_with('(') {
                    let ty = self
                        .item_doc(&field.ty)
                        .map(|d| clean(d, &walked, part))
                        .unwrap_or_default();
                    format!("{ty} {own}").trim().to_string()
                } else {
                    own
                };
                if text.is_empty() {
                    return Err(format!("'{walked}' ({strukt}.{part}) has no doc comment"));
                }
                return Ok(text);
            }
            strukt = field.ty.clone();
        }
        Err(format!("empty key below {root}"))
    }
}

/// `doc` as reference text: rustdoc link brackets removed, a leading "`key`:" (the full or
/// the last part of the key, or the `[table]` form) dropped with what follows it capitalised.
fn clean(doc: &str, key: &str, last: &str) -> String {
    let mut s = String::with_capacity(doc.len());
    let chars: Vec<char> = doc.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|j| chars[j]);
        if c == '[' && next == Some('`') || c == ']' && prev == Some('`') && next != Some('(') {
            continue;
        }
        s.push(c);
    }
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // The leading tag names this key: the key itself, its last part, the key below a table
    // prefix the walk does not see (`energy.calibration` for `calibration`), or `[key]`.
    let names_key = |tag: &str| {
        tag == key || tag == last || tag == format!("[{key}]") || tag.ends_with(&format!(".{key}"))
    };
    if let Some((tag, rest)) = s.strip_prefix('`').and_then(|r| r.split_once('`')) {
        if names_key(tag) {
            let rest = rest.trim_start_matches([':', '.', ' ']).trim();
            let mut c = rest.chars();
            return match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            };
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_plain_structs_macro_structs_and_technique_sections_resolve() {
        let ix = DocIndex::parse(&schema_sources());
        assert_eq!(
            ix.meaning("GpuConfig", &["gpu", "core_mhz"]).unwrap(),
            "SM (core) clock in MHz."
        );
        // cache_struct!: the template's fields and an invocation's own.
        assert!(ix
            .meaning("GpuConfig", &["l1d", "sets"])
            .unwrap()
            .contains("Number of sets"));
        assert!(ix
            .meaning("GpuConfig", &["l1d", "skip_global"])
            .unwrap()
            .contains("bypass L1"));
        assert!(ix
            .meaning("GpuConfig", &["l2", "atomic_latency"])
            .unwrap()
            .contains("atomic"));
        // section_fields!: every registered technique table below GpuConfig.
        for sec in crate::config::technique::SECTIONS {
            assert!(ix.meaning("GpuConfig", &[sec.name, "enabled"]).is_ok());
        }
        // A doc that only names its key falls back to the type's doc.
        assert!(ix
            .meaning("GpuConfig", &["coma", "lane_org"])
            .unwrap()
            .contains("lanes of an entry"));
        assert!(ix.meaning("GpuConfig", &["gpu", "nonsense"]).is_err());
    }

    #[test]
    fn clean_drops_the_key_tag_and_link_brackets() {
        assert_eq!(clean("`a.b`: the thing.", "a.b", "b"), "The thing.");
        assert_eq!(clean("`b`.", "a.b", "b"), "");
        assert_eq!(clean("`t.a.b`: x", "a.b", "b"), "X");
        assert_eq!(clean("`c`: x", "a.b", "b"), "`c`: x");
        assert_eq!(clean("see [`X::y`] here", "a", "a"), "see `X::y` here");
    }
}
