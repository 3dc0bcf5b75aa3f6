//! Lowered expressions as Rust: booleans as `bool`, everything else as `i64`. A checked
//! operation calls a helper of `bir::__private` and propagates its fault with `?` (the
//! enclosing function returns `Result<_, Fault>`).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{lit_i64, lit_u32, Gen};
use crate::ir::{ArithOp, CmpOp, Owner};
use crate::lower::{Check, Expr, Index, Status};

/// Prints expressions reading the state named `state`.
pub(super) struct ExprPrinter<'g, 'a> {
    pub gen: &'g Gen<'a>,
    /// The variable holding the state being read.
    pub state: Ident,
}

impl ExprPrinter<'_, '_> {
    /// `expr` as Rust.
    pub fn expr(&self, expr: &Expr) -> TokenStream {
        match expr {
            Expr::Bool(value) => quote!(#value),
            Expr::Not(inner) => {
                let inner = self.expr(inner);
                quote!((!#inner))
            }
            Expr::And(lhs, rhs) => {
                let (lhs, rhs) = (self.expr(lhs), self.expr(rhs));
                quote!((#lhs && #rhs))
            }
            Expr::Or(lhs, rhs) => {
                let (lhs, rhs) = (self.expr(lhs), self.expr(rhs));
                quote!((#lhs || #rhs))
            }
            Expr::Cmp { op, lhs, rhs } => {
                let (lhs, rhs) = (self.expr(lhs), self.expr(rhs));
                let op = match op {
                    CmpOp::Eq => quote!(==),
                    CmpOp::Ne => quote!(!=),
                    CmpOp::Lt => quote!(<),
                    CmpOp::Le => quote!(<=),
                    CmpOp::Gt => quote!(>),
                    CmpOp::Ge => quote!(>=),
                };
                quote!((#lhs #op #rhs))
            }
            Expr::NonZero(value) => {
                let value = self.expr(value);
                quote!((#value != 0))
            }
            Expr::StatusIs { status, location } => {
                let location = lit_i64(i64::from(location.0));
                let status = match status {
                    Status::Of(owner) => self.get(*owner),
                    Status::Indexed {
                        index,
                        instances,
                        site,
                    } => {
                        let index = self.expr(index);
                        let arms = instances.iter().enumerate().map(|(i, owner)| {
                            let status = self.get(*owner);
                            let i = lit_i64(i as i64);
                            quote!(#i => #status,)
                        });
                        let site = lit_u32(site.0);
                        quote! {
                            match #index {
                                #(#arms)*
                                bad => return ::core::result::Result::Err(
                                    ::bir::Fault { site: #site, value: bad }),
                            }
                        }
                    }
                };
                quote!((#status == #location))
            }
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                let body = self.expr(body);
                let label =
                    syn::Lifetime::new(&format!("'q{}", var.0), proc_macro2::Span::call_site());
                let name = format_ident!("q{}", var.0);
                let (lo, hi) = (lit_i64(*lo), lit_i64(*hi));
                let (test, found, otherwise) = if *forall {
                    (quote!(!#body), false, true)
                } else {
                    (quote!(#body), true, false)
                };
                quote! {
                    (#label: {
                        let mut #name: i64 = #lo;
                        while #name < #hi {
                            if #test { break #label #found; }
                            #name += 1;
                        }
                        #otherwise
                    })
                }
            }
            Expr::Int(value) => lit_i64(*value),
            Expr::Get(owner) => self.get(*owner),
            Expr::Element(owner, index) => {
                let (get, _) = self.gen.accessor_names(*owner);
                let index = self.index(index);
                let state = &self.state;
                quote!(#state.#get(#index))
            }
            Expr::QuantVar(var) => {
                let name = format_ident!("q{}", var.0);
                quote!(#name)
            }
            Expr::Neg(inner, check) => {
                let inner = self.expr(inner);
                match check {
                    None => quote!((-#inner)),
                    Some(site) => {
                        let site = lit_u32(site.0);
                        quote!(::bir::__private::neg(#inner, #site)?)
                    }
                }
            }
            Expr::Arith {
                op,
                lhs,
                rhs,
                check,
            } => {
                let (l, r) = (self.expr(lhs), self.expr(rhs));
                let (zero, overflow) = match check {
                    Check::Plain => {
                        let op = match op {
                            ArithOp::Add => quote!(+),
                            ArithOp::Sub => quote!(-),
                            ArithOp::Mul => quote!(*),
                            ArithOp::Div => quote!(/),
                            ArithOp::Rem => quote!(%),
                        };
                        return quote!((#l #op #r));
                    }
                    Check::WrappingRem => {
                        return quote!(::core::primitive::i64::wrapping_rem(#l, #r))
                    }
                    Check::Sites { zero, overflow } => (
                        zero.map(|site| lit_u32(site.0)),
                        overflow.map(|site| lit_u32(site.0)),
                    ),
                };
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
                quote!(::bir::__private::#helper?)
            }
            Expr::FromBool(value) => {
                let value = self.expr(value);
                quote!((#value as i64))
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.expr(cond);
                let (then, otherwise) = (self.expr(then), self.expr(otherwise));
                quote!((if #cond { #then } else { #otherwise }))
            }
        }
    }

    /// An array index as a `usize`.
    pub fn index(&self, index: &Index) -> TokenStream {
        match index {
            Index::Const(i) => quote!(#i),
            Index::Unchecked(value) => {
                let value = self.expr(value);
                quote!((#value as usize))
            }
            Index::Checked { value, len, site } => {
                let value = self.expr(value);
                let len = lit_i64(i64::from(*len));
                let site = lit_u32(site.0);
                quote!(::bir::__private::index(#value, #len, #site)?)
            }
        }
    }

    /// The value of a scalar field, as an `i64`.
    pub fn get(&self, owner: Owner) -> TokenStream {
        let (get, _) = self.gen.accessor_names(owner);
        let state = &self.state;
        quote!(#state.#get())
    }
}
