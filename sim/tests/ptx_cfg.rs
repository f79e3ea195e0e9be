//! Immediate post-dominators and reconvergence points (control-flow §2): the hand-built CFGs
//! of the spec, reconvergence PCs of real kernels, and a property test against a brute-force
//! post-dominator computation on random graphs (including irreducible ones).

use proptest::prelude::*;
use sim::ptx::cfg::ipdom;
use sim::ptx::{Module, RPC_EXIT};

/// Builds successor lists from named edges; `X` is EXIT.
fn graph(nodes: &[&str], edges: &[(&str, &str)]) -> (usize, Vec<Vec<usize>>) {
    let n = nodes.len();
    let id = |s: &str| {
        if s == "X" {
            n
        } else {
            nodes.iter().position(|x| *x == s).unwrap()
        }
    };
    let mut succ = vec![Vec::new(); n];
    for (a, b) in edges {
        succ[id(a)].push(id(b));
    }
    (n, succ)
}

#[test]
fn nested_hammock() {
    let nodes = ["A", "B", "C", "D", "E", "F", "G"];
    let (n, s) = graph(
        &nodes,
        &[
            ("A", "B"),
            ("A", "F"),
            ("B", "C"),
            ("B", "D"),
            ("C", "E"),
            ("D", "E"),
            ("E", "G"),
            ("F", "G"),
            ("G", "X"),
        ],
    );
    let ip = ipdom(n, &s);
    assert_eq!(ip[0], 6, "ipdom(A) = G");
    assert_eq!(ip[1], 4, "ipdom(B) = E");
    assert_eq!(ip[6], n, "ipdom(G) = EXIT");
}

#[test]
fn if_then_without_else() {
    let (n, s) = graph(
        &["A", "B", "C"],
        &[("A", "B"), ("A", "C"), ("B", "C"), ("C", "X")],
    );
    assert_eq!(ipdom(n, &s)[0], 2);
}

#[test]
fn loop_with_data_dependent_trip_count() {
    let (n, s) = graph(
        &["H", "Body", "X2"],
        &[("H", "Body"), ("H", "X2"), ("Body", "H"), ("X2", "X")],
    );
    assert_eq!(ipdom(n, &s)[0], 2, "ipdom(H) = loop exit");
}

#[test]
fn loop_with_break() {
    // H → {B1, Exit}; B1 → {Brk, B2}; Brk → Exit; B2 → H.
    let (n, s) = graph(
        &["H", "B1", "Brk", "B2", "Exit"],
        &[
            ("H", "B1"),
            ("H", "Exit"),
            ("B1", "Brk"),
            ("B1", "B2"),
            ("Brk", "Exit"),
            ("B2", "H"),
            ("Exit", "X"),
        ],
    );
    let ip = ipdom(n, &s);
    assert_eq!(ip[1], 4, "the in-loop branch reconverges at the loop exit");
    assert_eq!(ip[0], 4);
}

#[test]
fn two_returns_reconverge_at_exit() {
    let (n, s) = graph(
        &["A", "B", "C"],
        &[("A", "B"), ("A", "C"), ("B", "X"), ("C", "X")],
    );
    assert_eq!(ipdom(n, &s)[0], n);
}

#[test]
fn infinite_loop_gets_an_exit_edge() {
    // A → {B, C}; B → B (spins forever); C → EXIT.
    let (n, s) = graph(
        &["A", "B", "C"],
        &[("A", "B"), ("A", "C"), ("B", "B"), ("C", "X")],
    );
    let ip = ipdom(n, &s);
    assert_eq!(ip[1], n);
    assert_eq!(ip[0], n);
}

/// Post-dominator sets by the textbook iteration: pdom(EXIT) = {EXIT};
/// pdom(b) = {b} ∪ ⋂ pdom(s) over successors s.
fn brute_ipdom(n: usize, succ: &[Vec<usize>]) -> Vec<usize> {
    let all: u64 = (1u64 << (n + 1)) - 1;
    let mut pd = vec![all; n + 1];
    pd[n] = 1 << n;
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..n {
            let mut m = all;
            for &s in &succ[b] {
                m &= pd[s];
            }
            let v = m | (1 << b);
            if v != pd[b] {
                pd[b] = v;
                changed = true;
            }
        }
    }
    // ipdom(b) = the strict post-dominator that every other strict post-dominator post-dominates.
    (0..=n)
        .map(|b| {
            if b == n {
                return n;
            }
            let strict = pd[b] & !(1 << b);
            (0..=n)
                .find(|&c| strict >> c & 1 == 1 && (strict & !(1 << c)) & !pd[c] == 0)
                .unwrap()
        })
        .collect()
}

/// Random CFG where every node reaches EXIT (so both methods define the same tree).
fn arb_cfg() -> impl Strategy<Value = (usize, Vec<Vec<usize>>)> {
    (2usize..10).prop_flat_map(|n| {
        proptest::collection::vec(proptest::collection::vec(0..=n, 1..3), n).prop_map(
            move |mut succ| {
                // Chain to EXIT through a forward edge so every node reaches EXIT.
                for (b, s) in succ.iter_mut().enumerate() {
                    s.push(b + 1);
                    s.sort();
                    s.dedup();
                }
                (n, succ)
            },
        )
    })
}

proptest! {
    #[test]
    fn ipdom_matches_brute_force((n, succ) in arb_cfg()) {
        prop_assert_eq!(ipdom(n, &succ), brute_ipdom(n, &succ));
    }
}

#[test]
fn kernel_reconvergence_points() {
    let src = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;              // 0
    setp.lt.u32 %p1, %r1, 5;          // 1
    @%p1 bra THEN;                    // 2: if/else, joins at 6
    add.u32 %r2, %r1, 1;              // 3
    bra.uni JOIN;                     // 4
THEN:
    add.u32 %r2, %r1, 2;              // 5
JOIN:
    setp.eq.u32 %p2, %r2, 3;          // 6
    @%p2 exit;                        // 7: early exit
LOOP:
    add.u32 %r2, %r2, 1;              // 8
    setp.lt.u32 %p1, %r2, 10;         // 9
    @%p1 bra LOOP;                    // 10: back edge, exits to 11
    setp.eq.u32 %p2, %r2, 12;         // 11
    @%p2 bra OUT;                     // 12: both paths end the thread: rpc = EXIT
    ret;                              // 13
OUT:
    exit;                             // 14
}
"#;
    let m = Module::parse(src, "k.ptx").unwrap();
    let k = m.kernel("k").unwrap();
    assert_eq!(k.reconv_pc(2 * 8), 6 * 8);
    assert_eq!(k.reconv_pc(4 * 8), 6 * 8);
    assert_eq!(k.reconv_pc(10 * 8), 11 * 8);
    assert_eq!(k.reconv_pc(12 * 8), RPC_EXIT);
}
