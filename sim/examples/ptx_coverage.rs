//! PTX coverage probe: parses each PTX file given on the command line leniently and prints one
//! line per kernel — `ok` with its registers, or `refused` with the reason — then a summary of
//! accepted kernels and of the refusal reasons ranked by the number of kernels they block.
//!
//! ```sh
//! cargo run --release -p sim --example ptx_coverage -- a.ptx b.ptx ...
//! ```
//!
//! A module that fails as a whole (a module-scope error) counts as one refusal per `.entry` it
//! declares, with that error.

use sim::ptx::Module;
use std::collections::BTreeMap;

/// The reason of a refusal without its position and names, so that equal causes group together.
fn cause(msg: &str) -> String {
    let m = msg.rsplit(": ").next().unwrap_or(msg);
    let m = match m.find(" is refused") {
        Some(_) => m,
        None => m,
    };
    // quoted names vary from kernel to kernel; keep the first quoted word only for
    // instructions and modifiers
    let mut out = String::new();
    let mut in_q = false;
    let mut q = String::new();
    for ch in m.chars() {
        if ch == '\'' {
            if in_q {
                let keep = q.starts_with('.') || !q.starts_with('%') && q.len() <= 12;
                out.push('\'');
                out.push_str(if keep { &q } else { "…" });
                out.push('\'');
                q.clear();
            }
            in_q = !in_q;
        } else if in_q {
            q.push(ch);
        } else {
            out.push(ch);
        }
    }
    out
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let (mut ok, mut total) = (0usize, 0usize);
    let mut causes: BTreeMap<String, usize> = BTreeMap::new();
    let t0 = std::time::Instant::now();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            eprintln!("{f}: cannot read");
            continue;
        };
        match Module::parse_lenient(&text, f) {
            Ok(m) => {
                for k in m.kernel_names() {
                    let kk = m.kernel(&k).expect("listed kernel");
                    println!("ok\t{f}\t{k}\tregs={}", kk.regs_per_thread());
                    ok += 1;
                    total += 1;
                }
                for (k, e) in m.refused() {
                    let msg = e.to_string();
                    println!("refused\t{f}\t{k}\t{msg}");
                    *causes.entry(cause(&msg)).or_default() += 1;
                    total += 1;
                }
            }
            Err(e) => {
                let n = text.matches(".entry").count().max(1);
                let msg = e.to_string();
                println!("module\t{f}\t{n} kernels\t{msg}");
                *causes
                    .entry(format!("[module] {}", cause(&msg)))
                    .or_default() += n;
                total += n;
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "# accepted {ok} of {total} kernels in {} files ({secs:.2} s)",
        files.len()
    );
    let mut v: Vec<_> = causes.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (c, n) in v {
        println!("# {n:5}  {c}");
    }
}
