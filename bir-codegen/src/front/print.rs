//! [`ast`](crate::front::ast) nodes back to BIR text on one line, as traces and messages show them:
//! `when !fork[index] do { fork[index] := true; } goto takeRight;`, and a statement of a
//! high-level body with its blocks (`while c do x := 1; end`). Parentheses are kept as
//! written, operators get one space on each side.

use std::fmt::{self, Display, Formatter};

use crate::front::ast::*;

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int { value, .. } => write!(f, "{value}"),
            Expr::Bool { value, .. } => write!(f, "{value}"),
            Expr::Name(name) => f.write_str(&name.text),
            Expr::Member { scope, member } => write!(f, "{}.{}", scope.text, member.text),
            Expr::Index { array, index, .. } => write!(f, "{}[{index}]", array.text),
            Expr::At {
                thread,
                index,
                function,
                location,
            } => {
                f.write_str(&thread.text)?;
                if let Some(index) = index {
                    write!(f, "[{index}]")?;
                }
                f.write_str("@")?;
                if let Some(function) = function {
                    write!(f, "{}.", function.text)?;
                }
                f.write_str(&location.text)
            }
            Expr::Builtin { name, operand, .. } => write!(f, "{}({operand})", name.text),
            Expr::Call { function, args, .. } => {
                write!(f, "{}(", function.text)?;
                list(f, args)?;
                f.write_str(")")
            }
            Expr::Quant {
                kind,
                var,
                lo,
                hi,
                body,
                ..
            } => {
                let keyword = match kind {
                    Quantifier::Forall => "forall",
                    Quantifier::Exists => "exists",
                };
                write!(f, "{keyword} {} in {lo} .. {hi} : ({body})", var.text)
            }
            Expr::Unary { op, expr, .. } => match op {
                UnOp::Not => write!(f, "!{expr}"),
                UnOp::Neg => write!(f, "-{expr}"),
            },
            Expr::Binary { op, lhs, rhs, .. } => write!(f, "{lhs} {} {rhs}", op.symbol()),
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => write!(f, "{cond} ? {then} : {otherwise}"),
            Expr::Paren { expr, .. } => write!(f, "({expr})"),
            Expr::Null { .. } => f.write_str("null"),
            Expr::Field { base, field } => write!(f, "{base}.{}", field.text),
            Expr::FieldIndex {
                base, field, index, ..
            } => write!(f, "{base}.{}[{index}]", field.text),
        }
    }
}

impl Display for Formula {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Formula::Atom(expr @ Expr::Binary { .. }) => write!(f, "({expr})"),
            Formula::Atom(expr) => write!(f, "{expr}"),
            Formula::Unary { op, operand, .. } => match op {
                FormulaOp::Next => write!(f, "X {operand}"),
                op => write!(f, "{}{operand}", op.text()),
            },
            Formula::Binary {
                op, left, right, ..
            } => write!(f, "({left} {} {right})", op.text()),
        }
    }
}

impl Display for Action {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Action::Assign { target, value, .. } => write!(f, "{target} := {value};"),
            Action::Assert { expr, .. } => write!(f, "assert ({expr});"),
            Action::Assume { expr, .. } => write!(f, "assume ({expr});"),
            Action::Start {
                target,
                thread,
                args,
                ..
            } => {
                if let Some(target) = target {
                    write!(f, "{target} := ")?;
                }
                write!(f, "start {}(", thread.text)?;
                list(f, args)?;
                f.write_str(");")
            }
            Action::Exit { .. } => f.write_str("exit;"),
            Action::Throw { value, .. } => write!(f, "throw {value};"),
            Action::Send {
                channel, values, ..
            } => {
                write!(f, "{channel}!")?;
                if !values.is_empty() {
                    f.write_str("(")?;
                    list(f, values)?;
                    f.write_str(")")?;
                }
                f.write_str(";")
            }
            Action::Receive {
                channel, targets, ..
            } => {
                write!(f, "{channel}?")?;
                if !targets.is_empty() {
                    f.write_str("(")?;
                    for (i, target) in targets.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        match target {
                            Some(target) => write!(f, "{target}")?,
                            None => f.write_str("_")?,
                        }
                    }
                    f.write_str(")")?;
                }
                f.write_str(";")
            }
            Action::Lock { op, operand, .. } => write!(f, "{}({operand});", op.text()),
            Action::New { target, record, .. } => write!(f, "{target} := new {};", record.text),
        }
    }
}

impl Display for Jump {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Jump::Goto { target, .. } => write!(f, "goto {};", target.text),
            Jump::Return { value: None, .. } => f.write_str("return;"),
            Jump::Return {
                value: Some(value), ..
            } => write!(f, "return {value};"),
        }
    }
}

