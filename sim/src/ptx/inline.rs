//! Inlining of `.func` device functions that nvcc did not inline (libdevice slow paths such
//! as `__internal_accurate_pow`, `__noinline__` functions, virtual functions). A `call` is
//! replaced by the callee's body with its registers, local variables and labels renamed apart,
//! its argument and return parameters bound to the caller's call-frame variables (which live in
//! local memory, as the PTX calling convention's `.param` space does per thread), and each
//! `ret` turned into a branch to the end of the inlined body. The result executes exactly as
//! the call would; the timing model sees the callee's instructions without the call and return
//! themselves. A recursive function (one that can reach itself through the call graph) is not
//! inlined: its body is emitted once as a subroutine and its calls become real calls and
//! returns with a stack in local memory (`subcall.rs`).
//!
//! Functions have addresses ([`Funcs`]): the `n`-th function the module declares is at
//! [`FUNC_ADDR_BASE`]` + n·`[`FUNC_ADDR_STRIDE`], a range below every global allocation and
//! outside the generic shared and local windows (`emu/memory.rs`), so no data access reaches
//! it. `mov.u64 %rd, f` and a `.global`/`.const` initialiser naming `f` (a virtual-function
//! or function-pointer table) give that address. An indirect call (`call (r), %rd, (a),
//! proto;`) becomes a comparison chain over its candidate targets — the functions of its
//! `.calltargets` list, or else every function whose address the module takes and whose
//! parameters have the sizes of the `.callprototype` — each branch an ordinary direct call
//! (inlined, or a subroutine call of a recursive candidate), all joining after the chain. This
//! executes exactly (lanes of a warp that call different targets diverge and reconverge at the
//! join through the branch reconvergence, as on hardware); the timing model sees the
//! compare-and-branch instructions of the chain instead of one indirect call. An address that
//! matches no candidate stops the kernel with a runtime error naming the address.
//!
//! A call of `__assertfail` (a device `assert` that failed) becomes a `trap`, which aborts the
//! kernel with a runtime error. A call of `vprintf`, `malloc` or `free` becomes one device
//! system call instruction ([`SYSCALL_OPCODE`], executed by `emu/devcall.rs`). Refused, naming
//! the call: other external functions without a body (`cudaGraphSetConditional`, ...),
//! inlining deeper than [`MAX_DEPTH`], a callee whose own text is not accepted, a recursive
//! function that takes the address of a parameter, and an indirect call without a prototype or
//! with a target that is not a function.

use super::ast::*;
use super::subcall::{CallInfo, Subs};
use crate::SimError;
use std::collections::{HashMap, HashSet};

/// Opcode of the internal instruction a device system call becomes (not valid PTX, so no
/// source text can spell it); its one modifier names the call, its operands are the return
/// and argument call-frame variables.
pub const SYSCALL_OPCODE: &str = "%syscall";

/// Opcode of the internal check an indirect call's chain ends with (`%trap.nofunction a`): a
/// trap naming the called address `a`.
pub const TRAP_OPCODE: &str = "%trap";

/// Address of the module's first function; the code range ends at the first global address.
pub const FUNC_ADDR_BASE: u64 = 0x0800_0000;
/// Bytes between the addresses of consecutive functions.
pub const FUNC_ADDR_STRIDE: u64 = 16;
/// End (exclusive) of the code range: `emu::memory::GLOBAL_BASE`, where global memory starts.
pub const FUNC_ADDR_END: u64 = 0x1000_0000;

/// Deepest chain of inlined calls.
pub const MAX_DEPTH: usize = 16;
/// Most instructions a kernel may have after inlining.
pub const MAX_INLINED_STMTS: usize = 1 << 20;

fn err(file: &str, pos: Pos, msg: String) -> SimError {
    SimError::Parse {
        file: file.to_string(),
        line: pos.line as usize,
        col: pos.col as usize,
        msg,
    }
}

/// The module's device functions as call targets: each by name (its definition when it has
/// one), its address, and the functions whose address the module takes.
pub struct Funcs<'a> {
    by_name: HashMap<&'a str, &'a RawFunc>,
    addr: HashMap<&'a str, u64>,
    /// Functions whose address is taken (an initialiser or an operand other than a direct
    /// call's target names them), in address order.
    taken: Vec<&'a str>,
    /// Functions that can reach themselves through calls (direct, or an indirect call's
    /// candidates): emitted as subroutines, never inlined.
    recursive: HashSet<&'a str>,
}

