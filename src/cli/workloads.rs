//! `gpuenergy workloads`: the built-in workload suite (spec simulator.md §4).

use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::Result;
use sim::workloads::{self, character_words};
use std::io::Write;

/// Arguments of `gpuenergy workloads`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one line per workload; json: an array of objects (name, suite, tags, character,
    /// description).
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

pub fn run(args: Args) -> Result<()> {
    let text = match args.format {
        Format::Json => json()? + "\n",
        Format::Table => table(),
        Format::Csv => return Err(crate::report::no_csv("workloads")),
    };
    // A closed pipe (e.g. `| head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The workloads as a JSON array, sorted by name.
pub fn json() -> Result<String> {
    let list: Vec<serde_json::Value> = workloads::all()
        .iter()
        .map(|w| {
            let i = w.info();
            serde_json::json!({
                "name": i.name,
                "suite": i.suite,
                "tags": i.character,
                "character": character_words(i.character),
                "description": i.description,
            })
        })
        .collect();
    Ok(serde_json::to_string_pretty(&list)?)
}

/// The workloads as an aligned text table, sorted by name.
pub fn table() -> String {
    let rows: Vec<[String; 4]> = workloads::all()
        .iter()
        .map(|w| {
            let i = w.info();
            [
                i.name.to_string(),
                i.suite.to_string(),
                character_words(i.character),
                i.description.to_string(),
            ]
        })
        .collect();
    let head = ["workload", "suite", "character", "description"];
    let mut width = head.map(str::len);
    for r in &rows {
        for (c, cell) in r.iter().enumerate() {
            width[c] = width[c].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: [&str; 4], out: &mut String| {
        let mut s = String::new();
        for (c, cell) in cells.iter().enumerate() {
            if c + 1 == cells.len() {
                s.push_str(cell);
            } else {
                s.push_str(&format!("{cell:<w$}  ", w = width[c]));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(head, &mut out);
    for r in &rows {
        line([&r[0], &r[1], &r[2], &r[3]], &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_required_fields() {
        let v: serde_json::Value = serde_json::from_str(&json().unwrap()).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), workloads::all().len());
        for o in arr {
            for key in ["name", "suite", "character"] {
                assert!(o[key].is_string(), "{key} missing in {o}");
            }
        }
    }

    #[test]
    fn table_has_header_and_one_line_per_workload() {
        let t = table();
        assert!(t.starts_with("workload"));
        assert_eq!(t.lines().count(), 1 + workloads::all().len());
    }
}
