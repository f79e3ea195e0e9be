//! PTX templates of the microbenchmark kernels (analytical-model §3.2), generated as text and
//! run by the same PTX front end, emulator and timing model as every other workload.
//!
//! - [`fu_kernel`]: `measure_fu` — optional global-semaphore sync of all blocks (atomic counter
//!   plus a spin on a volatile load, bounded by a cycle budget), a barrier, `t0 = %clock64`, a
//!   loop of `trips` × `unroll` dependent copies of one instruction class, a barrier,
//!   `t1 = %clock64`; thread 0 stores `t0`, `t1` and a status word per block.
//! - [`nslot_kernel`]: `measure_nslot` — thread 0 of each block increments the semaphore and every
//!   thread spins until all blocks arrived or its budget ran out (TIMEOUT); the resource
//!   declaration is a `.shared` array of the requested size (never touched by the code) and the
//!   registers per thread set on the kernel ([`sim::ptx::Kernel::with_regs_per_thread`]).
//! - [`warpid_kernel`]: `log_warp_id` — each warp reads `%clock` K times back to back and stores
//!   the values with its `%warpid`.
//!
//! Status words: [`STATUS_OK`] or [`STATUS_TIMEOUT`].

/// Status word of a block that finished normally.
pub const STATUS_OK: u32 = 1;
/// Status word of a block whose spin ran past its cycle budget.
pub const STATUS_TIMEOUT: u32 = 2;

/// An instruction class of the functional-unit tests (analytical-model §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Class {
    /// Unconditional branch to the next instruction.
    Branch,
    /// Block barrier (`bar.sync`).
    Barrier,
    /// Integer move (`mov.u32 r, r`).
    IntMov,
    /// Integer add.
    IntAdd,
    /// Integer add reading one register twice (`add r, r, r`): one register read where
    /// [`Class::IntAdd`] has two; the pair measures the cost of a second operand read. Not in
    /// [`Class::ALL`].
    IntAddSameReg,
    /// Integer multiply.
    IntMul,
    /// FP32 add.
    FpAdd,
    /// FP32 multiply-add.
    FpFma,
    /// Special function: sine.
    SfuSin,
    /// Special function: reciprocal.
    SfuRcp,
    /// FP64 add.
    DpAdd,
    /// Shared-memory load (pointer chase).
    SharedLoad,
    /// Global-memory load (pointer chase, volatile).
    GlobalLoad,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 12] = [
        Class::Branch,
        Class::Barrier,
        Class::IntMov,
        Class::IntAdd,
        Class::IntMul,
        Class::FpAdd,
        Class::FpFma,
        Class::SfuSin,
        Class::SfuRcp,
        Class::DpAdd,
        Class::SharedLoad,
        Class::GlobalLoad,
    ];

    /// Short name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Class::Branch => "branch",
            Class::Barrier => "barrier",
            Class::IntMov => "int_mov",
            Class::IntAdd => "int_add",
            Class::IntAddSameReg => "int_add_same_reg",
            Class::IntMul => "int_mul",
            Class::FpAdd => "fp32_add",
            Class::FpFma => "fp32_fma",
            Class::SfuSin => "sfu_sin",
            Class::SfuRcp => "sfu_rcp",
            Class::DpAdd => "fp64_add",
            Class::SharedLoad => "shared_load",
            Class::GlobalLoad => "global_load",
        }
    }

    /// True for the memory classes (their period includes the LD/ST path, not a unit latency).
    pub fn is_memory(self) -> bool {
        matches!(self, Class::SharedLoad | Class::GlobalLoad)
    }

    /// True for classes whose body is a dependent chain through one functional unit.
    pub fn is_alu_chain(self) -> bool {
        !matches!(self, Class::Branch | Class::Barrier) && !self.is_memory()
    }

    /// Instance `i` of the body; each instance depends on the previous one through its
    /// destination register.
    fn body(self, i: usize) -> String {
        match self {
            Class::Branch => format!("    bra.uni B{i};\nB{i}:\n"),
            Class::Barrier => "    bar.sync 0;\n".to_string(),
            Class::IntMov => "    mov.b32 %r20, %r20;\n".to_string(),
            Class::IntAdd => "    add.u32 %r20, %r20, %r21;\n".to_string(),
            Class::IntAddSameReg => "    add.u32 %r20, %r20, %r20;\n".to_string(),
            Class::IntMul => "    mul.lo.u32 %r20, %r20, %r21;\n".to_string(),
            Class::FpAdd => "    add.f32 %f1, %f1, %f2;\n".to_string(),
            Class::FpFma => "    fma.rn.f32 %f1, %f1, %f2, %f2;\n".to_string(),
            Class::SfuSin => "    sin.approx.f32 %f1, %f1;\n".to_string(),
            Class::SfuRcp => "    rcp.approx.f32 %f1, %f1;\n".to_string(),
            Class::DpAdd => "    add.f64 %fd1, %fd1, %fd2;\n".to_string(),
            Class::SharedLoad => "    ld.shared.u32 %r20, [%r20];\n".to_string(),
            Class::GlobalLoad => "    ld.volatile.global.u64 %rd20, [%rd20];\n".to_string(),
        }
    }

    /// The decoded instruction of the body whose class the configured model looks up: its
    /// opcode text as it appears in [`Class::body`].
    pub fn opcode(self) -> &'static str {
        match self {
            Class::Branch => "bra",
            Class::Barrier => "bar",
            Class::IntMov => "mov",
            Class::IntAdd | Class::IntAddSameReg | Class::FpAdd | Class::DpAdd => "add",
            Class::IntMul => "mul",
            Class::FpFma => "fma",
            Class::SfuSin => "sin",
            Class::SfuRcp => "rcp",
            Class::SharedLoad | Class::GlobalLoad => "ld",
        }
    }
}

