//! Recursive-descent parser from tokens to the syntax tree ([`RawModule`]): module directives,
//! module-scope variables, kernels with their parameters, performance directives, register and
//! variable declarations, labels and instructions (opcode, modifiers, guard, operands). Meaning is
//! assigned later by `decode`.
//!
//! Longer than 600 lines on purpose: one recursive-descent grammar, whose productions call each
//! other and share one token cursor.

pub use super::ast::*;
use super::isa::Ty;
use super::lexer::{Tok, Token};
use crate::SimError;

mod recover;
pub(super) use recover::frame_to_local;

/// Deepest nesting of `{ }` blocks or initialiser braces accepted.
const MAX_NESTING: u32 = 64;

/// Most virtual registers one kernel may declare (`.reg .b32 %r<N>;` declares N). Each is
/// materialised with its name, so a corrupt count would otherwise exhaust memory; compiler
/// output stays far below this.
const MAX_KERNEL_REGS: usize = 1 << 20;

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    file: &'a str,
    depth: u32,
    /// Register renames of the enclosing `{ }` blocks of the kernel being parsed, innermost
    /// last: a `.reg` that reuses a name declared earlier in the kernel (sibling or nested
    /// blocks, as nvcc emits for inlined functions) gets a unique name in its block.
    scopes: Vec<std::collections::HashMap<String, String>>,
    /// Every register name declared so far in the kernel being parsed.
    declared: std::collections::HashSet<String>,
}

