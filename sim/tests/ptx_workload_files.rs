//! Every PTX file shipped in sim/workloads/ parses, decodes and register-allocates.

use sim::ptx::Module;

#[test]
fn shipped_workload_kernels_parse() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<_> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        match Module::parse(&text, &f.display().to_string()) {
            Ok(m) => {
                for k in m.kernel_names() {
                    let k = m.kernel(&k).unwrap();
                    eprintln!(
                        "{}: {} insts, {} regs, {} shared bytes",
                        k.name,
                        k.len(),
                        k.regs_per_thread(),
                        k.static_shared_bytes()
                    );
                }
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
