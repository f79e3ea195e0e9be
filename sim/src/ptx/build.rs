//! Builds a [`Module`] from the syntax tree: lays out parameters and variables, decodes every
//! kernel, allocates registers, computes reconvergence points and the static part of each
//! instruction's dynamic record (family and class per simulator §3.1.4).

use super::cfg::Cfg;
use super::decode::{self, RegClass, VarLoc};
use super::isa::*;
use super::parser::{
    InitVal, Pos, RawKernel, RawModule, RawOpnd, RefusedKernel, Stmt, VarDecl, VarSpace,
};
use super::scope::Scope;
use super::subcall::CallInfo;
use super::tensor::{Frag, MmaTy, TensorOp};
use super::{GlobalVar, KernelCode, Module, ModuleData, Param};
use crate::inst::{self, Family, MemInfo, OpClass, WarpInst, MAX_DST, MAX_SRC, PRED_BASE};
use crate::SimError;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

static NEXT_MODULE_ID: AtomicU64 = AtomicU64::new(1);

/// Largest static `.shared` size a kernel may declare (bytes); launches check the machine limit.
pub const MAX_SHARED_BYTES: u64 = 1 << 20;
/// Largest kernel parameter buffer (bytes): CUDA's limit for kernel arguments (32 764 bytes
/// from CUDA 12.1 on Volta and later; 4 KiB before).
pub const MAX_PARAM_BYTES: u64 = 32_764;
/// Largest `.local` size per thread (bytes), the CUDA per-thread stack limit.
pub const MAX_LOCAL_BYTES: u64 = 512 * 1024;