impl Display for Transform {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(guard) = &self.guard {
            write!(f, "when {guard} ")?;
        }
        f.write_str("do {")?;
        for action in &self.actions {
            write!(f, " {action}")?;
        }
        if let Some(jump) = &self.inner_jump {
            write!(f, " {jump}")?;
        }
        f.write_str(" }")?;
        if let Some(call) = &self.invoke {
            write!(f, " invoke {call}")?;
        }
        if let Some(jump) = &self.outer_jump {
            write!(f, " {jump}")?;
        }
        Ok(())
    }
}

impl Display for Stmt {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(label) = &self.label {
            write!(f, "loc {}: ", label.text)?;
        }
        match &self.kind {
            StmtKind::Action(action) => write!(f, "{action}"),
            StmtKind::Call(call) => write!(f, "{call};"),
            StmtKind::Skip => f.write_str("skip;"),
            StmtKind::Jump(jump) => write!(f, "{jump}"),
            StmtKind::Atomic { body, .. } => {
                f.write_str("atomic")?;
                statements(f, body)?;
                f.write_str(" end")
            }
            StmtKind::If {
                branches,
                otherwise,
                ..
            } => {
                for (i, branch) in branches.iter().enumerate() {
                    let keyword = if i == 0 { "if" } else { " elseif" };
                    write!(f, "{keyword} {} do", branch.cond)?;
                    statements(f, &branch.body)?;
                }
                otherwise_branch(f, otherwise.as_deref())?;
                f.write_str(" end")
            }
            StmtKind::While { cond, body, .. } => {
                write!(f, "while {cond} do")?;
                statements(f, body)?;
                f.write_str(" end")
            }
            StmtKind::Choose {
                branches,
                otherwise,
                ..
            } => {
                f.write_str("choose")?;
                for branch in branches {
                    write!(f, " when {} do", branch.cond)?;
                    statements(f, &branch.body)?;
                }
                otherwise_branch(f, otherwise.as_deref())?;
                f.write_str(" end")
            }
            StmtKind::Try { body, handlers, .. } => {
                f.write_str("try")?;
                statements(f, body)?;
                for handler in handlers {
                    write!(f, " catch ({} {})", handler.record.text, handler.var.text)?;
                    statements(f, &handler.body)?;
                }
                f.write_str(" end")
            }
        }
    }
}

impl Display for Catch {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "catch {} {} at ", self.record.text, self.var.text)?;
        for (i, covered) in self.covered.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&covered.text)?;
        }
        write!(f, " goto {};", self.handler.text)
    }
}

/// Writes each statement after a space.
fn statements(f: &mut Formatter<'_>, body: &[Stmt]) -> fmt::Result {
    for statement in body {
        write!(f, " {statement}")?;
    }
    Ok(())
}

/// Writes ` else do S`, if there is an `else` branch.
fn otherwise_branch(f: &mut Formatter<'_>, otherwise: Option<&[Stmt]>) -> fmt::Result {
    if let Some(body) = otherwise {
        f.write_str(" else do")?;
        statements(f, body)?;
    }
    Ok(())
}

impl Display for ChannelRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name.text)?;
        match &self.index {
            Some(index) => write!(f, "[{index}]"),
            None => Ok(()),
        }
    }
}

impl Display for Call {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(target) = &self.target {
            write!(f, "{target} := ")?;
        }
        write!(f, "{}(", self.function.text)?;
        list(f, &self.args)?;
        f.write_str(")")
    }
}

/// Writes `items` separated by `, `.
fn list(f: &mut Formatter<'_>, items: &[Expr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl Display for Type {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.base {
            BaseType::Boolean(_) => f.write_str("boolean")?,
            BaseType::Byte(_) => f.write_str("byte")?,
            BaseType::Tid(_) => f.write_str("tid")?,
            BaseType::Int { range: None, .. } => f.write_str("int")?,
            BaseType::Int {
                range: Some(range), ..
            } => {
                let wrap = if range.wrap { "wrap " } else { "" };
                write!(f, "int {wrap}({}, {})", range.lo, range.hi)?
            }
            BaseType::Named(name) => f.write_str(&name.text)?,
        }
        match &self.len {
            Some(len) => write!(f, "[{len}]"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::front::parse::parse_expr;

    fn round_trip(tokens: proc_macro2::TokenStream) -> String {
        parse_expr(tokens).expect("parses").to_string()
    }

    #[test]
    fn expressions_print_as_written_with_normalised_spacing() {
        assert_eq!(
            round_trip(quote!(!fork[(index + 1) % Param.N])),
            "!fork[(index + 1) % Param.N]"
        );
        assert_eq!(
            round_trip(quote!(index == Param.N - 1 ? index : (index + 1) % Param.N)),
            "index == Param.N - 1 ? index : (index + 1) % Param.N"
        );
        assert_eq!(
            round_trip(quote!(forall k in 0 .. Param.N : (k == index || level[k] < level[index]))),
            "forall k in 0 .. Param.N : (k == index || level[k] < level[index])"
        );
        assert_eq!(
            round_trip(quote!(P[2]@critical && Q@idle)),
            "P[2]@critical && Q@idle"
        );
        assert_eq!(round_trip(quote!(-x - -3)), "-x - -3");
    }
}
