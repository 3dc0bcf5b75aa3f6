//! The pieces declarations are made of: enums, variables and their initialisers, and
//! types.

use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, Token};

use super::stmt::assign_op;
use super::{end_of_group, expr, name};
use crate::front::ast::*;
use crate::front::kw;

/// `enum_decl = "enum" IDENT "{" IDENT { "," IDENT } [","] "}"`.
pub(super) fn enum_decl(input: ParseStream, doc: String) -> syn::Result<EnumDecl> {
    kw::parse(input, "enum")?;
    let name = name(input)?;
    let content;
    let braces = syn::braced!(content in input);
    let mut variants = Vec::new();
    while !content.is_empty() {
        variants.push(self::name(&content)?);
        if content.is_empty() {
            break;
        }
        if !content.peek(Token![,]) {
            return Err(content.error(format!(
                "expected `,` between the values of enum `{}`",
                name.text
            )));
        }
        content.parse::<Token![,]>()?;
    }
    if variants.is_empty() {
        return Err(syn::Error::new(
            braces.span.open(),
            format!("enum `{}` needs at least one value", name.text),
        ));
    }
    Ok(EnumDecl {
        doc,
        name,
        variants,
    })
}

/// `type IDENT [ ":=" init ] ";"`: a global or a local.
pub(super) fn var_decl(input: ParseStream, doc: String) -> syn::Result<VarDecl> {
    let ty = ty(input)?;
    let name = name(input)?;
    let init = if input.peek(Token![;]) {
        None
    } else {
        if !input.peek(Token![:]) && !input.peek(Token![=]) {
            return Err(syn::Error::new(
                name.span,
                format!(
                    "expected `;` after `{}`, or `:=` and an initial value",
                    name.text
                ),
            ));
        }
        assign_op(input)?;
        Some(init(input)?)
    };
    input.parse::<Token![;]>()?;
    Ok(VarDecl {
        doc,
        ty,
        name,
        init,
    })
}

/// `init = cexpr | "{" cexpr { "," cexpr } "}"`.
fn init(input: ParseStream) -> syn::Result<Init> {
    if input.peek(syn::token::Brace) {
        let content;
        let braces = syn::braced!(content in input);
        let items = content.parse_terminated(expr, Token![,])?;
        if items.is_empty() {
            return Err(syn::Error::new(
                braces.span.open(),
                "an array initialiser needs one value per element",
            ));
        }
        Ok(Init::List {
            spans: Spans {
                first: braces.span.open(),
                last: braces.span.close(),
            },
            items: items.into_iter().collect(),
        })
    } else {
        Ok(Init::Scalar(expr(input)?))
    }
}

/// `type = base [ "[" cexpr "]" ]`.
pub(super) fn ty(input: ParseStream) -> syn::Result<Type> {
    let base = base_type(input)?;
    let first = match &base {
        BaseType::Boolean(span)
        | BaseType::Byte(span)
        | BaseType::Tid(span)
        | BaseType::Int { span, .. } => *span,
        BaseType::Named(name) => name.span,
    };
    let mut last = match &base {
        BaseType::Int {
            range: Some(range), ..
        } => range.spans.last,
        _ => first,
    };
    let len = if input.peek(syn::token::Bracket) {
        let content;
        let brackets = bracketed!(content in input);
        let len = expr(&content)?;
        end_of_group(&content, "the array length")?;
        last = brackets.span.close();
        if input.peek(syn::token::Bracket) {
            return Err(input.error("an array's elements are scalars: BIR has no arrays of arrays"));
        }
        Some(len)
    } else {
        None
    };
    Ok(Type {
        base,
        len,
        spans: Spans { first, last },
    })
}

/// `base = "boolean" | "byte" | "int" [ ["wrap"] "(" cexpr "," cexpr ")" ] | "tid" | IDENT`.
fn base_type(input: ParseStream) -> syn::Result<BaseType> {
    if let Some(span) = kw::parse_if(input, "boolean")? {
        return Ok(BaseType::Boolean(span));
    }
    if let Some(span) = kw::parse_if(input, "byte")? {
        return Ok(BaseType::Byte(span));
    }
    if let Some(span) = kw::parse_if(input, "int")? {
        let wrap = kw::parse_if(input, "wrap")?;
        if wrap.is_none() && !input.peek(syn::token::Paren) {
            return Ok(BaseType::Int { span, range: None });
        }
        let content;
        let parens = parenthesized!(content in input);
        let lo = expr(&content)?;
        content.parse::<Token![,]>()?;
        let hi = expr(&content)?;
        end_of_group(&content, "the range `(lo, hi)`")?;
        let range = IntRange {
            wrap: wrap.is_some(),
            lo,
            hi,
            spans: Spans {
                first: parens.span.open(),
                last: parens.span.close(),
            },
        };
        return Ok(BaseType::Int {
            span,
            range: Some(Box::new(range)),
        });
    }
    if let Some(span) = kw::parse_if(input, "tid")? {
        return Ok(BaseType::Tid(span));
    }
    if input.cursor().ident().is_some() && !kw::peek(input, "wrap") {
        return name(input).map(BaseType::Named);
    }
    Err(input.error(
        "expected a type: `boolean`, `byte`, `int`, `int (lo, hi)`, or a typealias or enum name",
    ))
}

/// True when the next tokens can start a type.
pub(super) fn starts_type(input: ParseStream) -> bool {
    match input.cursor().ident() {
        Some((ident, _)) => {
            let text = ident.to_string();
            matches!(text.as_str(), "boolean" | "byte" | "int" | "tid") || !kw::is_reserved(&text)
        }
        None => false,
    }
}
