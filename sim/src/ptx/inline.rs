//! Inlining of `.func` device functions that nvcc did not inline (libdevice slow paths such
//! as `__internal_accurate_pow`, `__noinline__` functions). A `call` is replaced by the
//! callee's body with its registers, local variables and labels renamed apart, its argument
//! and return parameters bound to the caller's call-frame variables (which live in local
//! memory, as the PTX calling convention's `.param` space does per thread), and each `ret`
//! turned into a branch to the end of the inlined body. The result executes exactly as the
//! call would; the timing model sees the callee's instructions without the call and return
//! themselves.
//!
//! A call of `__assertfail` (a device `assert` that failed) becomes a `trap`, which aborts the
//! kernel with a runtime error. A call of `vprintf`, `malloc` or `free` becomes one device
//! system call instruction ([`SYSCALL_OPCODE`], executed by `emu/devcall.rs`). Refused, naming
//! the call: indirect calls (function pointers, virtual functions), other external functions
//! without a body (`cudaGraphSetConditional`, ...), recursion, inlining deeper than [`MAX_DEPTH`], and a callee whose own text is not
//! accepted.

use super::ast::*;
use crate::SimError;
use std::collections::HashMap;

/// Opcode of the internal instruction a device system call becomes (not valid PTX, so no
/// source text can spell it); its one modifier names the call, its operands are the return
/// and argument call-frame variables.
pub const SYSCALL_OPCODE: &str = "%syscall";

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

/// Replaces every `call` of kernel `k` by the callee's body.
pub fn inline_calls(k: &mut RawKernel, funcs: &[RawFunc], file: &str) -> Result<(), SimError> {
    if !k
        .body
        .iter()
        .any(|s| matches!(s, Stmt::Inst(i) if i.opcode == "call"))
    {
        return Ok(());
    }
    let by_name: HashMap<&str, &RawFunc> = funcs.iter().map(|f| (f.name.as_str(), f)).collect();
    let mut counter = 0u32;
    let body = std::mem::take(&mut k.body);
    let mut out = Vec::with_capacity(body.len());
    let mut stack = Vec::new();
    expand(body, &by_name, k, &mut out, &mut stack, &mut counter, file)?;
    k.body = out;
    Ok(())
}

fn expand(
    body: Vec<Stmt>,
    funcs: &HashMap<&str, &RawFunc>,
    k: &mut RawKernel,
    out: &mut Vec<Stmt>,
    stack: &mut Vec<String>,
    counter: &mut u32,
    file: &str,
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
            [(RawOpnd::Vec(r), _), (RawOpnd::Name(t), tp), (RawOpnd::Vec(a), _)] => {
                (r.clone(), (t.clone(), *tp), a.clone())
            }
            _ => return Err(err(file, ri.pos, "malformed call".into())),
        };
        let (name, tpos) = target;
        if name.starts_with('%') {
            return Err(err(
                file,
                tpos,
                "'call': indirect calls (function pointers, virtual functions) are not supported"
                    .into(),
            ));
        }
        let Some(f) = funcs.get(name.as_str()) else {
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
        *counter += 1;
        let sfx = format!("$i{counter}");
        let mut map: HashMap<String, String> = HashMap::new();
        for (r, ty, p) in &callee.regs {
            let n = format!("{r}{sfx}");
            map.insert(r.clone(), n.clone());
            k.regs.push((n, *ty, *p));
        }
        for v in &callee.vars {
            let mut v = v.clone();
            let n = format!("{}{sfx}", v.name);
            map.insert(v.name.clone(), n.clone());
            v.name = n;
            k.vars.push(v);
        }
        for fp in &callee.frame_params {
            k.frame_params.push(format!("{fp}{sfx}"));
        }
        // the callee's parameters are the caller's frame variables
        let mut bound = Vec::new();
        for (p, a) in f.params.iter().zip(&args).chain(f.rets.iter().zip(&rets)) {
            map.insert(p.name.clone(), a.clone());
            bound.push(a.clone());
            if !k.frame_params.contains(a) {
                return Err(err(
                    file,
                    ri.pos,
                    format!("'call' of '{name}': '{a}' is not a call-frame .param variable"),
                ));
            }
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
        expand(seg, funcs, k, out, stack, counter, file)?;
        stack.pop();
        out.push(Stmt::Label(end, ri.pos));
    }
    Ok(())
}

/// Renames registers, variables, parameters and labels of an inlined instruction.
fn rename(ri: &mut RawInst, map: &HashMap<String, String>) {
    ri.rename_names(|n| map.get(n).cloned());
}