const HEADER: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\n";

const REGS: &str = "    .reg .pred %p<8>;\n    .reg .b32 %r<32>;\n    .reg .b64 %rd<32>;\n    \
                    .reg .f32 %f<8>;\n    .reg .f64 %fd<4>;\n";

/// The semaphore sync of all blocks with a cycle budget (`%rd9` = budget, `%rd8` = start
/// clock, `%rd2` = semaphore, `%r3` = grid blocks, `%r1` = tid). Jumps to `TIMEOUT` when the
/// budget runs out, falls through once every block arrived. Thread 0 increments under a
/// predicate (no divergent branch). Each poll first waits on a long-latency integer divide
/// whose result (always 0 after `− 1`) offsets the polled address: a spinning warp then holds
/// no ready instruction for most of each poll, so a greedy (GTO) scheduler cannot keep the
/// older spinning warps ready every cycle and starve the blocks that have not yet arrived.
const SEM_SYNC: &str = "    setp.eq.u32 %p1, %r1, 0;
    @%p1 atom.global.add.u32 %r5, [%rd2], 1;
    mov.u32 %r15, 1;
    mov.u32 %r16, 1;
SPIN:
    div.u32 %r15, %r15, %r16;
    sub.u32 %r17, %r15, 1;
    cvt.u64.u32 %rd17, %r17;
    add.u64 %rd18, %rd2, %rd17;
    ld.volatile.global.u32 %r6, [%rd18];
    setp.ge.u32 %p2, %r6, %r3;
    @%p2 bra SYNCED;
    mov.u64 %rd10, %clock64;
    sub.u64 %rd11, %rd10, %rd8;
    setp.le.u64 %p3, %rd11, %rd9;
    @%p3 bra SPIN;
    bra.uni TIMEOUT;
SYNCED:
";

/// Per-block record stores from thread 0: at `out + 16·ctaid` the 64-bit start clock (`%rd12`),
/// the 32-bit cycle count (`%r9`) and the 32-bit word `status | %smid << 8` (`%r7`).
const STORE_RECORD: &str = "DONE:
    setp.ne.u32 %p4, %r1, 0;
    @%p4 bra EXIT;
    mov.u32 %r8, %ctaid.x;
    mul.wide.u32 %rd14, %r8, 16;
    add.u64 %rd15, %rd1, %rd14;
    st.global.u64 [%rd15], %rd12;
    st.global.u32 [%rd15+8], %r9;
    mov.u32 %r14, %smid;
    shl.b32 %r14, %r14, 8;
    or.b32 %r7, %r7, %r14;
    st.global.u32 [%rd15+12], %r7;
EXIT:
    exit;
TIMEOUT:
    mov.u32 %r7, 2;
    mov.u64 %rd12, %rd8;
    mov.u32 %r9, 0;
    bra.uni DONE;
";

/// Parameters shared by the templates: output records, semaphore, grid blocks, cycle budget.
const PARAMS: &str = "    .param .u64 p_out,
    .param .u64 p_sem,
    .param .u32 p_blocks,
    .param .u64 p_budget";

const LOAD_PARAMS: &str = "    ld.param.u64 %rd1, [p_out];
    ld.param.u64 %rd2, [p_sem];
    ld.param.u32 %r3, [p_blocks];
    ld.param.u64 %rd9, [p_budget];
    mov.u32 %r1, %tid.x;
    mov.u64 %rd8, %clock64;
";

/// Bytes of one per-block record of [`fu_kernel`] and [`nslot_kernel`].
pub const RECORD_BYTES: u64 = 16;

