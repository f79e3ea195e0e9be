//! Verilog simulation models of liberty cells, generated from the liberty `function`, `ff` and
//! `latch` descriptions, so that the mapped netlist itself can be simulated (zero delay) and
//! every net's switching activity counted.
//!
//! Liberty Boolean expressions (Liberty reference, "pin function"): `!A` or `A'` negation,
//! `A & B`, `A * B` or `A B` (juxtaposition) conjunction, `A | B` or `A + B` disjunction,
//! `A ^ B` exclusive or, parentheses, constants `0`/`1`. Precedence, highest first: negation,
//! exclusive or, conjunction, disjunction.

use crate::error::CalError;
use crate::liberty::{CellInfo, LibraryInfo};
use std::collections::BTreeSet;
use std::fmt::Write as _;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Id(String),
    Not,
    Tick,
    And,
    Or,
    Xor,
    Open,
    Close,
}

fn lex(expr: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        match c {
            ' ' | '\t' => {}
            '!' => out.push(Tok::Not),
            '\'' => out.push(Tok::Tick),
            '&' | '*' => out.push(Tok::And),
            '|' | '+' => out.push(Tok::Or),
            '^' => out.push(Tok::Xor),
            '(' => out.push(Tok::Open),
            ')' => out.push(Tok::Close),
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let s = i;
                while i + 1 < cs.len()
                    && (cs[i + 1].is_ascii_alphanumeric() || "_[]".contains(cs[i + 1]))
                {
                    i += 1;
                }
                out.push(Tok::Id(cs[s..=i].iter().collect()));
            }
            c => return Err(format!("unexpected character '{c}'")),
        }
        i += 1;
    }
    Ok(out)
}

/// A parsed liberty expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A pin or state variable.
    Var(String),
    /// Constant 0 or 1.
    Const(bool),
    /// Negation.
    Not(Box<Expr>),
    /// Conjunction.
    And(Box<Expr>, Box<Expr>),
    /// Disjunction.
    Or(Box<Expr>, Box<Expr>),
    /// Exclusive or.
    Xor(Box<Expr>, Box<Expr>),
}

struct Parser {
    t: Vec<Tok>,
    p: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.p)
    }
    fn or(&mut self) -> Result<Expr, String> {
        let mut l = self.and()?;
        while self.peek() == Some(&Tok::Or) {
            self.p += 1;
            l = Expr::Or(Box::new(l), Box::new(self.and()?));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<Expr, String> {
        let mut l = self.xor()?;
        loop {
            match self.peek() {
                Some(Tok::And) => {
                    self.p += 1;
                }
                // Juxtaposition is conjunction.
                Some(Tok::Id(_)) | Some(Tok::Not) | Some(Tok::Open) => {}
                _ => break,
            }
            l = Expr::And(Box::new(l), Box::new(self.xor()?));
        }
        Ok(l)
    }
    fn xor(&mut self) -> Result<Expr, String> {
        let mut l = self.unary()?;
        while self.peek() == Some(&Tok::Xor) {
            self.p += 1;
            l = Expr::Xor(Box::new(l), Box::new(self.unary()?));
        }
        Ok(l)
    }
    fn unary(&mut self) -> Result<Expr, String> {
        let mut e = match self.t.get(self.p).cloned() {
            Some(Tok::Not) => {
                self.p += 1;
                Expr::Not(Box::new(self.unary()?))
            }
            Some(Tok::Open) => {
                self.p += 1;
                let e = self.or()?;
                if self.peek() != Some(&Tok::Close) {
                    return Err("missing ')'".into());
                }
                self.p += 1;
                e
            }
            Some(Tok::Id(s)) => {
                self.p += 1;
                match s.as_str() {
                    "0" => Expr::Const(false),
                    "1" => Expr::Const(true),
                    _ => Expr::Var(s),
                }
            }
            Some(t) => return Err(format!("unexpected {t:?}")),
            None => return Err("unexpected end".into()),
        };
        while self.peek() == Some(&Tok::Tick) {
            self.p += 1;
            e = Expr::Not(Box::new(e));
        }
        Ok(e)
    }
}

impl Expr {
    /// Parse a liberty Boolean expression.
    pub fn parse(text: &str) -> Result<Expr, String> {
        let mut p = Parser {
            t: lex(text)?,
            p: 0,
        };
        let e = p.or()?;
        if p.p != p.t.len() {
            return Err(format!("trailing {:?}", p.t[p.p]));
        }
        Ok(e)
    }

    /// Variables the expression reads.
    pub fn vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Expr::Var(v) => {
                out.insert(v.clone());
            }
            Expr::Const(_) => {}
            Expr::Not(a) => a.vars(out),
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }

    /// Fully parenthesised Verilog.
    pub fn verilog(&self) -> String {
        match self {
            Expr::Var(v) => v.clone(),
            Expr::Const(b) => if *b { "1'b1" } else { "1'b0" }.into(),
            Expr::Not(a) => format!("(~{})", a.verilog()),
            Expr::And(a, b) => format!("({} & {})", a.verilog(), b.verilog()),
            Expr::Or(a, b) => format!("({} | {})", a.verilog(), b.verilog()),
            Expr::Xor(a, b) => format!("({} ^ {})", a.verilog(), b.verilog()),
        }
    }

    /// Evaluate with `get` giving each variable's value.
    pub fn eval(&self, get: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Expr::Var(v) => get(v),
            Expr::Const(b) => *b,
            Expr::Not(a) => !a.eval(get),
            Expr::And(a, b) => a.eval(get) && b.eval(get),
            Expr::Or(a, b) => a.eval(get) || b.eval(get),
            Expr::Xor(a, b) => a.eval(get) ^ b.eval(get),
        }
    }
}

