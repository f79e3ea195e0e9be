//! bfs (Rodinia): level-synchronous breadth-first search over a random directed graph in CSR
//! form. Per level the host launches `bfs_expand` (frontier nodes scan their edges: divergent
//! loops of data-dependent length, scattered loads) and `bfs_update` (the next frontier), then
//! reads back the `over` flag to decide whether to continue (INT, divergent, memory-bound, many
//! launches).

use super::*;

const PTX: &str = include_str!("../../workloads/bfs.ptx");
const FILE: &str = "sim/workloads/bfs.ptx";
const BLOCK: u32 = 512;
/// Out-degree is uniform in 1..=MAX_DEGREE (mean 6).
const MAX_DEGREE: u32 = 11;

/// The bfs workload.
pub struct Bfs;

fn n_nodes(size: Size) -> usize {
    match size {
        Size::Test => 4096,
        Size::Bench => 1 << 20,
    }
}

/// CSR graph: `nodes[2i]` = first edge, `nodes[2i+1]` = out-degree; `edges` = targets.
fn generate(size: Size) -> (Vec<u32>, Vec<u32>) {
    let n = n_nodes(size);
    let mut rng = Rng::for_workload("bfs", size);
    let mut nodes = Vec::with_capacity(2 * n);
    let mut edges = Vec::new();
    for _ in 0..n {
        let deg = 1 + rng.below(MAX_DEGREE);
        nodes.push(edges.len() as u32);
        nodes.push(deg);
        for _ in 0..deg {
            edges.push(rng.below(n as u32));
        }
    }
    (nodes, edges)
}

/// CPU reference: hop count from node 0, -1 for unreachable nodes.
fn reference(nodes: &[u32], edges: &[u32]) -> Vec<i32> {
    let n = nodes.len() / 2;
    let mut cost = vec![-1i32; n];
    cost[0] = 0;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(u) = queue.pop_front() {
        let (s, d) = (nodes[2 * u] as usize, nodes[2 * u + 1] as usize);
        for &v in &edges[s..s + d] {
            if cost[v as usize] < 0 {
                cost[v as usize] = cost[u] + 1;
                queue.push_back(v as usize);
            }
        }
    }
    cost
}

impl Workload for Bfs {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "bfs",
            suite: "rodinia",
            character: "I D M K",
            description: "level-synchronous BFS on CSR: expand and frontier-update kernels per \
                          level, host loop on a flag",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("bfs_expand", 92796), ("bfs_update", 21800)],
            regs_hint: Some(7),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let (nodes, edges) = generate(size);
        let n = nodes.len() / 2;
        let ks = load_kernels(PTX, FILE, &["bfs_expand", "bfs_update"])?;
        let mut mask = vec![0u32; n];
        let mut visited = vec![0u32; n];
        let mut cost = vec![-1i32; n];
        mask[0] = 1;
        visited[0] = 1;
        cost[0] = 0;
        let d_nodes = upload_u32(gpu, &nodes)?;
        let d_edges = upload_u32(gpu, &edges)?;
        let d_mask = upload_u32(gpu, &mask)?;
        let d_updating = alloc_words(gpu, n)?;
        let d_visited = upload_u32(gpu, &visited)?;
        let d_cost = upload_i32(gpu, &cost)?;
        let d_over = alloc_words(gpu, 1)?;
        let grid = [(n as u32).div_ceil(BLOCK), 1, 1];
        let block = [BLOCK, 1, 1];
        let mut launches = 0;
        loop {
            if launches as usize > 2 * (n + 1) {
                return Err(SimError::Other(
                    "bfs: the level loop did not terminate".to_string(),
                ));
            }
            write_u32(gpu, d_over, &[0])?;
            launch(
                gpu,
                &ks[0],
                grid,
                block,
                vec![
                    ptr(d_nodes),
                    ptr(d_edges),
                    ptr(d_mask),
                    ptr(d_updating),
                    ptr(d_visited),
                    ptr(d_cost),
                    ParamValue::S32(n as i32),
                ],
            )?;
            let first_truncated = gpu.last_launch_truncated();
            launch(
                gpu,
                &ks[1],
                grid,
                block,
                vec![
                    ptr(d_mask),
                    ptr(d_updating),
                    ptr(d_visited),
                    ptr(d_over),
                    ParamValue::S32(n as i32),
                ],
            )?;
            launches += 2;
            // a launch cut short by a simulation limit leaves the frontier partial: the
            // level loop would not converge
            if first_truncated
                || gpu.last_launch_truncated()
                || download_u32(gpu, d_over, 1)?[0] == 0
            {
                break;
            }
        }
        let check = if check {
            let got = download_i32(gpu, d_cost, n)?;
            Some(compare_exact("cost", &got, &reference(&nodes, &edges)))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }
}
