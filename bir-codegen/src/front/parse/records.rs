//! Version 3's record declarations: `[throwable] record [k] Name { type field; ... }`.

use syn::parse::ParseStream;

use super::items::var_decl;
use super::{docs, recover, Parser};
use crate::front::ast::*;
use crate::front::kw;

impl Parser {
    /// `record = [ "throwable" ] "record" [ "[" cexpr "]" ] IDENT "{" { type IDENT ";" } "}"`.
    /// A broken field is reported and the next one parsed.
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
        while self.more(&content) {
            let start = content.cursor();
            let field = docs(&content).and_then(|doc| {
                if kw::peek(&content, "lock") {
                    return Err(content.error(
                        "a `lock` field is not supported yet: declare the lock as a global \
                         (`lock m;`), or lock the object itself, `lock(x);`",
                    ));
                }
                var_decl(&content, doc)
            });
            match field {
                Ok(field) if field.init.is_some() => self.record(syn::Error::new(
                    field.name.span,
                    format!(
                        "a field has no initial value: `{}` starts at its type's default in \
                         every new object",
                        field.name.text
                    ),
                )),
                Ok(field) => fields.push(field),
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
        })
    }
}
