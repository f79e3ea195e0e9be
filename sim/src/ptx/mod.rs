//! PTX-subset front end (simulator §3.1): tokeniser, parser, decoder to a compact
//! instruction enum, register allocation (§3.1.5), and control-flow analysis with immediate
//! post-dominators for reconvergence (control-flow §2).
//!
//! ```text
//! text ─lexer→ tokens ─parser→ RawModule ─decode→ [Inst] (virtual regs) ─regalloc→ [Inst]
//!                                    (over 255 registers: colour + spill ─┘)
//!                                                   └─cfg/ipdom→ reconvergence point per branch
//! ```
//!
//! Memory layout conventions (what addresses the emulator and the instruction stream use):
//! - `.param`: byte offsets in the kernel's parameter buffer, in declaration order, naturally
//!   aligned.
//! - `.shared`: byte offsets in the CTA's shared window. Kernel-scope variables come first in
//!   declaration order, then module-scope `.shared` variables the kernel references, then the
//!   dynamic (`.extern .shared name[]`) region, aligned to its declared alignment.
//! - `.local`: byte offsets in the thread's private window.
//! - `.const`: byte offsets in the module's constant bank; host code may overwrite a constant
//!   variable with [`Module::set_const`] before taking the kernel (like `cudaMemcpyToSymbol`).
//! - `.global` (module scope): placed in device memory at the first launch of a kernel of the
//!   module on a given emulator, initialised from their initialisers.

pub mod ast;
pub mod build;
pub mod cfg;
pub mod colour;
pub mod decode;
mod decode_ext;
mod decode_more;
pub mod inline;
pub mod isa;
pub mod lexer;
pub mod parser;
pub mod regalloc;
mod scope;
pub mod spill;
pub mod subcall;
pub mod tensor;
pub mod texture;

use crate::inst::WarpInst;
use crate::SimError;
use std::collections::BTreeMap;
use std::sync::Arc;

pub use cfg::RECONV_EXIT;
pub use isa::{Inst, Op, Ty};

/// Reconvergence PC (byte form) of a divergent branch whose immediate post-dominator is EXIT.
pub const RPC_EXIT: u32 = u32::MAX;

/// A kernel parameter after layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Parameter name.
    pub name: String,
    /// Parameter type (the element type of an array parameter).
    pub ty: Ty,
    /// Byte offset in the parameter buffer.
    pub offset: u32,
    /// Size in bytes: the type's for a scalar, elements × element size for an array (a
    /// structure passed by value, which a launch supplies as raw bytes).
    pub bytes: u32,
    /// True for an array parameter (`.b8 p[24]`).
    pub is_array: bool,
}

/// A module-scope `.global` variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    /// Variable name.
    pub name: String,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// Initial bytes (`size` long; zeros where no initialiser was given).
    pub init: Vec<u8>,
}

/// Module-level data shared by the kernels of one module: constant bank and global variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleData {
    /// Process-unique identity (device placement of `.global` variables is per module).
    pub id: u64,
    /// Source file name, for error messages.
    pub file: String,
    /// The `.const` bank: every constant variable at its offset, initialised.
    pub const_bank: Vec<u8>,
    /// Constant variables: name → (offset, size).
    pub const_syms: BTreeMap<String, (u64, u64)>,
    /// Module-scope `.global` variables in declaration order.
    pub globals: Vec<GlobalVar>,
}

