//! btree (Rodinia b+tree): point queries (`findK`) and range queries (`findRangeK`) on a B+ tree
//! of order 508, one CTA of 508 threads per query. At every level all threads compare their key
//! slot with the query, exactly one finds the child (divergent), and thread 0 advances the
//! query's node pointer between two barriers (INT, divergent, barrier-heavy, partial warp).
//!
//! The tree is bulk-loaded from sorted distinct keys with a seeded fill of 254–381 entries per
//! node (a B+ tree built by insertion is 50–100 % full) and laid out breadth-first, root = 0.

use super::*;

const PTX: &str = include_str!("../../workloads/btree.ptx");
const FILE: &str = "sim/workloads/btree.ptx";
/// Tree order = threads per CTA.
const ORDER: usize = 508;
/// Key (and index) slots per node.
const SLOTS: usize = ORDER + 1;
/// Node stride in 32-bit words (must match the PTX: 4072 bytes).
const STRIDE: usize = 2 * SLOTS;
/// Range queries span up to this many keys.
const MAX_RANGE: u32 = 2 * ORDER as u32;

/// The btree workload.
pub struct Btree;

/// (keys, point queries, range queries).
fn dims(size: Size) -> (usize, usize, usize) {
    match size {
        Size::Test => (10_000, 64, 64),
        Size::Bench => (1_000_000, 10_000, 5_000),
    }
}

struct Input {
    keys: Vec<i32>,
    records: Vec<i32>,
    /// Flattened nodes, `STRIDE` words each.
    nodes: Vec<i32>,
    n_nodes: usize,
    /// Internal levels above the leaves.
    height: usize,
    find: Vec<i32>,
    range: Vec<(usize, usize)>,
}

/// Bulk-loads the tree. Each node is a list of (min key, child id or record index).
fn build_tree(keys: &[i32], rng: &mut Rng) -> (Vec<i32>, usize, usize) {
    let fill = |rng: &mut Rng| ORDER / 2 + rng.below(ORDER as u32 / 4 + 1) as usize;
    let mut levels: Vec<Vec<Vec<(i32, i32)>>> = Vec::new();
    let mut leaves = Vec::new();
    let mut i = 0;
    while i < keys.len() {
        let e = (i + fill(rng)).min(keys.len());
        leaves.push((i..e).map(|r| (keys[r], r as i32)).collect());
        i = e;
    }
    levels.push(leaves);
    while levels.last().map_or(0, |l| l.len()) > 1 {
        let below = levels.last().unwrap();
        let mut up = Vec::new();
        let mut c = 0;
        while c < below.len() {
            let e = (c + fill(rng)).min(below.len());
            up.push((c..e).map(|ci| (below[ci][0].0, ci as i32)).collect());
            c = e;
        }
        levels.push(up);
    }
    levels.reverse();
    let mut base = vec![0usize; levels.len() + 1];
    for (l, lev) in levels.iter().enumerate() {
        base[l + 1] = base[l] + lev.len();
    }
    let n_nodes = base[levels.len()];
    let mut nodes = vec![0i32; n_nodes * STRIDE];
    for (l, lev) in levels.iter().enumerate() {
        let leaf = l + 1 == levels.len();
        for (p, entries) in lev.iter().enumerate() {
            let node = &mut nodes[(base[l] + p) * STRIDE..(base[l] + p + 1) * STRIDE];
            node[..SLOTS].fill(i32::MAX);
            node[SLOTS..].fill(-1);
            for (s, &(k, idx)) in entries.iter().enumerate() {
                node[s] = k;
                node[SLOTS + s] = if leaf {
                    idx
                } else {
                    (base[l + 1] as i32) + idx
                };
            }
        }
    }
    (nodes, n_nodes, levels.len() - 1)
}

