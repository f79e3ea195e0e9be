//! Basic blocks, control-flow graph and immediate post-dominators (control-flow §2,
//! simulator §3.1.5).
//!
//! Post-dominators are the dominators of the reverse graph rooted at a virtual EXIT node,
//! computed with the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
//! Algorithm", 2001): number the nodes in reverse post-order of a DFS from EXIT over the reversed
//! edges, then repeatedly set each node's ipdom to the `intersect` of its already-processed CFG
//! successors until nothing changes. Blocks that cannot reach EXIT (infinite loops) get an extra
//! edge to EXIT so the analysis is defined.

#![allow(clippy::needless_range_loop)]

use super::isa::{Inst, Op};

/// Reconvergence PC (instruction index form) meaning "only at thread exit" (ipdom = EXIT).
pub const RECONV_EXIT: u32 = u32::MAX;

/// Immediate post-dominators of a graph with nodes `0..n` and a virtual EXIT node `n`.
/// `succ[b]` lists the successors of `b`, where `n` stands for EXIT. Returns `ipdom` for nodes
/// `0..=n` (`ipdom[n] == n`). Nodes that cannot reach EXIT are given an edge to EXIT first.
pub fn ipdom(n: usize, succ: &[Vec<usize>]) -> Vec<usize> {
    assert_eq!(succ.len(), n);
    let exit = n;
    // Predecessor lists of G (= successor lists of the reverse graph).
    let mut succ: Vec<Vec<usize>> = succ.to_vec();
    let build_preds = |succ: &Vec<Vec<usize>>| {
        let mut preds = vec![Vec::new(); n + 1];
        for (b, ss) in succ.iter().enumerate() {
            for &s in ss {
                preds[s].push(b);
            }
        }
        preds
    };
    let mut preds = build_preds(&succ);
    // Nodes that cannot reach EXIT: add an edge to EXIT (control-flow §2 step 3).
    let reach = |preds: &Vec<Vec<usize>>| {
        let mut seen = vec![false; n + 1];
        let mut stack = vec![exit];
        seen[exit] = true;
        while let Some(x) = stack.pop() {
            for &p in &preds[x] {
                if !seen[p] {
                    seen[p] = true;
                    stack.push(p);
                }
            }
        }
        seen
    };
    let mut seen = reach(&preds);
    // Add edges in node order, re-checking reachability after each (one edge per unreachable
    // strongly connected region, at its lowest-numbered node).
    for b in 0..n {
        if !seen[b] {
            succ[b].push(exit);
            preds = build_preds(&succ);
            seen = reach(&preds);
        }
    }
    // DFS from EXIT over the reverse graph: post-order, iteratively.
    let mut post = Vec::with_capacity(n + 1);
    let mut visited = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(&mut (x, ref mut k)) = stack.last_mut() {
        if *k < preds[x].len() {
            let y = preds[x][*k];
            *k += 1;
            if !visited[y] {
                visited[y] = true;
                stack.push((y, 0));
            }
        } else {
            post.push(x);
            stack.pop();
        }
    }
    let mut rpo = vec![usize::MAX; n + 1];
    for (i, &x) in post.iter().rev().enumerate() {
        rpo[x] = i;
    }
    let order: Vec<usize> = post.iter().rev().copied().collect();
    const UNDEF: usize = usize::MAX;
    let mut idom = vec![UNDEF; n + 1];
    idom[exit] = exit;
    let intersect = |idom: &Vec<usize>, mut a: usize, mut b: usize| {
        while a != b {
            while rpo[a] > rpo[b] {
                a = idom[a];
            }
            while rpo[b] > rpo[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new = UNDEF;
            for &s in &succ[b] {
                if idom[s] == UNDEF {
                    continue;
                }
                new = if new == UNDEF {
                    s
                } else {
                    intersect(&idom, s, new)
                };
            }
            if new != UNDEF && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Basic blocks of a kernel and their successor lists (EXIT = number of blocks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// First instruction index of each block, ascending.
    pub start: Vec<u32>,
    /// Successor blocks of each block; the index equal to the block count stands for EXIT.
    pub succ: Vec<Vec<usize>>,
}

impl Cfg {
    /// Builds blocks with the leaders of simulator §3.1.5: the first instruction, branch
    /// targets, and the instruction after any `bra`, `ret`, `exit` or call or return of a
    /// recursive function. Edges: a guarded `bra` has target and fall-through; an unguarded one
    /// its target; `ret`/`exit` and a function's return go to EXIT (plus the fall-through when
    /// guarded); a call falls through to its return point (the graph of each function is its
    /// own, as for PDOM reconvergence the callee's body is a region of its own); falling off the
    /// end goes to EXIT.
    pub fn build(insts: &[Inst]) -> Cfg {
        let n = insts.len();
        let mut leader = vec![false; n + 1];
        if n > 0 {
            leader[0] = true;
        }
        for (i, inst) in insts.iter().enumerate() {
            if let Op::Bra { .. } = inst.op {
                leader[(inst.target as usize).min(n)] = true;
            }
            if inst.ends_block() {
                leader[i + 1] = true;
            }
        }
        let start: Vec<u32> = (0..n).filter(|&i| leader[i]).map(|i| i as u32).collect();
        let nb = start.len();
        let mut block_of = vec![0usize; n + 1];
        for (b, &s) in start.iter().enumerate() {
            let e = start.get(b + 1).map_or(n, |&x| x as usize);
            for slot in &mut block_of[s as usize..e] {
                *slot = b;
            }
        }
        block_of[n] = nb; // past the end = EXIT
        let mut succ = vec![Vec::new(); nb];
        for b in 0..nb {
            let e = start.get(b + 1).map_or(n, |&x| x as usize);
            let last = &insts[e - 1];
            let ft = block_of[e];
            let mut s = Vec::new();
            match last.op {
                Op::Bra { .. } => {
                    s.push(block_of[(last.target as usize).min(n)]);
                    if last.guard.is_some() {
                        s.push(ft);
                    }
                }
                Op::Ret | Op::Exit | Op::Return { .. } => {
                    s.push(nb);
                    if last.guard.is_some() {
                        s.push(ft);
                    }
                }
                _ => s.push(ft),
            }
            s.dedup();
            succ[b] = s;
        }
        Cfg { start, succ }
    }

    /// Reconvergence point of every instruction: for a `bra` ending block Y, the first
    /// instruction index of ipdom(Y), or [`RECONV_EXIT`] when that is EXIT; other instructions get
    /// `RECONV_EXIT` too (never consulted). In the body of a recursive function (`subcall.rs`:
    /// each body ends with its one return) a branch whose ipdom is EXIT reconverges at that
    /// return instead: every path from it either leaves the kernel (`exit`, whose lanes leave
    /// every stack entry) or reaches the return, so the lanes of one activation meet there and
    /// never at a point outside it.
    pub fn reconvergence(&self, insts: &[Inst]) -> Vec<u32> {
        let nb = self.start.len();
        let ip = ipdom(nb, &self.succ);
        let mut out = vec![RECONV_EXIT; insts.len()];
        let bodies = function_bodies(insts);
        for b in 0..nb {
            let e = self.start.get(b + 1).map_or(insts.len(), |&x| x as usize);
            if let Op::Bra { .. } = insts[e - 1].op {
                let p = ip[b];
                out[e - 1] = if p < nb {
                    self.start[p]
                } else {
                    bodies
                        .iter()
                        .find(|&&(s, r)| (s..=r).contains(&(e as u32 - 1)))
                        .map_or(RECONV_EXIT, |&(_, r)| r)
                };
            }
        }
        out
    }
}

/// The instruction ranges `(first, return)` of the recursive functions' bodies: they follow
/// the kernel's own code, from the first call target on, each ending at its return.
pub fn function_bodies(insts: &[Inst]) -> Vec<(u32, u32)> {
    let Some(first) = insts
        .iter()
        .filter(|i| matches!(i.op, Op::Call { .. }))
        .map(|i| i.target)
        .min()
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut s = first;
    for (i, x) in insts.iter().enumerate().skip(first as usize) {
        if let Op::Return { .. } = x.op {
            out.push((s, i as u32));
            s = i as u32 + 1;
        }
    }
    out
}
