//! Expressions as Rust: booleans as `bool`, everything else as `i64`. Code that can fault
//! calls a checked helper of `bir::__private` and propagates its fault with `?` (the
//! enclosing function returns `Result<_, Fault>`); the value ranges of
//! [`interval`](crate::analyse::interval) leave out every check that cannot fail.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{lit_i64, lit_u32, Gen};
use crate::analyse::interval::{fits_i64, within, Ranges};
use crate::ir::{ArithOp, CmpOp, Expr, InstanceId, Scalar, SiteId, ThreadId, VarRef};
use crate::layout::Owner;
use crate::lower::constant;

/// Generates the expressions of one instance, reading the state named `state`.
pub(super) struct ExprGen<'g, 'a> {
    pub gen: &'g Gen<'a>,
    /// The executing thread (`None` for invariants).
    pub thread: Option<ThreadId>,
    /// The executing instance.
    pub instance: InstanceId,
    /// The variable holding the state being read.
    pub state: Ident,
    pub ranges: Ranges<'a>,
}

impl ExprGen<'_, '_> {
    /// `expr` as a Rust `bool`.
    pub fn boolean(&mut self, expr: &Expr) -> TokenStream {
        match expr {
            Expr::Bool(value) => quote!(#value),
            Expr::Not(inner) => {
                let inner = self.boolean(inner);
                quote!((!#inner))
            }
            Expr::And(lhs, rhs) => {
                let (lhs, rhs) = (self.boolean(lhs), self.boolean(rhs));
                quote!((#lhs && #rhs))
            }
            Expr::Or(lhs, rhs) => {
                let (lhs, rhs) = (self.boolean(lhs), self.boolean(rhs));
                quote!((#lhs || #rhs))
            }
            Expr::Cmp { op, lhs, rhs } => {
                let (lhs, rhs) = (self.int(lhs), self.int(rhs));
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
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.boolean(cond);
                let (then, otherwise) = (self.boolean(then), self.boolean(otherwise));
                quote!((if #cond { #then } else { #otherwise }))
            }
            Expr::At {
                thread,
                instance,
                location,
            } => {
                let target = &self.gen.system.threads[*thread];
                let location = lit_i64(i64::from(location.0));
                let status = match instance {
                    None => self.status(*thread, target.first_instance),
                    Some((index, site)) => {
                        let count = target.instances();
                        match constant(index) {
                            Some(i) if (0..i64::from(count)).contains(&i) => {
                                self.status(*thread, target.instance_id(i as u32))
                            }
                            _ => {
                                let index = self.int(index);
                                let arms = (0..count).map(|i| {
                                    let status = self.status(*thread, target.instance_id(i));
                                    let i = lit_i64(i64::from(i));
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
                self.ranges.push_quant(*var, *lo, *hi);
                let body = self.boolean(body);
                self.ranges.pop_quant();
                let label = syn::Lifetime::new(&format!("'q{var}"), proc_macro2::Span::call_site());
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
            Expr::Read(_) | Expr::Element { .. } => {
                let value = self.int(expr);
                quote!((#value != 0))
            }
            Expr::Int(_)
            | Expr::InstanceIndex
            | Expr::QuantVar(_)
            | Expr::Neg(..)
            | Expr::Arith { .. } => {
                let value = self.int(expr);
                quote!((#value != 0))
            }
        }
    }

    /// `expr` as a Rust `i64` (booleans as 0/1).
    pub fn int(&mut self, expr: &Expr) -> TokenStream {
        match expr {
            Expr::Int(value) => lit_i64(*value),
            Expr::InstanceIndex => {
                let index = self.instance_index();
                lit_i64(index)
            }
            Expr::QuantVar(var) => {
                let name = format_ident!("q{}", var.0);
                quote!(#name)
            }
            Expr::Read(var) => {
                let (get, _) = self.gen.accessor_names(self.owner(*var));
                let state = &self.state;
                quote!(#state.#get())
            }
            Expr::Element { var, index, site } => {
                let len = self.len(*var);
                let index = self.index(index, len, *site);
                let (get, _) = self.gen.accessor_names(self.owner(*var));
                let state = &self.state;
                quote!(#state.#get(#index))
            }
            Expr::Neg(inner, site) => {
                let range = self.ranges.of(expr);
                let inner = self.int(inner);
                if fits_i64(range) {
                    quote!((-#inner))
                } else {
                    let site = lit_u32(site.0);
                    quote!(::bir::__private::neg(#inner, #site)?)
                }
            }
            Expr::Arith {
                op,
                lhs,
                rhs,
                overflow,
                division,
            } => {
                let range = self.ranges.of(expr);
                let divisor = self.ranges.of(rhs);
                let (l, r) = (self.int(lhs), self.int(rhs));
                let safe_divisor = divisor.0 > 0 || divisor.1 < 0;
                let plain = fits_i64(range)
                    && (matches!(op, ArithOp::Add | ArithOp::Sub | ArithOp::Mul) || safe_divisor);
                if plain {
                    let op = match op {
                        ArithOp::Add => quote!(+),
                        ArithOp::Sub => quote!(-),
                        ArithOp::Mul => quote!(*),
                        ArithOp::Div => quote!(/),
                        ArithOp::Rem => quote!(%),
                    };
                    return quote!((#l #op #r));
                }
                let overflow = lit_u32(overflow.0);
                let division = lit_u32(division.map_or(0, |site| site.0));
                match op {
                    ArithOp::Add => quote!(::bir::__private::add(#l, #r, #overflow)?),
                    ArithOp::Sub => quote!(::bir::__private::sub(#l, #r, #overflow)?),
                    ArithOp::Mul => quote!(::bir::__private::mul(#l, #r, #overflow)?),
                    ArithOp::Div => quote!(::bir::__private::div(#l, #r, #division, #overflow)?),
                    ArithOp::Rem => quote!(::bir::__private::rem(#l, #r, #division, #overflow)?),
                }
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.boolean(cond);
                let (then, otherwise) = (self.int(then), self.int(otherwise));
                quote!((if #cond { #then } else { #otherwise }))
            }
            Expr::Bool(_)
            | Expr::Not(_)
            | Expr::Cmp { .. }
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::At { .. }
            | Expr::Quant { .. } => {
                let value = self.boolean(expr);
                quote!((#value as i64))
            }
        }
    }

    /// An array index as a checked `usize`.
    pub fn index(&mut self, index: &Expr, len: u32, site: SiteId) -> TokenStream {
        if let Some(i) = constant(index) {
            if (0..i64::from(len)).contains(&i) {
                let i = i as usize;
                return quote!(#i);
            }
        }
        let range = self.ranges.of(index);
        let value = self.int(index);
        if within(range, 0, i64::from(len) - 1) {
            quote!((#value as usize))
        } else {
            let len = lit_i64(i64::from(len));
            let site = lit_u32(site.0);
            quote!(::bir::__private::index(#value, #len, #site)?)
        }
    }

    /// The status of an instance, as an `i64`.
    pub fn status(&self, thread: ThreadId, instance: InstanceId) -> TokenStream {
        let (get, _) = self.gen.accessor_names(Owner::Status { thread, instance });
        let state = &self.state;
        quote!(#state.#get())
    }

    /// The field of a variable for this instance.
    pub fn owner(&self, var: VarRef) -> Owner {
        match var {
            VarRef::Global(id) => Owner::Global(id),
            VarRef::Local(local) => Owner::Local {
                thread: self.thread.unwrap_or(ThreadId(0)),
                instance: self.instance,
                local,
            },
        }
    }

    /// The domain of a variable.
    pub fn scalar(&self, var: VarRef) -> Scalar {
        let thread = self.thread.unwrap_or(ThreadId(0));
        self.gen.system.var(thread, var).ty.scalar
    }

    /// The length of an array variable.
    pub fn len(&self, var: VarRef) -> u32 {
        let thread = self.thread.unwrap_or(ThreadId(0));
        self.gen.system.var(thread, var).ty.elements()
    }

    fn instance_index(&self) -> i64 {
        self.thread.map_or(0, |t| {
            i64::from(self.gen.system.threads[t].index_of(self.instance))
        })
    }
}