/// `measure_fu` for `class`: `unroll` dependent copies per loop trip, `trips` given as the
/// extra parameter `p_trips`; `sync_blocks` adds the global semaphore before timing.
/// The record holds `t0` (64-bit) and `t1 − t0` (32-bit) with the status.
pub fn fu_kernel(class: Class, unroll: usize, sync_blocks: bool) -> String {
    fu_kernel_with(&|i| class.body(i), unroll, sync_blocks, "")
}

/// `measure_fu` around an arbitrary body: `body(i)` is the text of instance `i` of the
/// `unroll` instances per loop trip, `setup` runs once before the timed region (after the
/// chain start values). The issue-stage bodies (independent chains, divergent paths) use it.
pub fn fu_kernel_with(
    body: &dyn Fn(usize) -> String,
    unroll: usize,
    sync_blocks: bool,
    setup: &str,
) -> String {
    let mut k = String::from(HEADER);
    k.push_str(&format!(
        ".visible .entry measure_fu(\n{PARAMS},\n    .param .u32 p_trips,\n    .param .u64 p_chase\n)\n{{\n{REGS}"
    ));
    k.push_str("    .shared .align 8 .b8 s_chase[8];\n");
    k.push_str(LOAD_PARAMS);
    k.push_str("    ld.param.u32 %r4, [p_trips];\n    ld.param.u64 %rd20, [p_chase];\n");
    // operands: chain start values; the shared chase word holds its own address (0 offset)
    k.push_str(
        "    mov.u32 %r20, s_chase;\n    st.shared.u32 [%r20], %r20;\n    mov.u32 %r21, 1;\n    \
         mov.f32 %f1, 0f3F000000;\n    mov.f32 %f2, 0f3F800000;\n    \
         mov.f64 %fd1, 0d3FE0000000000000;\n    mov.f64 %fd2, 0d3FF0000000000000;\n",
    );
    k.push_str(setup);
    if sync_blocks {
        k.push_str(SEM_SYNC);
    }
    k.push_str("    bar.sync 0;\n    mov.u64 %rd12, %clock64;\nLOOP:\n");
    for i in 0..unroll {
        k.push_str(&body(i));
    }
    k.push_str(
        "    sub.u32 %r4, %r4, 1;\n    setp.ne.u32 %p5, %r4, 0;\n    @%p5 bra LOOP;\n    \
         bar.sync 0;\n    mov.u64 %rd13, %clock64;\n    sub.u64 %rd16, %rd13, %rd12;\n    \
         cvt.u32.u64 %r9, %rd16;\n    mov.u32 %r7, 1;\n",
    );
    // keep the chain's result live: fold it into a dummy store condition
    k.push_str(
        "    cvt.rzi.u32.f32 %r10, %f1;\n    cvt.u32.u64 %r11, %rd20;\n    add.u32 %r10, %r10, %r20;\n    \
         add.u32 %r10, %r10, %r11;\n    cvt.rzi.u32.f64 %r12, %fd1;\n    add.u32 %r10, %r10, %r12;\n    \
         setp.eq.u32 %p6, %r10, 123456789;\n    @%p6 mov.u32 %r7, 3;\n    bra.uni DONE;\n",
    );
    k.push_str(STORE_RECORD);
    k.push_str("}\n");
    k
}

/// A kernel whose first instruction is one instance of `class`'s body (for looking up how the
/// decoder classifies it).
pub fn probe_kernel(class: Class) -> String {
    format!(
        "{HEADER}.visible .entry probe()\n{{\n{REGS}{}    exit;\n}}\n",
        class.body(0)
    )
}