type PResult<T> = Result<T, SimError>;

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }
    fn pos(&self) -> Pos {
        let t = &self.toks[self.i];
        Pos {
            line: t.line,
            col: t.col,
        }
    }
    fn bump(&mut self) -> &Token {
        let t = &self.toks[self.i];
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn err_at<T>(&self, pos: Pos, msg: impl Into<String>) -> PResult<T> {
        Err(SimError::Parse {
            file: self.file.to_string(),
            line: pos.line as usize,
            col: pos.col as usize,
            msg: msg.into(),
        })
    }
    fn expected<T>(&self, what: &str) -> PResult<T> {
        self.err_at(
            self.pos(),
            format!("expected {what}, found {}", self.peek().describe()),
        )
    }
    fn is_punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.expected(&format!("'{c}'"))
        }
    }
    fn is_dot(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Dot(d) if d == s)
    }
    fn eat_dot(&mut self, s: &str) -> bool {
        if self.is_dot(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn ident(&mut self, what: &str) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.expected(what),
        }
    }
    fn uint(&mut self, what: &str) -> PResult<u64> {
        match *self.peek() {
            Tok::Int(v) => {
                self.bump();
                Ok(v)
            }
            _ => self.expected(what),
        }
    }
    fn u32_val(&mut self, what: &str) -> PResult<u32> {
        let p = self.pos();
        let v = self.uint(what)?;
        u32::try_from(v).or_else(|_| self.err_at(p, format!("{what} {v} is out of range")))
    }
    /// Signed integer (optional leading `-`).
    fn sint(&mut self, what: &str) -> PResult<i64> {
        let neg = self.eat_punct('-');
        let p = self.pos();
        let v = self.uint(what)?;
        let v = i64::try_from(v).or_else(|_| self.err_at(p, "offset out of range"))?;
        Ok(if neg { -v } else { v })
    }
    fn ty(&mut self) -> PResult<Ty> {
        if let Tok::Dot(d) = self.peek() {
            if let Some(t) = Ty::from_name(d) {
                self.bump();
                return Ok(t);
            }
        }
        self.expected("a type such as .u32, .f32, .b64")
    }
    /// Skips the rest of the current line (for `.file`, `.loc`).
    fn skip_line(&mut self) {
        let line = self.toks[self.i].line;
        while self.toks[self.i].line == line && *self.peek() != Tok::Eof {
            self.bump();
        }
    }

    fn module(&mut self) -> PResult<RawModule> {
        let mut m = RawModule::default();
        let mut seen_version = false;
        loop {
            let p = self.pos();
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Dot(d) => match d.as_str() {
                    "version" => {
                        self.bump();
                        let p2 = self.pos();
                        let major = match *self.peek() {
                            Tok::Float(f) => f.trunc(),
                            Tok::Int(v) => v as f64,
                            _ => return self.expected("a PTX version number"),
                        };
                        self.bump();
                        if major < 2.0 {
                            return self.err_at(p2, "PTX version must be 2.0 or later");
                        }
                        seen_version = true;
                    }
                    "target" => {
                        self.bump();
                        let t = self.ident("a target such as sm_20")?;
                        if !t.starts_with("sm_") && !t.starts_with("compute_") {
                            return self.err_at(p, format!("expected a target sm_XX, found '{t}'"));
                        }
                        while self.eat_punct(',') {
                            self.ident("a target option")?;
                        }
                    }
                    "address_size" => {
                        self.bump();
                        let p2 = self.pos();
                        let v = self.uint("32 or 64")?;
                        if v != 32 && v != 64 {
                            return self.err_at(p2, "expected .address_size 32 or 64");
                        }
                    }
                    "file" | "loc" | "section" => self.skip_line(),
                    "pragma" => {
                        self.bump();
                        while !self.is_punct(';') && *self.peek() != Tok::Eof {
                            self.bump();
                        }
                        self.expect_punct(';')?;
                    }
                    "visible" | "weak" | "extern" | "entry" | "global" | "const" | "shared"
                    | "local" | "align" => {
                        let is_extern = d == "extern";
                        if d == "visible" || d == "weak" || d == "extern" {
                            self.bump();
                        }
                        if self.is_dot("entry") {
                            let start = self.i;
                            let (name, kpos, res) = match self.kernel() {
                                Ok(k) => (k.name.clone(), k.pos, Ok(k)),
                                Err(e) => {
                                    self.i = start;
                                    let Some((name, kpos)) = self.skip_entry() else {
                                        return Err(e);
                                    };
                                    (name, kpos, Err(e))
                                }
                            };
                            let seen = m.kernels.iter().any(|x| x.name == name)
                                || m.refused.iter().any(|x| x.name == name);
                            if seen {
                                return self.err_at(kpos, format!("kernel '{name}' defined twice"));
                            }
                            match res {
                                Ok(k) => m.kernels.push(k),
                                Err(e) => m.refused.push(RefusedKernel::from_error(&name, e, kpos)),
                            }
                        } else if self.is_dot("func") {
                            let f = self.func()?;
                            m.funcs.push(f);
                        } else if self.texture_decl_ahead() {
                            let name = self.skip_texture_decl()?;
                            m.textures.push(name);
                        } else {
                            let vs = self.var_decl(is_extern, true)?;
                            m.vars.extend(vs);
                        }
                    }
                    "func" => {
                        let f = self.func()?;
                        m.funcs.push(f);
                    }
                    "tex" | "surf" | "texref" | "surfref" | "samplerref" => {
                        let name = self.skip_texture_decl()?;
                        m.textures.push(name);
                    }
                    _ => return self.err_at(p, format!("unknown directive '.{d}'")),
                },
                t => {
                    return self.err_at(
                        p,
                        format!("expected a directive or .entry, found {}", t.describe()),
                    )
                }
            }
        }
        if !seen_version && !m.kernels.is_empty() {
            return self.err_at(Pos { line: 1, col: 1 }, "expected a .version directive");
        }
        Ok(m)
    }

    /// Parses `.space [.align N] .type name[dims] [= init] {, name...};`
    fn var_decl(&mut self, is_extern: bool, module_scope: bool) -> PResult<Vec<VarDecl>> {
        let mut align = 0u32;
        if self.eat_dot("align") {
            align = self.u32_val("an alignment")?;
        }
        let p = self.pos();
        let space = match self.peek() {
            Tok::Dot(d) if d == "global" && module_scope => VarSpace::Global,
            Tok::Dot(d) if d == "const" && module_scope => VarSpace::Const,
            Tok::Dot(d) if d == "shared" => VarSpace::Shared,
            Tok::Dot(d) if d == "local" => VarSpace::Local,
            _ => {
                return self.expected(if module_scope {
                    "a state space .global, .const, .shared or .local"
                } else {
                    "a state space .shared or .local"
                })
            }
        };
        self.bump();
        if self.eat_dot("align") {
            align = self.u32_val("an alignment")?;
        }
        if let Tok::Dot(d) = self.peek() {
            if d.starts_with('v') && d.len() == 2 {
                return self.err_at(
                    self.pos(),
                    "vector variables are not supported; declare an array",
                );
            }
        }
        let ty = self.ty()?;
        if ty == Ty::Pred {
            return self.err_at(p, "a memory variable cannot have type .pred");
        }
        if align == 0 {
            align = ty.bytes();
        }
        if !align.is_power_of_two() {
            return self.err_at(p, format!("alignment {align} is not a power of two"));
        }
        let mut out = Vec::new();
        loop {
            let vp = self.pos();
            let name = self.ident("a variable name")?;
            let mut dims: Vec<Option<u64>> = Vec::new();
            while self.eat_punct('[') {
                if self.eat_punct(']') {
                    dims.push(None);
                } else {
                    dims.push(Some(self.uint("an array size")?));
                    self.expect_punct(']')?;
                }
            }
            let mut init = None;
            let mut syms = Vec::new();
            if self.eat_punct('=') {
                if space != VarSpace::Global && space != VarSpace::Const {
                    return self.err_at(
                        vp,
                        "only .global and .const variables may have initialisers",
                    );
                }
                let mut vals = Vec::new();
                self.init_list(&mut vals, &mut syms)?;
                init = Some(vals);
            }
            let elems = if dims.iter().any(|d| d.is_none()) {
                if dims.len() != 1 {
                    return self.err_at(
                        vp,
                        "only a one-dimensional array may have an unsized dimension",
                    );
                }
                init.as_ref().map(|v| v.len() as u64)
            } else {
                Some(dims.iter().map(|d| d.unwrap_or(1)).product::<u64>())
            };
            if elems.is_none() && !(is_extern && space == VarSpace::Shared) {
                return self.err_at(
                    vp,
                    "an unsized array must be .extern .shared or have an initialiser",
                );
            }
            if let (Some(n), Some(v)) = (elems, init.as_ref()) {
                if v.len() as u64 > n {
                    return self.err_at(vp, format!("{} initialisers for {n} elements", v.len()));
                }
            }
            out.push(VarDecl {
                space,
                align,
                ty,
                name,
                elems,
                is_extern,
                init,
                syms,
                pos: vp,
            });
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';')?;
        Ok(out)
    }

    /// Enters one nesting level, refusing absurd depths (which would exhaust the stack).
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.err_at(
                self.pos(),
                format!("braces nested deeper than {MAX_NESTING}"),
            );
        }
        Ok(())
    }

    /// One initialiser element or brace list into `out`; a symbol's address (`name`,
    /// `generic(name)`, optionally `+N`) becomes [`InitVal::Sym`] with the symbol in `syms`.
    fn init_list(&mut self, out: &mut Vec<InitVal>, syms: &mut Vec<(String, i64)>) -> PResult<()> {
        if self.is_punct('{') {
            self.enter()?;
            self.bump();
            loop {
                self.init_list(out, syms)?;
                if !self.eat_punct(',') {
                    break;
                }
            }
            self.depth -= 1;
            self.expect_punct('}')
        } else if let Tok::Ident(first) = self.peek().clone() {
            self.bump();
            let mut name = first;
            if self.eat_punct('(') {
                name = self.ident("a symbol name")?;
                self.expect_punct(')')?;
            }
            let mut off = 0i64;
            if self.eat_punct('+') {
                let p = self.pos();
                let v = self.uint("an offset")?;
                off = i64::try_from(v).or_else(|_| self.err_at(p, "offset out of range"))?;
            }
            let idx = u32::try_from(syms.len())
                .or_else(|_| self.err_at(self.pos(), "too many symbol initialisers"))?;
            syms.push((name, off));
            out.push(InitVal::Sym(idx));
            Ok(())
        } else {
            let v = self.imm()?;
            out.push(v);
            Ok(())
        }
    }

    /// Immediate value (optionally negative).
    fn imm(&mut self) -> PResult<InitVal> {
        let neg = self.eat_punct('-');
        let v = match *self.peek() {
            Tok::Int(v) => InitVal::Int(if neg { -(v as i128) } else { v as i128 }),
            Tok::Float(f) => InitVal::Float(if neg { -f } else { f }),
            Tok::F32Bits(b) => InitVal::F32Bits(if neg { b ^ 0x8000_0000 } else { b }),
            Tok::F64Bits(b) => InitVal::F64Bits(if neg { b ^ (1 << 63) } else { b }),
            _ => return self.expected("a constant"),
        };
        self.bump();
        Ok(v)
    }

    fn dim3(&mut self) -> PResult<[u32; 3]> {
        let mut d = [1u32; 3];
        d[0] = self.u32_val("a thread count")?;
        for slot in d.iter_mut().skip(1) {
            if !self.eat_punct(',') {
                break;
            }
            *slot = self.u32_val("a thread count")?;
        }
        Ok(d)
    }

    /// A parenthesised `.param` list, after its `(`: `.param [.align N] .type [.ptr …] name[[N]]`,
    /// comma-separated, up to the closing `)`. With `anonymous` (a call prototype) every
    /// parameter may be named `_`.
    fn param_list(&mut self, anonymous: bool) -> PResult<Vec<ParamDecl>> {
        let mut out: Vec<ParamDecl> = Vec::new();
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            let pp = self.pos();
            if !self.eat_dot("param") {
                return self.expected("'.param'");
            }
            let mut align = 0;
            if self.eat_dot("align") {
                align = self.u32_val("an alignment")?;
            }
            let ty = self.ty()?;
            loop {
                if self.eat_dot("ptr") {
                    continue;
                }
                if self.eat_dot("global")
                    || self.eat_dot("shared")
                    || self.eat_dot("const")
                    || self.eat_dot("local")
                {
                    continue;
                }
                if self.eat_dot("align") {
                    align = self.u32_val("an alignment")?;
                    continue;
                }
                break;
            }
            let name = self.ident("a parameter name")?;
            let mut elems = None;
            if self.eat_punct('[') {
                let ep = self.pos();
                let n = self.u32_val("an array size")?;
                if n == 0 || n > 32 * 1024 {
                    return self.err_at(
                        ep,
                        format!("parameter array of {n} elements (allowed: 1 to 32768)"),
                    );
                }
                self.expect_punct(']')?;
                elems = Some(n);
            }
            if !(anonymous && name == "_") && out.iter().any(|p| p.name == name) {
                return self.err_at(pp, format!("parameter '{name}' declared twice"));
            }
            out.push(ParamDecl {
                name,
                ty,
                align: if align == 0 { ty.bytes() } else { align },
                elems,
                pos: pp,
            });
            if self.eat_punct(')') {
                break;
            }
            self.expect_punct(',')?;
        }
        Ok(out)
    }

    fn kernel(&mut self) -> PResult<RawKernel> {
        let pos = self.pos();
        self.bump(); // .entry
        let mut k = RawKernel {
            name: self.ident("a kernel name")?,
            pos,
            ..Default::default()
        };
        if self.eat_punct('(') {
            k.params = self.param_list(false)?;
        }
        loop {
            if self.eat_dot("maxntid") {
                k.maxntid = Some(self.dim3()?);
            } else if self.eat_dot("reqntid") {
                k.reqntid = Some(self.dim3()?);
            } else if self.eat_dot("minnctapersm") {
                k.minnctapersm = Some(self.u32_val("a CTA count")?);
            } else if self.eat_dot("maxnreg") || self.eat_dot("maxnctapersm") {
                self.u32_val("a count")?;
            } else {
                break;
            }
        }
        self.expect_punct('{')?;
        self.scopes.clear();
        self.declared.clear();
        self.scopes.push(Default::default());
        let r = self.body(&mut k);
        self.scopes.clear();
        self.declared.clear();
        r?;
        Ok(k)
    }

    fn body(&mut self, k: &mut RawKernel) -> PResult<()> {
        loop {
            let p = self.pos();
            match self.peek().clone() {
                Tok::Punct('}') => {
                    self.bump();
                    return Ok(());
                }
                Tok::Punct('{') => {
                    self.enter()?;
                    self.bump();
                    self.scopes.push(Default::default());
                    self.body(k)?;
                    self.scopes.pop();
                    self.depth -= 1;
                }
                Tok::Eof => return self.expected("'}' closing the kernel body"),
                Tok::Dot(d) => match d.as_str() {
                    "reg" => {
                        self.bump();
                        if let Tok::Dot(v) = self.peek() {
                            if v.starts_with('v') && v.len() == 2 {
                                return self
                                    .err_at(self.pos(), "vector registers are not supported");
                            }
                        }
                        let ty = self.ty()?;
                        loop {
                            let rp = self.pos();
                            let name = self.ident("a register name")?;
                            if self.eat_punct('<') {
                                let n = self.u32_val("a register count")?;
                                if k.regs.len() as u64 + u64::from(n) > MAX_KERNEL_REGS as u64 {
                                    return self.err_at(
                                        rp,
                                        format!(
                                            "register count {n} too large (allowed: at most {MAX_KERNEL_REGS} declared registers per kernel)"
                                        ),
                                    );
                                }
                                self.expect_punct('>')?;
                                for j in 0..n {
                                    let r = self.declare(format!("{name}{j}"));
                                    k.regs.push((r, ty, rp));
                                }
                            } else {
                                let r = self.declare(name);
                                k.regs.push((r, ty, rp));
                            }
                            if !self.eat_punct(',') {
                                break;
                            }
                        }
                        self.expect_punct(';')?;
                    }
                    "shared" | "local" | "align" => {
                        let vs = self.var_decl(false, false)?;
                        k.vars.extend(vs);
                    }
                    "loc" | "file" => self.skip_line(),
                    "pragma" => {
                        self.bump();
                        while !self.is_punct(';') && *self.peek() != Tok::Eof {
                            self.bump();
                        }
                        self.expect_punct(';')?;
                    }
                    "param" => {
                        // a call frame: `.param [.align N] .type name[[N]];`, kept in local
                        // memory
                        self.bump();
                        let mut align = 0;
                        if self.eat_dot("align") {
                            align = self.u32_val("an alignment")?;
                        }
                        let ty = self.ty()?;
                        let vp = self.pos();
                        let name = self.ident("a parameter name")?;
                        let mut elems = 1u64;
                        if self.eat_punct('[') {
                            elems = self.uint("an array size")?.clamp(1, 1 << 20);
                            self.expect_punct(']')?;
                        }
                        self.expect_punct(';')?;
                        let name = self.declare(name);
                        k.frame_params.push(name.clone());
                        k.vars.push(VarDecl {
                            space: VarSpace::Local,
                            align: if align == 0 { ty.bytes() } else { align },
                            ty,
                            name,
                            elems: Some(elems),
                            is_extern: false,
                            init: None,
                            syms: Vec::new(),
                            pos: vp,
                        });
                    }
                    "global" | "const" => {
                        return self.err_at(
                            p,
                            format!(".{d} variables must be declared at module scope"),
                        )
                    }
                    "callprototype" | "calltargets" => {
                        return self.err_at(p, format!("'.{d}' needs a label ('name: .{d} ...')"))
                    }
                    _ => return self.err_at(p, format!("unknown directive '.{d}' in kernel body")),
                },
                Tok::Ident(name) if *self.peek_at(1) == Tok::Punct(':') => {
                    self.bump();
                    self.bump();
                    if self.is_dot("callprototype") || self.is_dot("calltargets") {
                        let proto = self.call_proto(name, p)?;
                        k.protos.push(proto);
                    } else {
                        k.body.push(Stmt::Label(name, p));
                    }
                }
                Tok::Ident(_) | Tok::Punct('@') => {
                    let mut inst = self.instruction()?;
                    if self.scopes.iter().any(|m| !m.is_empty()) {
                        self.rename(&mut inst);
                    }
                    if !k.frame_params.is_empty() {
                        frame_to_local(&mut inst, &k.frame_params);
                    }
                    // a tensor instruction becomes its head and the carriers of its fragments
                    let group = super::tensor::expand(inst).or_else(|(p, m)| self.err_at(p, m))?;
                    k.body.extend(group.into_iter().map(Stmt::Inst));
                }
                t => {
                    return self.err_at(
                        p,
                        format!(
                            "expected an instruction, label or declaration, found {}",
                            t.describe()
                        ),
                    )
                }
            }
        }
    }

    fn instruction(&mut self) -> PResult<RawInst> {
        let mut guard = None;
        if self.eat_punct('@') {
            let gp = self.pos();
            let neg = self.eat_punct('!');
            let name = self.ident("a guard predicate")?;
            guard = Some((name, neg, gp));
        }
        let ipos = self.pos();
        let opcode = self.ident("an instruction")?;
        let mut mods = Vec::new();
        while let Tok::Dot(d) = self.peek() {
            mods.push(d.clone());
            self.bump();
        }
        if opcode == "call" {
            return self.call_rest(guard, opcode, mods, ipos);
        }
        // refuse what the model does not represent before its operand syntax (texture
        // coordinates, matrix fragments) is read
        if let Some(why) = super::decode_ext::unsupported(&opcode) {
            return self.err_at(ipos, format!("'{opcode}': {why}"));
        }
        let mut operands = Vec::new();
        if !self.is_punct(';') {
            loop {
                let op_pos = self.pos();
                let o = self.operand()?;
                operands.push((o, op_pos));
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        if !self.is_punct(';') {
            return self.expected("',' or ';' after an operand");
        }
        self.bump();
        Ok(RawInst {
            guard,
            opcode,
            mods,
            operands,
            pos: ipos,
        })
    }

    /// Name with an optional `.x/.y/.z` suffix (special registers).
    fn name_with_suffix(&mut self) -> PResult<String> {
        let mut n = self.ident("an operand")?;
        if n.starts_with('%') {
            if let Tok::Dot(d) = self.peek() {
                if d == "x" || d == "y" || d == "z" {
                    n.push('.');
                    n.push_str(d);
                    self.bump();
                }
            }
        }
        Ok(n)
    }

    fn operand(&mut self) -> PResult<RawOpnd> {
        match self.peek().clone() {
            Tok::Punct('[') => {
                self.bump();
                let mut base = None;
                let mut off = 0i64;
                match self.peek() {
                    Tok::Ident(_) => {
                        base = Some(self.name_with_suffix()?);
                        if self.eat_punct(',') {
                            return self.tex_operand_rest(base.unwrap_or_default());
                        }
                        if self.eat_punct('+') {
                            off = self.sint("an address offset")?;
                        } else if self.eat_punct('-') {
                            off = -self.sint("an address offset")?;
                        }
                    }
                    Tok::Int(_) | Tok::Punct('-') => off = self.sint("an address")?,
                    _ => return self.expected("an address [reg], [reg+imm], [var] or [imm]"),
                }
                self.expect_punct(']')?;
                Ok(RawOpnd::Addr(base, off))
            }
            Tok::Punct('{') => {
                self.bump();
                let mut v = Vec::new();
                loop {
                    v.push(self.ident("a register in a vector")?);
                    if !self.eat_punct(',') {
                        break;
                    }
                }
                self.expect_punct('}')?;
                Ok(RawOpnd::Vec(v))
            }
            Tok::Punct('!') => {
                self.bump();
                Ok(RawOpnd::Not(self.ident("a predicate")?))
            }
            Tok::Ident(_) => {
                let n = self.name_with_suffix()?;
                if self.eat_punct('|') {
                    let q = self.ident("a second predicate after '|'")?;
                    return Ok(RawOpnd::PredPair(n, q));
                }
                if self.eat_punct('+') {
                    let off = self.sint("an offset")?;
                    return Ok(RawOpnd::NameOff(n, off));
                }
                Ok(RawOpnd::Name(n))
            }
            Tok::Int(_) | Tok::Float(_) | Tok::F32Bits(_) | Tok::F64Bits(_) | Tok::Punct('-') => {
                Ok(RawOpnd::Imm(self.imm()?))
            }
            _ => self.expected("an operand"),
        }
    }
}

/// Parses tokens into the syntax tree.
pub fn parse(toks: &[Token], file: &str) -> Result<RawModule, SimError> {
    let mut p = Parser {
        toks,
        i: 0,
        file,
        depth: 0,
        scopes: Vec::new(),
        declared: std::collections::HashSet::new(),
    };
    p.module()
}