fn parse_in(cell: &str, what: &str, text: &str) -> Result<Expr, CalError> {
    Expr::parse(text).map_err(|e| {
        CalError::Liberty(format!(
            "cell {cell}: cannot read {what} expression '{text}': {e}"
        ))
    })
}

/// The Verilog model of one cell.
pub fn cell_model(name: &str, c: &CellInfo) -> Result<String, CalError> {
    let mut s = String::new();
    let ports: Vec<&String> = c.input_pins.iter().chain(c.outputs.keys()).collect();
    if c.outputs.is_empty() {
        return Err(CalError::Liberty(format!(
            "cell {name}: no output pin with a function, cannot simulate it"
        )));
    }
    let _ = writeln!(
        s,
        "module {name} ({});",
        ports
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for p in &c.input_pins {
        let _ = writeln!(s, "  input {p};");
    }
    for p in c.outputs.keys() {
        let _ = writeln!(s, "  output {p};");
    }
    if let Some(q) = &c.seq {
        let clk = parse_in(name, "clock/enable", &q.clock)?;
        let d = parse_in(name, "next_state/data_in", &q.data)?;
        let _ = writeln!(s, "  reg {};", q.iq);
        if !q.iqn.is_empty() {
            let _ = writeln!(s, "  wire {} = ~{};", q.iqn, q.iq);
        }
        let _ = writeln!(s, "  wire ck_ = {};", clk.verilog());
        let clr = q
            .clear
            .as_deref()
            .map(|e| parse_in(name, "clear", e))
            .transpose()?;
        let pre = q
            .preset
            .as_deref()
            .map(|e| parse_in(name, "preset", e))
            .transpose()?;
        let _ = writeln!(
            s,
            "  wire clr_ = {};\n  wire pre_ = {};",
            clr.map(|e| e.verilog()).unwrap_or("1'b0".into()),
            pre.map(|e| e.verilog()).unwrap_or("1'b0".into())
        );
        let body = format!(
            "if (clr_) {iq} <= 1'b0; else if (pre_) {iq} <= 1'b1; else",
            iq = q.iq
        );
        if q.latch {
            let _ = writeln!(
                s,
                "  always @(*) {body} if (ck_) {} <= {};",
                q.iq,
                d.verilog()
            );
        } else {
            let _ = writeln!(
                s,
                "  always @(posedge ck_ or posedge clr_ or posedge pre_) {body} {} <= {};",
                q.iq,
                d.verilog()
            );
        }
    }
    for (p, f) in &c.outputs {
        let e = parse_in(name, &format!("pin {p} function"), f)?;
        let _ = writeln!(s, "  assign {p} = {};", e.verilog());
    }
    s.push_str("endmodule\n");
    Ok(s)
}

/// Verilog models of `cells` (every one must be in the library).
pub fn models(info: &LibraryInfo, cells: &BTreeSet<String>) -> Result<String, CalError> {
    let mut s = String::from("// Generated from the liberty cell descriptions (zero-delay).\n");
    for c in cells {
        let ci = info.cells.get(c).ok_or_else(|| {
            CalError::Liberty(format!("netlist uses cell '{c}' that the library lacks"))
        })?;
        s.push_str(&cell_model(c, ci)?);
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_parse_with_liberty_precedence() {
        let e = Expr::parse("(!A1 * !B) + (!A2 * !B)").unwrap();
        for bits in 0..8u32 {
            let v = |n: &str| match n {
                "A1" => bits & 1 != 0,
                "A2" => bits & 2 != 0,
                "B" => bits & 4 != 0,
                _ => unreachable!(),
            };
            let want = (!v("A1") && !v("B")) || (!v("A2") && !v("B"));
            assert_eq!(e.eval(&v), want);
        }
        // XOR binds tighter than AND; juxtaposition and postfix ' work.
        let e = Expr::parse("A B ^ C'").unwrap();
        let e2 = Expr::parse("A & (B ^ !C)").unwrap();
        for bits in 0..8u32 {
            let v = |n: &str| match n {
                "A" => bits & 1 != 0,
                "B" => bits & 2 != 0,
                _ => bits & 4 != 0,
            };
            assert_eq!(e.eval(&v), e2.eval(&v));
        }
        assert_eq!(Expr::parse("1").unwrap(), Expr::Const(true));
        assert!(Expr::parse("A +").is_err());
        assert!(Expr::parse("(A").is_err());
    }

    #[test]
    fn flop_model_has_state_and_output() {
        let c = CellInfo {
            input_pins: vec!["CLK".into(), "D".into()],
            outputs: [("QN".to_string(), "IQN".to_string())].into(),
            seq: Some(crate::liberty::SeqGroup {
                latch: false,
                iq: "IQN".into(),
                iqn: "IQNN".into(),
                clock: "CLK".into(),
                data: "!D".into(),
                clear: None,
                preset: None,
            }),
            ..CellInfo::default()
        };
        let m = cell_model("DFF", &c).unwrap();
        assert!(m.contains("module DFF (CLK, D, QN);"), "{m}");
        assert!(m.contains("IQN <= (~D);"), "{m}");
        assert!(m.contains("assign QN = IQN;"), "{m}");
    }
}
