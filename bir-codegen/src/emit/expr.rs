//! Lowered expressions as Rust: booleans as `bool`, everything else as `i64`. A checked
//! operation calls a helper of `bir::__private` and propagates its fault with `?` (the
//! enclosing function returns `Result<_, Fault>`). Parentheses appear only where Rust's
//! precedence needs them (and around a `&&` inside a `||`, for the reader).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{lit_i64, lit_u32, prim, Gen};
use crate::ir::{ArithOp, CmpOp, Owner};
use crate::lower::{Check, Expr, Index};

/// How tightly an expression binds, loosest first: an operand binding less tightly than its
/// operator needs parentheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// `if`, `match` and labelled blocks: parenthesised wherever they are an operand.
    Block,
    Or,
    And,
    Cmp,
    Add,
    Mul,
    Cast,
    Unary,
    /// Literals, paths, calls, method calls, `?`, parenthesised expressions.
    Atom,
}

/// Whether `expr` is a boolean cheap enough, and unable to fault, to be evaluated whether
/// or not a `&&` or `||` needs it: such operands are joined by `&` and `|`, which compile
/// to no branch (a chain of comparisons such as `exists i in 0 .. N : P[i]@loc`, unrolled,
/// otherwise branches on every operand, unpredictably). Not where reads are recorded (a
/// failing check's operands): those show what the short-circuit evaluation read.
fn branchless(expr: &Expr) -> bool {
    fn cheap(expr: &Expr, budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match expr {
            Expr::Bool(_) | Expr::Int(_) | Expr::Get(_) => true,
            Expr::Element(_, Index::Const(_)) => true,
            Expr::Element(_, Index::Unchecked(index)) => cheap(index, budget),
            Expr::Not(inner) | Expr::FromBool(inner) | Expr::Neg(inner, None) => {
                cheap(inner, budget)
            }
            Expr::Cmp { lhs, rhs, .. }
            | Expr::And(lhs, rhs)
            | Expr::Or(lhs, rhs)
            | Expr::Arith {
                lhs,
                rhs,
                check: Check::Plain,
                ..
            } => cheap(lhs, budget) && cheap(rhs, budget),
            _ => false,
        }
    }
    cheap(expr, &mut 12)
}

/// Prints expressions reading the state named `state`.
pub(super) struct ExprPrinter<'g, 'a> {
    pub gen: &'g Gen<'a>,
    /// The variable holding the state being read.
    pub state: Ident,
    /// Every read of a stored value is recorded into `out` (a failing check's operands,
    /// see `Model::operands`) with the slot it reads.
    pub record: bool,
}

impl ExprPrinter<'_, '_> {
    /// `expr` as Rust, standing alone (an argument, an initialiser).
    pub fn expr(&self, expr: &Expr) -> TokenStream {
        self.print(expr).0
    }

    /// `expr` as the condition of an `if`, where an `if`, a `match` or a block reads
    /// best in parentheses.
    pub fn condition(&self, expr: &Expr) -> TokenStream {
        self.operand(expr, Prec::Or)
    }