fn generate(size: Size) -> Input {
    let (n, n_find, n_range) = dims(size);
    let mut rng = Rng::for_workload("btree", size);
    let mut keys = Vec::with_capacity(n);
    let mut k = rng.below(1000) as i32;
    for _ in 0..n {
        keys.push(k);
        k += 1 + rng.below(1000) as i32;
    }
    let records: Vec<i32> = (0..n).map(|_| rng.below(1_000_000_000) as i32).collect();
    let (nodes, n_nodes, height) = build_tree(&keys, &mut rng);
    let span = (keys[n - 1] - keys[0]) as u32;
    let find = (0..n_find)
        .map(|_| {
            if rng.below(4) < 3 {
                keys[rng.below(n as u32) as usize]
            } else {
                keys[0] + rng.below(span) as i32
            }
        })
        .collect();
    let range = (0..n_range)
        .map(|_| {
            let a = rng.below((n as u32).saturating_sub(MAX_RANGE).max(1)) as usize;
            let len = (rng.below(MAX_RANGE) as usize).min(n - 1 - a);
            (a, len)
        })
        .collect();
    Input {
        keys,
        records,
        nodes,
        n_nodes,
        height,
        find,
        range,
    }
}

impl Workload for Btree {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "btree",
            suite: "rodinia",
            character: "I D B",
            description: "B+ tree (order 508) point and range queries, one 508-thread CTA per \
                          query walking root to leaf",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("findK", 44978), ("findRangeK", 70528)],
            regs_hint: Some(15),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let inp = generate(size);
        let ks = load_kernels(PTX, FILE, &["findK", "findRangeK"])?;
        let nq = inp.find.len();
        let nr = inp.range.len();
        let d_nodes = upload_i32(gpu, &inp.nodes)?;
        let d_records = upload_i32(gpu, &inp.records)?;
        let height = ParamValue::S32(inp.height as i32);
        let elem = ParamValue::S32(inp.n_nodes as i32);
        let block = [ORDER as u32, 1, 1];

        let d_curr = alloc_words(gpu, nq)?;
        let d_offset = alloc_words(gpu, nq)?;
        let d_keys = upload_i32(gpu, &inp.find)?;
        let d_ans = upload_i32(gpu, &vec![-1; nq])?;
        launch(
            gpu,
            &ks[0],
            [nq as u32, 1, 1],
            block,
            vec![
                height.clone(),
                ptr(d_nodes),
                elem.clone(),
                ptr(d_records),
                ptr(d_curr),
                ptr(d_offset),
                ptr(d_keys),
                ptr(d_ans),
            ],
        )?;

        let start: Vec<i32> = inp.range.iter().map(|&(a, _)| inp.keys[a]).collect();
        let end: Vec<i32> = inp.range.iter().map(|&(a, l)| inp.keys[a + l]).collect();
        let d_rcurr = alloc_words(gpu, nr)?;
        let d_roffset = alloc_words(gpu, nr)?;
        let d_last = alloc_words(gpu, nr)?;
        let d_offset2 = alloc_words(gpu, nr)?;
        let d_start = upload_i32(gpu, &start)?;
        let d_end = upload_i32(gpu, &end)?;
        let d_recstart = upload_i32(gpu, &vec![-1; nr])?;
        let d_reclength = upload_i32(gpu, &vec![-1; nr])?;
        launch(
            gpu,
            &ks[1],
            [nr as u32, 1, 1],
            block,
            vec![
                height,
                ptr(d_nodes),
                elem,
                ptr(d_rcurr),
                ptr(d_roffset),
                ptr(d_last),
                ptr(d_offset2),
                ptr(d_start),
                ptr(d_end),
                ptr(d_recstart),
                ptr(d_reclength),
            ],
        )?;

        let check = if check {
            // Reference by binary search over the sorted keys, independent of the tree.
            let want_ans: Vec<i32> = inp
                .find
                .iter()
                .map(|k| inp.keys.binary_search(k).map_or(-1, |i| inp.records[i]))
                .collect();
            let want_start: Vec<i32> = inp.range.iter().map(|&(a, _)| a as i32).collect();
            let want_len: Vec<i32> = inp.range.iter().map(|&(_, l)| l as i32 + 1).collect();
            Some(CheckResult::all(vec![
                compare_exact("findK", &download_i32(gpu, d_ans, nq)?, &want_ans),
                compare_exact(
                    "findRangeK start",
                    &download_i32(gpu, d_recstart, nr)?,
                    &want_start,
                ),
                compare_exact(
                    "findRangeK length",
                    &download_i32(gpu, d_reclength, nr)?,
                    &want_len,
                ),
            ]))
        } else {
            None
        };
        Ok(RunReport { launches: 2, check })
    }
}