/// `measure_nslot` with a `.shared` resource declaration of `shared_bytes` (none when 0).
/// The record holds the start clock, the cycles spent waiting and the status.
///
/// The kernel keeps as few values live as the method allows, so that its own registers per
/// thread (the "minimal registers" of §4.5) stay below what a small register file gives each of
/// its warp slots: only the semaphore address, the 32-bit start clock and the poll's divide
/// operands live across the spin; the grid size and the budget are re-read from the parameters
/// in every poll, and the thread id and output address only at the end. Each poll waits on a
/// long-latency divide (as in the `measure_fu` semaphore) so a greedy scheduler cannot starve
/// the blocks that have not yet arrived. The budget check is on 32-bit clock differences
/// (budgets stay far below 2³² cycles).
pub fn nslot_kernel(shared_bytes: u32) -> String {
    let mut k = String::from(HEADER);
    k.push_str(&format!(
        ".visible .entry measure_nslot(\n{PARAMS}\n)\n{{\n{REGS}"
    ));
    if shared_bytes > 0 {
        k.push_str(&format!(
            "    .shared .align 4 .b8 s_res[{shared_bytes}];\n"
        ));
    }
    k.push_str(
        "    ld.param.u64 %rd2, [p_sem];
    mov.u32 %r10, %clock;
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 atom.global.add.u32 %r5, [%rd2], 1;
    mov.u32 %r15, 0;
    mov.u32 %r16, 1;
NSPIN:
    div.u32 %r15, %r15, %r16;
    ld.volatile.global.u32 %r6, [%rd2];
    add.u32 %r6, %r6, %r15;
    ld.param.u32 %r3, [p_blocks];
    setp.ge.u32 %p2, %r6, %r3;
    @%p2 bra NSYNCED;
    ld.param.u64 %rd9, [p_budget];
    cvt.u32.u64 %r8, %rd9;
    mov.u32 %r11, %clock;
    sub.u32 %r11, %r11, %r10;
    setp.le.u32 %p3, %r11, %r8;
    @%p3 bra NSPIN;
    mov.u32 %r7, 2;
    mov.u32 %r9, 0;
    bra.uni NDONE;
NSYNCED:
    mov.u32 %r11, %clock;
    sub.u32 %r9, %r11, %r10;
    mov.u32 %r7, 1;
NDONE:
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p4, %r1, 0;
    @%p4 bra NEXIT;
    ld.param.u64 %rd1, [p_out];
    mov.u32 %r8, %ctaid.x;
    mul.wide.u32 %rd14, %r8, 16;
    add.u64 %rd15, %rd1, %rd14;
    cvt.u64.u32 %rd12, %r10;
    st.global.u64 [%rd15], %rd12;
    st.global.u32 [%rd15+8], %r9;
    mov.u32 %r14, %smid;
    shl.b32 %r14, %r14, 8;
    or.b32 %r7, %r7, %r14;
    st.global.u32 [%rd15+12], %r7;
NEXIT:
    exit;
",
    );
    if shared_bytes > 0 {
        // the declaration is "used" by code that never runs, as a real kernel's would be
        k.push_str(
            "NEVER:\n    mov.u32 %r13, s_res;\n    st.shared.u32 [%r13], %r1;\n    bra.uni NDONE;\n",
        );
    }
    k.push_str("}\n");
    k
}

/// `log_warp_id`: each warp reads `%clock` `k` times back to back, then lane 0 stores
/// `[warpid, c_0 … c_{k−1}]` at `out[(tid/32)·(k+1)]` (32-bit words).
pub fn warpid_kernel(k_reads: usize) -> String {
    let mut k = String::from(HEADER);
    k.push_str(".visible .entry log_warp_id(\n    .param .u64 p_out\n)\n{\n");
    k.push_str(&format!(
        "    .reg .pred %p<4>;\n    .reg .b32 %r<{}>;\n    .reg .b64 %rd<8>;\n",
        16 + k_reads
    ));
    k.push_str("    ld.param.u64 %rd1, [p_out];\n    mov.u32 %r1, %tid.x;\n    bar.sync 0;\n");
    for i in 0..k_reads {
        k.push_str(&format!("    mov.u32 %r{}, %clock;\n", 16 + i));
    }
    k.push_str(&format!(
        "    mov.u32 %r2, %warpid;\n    and.b32 %r3, %r1, 31;\n    setp.ne.u32 %p1, %r3, 0;\n    \
         @%p1 bra EXIT;\n    shr.u32 %r4, %r1, 5;\n    mul.wide.u32 %rd2, %r4, {};\n    \
         add.u64 %rd3, %rd1, %rd2;\n    st.global.u32 [%rd3], %r2;\n",
        4 * (k_reads + 1)
    ));
    for i in 0..k_reads {
        k.push_str(&format!(
            "    st.global.u32 [%rd3+{}], %r{};\n",
            4 * (i + 1),
            16 + i
        ));
    }
    k.push_str("EXIT:\n    exit;\n}\n");
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        for c in Class::ALL {
            for sync in [false, true] {
                let text = fu_kernel(c, 8, sync);
                sim::ptx::Module::parse(&text, "fu.ptx")
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", c.name()));
            }
        }
        for s in [0, 4096, 12345] {
            let m = sim::ptx::Module::parse(&nslot_kernel(s), "nslot.ptx").unwrap();
            let k = m.kernel("measure_nslot").unwrap();
            // small enough for every warp slot of a 24-warp MP with 8192 registers and an
            // allocation granularity of 4
            assert!(k.code.regs_per_thread <= 8, "{}", k.code.regs_per_thread);
            assert_eq!(
                k.static_shared_bytes(),
                s,
                "the declaration consumes its bytes"
            );
        }
        sim::ptx::Module::parse(&warpid_kernel(10), "warpid.ptx").unwrap();
    }
}