    /// `expr` where an operand binding at least as tightly as `min` is needed.
    fn operand(&self, expr: &Expr, min: Prec) -> TokenStream {
        let (tokens, prec) = self.print(expr);
        if prec < min {
            quote!((#tokens))
        } else {
            tokens
        }
    }

    fn print(&self, expr: &Expr) -> (TokenStream, Prec) {
        match expr {
            Expr::Bool(value) => (quote!(#value), Prec::Atom),
            Expr::Not(inner) => {
                let inner = self.operand(inner, Prec::Unary);
                (quote!(!#inner), Prec::Unary)
            }
            Expr::And(lhs, rhs) if !self.record && branchless(lhs) && branchless(rhs) => {
                let (lhs, rhs) = (self.operand(lhs, Prec::Atom), self.operand(rhs, Prec::Atom));
                (quote!((#lhs & #rhs)), Prec::Atom)
            }
            Expr::Or(lhs, rhs) if !self.record && branchless(lhs) && branchless(rhs) => {
                let (lhs, rhs) = (self.operand(lhs, Prec::Atom), self.operand(rhs, Prec::Atom));
                (quote!((#lhs | #rhs)), Prec::Atom)
            }
            Expr::And(lhs, rhs) => {
                let lhs = self.operand(lhs, Prec::And);
                let rhs = self.operand(rhs, Prec::And);
                (quote!(#lhs && #rhs), Prec::And)
            }
            Expr::Or(lhs, rhs) => {
                let (lhs, rhs) = (self.or_operand(lhs), self.or_operand(rhs));
                (quote!(#lhs || #rhs), Prec::Or)
            }
            Expr::Cmp { op, lhs, rhs } => {
                // Comparisons do not chain: both operands bind more tightly.
                let lhs = self.operand(lhs, Prec::Add);
                let rhs = self.operand(rhs, Prec::Add);
                let op = match op {
                    CmpOp::Eq => quote!(==),
                    CmpOp::Ne => quote!(!=),
                    CmpOp::Lt => quote!(<),
                    CmpOp::Le => quote!(<=),
                    CmpOp::Gt => quote!(>),
                    CmpOp::Ge => quote!(>=),
                };
                (quote!(#lhs #op #rhs), Prec::Cmp)
            }
            Expr::InstanceStatus {
                index,
                instances,
                site,
            } => {
                let index = self.condition(index);
                let last = instances.len() - 1;
                let mark = self.record.then(|| quote!(mark));
                let arms = instances.iter().enumerate().map(|(i, owner)| {
                    let status = self.read(*owner, mark.clone());
                    // An index whose range lies within the instances needs no error arm:
                    // the last instance takes what is left.
                    if i == last && site.is_none() {
                        quote!(_ => #status,)
                    } else {
                        let i = lit_i64(i as i64);
                        quote!(#i => #status,)
                    }
                });
                let error = site.map(|site| {
                    let site = lit_u32(site.0);
                    quote! {
                        bad => {
                            return ::core::result::Result::Err(
                                ::bir::model::Fault { site: #site, value: bad },
                            );
                        }
                    }
                });
                let matched = quote!(match #index { #(#arms)* #error });
                if self.record {
                    (quote!({ let mark = out.len(); #matched }), Prec::Block)
                } else {
                    (matched, Prec::Block)
                }
            }
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                stop,
            } => {
                let stop = self.condition(stop);
                let label =
                    syn::Lifetime::new(&format!("'q{}", var.0), proc_macro2::Span::call_site());
                let name = format_ident!("q{}", var.0);
                let (lo, hi) = (lit_i64(*lo), lit_i64(*hi));
                let (early, otherwise) = (!*forall, *forall);
                let tokens = quote! {
                    #label: {
                        let mut #name = #lo;
                        while #name < #hi {
                            if #stop {
                                break #label #early;
                            }
                            #name += 1;
                        }
                        #otherwise
                    }
                };
                (tokens, Prec::Block)
            }
            Expr::Int(value) => {
                let prec = if *value < 0 { Prec::Unary } else { Prec::Atom };
                (lit_i64(*value), prec)
            }
            Expr::Get(owner) => (self.read(*owner, None), Prec::Atom),
            Expr::Element(owner, index) if self.record => self.recorded_element(*owner, index),
            Expr::Element(owner, index) => {
                let (get, _) = self.gen.accessor_names(*owner);
                let index = self.index(index);
                let state = &self.state;
                (quote!(#state.#get(#index)), Prec::Atom)
            }
            Expr::QuantVar(var) => {
                let name = format_ident!("q{}", var.0);
                (quote!(#name), Prec::Atom)
            }
            Expr::Neg(inner, check) => match check {
                None => {
                    let inner = self.operand(inner, Prec::Unary);
                    (quote!(-#inner), Prec::Unary)
                }
                Some(site) => {
                    let inner = self.expr(inner);
                    let site = lit_u32(site.0);
                    (quote!(::bir::__private::neg(#inner, #site)?), Prec::Atom)
                }
            },
            Expr::Arith {
                op,
                lhs,
                rhs,
                check,
            } => self.arith(*op, lhs, rhs, *check),
            Expr::FromBool(value) => {
                let value = self.operand(value, Prec::Unary);
                let i64 = prim("i64");
                (quote!(#value as #i64), Prec::Cast)
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.condition(cond);
                let (then, otherwise) = (self.expr(then), self.expr(otherwise));
                (quote!(if #cond { #then } else { #otherwise }), Prec::Block)
            }
        }
    }

    /// An operand of `||`: a `&&` is parenthesised although it binds more tightly, for the
    /// reader.
    fn or_operand(&self, expr: &Expr) -> TokenStream {
        match expr {
            Expr::Or(..) => self.operand(expr, Prec::Or),
            _ => self.operand(expr, Prec::Cmp),
        }
    }

    fn arith(&self, op: ArithOp, lhs: &Expr, rhs: &Expr, check: Check) -> (TokenStream, Prec) {
        let (zero, overflow) = match check {
            Check::Plain => {
                let (symbol, prec) = match op {
                    ArithOp::Add => (quote!(+), Prec::Add),
                    ArithOp::Sub => (quote!(-), Prec::Add),
                    ArithOp::Mul => (quote!(*), Prec::Mul),
                    ArithOp::Div => (quote!(/), Prec::Mul),
                    ArithOp::Rem => (quote!(%), Prec::Mul),
                };
                // Left-associative: a right operand of the same precedence keeps its
                // parentheses, so that the operations happen in the model's order.
                let l = self.operand(lhs, prec);
                let r = self.operand(rhs, next(prec));
                return (quote!(#l #symbol #r), prec);
            }
            Check::WrappingRem => {
                let (l, r) = (self.expr(lhs), self.expr(rhs));
                let i64 = prim("i64");
                return (quote!(#i64::wrapping_rem(#l, #r)), Prec::Atom);
            }
            Check::Sites { zero, overflow } => (
                zero.map(|site| lit_u32(site.0)),
                overflow.map(|site| lit_u32(site.0)),
            ),
        };
        let (l, r) = (self.expr(lhs), self.expr(rhs));
        let helper = match (op, zero, overflow) {
            (ArithOp::Add, _, Some(o)) => quote!(add(#l, #r, #o)),
            (ArithOp::Sub, _, Some(o)) => quote!(sub(#l, #r, #o)),
            (ArithOp::Mul, _, Some(o)) => quote!(mul(#l, #r, #o)),
            (ArithOp::Div, Some(z), Some(o)) => quote!(div(#l, #r, #z, #o)),
            (ArithOp::Div, Some(z), None) => quote!(div_fitting(#l, #r, #z)),
            (ArithOp::Div, None, Some(o)) => quote!(div_by_nonzero(#l, #r, #o)),
            (ArithOp::Rem, Some(z), _) => quote!(rem(#l, #r, #z)),
            (op, zero, overflow) => unreachable!(
                "lowering checks {op:?} for {zero:?} and {overflow:?}, which it cannot fail"
            ),
        };
        (quote!(::bir::__private::#helper?), Prec::Atom)
    }

    /// An array index as a `usize`.
    pub fn index(&self, index: &Index) -> TokenStream {
        match index {
            Index::Const(i) => quote!(#i),
            Index::Unchecked(value) => {
                let value = self.operand(value, Prec::Unary);
                let usize = prim("usize");
                quote!(#value as #usize)
            }
            Index::Checked { value, len, site } => {
                let value = self.expr(value);
                let len = lit_i64(i64::from(*len));
                let site = lit_u32(site.0);
                quote!(::bir::__private::index(#value, #len, #site)?)
            }
        }
    }

    /// The value of a scalar field, recorded as an operand when recording (at `mark`, the
    /// variable holding where the read starts, or at the end).
    fn read(&self, owner: Owner, mark: Option<TokenStream>) -> TokenStream {
        let get = self.get(owner);
        if !self.record {
            return get;
        }
        let slot = lit_u32(self.gen.first_slot(owner));
        match mark {
            Some(mark) => quote!(::bir::__private::read_at(out, #mark, #slot, #get)),
            None => quote!(::bir::__private::read(out, #slot, #get)),
        }
    }

    /// An element read, recorded as an operand where it stands in the source: before the
    /// reads of its index.
    fn recorded_element(&self, owner: Owner, index: &Index) -> (TokenStream, Prec) {
        let (get, _) = self.gen.accessor_names(owner);
        let state = &self.state;
        let first = self.gen.first_slot(owner);
        if let Index::Const(i) = index {
            let slot = lit_u32(first + *i as u32);
            let tokens = quote!(::bir::__private::read(out, #slot, #state.#get(#i)));
            return (tokens, Prec::Atom);
        }
        let index = self.index(index);
        let first = lit_u32(first);
        let u32 = prim("u32");
        let tokens = quote! {{
            let mark = out.len();
            let element = #index;
            ::bir::__private::read_at(out, mark, #first + element as #u32, #state.#get(element))
        }};
        (tokens, Prec::Block)
    }

    /// The value of a scalar field, as an `i64`.
    pub fn get(&self, owner: Owner) -> TokenStream {
        let (get, _) = self.gen.accessor_names(owner);
        let state = &self.state;
        quote!(#state.#get())
    }
}

/// The precedence just above `prec`.
fn next(prec: Prec) -> Prec {
    match prec {
        Prec::Block => Prec::Or,
        Prec::Or => Prec::And,
        Prec::And => Prec::Cmp,
        Prec::Cmp => Prec::Add,
        Prec::Add => Prec::Mul,
        Prec::Mul => Prec::Cast,
        Prec::Cast => Prec::Unary,
        Prec::Unary | Prec::Atom => Prec::Atom,
    }
}