/// Decoded code and static facts of one kernel.
#[derive(Debug)]
pub struct KernelCode {
    /// Kernel name (the `.entry` name).
    pub name: String,
    /// Source file name, for error messages.
    pub file: String,
    /// Decoded instructions; instruction i has PC 8·i.
    pub insts: Vec<Inst>,
    /// Static part of the dynamic record of each instruction (PC, family, class, registers,
    /// memory space and width).
    pub templates: Vec<WarpInst>,
    /// Reconvergence point (instruction index, or [`RECONV_EXIT`]) of each instruction; only
    /// meaningful for branches.
    pub reconv: Vec<u32>,
    /// 32-bit registers per thread after register allocation.
    pub regs_per_thread: u32,
    /// Predicate registers used.
    pub preds: u32,
    /// Parameters with their offsets in the parameter buffer.
    pub params: Vec<Param>,
    /// Size of the parameter buffer in bytes.
    pub param_bytes: u32,
    /// Static shared memory (bytes), including alignment padding before a dynamic region.
    pub static_shared_bytes: u32,
    /// Private `.local` bytes per thread.
    pub local_bytes: u32,
    /// `.maxntid`: largest CTA size the kernel allows (x, y, z).
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid`: the CTA size the kernel requires (x, y, z).
    pub reqntid: Option<[u32; 3]>,
    /// `.minnctapersm`: CTAs per SM the kernel asks to fit.
    pub minnctapersm: Option<u32>,
    /// Virtual-register count before allocation (GPRs, predicates), for reports.
    pub virtual_regs: (u32, u32),
    /// What spilling to local memory added (`spill.rs`; zero when the kernel fits
    /// [`regalloc::MAX_REGS`] registers without it). The slots are part of `local_bytes`.
    pub spills: spill::SpillStats,
    /// The recursive device functions the kernel calls (`subcall.rs`); `None` when it calls
    /// none. Such a kernel has a per-thread call stack in local memory after its `local_bytes`.
    pub calls: Option<CallStack>,
}

/// The call stack of a kernel that calls recursive device functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallStack {
    /// The functions by index ([`isa::Op::Call`]'s `func`).
    pub funcs: Vec<String>,
    /// Stack bytes per thread the kernel's own code needs before its first call (its save
    /// area and the callees' argument areas), checked at launch against the stack limit.
    pub kernel_need_bytes: u32,
}

/// A parsed, register-allocated kernel, together with its module's data.
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// Decoded code and static facts, shared between copies.
    pub code: Arc<KernelCode>,
    /// Constant bank and global variables of the kernel's module, as of when it was taken.
    pub module: Arc<ModuleData>,
    /// Registers per thread reported to the timing model when raised above the allocation
    /// (a workload manifest may raise n, never lower it: simulator §3.1.5).
    pub regs_override: Option<u32>,
}

impl std::fmt::Debug for Kernel {
    /// A summary (the decoded code is not printed).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("file", &self.code.file)
            .field("insts", &self.code.insts.len())
            .field("regs_per_thread", &self.regs_per_thread())
            .field("static_shared_bytes", &self.code.static_shared_bytes)
            .field("local_bytes", &self.code.local_bytes)
            .field("params", &self.code.params.len())
            .finish()
    }
}

impl Kernel {
    /// Registers per thread: the allocation (at least 1), or a raised value from
    /// [`Kernel::with_regs_per_thread`].
    pub fn regs_per_thread(&self) -> u32 {
        self.regs_override
            .unwrap_or(0)
            .max(self.code.regs_per_thread)
    }

    /// The same kernel reporting `n` registers per thread; `n` may not be below the allocation.
    pub fn with_regs_per_thread(&self, n: u32) -> Result<Arc<Kernel>, SimError> {
        if n < self.code.regs_per_thread {
            return Err(SimError::Other(format!(
                "kernel '{}' needs {} registers per thread; {n} would lower it",
                self.name, self.code.regs_per_thread
            )));
        }
        Ok(Arc::new(Kernel {
            name: self.name.clone(),
            code: self.code.clone(),
            module: self.module.clone(),
            regs_override: Some(n),
        }))
    }
    /// Static `.shared` bytes per CTA.
    pub fn static_shared_bytes(&self) -> u32 {
        self.code.static_shared_bytes
    }
    /// Private `.local` bytes per thread.
    pub fn local_bytes(&self) -> u32 {
        self.code.local_bytes
    }
    /// Parameters with their offsets in the parameter buffer.
    pub fn params(&self) -> &[Param] {
        &self.code.params
    }
    /// Decoded instructions; instruction i has PC 8·i.
    pub fn insts(&self) -> &[Inst] {
        &self.code.insts
    }
    /// Number of static instructions.
    pub fn len(&self) -> usize {
        self.code.insts.len()
    }
    /// True when the kernel has no instructions.
    pub fn is_empty(&self) -> bool {
        self.code.insts.is_empty()
    }
    /// Reconvergence PC (bytes) of the branch at byte PC `pc`, or [`RPC_EXIT`].
    pub fn reconv_pc(&self, pc: u32) -> u32 {
        let r = self.code.reconv[(pc / 8) as usize];
        if r == RECONV_EXIT {
            RPC_EXIT
        } else {
            r * 8
        }
    }
}

/// A parsed PTX module.
#[derive(Debug, Clone)]
pub struct Module {
    data: Arc<ModuleData>,
    kernels: Vec<Arc<KernelCode>>,
    refused: Vec<parser::RefusedKernel>,
}

impl Module {
    /// Parses PTX text strictly: any kernel the front end cannot take is an error
    /// (`file:line:col: what was expected`). Built-in workloads load this way.
    pub fn parse(text: &str, file: &str) -> Result<Module, SimError> {
        let m = Module::parse_lenient(text, file)?;
        match m.refused.first() {
            Some(r) => Err(r.plain_error(file)),
            None => Ok(m),
        }
    }

    /// Parses PTX text as a compiler emits it for a whole program: a kernel that uses what the
    /// front end cannot represent (surfaces, some tensor-core forms, ...) is set aside with its
    /// error, which [`Module::load`] returns when that kernel is asked for; the other kernels load
    /// and run. Errors outside any kernel (module directives, module-scope variables) still fail
    /// the whole module.
    pub fn parse_lenient(text: &str, file: &str) -> Result<Module, SimError> {
        let toks = lexer::tokenize(text, file)?;
        let raw = parser::parse(&toks, file)?;
        build::build_module(&raw, file)
    }

    /// The kernel `name`, or the error that says why it cannot be had: refused (file, line,
    /// column and the construct), or absent (with the module's kernel names).
    pub fn load(&self, name: &str) -> Result<Arc<Kernel>, SimError> {
        if let Some(k) = self.kernel(name) {
            return Ok(k);
        }
        if let Some(r) = self.refused.iter().find(|r| r.name == name) {
            return Err(r.error(&self.data.file));
        }
        let mut all: Vec<String> = self.kernel_names();
        all.extend(self.refused.iter().map(|r| format!("{} (refused)", r.name)));
        Err(SimError::Other(format!(
            "{}: no kernel named '{name}' (kernels: {})",
            self.data.file,
            if all.is_empty() {
                "none".to_string()
            } else {
                all.join(", ")
            }
        )))
    }

    /// Kernels set aside by [`Module::parse_lenient`]: name and the error [`Module::load`]
    /// returns for it, in source order.
    pub fn refused(&self) -> Vec<(String, SimError)> {
        self.refused
            .iter()
            .map(|r| (r.name.clone(), r.error(&self.data.file)))
            .collect()
    }

    /// The kernel `name`, carrying the module's current constant bank; `None` when the module
    /// has no such kernel or refused it (see [`Module::load`]).
    pub fn kernel(&self, name: &str) -> Option<Arc<Kernel>> {
        self.kernels.iter().find(|k| k.name == name).map(|k| {
            Arc::new(Kernel {
                name: k.name.clone(),
                code: k.clone(),
                module: self.data.clone(),
                regs_override: None,
            })
        })
    }

    /// Kernel names in declaration order.
    pub fn kernel_names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.name.clone()).collect()
    }

    /// Overwrites (part of) the `.const` variable `name` starting at its first byte. Kernels
    /// taken with [`Module::kernel`] afterwards see the new contents.
    pub fn set_const(&mut self, name: &str, bytes: &[u8]) -> Result<(), SimError> {
        let Some(&(off, size)) = self.data.const_syms.get(name) else {
            return Err(SimError::Other(format!(
                "{}: no .const variable named '{name}'",
                self.data.file
            )));
        };
        if bytes.len() as u64 > size {
            return Err(SimError::Other(format!(
                "{}: {} bytes do not fit in .const variable '{name}' ({size} bytes)",
                self.data.file,
                bytes.len()
            )));
        }
        let d = Arc::make_mut(&mut self.data);
        d.const_bank[off as usize..off as usize + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// Offset and size of a `.const` variable.
    pub fn const_symbol(&self, name: &str) -> Option<(u64, u64)> {
        self.data.const_syms.get(name).copied()
    }

    /// Constant bank and global variables of the module.
    pub fn data(&self) -> &ModuleData {
        &self.data
    }
}