fn perr(file: &str, pos: Pos, msg: impl Into<String>) -> SimError {
    SimError::Parse {
        file: file.to_string(),
        line: pos.line as usize,
        col: pos.col as usize,
        msg: msg.into(),
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// Little-endian bytes of an initialiser element of type `ty`.
fn init_bytes(file: &str, v: &VarDecl, val: InitVal, out: &mut Vec<u8>) -> Result<(), SimError> {
    let ty = v.ty;
    let n = ty.bytes() as usize;
    let bits: u64 = match (val, ty) {
        (InitVal::Int(i), t) if t.is_int() => {
            let lo = -(1i128 << (t.bits() - 1));
            let hi = (1i128 << t.bits()) - 1;
            if i < lo || i > hi {
                return Err(perr(
                    file,
                    v.pos,
                    format!(
                        "initialiser {i} does not fit the element type of '{}'",
                        v.name
                    ),
                ));
            }
            i as i64 as u64
        }
        (InitVal::Int(i), Ty::F32) => (i as f32).to_bits() as u64,
        (InitVal::Int(i), _) => (i as f64).to_bits(),
        (InitVal::Float(f), Ty::F32) => (f as f32).to_bits() as u64,
        (InitVal::Float(f), Ty::F64) => f.to_bits(),
        (InitVal::F32Bits(b), Ty::F32) => b as u64,
        (InitVal::F32Bits(b), Ty::F64) => (f32::from_bits(b) as f64).to_bits(),
        (InitVal::F64Bits(b), Ty::F64) => b,
        (InitVal::F64Bits(b), Ty::F32) => (f64::from_bits(b) as f32).to_bits() as u64,
        _ => {
            return Err(perr(
                file,
                v.pos,
                format!("a floating initialiser for integer variable '{}'", v.name),
            ))
        }
    };
    out.extend_from_slice(&bits.to_le_bytes()[..n]);
    Ok(())
}

/// Little-endian bytes of a function's address `a` (an [`InitVal::Int`]) as an initialiser
/// element of variable `v`, which must be at least 32 bits wide.
fn sym_bytes(
    file: &str,
    v: &VarDecl,
    sym: &str,
    a: InitVal,
    out: &mut Vec<u8>,
) -> Result<(), SimError> {
    if !v.ty.is_int() || v.ty.bytes() < 4 {
        return Err(perr(
            file,
            v.pos,
            format!(
                "'{}' holds the address of '{sym}' in {}-byte elements (allowed: .u32, .u64, \
                 .s32, .s64, .b32, .b64)",
                v.name,
                v.ty.bytes()
            ),
        ));
    }
    init_bytes(file, v, a, out)
}

fn var_size(v: &VarDecl) -> u64 {
    v.elems.unwrap_or(0) * v.ty.bytes() as u64
}

/// Lays out and decodes a parsed module: the `.const` bank, `.global` variables and each kernel.
pub fn build_module(raw: &RawModule, file: &str) -> Result<Module, SimError> {
    // Module-scope variables.
    let mut const_bank: Vec<u8> = Vec::new();
    let mut const_syms = BTreeMap::new();
    let mut globals: Vec<GlobalVar> = Vec::new();
    let mut module_vars: HashMap<String, VarLoc> = HashMap::new();
    let mut module_shared: Vec<&VarDecl> = Vec::new();
    let mut sym_vars: Vec<(String, Pos)> = Vec::new();
    let funcs = super::inline::Funcs::new(raw);
    for v in &raw.vars {
        if module_vars.contains_key(&v.name) || module_shared.iter().any(|s| s.name == v.name) {
            return Err(perr(
                file,
                v.pos,
                format!("variable '{}' declared twice", v.name),
            ));
        }
        let mut init = Vec::new();
        if let Some(vals) = &v.init {
            for &x in vals {
                if let InitVal::Sym(i) = x {
                    let (sym, off) = &v.syms[i as usize];
                    match funcs.address(sym) {
                        Some(a) => {
                            let a = InitVal::Int(i128::from(a) + i128::from(*off));
                            sym_bytes(file, v, sym, a, &mut init)?;
                        }
                        None => {
                            // a variable's address is not resolved: the kernels that use this
                            // variable are refused
                            if !sym_vars.iter().any(|(n, _)| n == &v.name) {
                                sym_vars.push((v.name.clone(), v.pos));
                            }
                            init.extend(std::iter::repeat_n(0u8, v.ty.bytes() as usize));
                        }
                    }
                    continue;
                }
                init_bytes(file, v, x, &mut init)?;
            }
        }
        let size = var_size(v);
        init.resize(size as usize, 0);
        match v.space {
            VarSpace::Const => {
                let off = align_up(const_bank.len() as u64, v.align as u64);
                const_bank.resize(off as usize, 0);
                const_bank.extend_from_slice(&init);
                const_syms.insert(v.name.clone(), (off, size));
                module_vars.insert(v.name.clone(), VarLoc::Const(off));
            }
            VarSpace::Global => {
                if globals.len() >= u16::MAX as usize {
                    return Err(perr(file, v.pos, "too many .global variables"));
                }
                module_vars.insert(v.name.clone(), VarLoc::Global(globals.len() as u16));
                globals.push(GlobalVar {
                    name: v.name.clone(),
                    size,
                    align: v.align,
                    init,
                });
            }
            VarSpace::Shared | VarSpace::Local => module_shared.push(v),
        }
    }
    let data = Arc::new(ModuleData {
        id: NEXT_MODULE_ID.fetch_add(1, Ordering::Relaxed),
        file: file.to_string(),
        const_bank,
        const_syms,
        globals,
    });
    let mut kernels = Vec::new();
    let mut refused = raw.refused.clone();
    for k in &raw.kernels {
        let inlined;
        let mut k = k;
        let calls = k
            .body
            .iter()
            .any(|s| matches!(s, Stmt::Inst(i) if i.opcode == "call"));
        let mut call_info = CallInfo::default();
        if calls || funcs.mentions_address(k) {
            match expand_calls(k, &funcs, file, &module_vars, &module_shared) {
                Ok((x, info)) => {
                    inlined = x;
                    call_info = info;
                }
                Err(e) => {
                    refused.push(RefusedKernel::from_error(&k.name, e, k.pos));
                    continue;
                }
            }
            k = &inlined;
        }
        let refs = referenced_names(k);
        if let Some((name, pos)) = sym_vars.iter().find(|(n, _)| refs.contains(&n.as_str())) {
            refused.push(RefusedKernel {
                name: k.name.clone(),
                pos: *pos,
                msg: format!(
                    "variable '{name}' is initialised with symbol addresses (a virtual-function \
                     or pointer table), which are not supported"
                ),
            });
            continue;
        }
        match build_kernel(k, file, &module_vars, &module_shared) {
            Ok(mut code) => {
                if !call_info.is_empty() {
                    code.calls = Some(super::CallStack {
                        funcs: call_info.funcs,
                        kernel_need_bytes: call_info.kernel_need.min(u64::from(u32::MAX)) as u32,
                    });
                }
                kernels.push(Arc::new(code))
            }
            Err(e) => refused.push(RefusedKernel::from_error(&k.name, e, k.pos)),
        }
    }
    refused.sort_by_key(|r| (r.pos.line, r.pos.col));
    Ok(Module {
        data,
        kernels,
        refused,
    })
}

/// Kernel `k` with its calls expanded (`inline.rs`) and function names as values resolved to
/// addresses, and the recursive functions it calls. With recursive functions the kernel is
/// expanded twice (`subcall.rs`): first without saves, to find each call site's registers that
/// are live after it and that the callee may write, then saving those. When that allocation
/// does not fit the register file, every register live after a call is saved instead (nothing
/// but the stack pointer is then live across a call).
fn expand_calls(
    k: &RawKernel,
    funcs: &super::inline::Funcs,
    file: &str,
    module_vars: &HashMap<String, VarLoc>,
    module_shared: &[&VarDecl],
) -> Result<(RawKernel, CallInfo), SimError> {
    let mut x = k.clone();
    let info = super::inline::inline_calls(&mut x, funcs, file, &CallInfo::default())?;
    funcs.resolve_addresses(&mut x);
    if info.is_empty() {
        return Ok((x, info));
    }
    let first = decode_kernel(&x, file, module_vars, module_shared)?;
    let mut last = None;
    for all_live in [false, true] {
        let plan = plan_saves(&first, info.clone(), all_live)?;
        let mut y = k.clone();
        let found = super::inline::inline_calls(&mut y, funcs, file, &plan)?;
        funcs.resolve_addresses(&mut y);
        if found.funcs != plan.funcs || found.sites != plan.sites {
            return Err(perr(
                file,
                k.pos,
                "internal: the second expansion of the recursive calls differs from the first",
            ));
        }
        let d = decode_kernel(&y, file, module_vars, module_shared)?;
        let mut insts = d.insts.clone();
        match super::regalloc::allocate(&mut insts, &d.classes, d.n_pred) {
            Ok(_) => {
                let mut found = found;
                found.saves = plan.saves;
                return Ok((y, found));
            }
            Err(m) => last = Some(m),
        }
    }
    Err(perr(
        file,
        k.pos,
        format!(
            "kernel '{}': {}",
            k.name,
            last.unwrap_or_else(|| "register allocation failed".into())
        ),
    ))
}

/// The registers each call site of a recursive function saves: those live after the call
/// (over the interprocedural graph) that the callee, or a function it calls, writes — or,
/// with `all_live`, every one live after the call — never the stack pointer.
fn plan_saves(d: &Decoded, mut info: CallInfo, all_live: bool) -> Result<CallInfo, SimError> {
    let n_gpr = d.classes.len();
    let mut names: Vec<(String, Ty)> = vec![(String::new(), Ty::B32); n_gpr + d.n_pred];
    for (name, &(id, cls, ty)) in &d.regs {
        let v = if cls == RegClass::Pred {
            n_gpr + id as usize
        } else {
            id as usize
        };
        names[v] = (name.clone(), ty);
    }
    let sp = d
        .regs
        .get(super::subcall::SP_REG)
        .map_or(usize::MAX, |r| r.0 as usize);
    let bodies = super::cfg::function_bodies(&d.insts);
    let mut clob: Vec<Vec<bool>> = bodies
        .iter()
        .map(|&(s, r)| {
            let mut w = vec![false; n_gpr + d.n_pred];
            for x in &d.insts[s as usize..=r as usize] {
                for v in super::regalloc::defs_of(x, n_gpr) {
                    w[v] = true;
                }
            }
            w
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (f, &(s, r)) in bodies.iter().enumerate() {
            for x in &d.insts[s as usize..=r as usize] {
                let Op::Call { func } = x.op else { continue };
                let g = func as usize;
                if g == f || g >= clob.len() {
                    continue;
                }
                let from = clob[g].clone();
                for (dst, &w) in clob[f].iter_mut().zip(&from) {
                    if w && !*dst {
                        *dst = true;
                        changed = true;
                    }
                }
            }
        }
    }
    let calls: Vec<(usize, usize)> = d
        .insts
        .iter()
        .enumerate()
        .filter_map(|(i, x)| match x.op {
            Op::Call { func } => Some((i + 1, func as usize)),
            _ => None,
        })
        .collect();
    let points: Vec<usize> = calls.iter().map(|c| c.0).collect();
    let live = super::regalloc::live_in_at(&d.insts, &d.classes, d.n_pred, &points);
    info.saves = calls
        .iter()
        .zip(&live)
        .map(|(&(_, g), lv)| {
            lv.iter()
                .filter(|&&v| v != sp && (all_live || clob.get(g).is_some_and(|c| c[v])))
                .map(|&v| names[v].clone())
                .collect()
        })
        .collect();
    Ok(info)
}

fn referenced_names(k: &RawKernel) -> Vec<&str> {
    let mut out = Vec::new();
    for st in &k.body {
        if let Stmt::Inst(ri) = st {
            for (o, _) in &ri.operands {
                match o {
                    RawOpnd::Name(n) | RawOpnd::NameOff(n, _) | RawOpnd::Addr(Some(n), _) => {
                        out.push(n.as_str())
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Lays out kernel `k`'s parameters in the parameter space (each at its alignment) and declares
/// them in `vars`: the parameters and their total size in bytes.
fn layout_params(
    k: &RawKernel,
    file: &str,
    vars: &mut HashMap<String, VarLoc>,
) -> Result<(Vec<Param>, u32), SimError> {
    let mut params = Vec::new();
    let mut off = 0u64;
    for p in &k.params {
        if p.ty == Ty::Pred {
            return Err(perr(
                file,
                p.pos,
                format!("parameter '{}': a kernel parameter cannot be .pred", p.name),
            ));
        }
        if !p.align.is_power_of_two() {
            return Err(perr(
                file,
                p.pos,
                format!(
                    "parameter '{}': alignment {} is not a power of two",
                    p.name, p.align
                ),
            ));
        }
        off = align_up(off, p.align as u64);
        let bytes = p.ty.bytes() as u64 * p.elems.unwrap_or(1) as u64;
        params.push(Param {
            name: p.name.clone(),
            ty: p.ty,
            offset: off as u32,
            bytes: bytes as u32,
            is_array: p.elems.is_some(),
        });
        vars.insert(p.name.clone(), VarLoc::Param(off, p.ty));
        off += bytes;
        if off > MAX_PARAM_BYTES {
            return Err(perr(
                file,
                p.pos,
                format!("kernel parameters exceed {MAX_PARAM_BYTES} bytes"),
            ));
        }
    }
    Ok((params, off as u32))
}

/// Register name → (virtual id, class, declared type), as [`Scope::regs`] holds it.
type RegTable = HashMap<String, (u16, RegClass, Ty)>;

/// The register table of kernel `k`, the class of every non-predicate virtual register, and the
/// number of predicate registers.
fn declare_regs(
    k: &RawKernel,
    file: &str,
    vars: &HashMap<String, VarLoc>,
) -> Result<(RegTable, Vec<RegClass>, usize), SimError> {
    let mut regs = HashMap::new();
    let mut classes = Vec::new();
    let mut n_pred = 0usize;
    for (name, ty, pos) in &k.regs {
        if regs.contains_key(name) {
            return Err(perr(
                file,
                *pos,
                format!("register '{name}' declared twice"),
            ));
        }
        if vars.contains_key(name) {
            return Err(perr(
                file,
                *pos,
                format!("register '{name}' has the name of a variable"),
            ));
        }
        let (id, cls) = if *ty == Ty::Pred {
            n_pred += 1;
            (n_pred - 1, RegClass::Pred)
        } else {
            let c = if ty.is_wide() {
                RegClass::R64
            } else {
                RegClass::R32
            };
            classes.push(c);
            (classes.len() - 1, c)
        };
        if id >= u16::MAX as usize {
            return Err(perr(file, *pos, "too many registers declared"));
        }
        regs.insert(name.clone(), (id as u16, cls, *ty));
    }
    Ok((regs, classes, n_pred))
}

/// A kernel laid out and decoded, with virtual registers.
struct Decoded {
    params: Vec<Param>,
    param_bytes: u32,
    shared_bytes: u64,
    local_bytes: u64,
    regs: RegTable,
    classes: Vec<RegClass>,
    n_pred: usize,
    insts: Vec<Inst>,
}

fn build_kernel(
    k: &RawKernel,
    file: &str,
    module_vars: &HashMap<String, VarLoc>,
    module_shared: &[&VarDecl],
) -> Result<KernelCode, SimError> {
    let Decoded {
        params,
        param_bytes,
        shared_bytes: shared_off,
        local_bytes: local_off,
        classes,
        n_pred,
        insts,
        ..
    } = decode_kernel(k, file, module_vars, module_shared)?;
    let n_virtual = classes.len();
    let s = super::spill::allocate_kernel(&insts, &classes, n_pred, local_off)
        .map_err(|m| perr(file, k.pos, format!("kernel '{}': {m}", k.name)))?;
    if s.local_bytes > MAX_LOCAL_BYTES {
        return Err(perr(
            file,
            k.pos,
            format!(
                "kernel '{}': {} bytes of .local per thread with the spill slots exceed \
                 {MAX_LOCAL_BYTES}",
                k.name, s.local_bytes
            ),
        ));
    }
    let (virt, classes, alloc, spills, local_off) =
        (s.virt, s.classes, s.alloc, s.stats, s.local_bytes);
    let insts = s.insts;
    // Internal consistency check of the allocation against the liveness of the virtual program.
    super::regalloc::verify(&virt, &classes, n_pred, &alloc).map_err(|m| {
        perr(
            file,
            k.pos,
            format!(
                "kernel '{}': internal register allocation error: {m}",
                k.name
            ),
        )
    })?;
    let reconv = Cfg::build(&insts).reconvergence(&insts);
    let templates = insts
        .iter()
        .enumerate()
        .map(|(i, x)| match x.op {
            Op::Tensor(_) => tensor_template(i, &insts),
            _ => template(i as u32, x),
        })
        .collect();
    Ok(KernelCode {
        name: k.name.clone(),
        file: file.to_string(),
        insts,
        templates,
        reconv,
        regs_per_thread: alloc.regs.max(1),
        preds: alloc.preds,
        params,
        param_bytes,
        static_shared_bytes: shared_off as u32,
        local_bytes: local_off as u32,
        maxntid: k.maxntid,
        reqntid: k.reqntid,
        minnctapersm: k.minnctapersm,
        virtual_regs: (n_virtual as u32, n_pred as u32),
        spills,
        calls: None,
    })
}

/// Lays out kernel `k`'s parameters, shared and local variables and decodes its instructions
/// (virtual registers). The stack of recursive calls ([`super::subcall::STACK_VAR`]) starts
/// after every other local variable, 16-byte aligned.
fn decode_kernel(
    k: &RawKernel,
    file: &str,
    module_vars: &HashMap<String, VarLoc>,
    module_shared: &[&VarDecl],
) -> Result<Decoded, SimError> {
    let mut vars = module_vars.clone();
    let (params, param_bytes) = layout_params(k, file, &mut vars)?;
    // Shared and local layout.
    let refs = referenced_names(k);
    let mut shared_decls: Vec<&VarDecl> = k
        .vars
        .iter()
        .filter(|v| v.space == VarSpace::Shared)
        .collect();
    let mut local_decls: Vec<&VarDecl> = k
        .vars
        .iter()
        .filter(|v| v.space == VarSpace::Local && v.name != super::subcall::STACK_VAR)
        .collect();
    for v in module_shared {
        if refs.contains(&v.name.as_str()) && !k.vars.iter().any(|x| x.name == v.name) {
            match v.space {
                VarSpace::Shared => shared_decls.push(v),
                _ => local_decls.push(v),
            }
        }
    }
    let mut shared_off = 0u64;
    let mut extern_align = 0u64;
    let mut externs = Vec::new();
    for v in &shared_decls {
        if vars.contains_key(&v.name) && !module_shared.iter().any(|m| std::ptr::eq(*m, *v)) {
            return Err(perr(
                file,
                v.pos,
                format!("'{}' is already declared", v.name),
            ));
        }
        if v.elems.is_none() {
            extern_align = extern_align.max(v.align as u64);
            externs.push(v.name.clone());
            continue;
        }
        shared_off = align_up(shared_off, v.align as u64);
        vars.insert(v.name.clone(), VarLoc::Shared(shared_off));
        shared_off += var_size(v);
    }
    if !externs.is_empty() {
        shared_off = align_up(shared_off, extern_align);
        for n in externs {
            vars.insert(n, VarLoc::Shared(shared_off));
        }
    }
    let mut local_off = 0u64;
    for v in &local_decls {
        if v.elems.is_none() {
            return Err(perr(file, v.pos, "a .local array needs a size"));
        }
        local_off = align_up(local_off, v.align as u64);
        vars.insert(v.name.clone(), VarLoc::Local(local_off));
        local_off += var_size(v);
    }
    if k.vars.iter().any(|v| v.name == super::subcall::STACK_VAR) {
        local_off = align_up(local_off, 16);
        vars.insert(
            super::subcall::STACK_VAR.to_string(),
            VarLoc::Local(local_off),
        );
    }
    if shared_off > MAX_SHARED_BYTES {
        return Err(perr(
            file,
            k.pos,
            format!(
                "kernel '{}': {shared_off} bytes of .shared exceed {MAX_SHARED_BYTES}",
                k.name
            ),
        ));
    }
    if local_off > MAX_LOCAL_BYTES {
        return Err(perr(
            file,
            k.pos,
            format!(
                "kernel '{}': {local_off} bytes of .local per thread exceed {MAX_LOCAL_BYTES}",
                k.name
            ),
        ));
    }
    let (regs, classes, n_pred) = declare_regs(k, file, &vars)?;
    let labels = decode::collect_labels(file, &k.body)?;
    let scope = Scope {
        file,
        regs,
        vars,
        labels,
    };
    let mut insts = Vec::new();
    for st in &k.body {
        if let Stmt::Inst(ri) = st {
            insts.push(decode::decode(&scope, ri)?);
        }
    }
    if insts.len() >= (u32::MAX / 8) as usize {
        return Err(perr(file, k.pos, "kernel too long"));
    }
    Ok(Decoded {
        params,
        param_bytes,
        shared_bytes: shared_off,
        local_bytes: local_off,
        regs: scope.regs,
        classes,
        n_pred,
        insts,
    })
}

fn fam(t: Ty) -> Family {
    match t {
        Ty::F32 => Family::Fp,
        Ty::F64 => Family::Dp,
        _ => Family::Int,
    }
}

/// Family and operation class of an instruction (simulator §3.1.4): the type decides the
/// family (.f32 → FP, .f64 → DP, else INT); DIV/REM and transcendentals run on the SFU; `cvt`
/// with a float side is FP.
pub fn classify(op: &Op) -> (Family, OpClass) {
    use OpClass as C;
    match *op {
        Op::Mov(t) => (fam(t), C::Mov),
        Op::Add(t) | Op::Sub(t) | Op::Abs(t) | Op::Neg(t) => (fam(t), C::Add),
        Op::MulLo(t) | Op::MulHi(t) | Op::MulWide(t) | Op::FMul(t) => (fam(t), C::Mul),
        Op::MadLo(t) | Op::MadHi(t) | Op::MadWide(t) | Op::Fma(t) => (fam(t), C::Mad),
        Op::Div(_) | Op::Rem(_) => (Family::Sfu, C::Div),
        Op::Min(t) | Op::Max(t) => (fam(t), C::Max),
        Op::Popc(t)
        | Op::Clz(t)
        | Op::Brev(t)
        | Op::And(t)
        | Op::Or(t)
        | Op::Xor(t)
        | Op::Not(t)
        | Op::Shl(t)
        | Op::Shr(t) => (fam(t), C::Logic),
        Op::Sqrt(_) => (Family::Sfu, C::Sqrt),
        Op::Rsqrt(_) => (Family::Sfu, C::Rsqrt),
        Op::Rcp(_) => (Family::Sfu, C::Rcp),
        Op::Sin(_) => (Family::Sfu, C::Sin),
        Op::Cos(_) => (Family::Sfu, C::Cos),
        Op::Ex2(_) => (Family::Sfu, C::Ex2),
        Op::Lg2(_) => (Family::Sfu, C::Lg2),
        Op::Setp(_, _, t) => (fam(t), C::Setp),
        Op::Selp(t) => (fam(t), C::Mov),
        Op::Cvt { dst, src, .. } => {
            if dst.is_float() || src.is_float() {
                (Family::Fp, C::Cvt)
            } else {
                (Family::Int, C::Cvt)
            }
        }
        Op::Ld { .. } => (Family::Mem, C::Load),
        Op::St { .. } => (Family::Mem, C::Store),
        Op::Atom { .. } => (Family::Mem, C::Atomic),
        Op::Red { .. } => (Family::Mem, C::Reduction),
        Op::Membar => (Family::Mem, C::Membar),
        Op::Bra { .. } => (Family::Ctrl, C::Branch),
        // CALL and RET of SASS run on the branch unit and redirect fetch like a branch
        Op::Call { .. } | Op::Return { .. } => (Family::Ctrl, C::Branch),
        Op::Ret | Op::Exit => (Family::Ctrl, C::Exit),
        Op::Bar => (Family::Bar, C::Barrier),
        // warp-level operations as the SASS trace classes them (SHFL; VOTE and MATCH as moves)
        Op::Warp(WarpOp::Shfl(_)) | Op::Warp(WarpOp::Redux(..)) => (Family::Int, C::Shfl),
        Op::Warp(_) => (Family::Int, C::Mov),
        Op::Nop => (Family::Int, C::Nop),
        Op::Trap(_) => (Family::Ctrl, C::Exit),
        Op::Bfe(_)
        | Op::Bfi(_)
        | Op::Bfind { .. }
        | Op::Shf { .. }
        | Op::Lop3
        | Op::Bmsk { .. } => (Family::Int, C::Logic),
        Op::Prmt(_) | Op::Pack { .. } | Op::Unpack { .. } => (Family::Int, C::Mov),
        Op::Cvta { .. } => (Family::Int, C::Add),
        Op::Copysign(Ty::F64) => (Family::Dp, C::Add),
        Op::Copysign(t) => (fam(t), C::Mov),
        Op::Testp(_, t) => (fam(t), C::Setp),
        Op::Mul24 { mad: false, .. } => (Family::Int, C::Mul),
        Op::Mul24 { mad: true, .. } => (Family::Int, C::Mad),
        Op::Carry { kind, ty, .. } => (
            fam(ty),
            match kind {
                CarryKind::Add | CarryKind::Sub => C::Add,
                CarryKind::MadLo | CarryKind::MadHi => C::Mad,
            },
        ),
        // half precision runs on the FP pipeline (HADD2, HMUL2, HFMA2, HSETP2 in SASS)
        Op::Half { op, .. } => (
            Family::Fp,
            match op {
                HalfOp::Add | HalfOp::Sub | HalfOp::Neg | HalfOp::Abs => C::Add,
                HalfOp::Mul => C::Mul,
                HalfOp::Fma => C::Mad,
                HalfOp::Min | HalfOp::Max => C::Max,
                HalfOp::Setp(_) => C::Setp,
            },
        ),
        Op::BarRed(_) => (Family::Bar, C::Barrier),
        // a device system call is one control instruction to the timing model: its work
        // (formatting, the allocator) runs in the driver's runtime on hardware, which the
        // model does not time; the argument stores before it are ordinary local stores
        Op::Sys(_) => (Family::Ctrl, C::Nop),
        // the product runs on the tensor cores; fragment loads and stores on the LD/ST unit
        Op::Tensor(t @ TensorOp::Mma { ab, .. }) => (
            Family::Tensor,
            // every supported shape is 1024, 2048 or 4096 MACs (`ptx/tensor.rs`)
            C::of_mma(t.macs(), ab == MmaTy::Bf16).unwrap_or(C::MmaF16Macs4096),
        ),
        Op::Tensor(TensorOp::WmmaLoad { .. } | TensorOp::Ldmatrix { .. }) => (Family::Mem, C::Load),
        Op::Tensor(TensorOp::WmmaStore { .. }) => (Family::Mem, C::Store),
        // never issued: part of the tensor instruction before it
        Op::Operands => (Family::Int, C::Nop),
        // a texture fetch is a load on the LD/ST unit through the texture path
        Op::Tex(_) => (Family::Mem, C::Load),
    }
}

fn mem_space(s: Space) -> inst::MemSpace {
    match s {
        Space::Global => inst::MemSpace::Global,
        Space::Shared => inst::MemSpace::Shared,
        Space::Local => inst::MemSpace::Local,
        Space::Const => inst::MemSpace::Const,
        Space::Param => inst::MemSpace::Param,
        // the space of a generic access is known per executed instance; the emulator's record
        // carries the resolved one
        Space::Generic => inst::MemSpace::Global,
    }
}

/// The static part of the dynamic record of the tensor instruction at `idx` (its fragment
/// registers named by the carriers after it, `ptx/tensor.rs`).
///
/// The record's lists hold at most `MAX_DST` destinations and `MAX_SRC` sources, fewer than a
/// fragment's registers, so a fragment is represented by some of its registers: the
/// destinations are the first `MAX_DST` registers of the destination fragment; the sources are
/// the address base and stride, then the source fragments' registers taken in turn (A's first,
/// B's first, C's first, A's second, ...), then the guard, cut at `MAX_SRC`. Each fragment is
/// thus tracked by the scoreboard through at least its first register (which the producing
/// load or multiply lists), and the register-file counters see those reads and writes only. A
/// memory access records each lane's first element address and, as its width, the lane's
/// bytes of the fragment (at most 32).
pub fn tensor_template(idx: usize, insts: &[Inst]) -> WarpInst {
    let x = &insts[idx];
    let mut w = template(idx as u32, x);
    let Op::Tensor(t) = x.op else {
        return w;
    };
    let (srcs, dsts) = super::tensor::group_registers(insts, idx);
    let n = dsts.len().min(MAX_DST);
    w.n_dst = n as u8;
    w.dst[..n].copy_from_slice(&dsts[..n]);
    let mut list: Vec<u16> = Vec::new();
    if let AddrBase::R32(r) | AddrBase::R64(r) = x.addr.base {
        list.push(r);
    }
    if let Some(Opnd::R32(r)) = x.srcs().first() {
        list.push(*r);
    }
    let mut frags: Vec<&[u16]> = Vec::new();
    if let TensorOp::Mma {
        wmma, shape, ab, ..
    } = t
    {
        let na = TensorOp::frag_regs(wmma, Frag::A, shape, ab);
        let nb = TensorOp::frag_regs(wmma, Frag::B, shape, ab);
        frags.extend([&srcs[..na], &srcs[na..na + nb], &srcs[na + nb..]]);
    } else {
        frags.push(&srcs);
    }
    let longest = frags.iter().map(|f| f.len()).max().unwrap_or(0);
    for k in 0..longest {
        for f in &frags {
            if let Some(&r) = f.get(k) {
                list.push(r);
            }
        }
    }
    if let Some((g, _)) = x.guard {
        list.push(PRED_BASE + g);
    }
    let mut uniq: Vec<u16> = Vec::new();
    for r in list {
        if !uniq.contains(&r) {
            uniq.push(r);
        }
    }
    uniq.truncate(MAX_SRC);
    w.n_src = uniq.len() as u8;
    w.src[..uniq.len()].copy_from_slice(&uniq);
    if let Some((space, _)) = t.memory() {
        let width = match t {
            TensorOp::WmmaLoad {
                frag, shape, ty, ..
            } => TensorOp::frag_regs(true, frag, shape, ty) * 4,
            TensorOp::WmmaStore { shape, ty, .. } => {
                TensorOp::frag_regs(true, Frag::C, shape, ty) * 4
            }
            _ => 16,
        };
        w.mem = Some(MemInfo {
            space: mem_space(space),
            width_bytes: width.min(32) as u8,
            addrs: [0; inst::WARP_SIZE],
        });
    }
    w
}

/// The static part of an instruction's dynamic record.
///
/// Register lists name architectural registers. Destinations: every 32-bit register written
/// (both halves of a 64-bit pair) and predicates as `PRED_BASE + p`. Sources: first the address
/// base register and the low (or only) register of each source operand in PTX order, then the
/// high halves of 64-bit operands, then the guard predicate; duplicates are dropped and the list
/// is cut at `MAX_SRC` (only `fma.f64`-like or `st.v4` with a guard and 64-bit address lose
/// their last entries).
pub fn template(idx: u32, x: &Inst) -> WarpInst {
    let (family, op) = classify(&x.op);
    let mut w = WarpInst::new(idx * 8, family, op, 0);
    let mut dsts: Vec<u16> = Vec::new();
    for d in x.dsts() {
        match *d {
            Opnd::R32(r) => dsts.push(r),
            Opnd::R64(r) => {
                dsts.push(r);
                dsts.push(r + 1);
            }
            Opnd::Pred(p, _) => dsts.push(PRED_BASE + p),
            _ => {}
        }
    }
    dsts.truncate(MAX_DST);
    w.n_dst = dsts.len() as u8;
    w.dst[..dsts.len()].copy_from_slice(&dsts);
    let mut first: Vec<u16> = Vec::new();
    let mut second: Vec<u16> = Vec::new();
    match x.addr.base {
        AddrBase::R32(r) => first.push(r),
        AddrBase::R64(r) => {
            first.push(r);
            second.push(r + 1);
        }
        _ => {}
    }
    for s in x.srcs() {
        match *s {
            Opnd::R32(r) => first.push(r),
            Opnd::R64(r) => {
                first.push(r);
                second.push(r + 1);
            }
            Opnd::Pred(p, _) => first.push(PRED_BASE + p),
            _ => {}
        }
    }
    first.extend(second);
    if let Some((g, _)) = x.guard {
        first.push(PRED_BASE + g);
    }
    let mut srcs: Vec<u16> = Vec::new();
    for r in first {
        if !srcs.contains(&r) {
            srcs.push(r);
        }
    }
    srcs.truncate(MAX_SRC);
    w.n_src = srcs.len() as u8;
    w.src[..srcs.len()].copy_from_slice(&srcs);
    let memw = match x.op {
        Op::Ld { space, ty, vec } | Op::St { space, ty, vec } => {
            Some((space, ty.bytes() * vec as u32))
        }
        Op::Atom { space, ty, .. } | Op::Red { space, ty, .. } => Some((space, ty.bytes())),
        _ => None,
    };
    if let Some((space, width)) = memw {
        w.mem = Some(MemInfo {
            space: mem_space(space),
            width_bytes: width as u8,
            addrs: [0; inst::WARP_SIZE],
        });
    }
    if let Op::Tex(_) = x.op {
        // one texel per lane; the emulator's record sets the texel's bytes (its format)
        w.mem = Some(MemInfo {
            space: inst::MemSpace::Texture,
            width_bytes: 4,
            addrs: [0; inst::WARP_SIZE],
        });
    }
    w
}
