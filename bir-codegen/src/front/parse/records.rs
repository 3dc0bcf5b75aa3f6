//! Version 3's record declarations: `[throwable] record [k] Name { type field; lock l; ... }`.

use syn::parse::ParseStream;

use super::items::var_decl;
use super::{docs, recover, Parser};
use crate::front::ast::*;
use crate::front::kw;

impl Parser {
    /// `record = [ "throwable" ] "record" [ "[" cexpr "]" ] IDENT "{" { field } "}"`, where
    /// `field = type IDENT ";" | "lock" IDENT [ "[" cexpr "]" ] ";"`. A broken field is
    /// reported and the next one parsed.
    pub(super) fn record_decl(
        &mut self,
        input: ParseStream,
        doc: String,
    ) -> syn::Result<RecordDecl> {
        let throwable = kw::parse_if(input, "throwable")?;
        let keyword = kw::parse(input, "record")?;
        let bound = self.bracketed_expr(input, "the record's bound")?;
        let name = self.name(input)?;
        let content;
        syn::braced!(content in input);
        let mut fields = Vec::new();
        let mut locks = Vec::new();
        while self.more(&content) {
            let start = content.cursor();
            // A lock field has the global lock's syntax: `lock f;` or `lock f[n];`.
            let field = docs(&content).and_then(|doc| {
                if kw::peek(&content, "lock") {
                    return self.lock(&content, doc).map(Field::Lock);
                }
                var_decl(&content, doc).map(Field::Var)
            });
            match field {
                Ok(Field::Var(field)) if field.init.is_some() => self.record(syn::Error::new(
                    field.name.span,
                    format!(
                        "a field has no initial value: `{}` starts at its type's default in \
                         every new object",
                        field.name.text
                    ),
                )),
                Ok(Field::Var(field)) => fields.push(field),
                Ok(Field::Lock(lock)) => locks.push(lock),
                Err(error) => {
                    self.record(error);
                    recover::skip_statement(&content, start, &[]);
                }
            }
        }
        Ok(RecordDecl {
            doc,
            keyword,
            throwable,
            bound,
            name,
            fields,
            locks,
        })
    }
}

/// One declaration in a record's braces.
enum Field {
    /// `type name;`
    Var(VarDecl),
    /// `lock name;` or `lock name[n];`
    Lock(LockDecl),
}