impl<'a> Funcs<'a> {
    /// The functions of `m`: addresses by order of first declaration, and the address-taken
    /// set from the initialisers of module variables and the bodies of kernels and functions.
    pub fn new(m: &'a RawModule) -> Funcs<'a> {
        let mut by_name = HashMap::new();
        let mut addr = HashMap::new();
        for f in &m.funcs {
            let n = f.name.as_str();
            let next = FUNC_ADDR_BASE + FUNC_ADDR_STRIDE * addr.len() as u64;
            addr.entry(n).or_insert(next);
            // a definition replaces a forward declaration
            if !matches!(f.body, Ok(None)) || !by_name.contains_key(n) {
                by_name.insert(n, f);
            }
        }
        let mut taken: Vec<&str> = Vec::new();
        let mut take = |n: &str| {
            if let Some((&k, _)) = addr.get_key_value(n) {
                if !taken.contains(&k) {
                    taken.push(k);
                }
            }
        };
        for v in &m.vars {
            v.syms.iter().for_each(|(n, _)| take(n));
        }
        let bodies = m.kernels.iter().chain(
            m.funcs
                .iter()
                .filter_map(|f| f.body.as_ref().ok().and_then(|b| b.as_ref())),
        );
        for b in bodies {
            for st in &b.body {
                if let Stmt::Inst(ri) = st {
                    for n in address_operands(ri) {
                        take(n);
                    }
                }
            }
        }
        taken.sort_by_key(|n| addr[n]);
        let mut fs = Funcs {
            by_name,
            addr,
            taken,
            recursive: HashSet::new(),
        };
        let bodies: HashMap<&'a str, &'a RawFunc> = fs
            .by_name
            .iter()
            .filter(|(_, f)| matches!(f.body, Ok(Some(_))))
            .map(|(&n, &f)| (n, f))
            .collect();
        fs.recursive = super::subcall::recursive_set(&bodies, |f| fs.callees(f));
        fs
    }

    /// The functions `f`'s body calls: direct targets, and the candidates of its indirect
    /// calls.
    fn callees(&self, f: &'a RawFunc) -> Vec<&'a str> {
        let Ok(Some(b)) = &f.body else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for st in &b.body {
            let Stmt::Inst(ri) = st else { continue };
            if ri.opcode != "call" {
                continue;
            }
            match ri.operands.get(1) {
                Some((RawOpnd::Name(t), _)) if !t.starts_with('%') => {
                    if let Some((&n, _)) = self.by_name.get_key_value(t.as_str()) {
                        out.push(n);
                    }
                }
                Some(_) => {
                    let proto = ri.operands.get(3).and_then(|(o, _)| match o {
                        RawOpnd::Name(n) => Some(n.as_str()),
                        _ => None,
                    });
                    let sig = proto.and_then(|p| b.protos.iter().find(|x| x.name == p));
                    if let Some(Ok(c)) = sig.map(|p| self.candidates(&p.sig)) {
                        out.extend(c);
                    }
                }
                None => {}
            }
        }
        out
    }

    /// True when function `name` can reach itself through calls.
    pub fn is_recursive(&self, name: &str) -> bool {
        self.recursive.contains(name)
    }

    /// The definition of function `name` and its body, when it has one.
    pub fn body_of(&self, name: &str) -> Option<(&'a RawFunc, &'a RawKernel)> {
        let f: &'a RawFunc = self.by_name.get(name)?;
        match &f.body {
            Ok(Some(b)) => Some((f, b)),
            _ => None,
        }
    }

    /// The address of function `name`.
    pub fn address(&self, name: &str) -> Option<u64> {
        self.addr.get(name).copied()
    }

    /// True when an instruction of `k` names a function's address as a value.
    pub fn mentions_address(&self, k: &RawKernel) -> bool {
        k.body.iter().any(|st| {
            matches!(st, Stmt::Inst(ri) if address_operands(ri).any(|n| self.addr.contains_key(n)))
        })
    }

    /// Replaces every function name used as a value in `k` (`mov.u64 %rd, f`, `f+8`) by the
    /// function's address.
    pub fn resolve_addresses(&self, k: &mut RawKernel) {
        for st in k.body.iter_mut() {
            let Stmt::Inst(ri) = st else { continue };
            if ri.opcode == "call" {
                continue;
            }
            for (o, _) in ri.operands.iter_mut() {
                let (n, off) = match o {
                    RawOpnd::Name(n) => (n.as_str(), 0),
                    RawOpnd::NameOff(n, off) => (n.as_str(), *off),
                    _ => continue,
                };
                if let Some(a) = self.address(n) {
                    *o = RawOpnd::Imm(InitVal::Int(i128::from(a) + i128::from(off)));
                }
            }
        }
    }

    /// The functions an indirect call with signature `sig` may reach, in address order (a
    /// target list in its own order); a function only declared (defined in another module) is
    /// no candidate unless it is a device system call.
    fn candidates(&self, sig: &CallSig) -> Result<Vec<&'a str>, String> {
        let callable =
            |f: &RawFunc| !matches!(f.body, Ok(None)) || super::isa::SysCall::of(&f.name).is_some();
        match sig {
            CallSig::Targets(list) => {
                let mut out: Vec<&str> = Vec::new();
                for t in list {
                    let Some((&n, _)) = self.by_name.get_key_value(t.as_str()) else {
                        return Err(format!("call target '{t}' is not a function of the module"));
                    };
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
                Ok(out)
            }
            CallSig::Proto { rets, params } => Ok(self
                .taken
                .iter()
                .copied()
                .filter(|n| {
                    let f = self.by_name[n];
                    callable(f) && same_sizes(&f.rets, rets) && same_sizes(&f.params, params)
                })
                .collect()),
        }
    }
}

/// Bytes of a parameter (elements × element size).
fn param_bytes(p: &ParamDecl) -> u64 {
    u64::from(p.ty.bytes()) * u64::from(p.elems.unwrap_or(1))
}

/// True when two parameter lists have the same number of parameters of the same sizes (the
/// calling convention passes each as that many bytes; `.b32` and `.f32` are alike).
fn same_sizes(a: &[ParamDecl], b: &[ParamDecl]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| param_bytes(x) == param_bytes(y))
}

/// Names an instruction uses as values (every operand name except a call's target, frame
/// variables and prototype).
fn address_operands(ri: &RawInst) -> impl Iterator<Item = &str> {
    let is_call = ri.opcode == "call";
    ri.operands.iter().filter_map(move |(o, _)| match o {
        RawOpnd::Name(n) | RawOpnd::NameOff(n, _) if !is_call => Some(n.as_str()),
        _ => None,
    })
}

/// Replaces every `call` of kernel `k` by the callee's body (an indirect call by a comparison
/// chain over its candidates, each a direct call); a call of a recursive function becomes a
/// subroutine call, saving the registers `plan` lists for each call site (`subcall.rs`).
/// Returns the recursive functions and call sites found (empty when there are none).
pub fn inline_calls(
    k: &mut RawKernel,
    funcs: &Funcs,
    file: &str,
    plan: &CallInfo,
) -> Result<CallInfo, SimError> {
    if !k
        .body
        .iter()
        .any(|s| matches!(s, Stmt::Inst(i) if i.opcode == "call"))
    {
        return Ok(CallInfo::default());
    }
    let mut counter = 0u32;
    let body = std::mem::take(&mut k.body);
    let mut out = Vec::with_capacity(body.len());
    let mut stack = Vec::new();
    let mut subs = Subs::new(plan);
    expand(
        body,
        funcs,
        k,
        &mut out,
        &mut stack,
        &mut counter,
        file,
        &mut subs,
    )?;
    if !subs.found.is_empty() {
        Subs::finish_kernel(k, &mut out);
        while let Some((i, name)) = subs.next_body() {
            let (seg, tail) = subs.body(funcs, i, k, file)?;
            let mut stack = vec![name];
            expand(
                seg,
                funcs,
                k,
                &mut out,
                &mut stack,
                &mut counter,
                file,
                &mut subs,
            )?;
            out.extend(tail);
        }
        subs.found.kernel_need = subs.kernel_need(funcs);
    }
    k.body = out;
    Ok(subs.found)
}

#[allow(clippy::too_many_arguments)]
fn expand(
    body: Vec<Stmt>,
    funcs: &Funcs,
    k: &mut RawKernel,
    out: &mut Vec<Stmt>,
    stack: &mut Vec<String>,
    counter: &mut u32,
    file: &str,
    subs: &mut Subs,
) -> Result<(), SimError> {
    for st in body {
        let ri = match st {
            Stmt::Inst(ri) if ri.opcode == "call" => ri,
            other => {
                out.push(other);
                continue;
            }
        };
        if out.len() > MAX_INLINED_STMTS {
            return Err(err(
                file,
                ri.pos,
                "the kernel is too long after inlining its calls".into(),
            ));
        }
        let (rets, target, args) = match &ri.operands[..] {
            [(RawOpnd::Vec(r), _), (RawOpnd::Name(t), tp), (RawOpnd::Vec(a), _), ..] => {
                (r.clone(), (t.clone(), *tp), a.clone())
            }
            _ => return Err(err(file, ri.pos, "malformed call".into())),
        };
        let (name, tpos) = target;
        if name.starts_with('%') {
            let chain = indirect(&ri, funcs, k, counter, file)?;
            expand(chain, funcs, k, out, stack, counter, file, subs)?;
            continue;
        }
        let Some(f) = funcs.by_name.get(name.as_str()) else {
            return Err(err(
                file,
                tpos,
                format!("'call' of undeclared function '{name}'"),
            ));
        };
        let callee = match &f.body {
            Ok(Some(b)) => b,
            Ok(None) if name == "__assertfail" => {
                // a failed device assert aborts the kernel: the call becomes a trap
                let mut t = ri.clone();
                t.opcode = "trap".to_string();
                t.mods.clear();
                t.operands.clear();
                out.push(Stmt::Inst(t));
                continue;
            }
            Ok(None) if super::isa::SysCall::of(&name).is_some() => {
                // vprintf, malloc, free, cudaGraphSetConditional: one device system call on the
                // call-frame slots
                let sc = super::isa::SysCall::of(&name).unwrap_or(super::isa::SysCall::Free);
                if (rets.len(), args.len()) != sc.arity() {
                    return Err(err(
                        file,
                        ri.pos,
                        format!(
                            "'call' of '{name}' passes {} return and {} argument parameters; \
                             it takes {} and {}",
                            rets.len(),
                            args.len(),
                            sc.arity().0,
                            sc.arity().1
                        ),
                    ));
                }
                let mut t = ri.clone();
                t.opcode = SYSCALL_OPCODE.to_string();
                t.mods = vec![name.clone()];
                let slot = |n: &String| (RawOpnd::Name(n.clone()), tpos);
                t.operands = rets.iter().chain(&args).map(slot).collect();
                out.push(Stmt::Inst(t));
                continue;
            }
            Ok(None) => {
                return Err(err(
                    file,
                    tpos,
                    format!(
                        "'call': '{name}' is an external function without a body: device \
                         system calls other than vprintf (printf), malloc, free, \
                         cudaGraphSetConditional and __assertfail (assert) are not supported"
                    ),
                ))
            }
            Err((p, m)) => {
                return Err(err(
                    file,
                    *p,
                    format!("'call' of '{name}', whose body is not accepted: {m}"),
                ))
            }
        };
        if funcs.is_recursive(&name) {
            check_call(&ri, &name, f, (&rets, &args), k, file)?;
            subs.call(funcs, &name, &rets, &args, k, out, ri.pos, file)?;
            continue;
        }
        if stack.iter().any(|s| s == &name) {
            return Err(err(
                file,
                tpos,
                format!("'call': recursive call of '{name}' is not supported"),
            ));
        }
        if stack.len() >= MAX_DEPTH {
            return Err(err(
                file,
                tpos,
                format!("'call': calls nested deeper than {MAX_DEPTH} are not supported"),
            ));
        }
        check_call(&ri, &name, f, (&rets, &args), k, file)?;
        *counter += 1;
        let sfx = format!("$i{counter}");
        let mut map = import_decls(k, callee, &sfx, |_| false);
        // the callee's parameters are the caller's frame variables
        let mut bound = Vec::new();
        for (p, a) in f.params.iter().zip(&args).chain(f.rets.iter().zip(&rets)) {
            map.insert(p.name.clone(), a.clone());
            bound.push(a.clone());
        }
        let end = format!("$L__ret{sfx}");
        // label names first (a branch may jump forward), then the body in order
        for st in &callee.body {
            if let Stmt::Label(l, _) = st {
                map.insert(l.clone(), format!("{l}{sfx}"));
            }
        }
        let mut seg = Vec::with_capacity(callee.body.len());
        for st in &callee.body {
            match st {
                Stmt::Label(l, p) => seg.push(Stmt::Label(format!("{l}{sfx}"), *p)),
                Stmt::Inst(ci) => {
                    let mut ci = ci.clone();
                    rename(&mut ci, &map);
                    if ci.opcode == "ret" {
                        ci.opcode = "bra".to_string();
                        ci.mods.retain(|m| m == "uni");
                        ci.operands = vec![(RawOpnd::Name(end.clone()), ci.pos)];
                    }
                    super::parser::frame_to_local(&mut ci, &bound);
                    super::parser::frame_to_local(&mut ci, &k.frame_params);
                    seg.push(Stmt::Inst(ci));
                }
            }
        }
        stack.push(name.clone());
        expand(seg, funcs, k, out, stack, counter, file, subs)?;
        stack.pop();
        out.push(Stmt::Label(end, ri.pos));
    }
    Ok(())
}

/// Checks a direct call of `name` (definition `f`): the numbers of return and argument
/// parameters, call-frame variables as parameters, no guard.
fn check_call(
    ri: &RawInst,
    name: &str,
    f: &RawFunc,
    (rets, args): (&[String], &[String]),
    k: &RawKernel,
    file: &str,
) -> Result<(), SimError> {
    if rets.len() != f.rets.len() || args.len() != f.params.len() {
        return Err(err(
            file,
            ri.pos,
            format!(
                "'call' of '{name}' passes {} return and {} argument parameters; it \
                 declares {} and {}",
                rets.len(),
                args.len(),
                f.rets.len(),
                f.params.len()
            ),
        ));
    }
    if ri.guard.is_some() {
        return Err(err(
            file,
            ri.pos,
            "a guarded 'call' is not supported".into(),
        ));
    }
    if let Some(a) = args
        .iter()
        .chain(rets)
        .find(|a| !k.frame_params.contains(a))
    {
        return Err(err(
            file,
            ri.pos,
            format!("'call' of '{name}': '{a}' is not a call-frame .param variable"),
        ));
    }
    Ok(())
}

/// The comparison chain an indirect call `ri` (`call (rets), %a, (args), proto;`) becomes:
/// for each candidate `f` in turn `setp.eq %p, %a, addr(f); @%p bra L_f;`, then a trap naming
/// the address, and per candidate `L_f: call (rets), f, (args); bra.uni L_end;`, then
/// `L_end:`. The direct calls are expanded by the caller (inlined, or a subroutine call of a
/// recursive candidate).
fn indirect(
    ri: &RawInst,
    funcs: &Funcs,
    k: &mut RawKernel,
    counter: &mut u32,
    file: &str,
) -> Result<Vec<Stmt>, SimError> {
    let (target, tpos) = match &ri.operands[1] {
        (RawOpnd::Name(t), p) => (t.clone(), *p),
        _ => return Err(err(file, ri.pos, "malformed call".into())),
    };
    let Some((proto, ppos)) = ri.operands.get(3).and_then(|(o, p)| match o {
        RawOpnd::Name(n) => Some((n.as_str(), *p)),
        _ => None,
    }) else {
        return Err(err(
            file,
            tpos,
            "indirect 'call' without a .callprototype or .calltargets label".into(),
        ));
    };
    let Some(sig) = k
        .protos
        .iter()
        .find(|p| p.name == proto)
        .map(|p| p.sig.clone())
    else {
        return Err(err(
            file,
            ppos,
            format!("'call': '{proto}' is not a .callprototype or .calltargets label"),
        ));
    };
    if ri.guard.is_some() {
        return Err(err(
            file,
            ri.pos,
            "a guarded 'call' is not supported".into(),
        ));
    }
    let wide = match k.regs.iter().find(|(r, _, _)| *r == target) {
        Some((_, ty, _)) if ty.bytes() == 8 => true,
        Some((_, ty, _)) if ty.bytes() == 4 && *ty != super::isa::Ty::Pred => false,
        _ => {
            return Err(err(
                file,
                tpos,
                format!(
                    "indirect 'call' through '{target}', which is not a 32- or 64-bit register"
                ),
            ))
        }
    };
    let cands = funcs.candidates(&sig).map_err(|m| err(file, ppos, m))?;
    *counter += 1;
    let n = *counter;
    let pred = format!("%icall$p{n}");
    k.regs.push((pred.clone(), super::isa::Ty::Pred, ri.pos));
    let pos = ri.pos;
    let inst = |opcode: &str, mods: &[&str], operands: Vec<RawOpnd>| {
        Stmt::Inst(RawInst {
            guard: None,
            opcode: opcode.to_string(),
            mods: mods.iter().map(|m| m.to_string()).collect(),
            operands: operands.into_iter().map(|o| (o, pos)).collect(),
            pos,
        })
    };
    let name = |s: &str| RawOpnd::Name(s.to_string());
    let label = |j: usize| format!("$L__icall{n}_{j}");
    let end = format!("$L__icall{n}_end");
    let ty = if wide { "u64" } else { "u32" };
    let mut out = Vec::with_capacity(4 * cands.len() + 4);
    for (j, f) in cands.iter().enumerate() {
        let a = funcs.address(f).unwrap_or(0);
        out.push(inst(
            "setp",
            &["eq", ty],
            vec![
                name(&pred),
                name(&target),
                RawOpnd::Imm(InitVal::Int(a.into())),
            ],
        ));
        let mut bra = inst("bra", &[], vec![name(&label(j))]);
        if let Stmt::Inst(b) = &mut bra {
            b.guard = Some((pred.clone(), false, pos));
        }
        out.push(bra);
    }
    out.push(inst(TRAP_OPCODE, &["nofunction"], vec![name(&target)]));
    out.push(inst("bra", &["uni"], vec![name(&end)]));
    for (j, f) in cands.iter().enumerate() {
        out.push(Stmt::Label(label(j), pos));
        let mut call = ri.clone();
        call.operands.truncate(3);
        call.operands[1].0 = name(f);
        out.push(Stmt::Inst(call));
        out.push(inst("bra", &["uni"], vec![name(&end)]));
    }
    out.push(Stmt::Label(end, pos));
    Ok(out)
}

/// Renames registers, variables, parameters and labels of an inlined instruction.
/// Declares `body`'s registers, variables (those `skip_var` does not take), frame parameters
/// and call prototypes in `k` under names suffixed with `sfx`; returns the renaming map (old
/// name → new name) for the body's statements. Shared by the inliner and the emitter of
/// recursive subroutines.
pub(super) fn import_decls(
    k: &mut RawKernel,
    body: &RawKernel,
    sfx: &str,
    skip_var: impl Fn(&str) -> bool,
) -> HashMap<String, String> {
    let mut map: HashMap<String, String> = HashMap::new();
    for (r, ty, p) in &body.regs {
        let n = format!("{r}{sfx}");
        map.insert(r.clone(), n.clone());
        k.regs.push((n, *ty, *p));
    }
    for v in body.vars.iter().filter(|v| !skip_var(&v.name)) {
        let mut v = v.clone();
        let n = format!("{}{sfx}", v.name);
        map.insert(v.name.clone(), n.clone());
        v.name = n;
        k.vars.push(v);
    }
    for fp in &body.frame_params {
        k.frame_params.push(format!("{fp}{sfx}"));
    }
    for p in &body.protos {
        let n = format!("{}{sfx}", p.name);
        map.insert(p.name.clone(), n.clone());
        k.protos.push(CallProto {
            name: n,
            ..p.clone()
        });
    }
    map
}

fn rename(ri: &mut RawInst, map: &HashMap<String, String>) {
    ri.rename_names(|n| map.get(n).cloned());
}
