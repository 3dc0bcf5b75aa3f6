//! The syntax tree of a BIR system exactly as written. Every node keeps the spans of its
//! first and last tokens so that diagnostics can underline the whole construct; no node
//! carries meaning beyond the text (names are resolved by `check`).

use proc_macro2::Span;

/// Every node's first and last token; defined with the diagnostics, which every stage shares.
pub use crate::diag::Spans;

/// A name as written (an identifier token).
#[derive(Clone, Debug)]
pub struct Name {
    /// The identifier's text.
    pub text: String,
    /// Where it stands.
    pub span: Span,
}

impl Name {
    /// The name's one-token span.
    pub fn spans(&self) -> Spans {
        Spans::one(self.span)
    }
}

/// `system Name { decl* }`.
#[derive(Clone, Debug)]
pub struct System {
    /// The doc comments written before `system`.
    pub doc: String,
    /// The system's name; it becomes the name of the generated Rust type.
    pub name: Name,
    /// The declarations in source order.
    pub decls: Vec<Decl>,
}

/// A top-level declaration.
#[derive(Clone, Debug)]
pub enum Decl {
    /// `const Name { X = e; ... }`
    Const(ConstBlock),
    /// `typealias Name type;`
    Alias(Alias),
    /// `enum Name { A, B }`
    Enum(EnumDecl),
    /// `type name [:= init];`
    Global(VarDecl),
    /// `invariant Name: expr;`
    Invariant(Invariant),
    /// `ltl Name: formula;`
    Ltl(Ltl),
    /// `reachable Name: expr;`
    Reachable(Invariant),
    /// `heuristic Name: expr;` (version 3): an int expression that orders a best-first
    /// search; its `keyword` is the `heuristic` keyword.
    Heuristic(Invariant),
    /// `[active [k]] thread Name(...) { ... }`
    Thread(Thread),
    /// `channel (types) [buffer k] name [n];` (version 3).
    Channel(ChannelDecl),
    /// `lock name [n];` (version 3).
    Lock(LockDecl),
    /// `function [k] name(params) [returns type] { body }` (version 3).
    Function(Function),
    /// `fun name(params) returns type = expr;` (version 3).
    Fun(Fun),
    /// `[throwable] record [k] Name { fields }` (version 3).
    Record(RecordDecl),
}

/// `[throwable] record [ [k] ] Name { type field; ... }`: a record type, whose values are
/// references to objects on the heap.
#[derive(Clone, Debug)]
pub struct RecordDecl {
    /// Doc comments before the declaration.
    pub doc: String,
    /// The `record` keyword.
    pub keyword: Span,
    /// The `throwable` keyword, if written: its objects may be thrown.
    pub throwable: Option<Span>,
    /// `[k]`: the most live objects of the type (default 8).
    pub bound: Option<Expr>,
    /// The record's name.
    pub name: Name,
    /// Its fields in declaration order.
    pub fields: Vec<VarDecl>,
    /// Its lock fields (`lock f;`, `lock f[n];`) in declaration order: locks of each object
    /// besides its own, which are no values.
    pub locks: Vec<LockDecl>,
}

/// `channel (T1, T2) buffer k name [n];`: message channels, buffered or rendezvous.
#[derive(Clone, Debug)]
pub struct ChannelDecl {
    /// Doc comments before the declaration.
    pub doc: String,
    /// The `channel` keyword.
    pub keyword: Span,
    /// The field types of a message, in order (none: a pure synchronisation).
    pub fields: Vec<Type>,
    /// The capacity after `buffer`; `None` for a rendezvous channel.
    pub buffer: Option<Expr>,
    /// The channel's name.
    pub name: Name,
    /// `[n]`: an array of `n` channels.
    pub len: Option<Expr>,
    /// From the keyword to the `;`.
    pub spans: Spans,
}

/// `lock name [n];`
#[derive(Clone, Debug)]
pub struct LockDecl {
    /// Doc comments before the declaration.
    pub doc: String,
    /// The `lock` keyword.
    pub keyword: Span,
    /// The lock's name.
    pub name: Name,
    /// `[n]`: an array of `n` locks.
    pub len: Option<Expr>,
}

/// `function [k] name(params) [returns type] { locals body }`
#[derive(Clone, Debug)]
pub struct Function {
    /// Doc comments before the function.
    pub doc: String,
    /// The `function` keyword.
    pub keyword: Span,
    /// `[k]`: the most frames of it one stack may hold (needed on a cycle of calls).
    pub bound: Option<Expr>,
    /// The function's name.
    pub name: Name,
    /// Its parameters, in order: assignable locals.
    pub params: Vec<Param>,
    /// The parenthesised parameter list.
    pub param_spans: Spans,
    /// The type after `returns`, if it returns a value.
    pub returns: Option<Type>,
    /// Its locals and its body.
    pub body: Body,
}

/// `fun name(params) returns type = expr;`: a pure function, usable in expressions.
#[derive(Clone, Debug)]
pub struct Fun {
    /// Doc comments before the function.
    pub doc: String,
    /// The `fun` keyword.
    pub keyword: Span,
    /// The function's name.
    pub name: Name,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// The result type.
    pub returns: Type,
    /// The result.
    pub expr: Expr,
}

/// A thread's or a function's locals, then its locations (version 1) or its statements
/// (version 3's high-level body). After the `steps` stage every body is locations.
#[derive(Clone, Debug, Default)]
pub struct Body {
    /// Local variable declarations.
    pub locals: Vec<VarDecl>,
    /// The locations of a low-level body; the first is the initial one.
    pub locations: Vec<Location>,
    /// The statements of a high-level body (empty for a low-level one).
    pub statements: Vec<Stmt>,
    /// The `catch` clauses among the locations, in source order (version 3; the `steps`
    /// stage writes those of a high-level body's `try` blocks here).
    pub catches: Vec<Catch>,
}

/// `catch R x at l1, l2 goto h;`: a throw of an `R` at one of the covered locations is
/// caught, with `x` bound to the exception and the instance at `h` (version 3).
#[derive(Clone, Debug)]
pub struct Catch {
    /// The `catch` keyword.
    pub keyword: Span,
    /// The record type it catches (a `throwable record`).
    pub record: Name,
    /// The catch variable: a local of the body, bound to the exception.
    pub var: Name,
    /// The locations it covers.
    pub covered: Vec<Name>,
    /// The handler's location.
    pub handler: Name,
    /// From `catch` to the `;` (or the handler's first statement, for a `try`'s).
    pub spans: Spans,
}

/// One statement of a high-level body, with the label that names its location.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// Doc comments before the statement.
    pub doc: String,
    /// `loc name:` before it.
    pub label: Option<Name>,
    /// What it does.
    pub kind: StmtKind,
    /// From its first token (after the label) to its last.
    pub spans: Spans,
}

/// What a statement of a high-level body is.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// An action: one step (`x := e;`, `assert(e);`, `c!(e);`, `lock(m);` ...).
    Action(Action),
    /// `[target :=] f(args);`: a call of a `function`, one step.
    Call(Call),
    /// `skip;`: a step that does nothing.
    Skip,
    /// `goto L;` or `return [e];`: not a step (it becomes the jump of what reaches it).
    Jump(Jump),
    /// `atomic S end`: one step per path through S.
    Atomic {
        /// The `atomic` keyword.
        keyword: Span,
        /// Its statements.
        body: Vec<Stmt>,
    },
    /// `if c do S elseif c2 do S2 ... [else do Se] end`
    If {
        /// The `if` keyword.
        keyword: Span,
        /// Each condition with its branch, in order (`if`, then each `elseif`).
        branches: Vec<Branch>,
        /// The `else` branch, if written.
        otherwise: Option<Vec<Stmt>>,
    },
    /// `while c do S end`
    While {
        /// The `while` keyword.
        keyword: Span,
        /// The loop condition.
        cond: Expr,
        /// The loop body.
        body: Vec<Stmt>,
    },
    /// `try S catch (R x) H ... end`: the handlers cover the locations of S (no location
    /// of its own).
    Try {
        /// The `try` keyword.
        keyword: Span,
        /// The statements the handlers cover.
        body: Vec<Stmt>,
        /// The `catch` clauses, in order.
        handlers: Vec<Handler>,
    },
    /// `choose when c1 do S1 ... [else do Se] end`
    Choose {
        /// The `choose` keyword.
        keyword: Span,
        /// Each `when` condition with its branch, in order.
        branches: Vec<Branch>,
        /// The `else` branch, if written.
        otherwise: Option<Vec<Stmt>>,
    },
}

/// One guarded branch of an `if` or a `choose`.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The `if`, `elseif` or `when` keyword.
    pub keyword: Span,
    /// The condition.
    pub cond: Expr,
    /// The statements.
    pub body: Vec<Stmt>,
}

/// `catch (R x) H` of a `try`.
#[derive(Clone, Debug)]
pub struct Handler {
    /// The `catch` keyword.
    pub keyword: Span,
    /// The record type it catches.
    pub record: Name,
    /// The catch variable.
    pub var: Name,
    /// The handler's statements.
    pub body: Vec<Stmt>,
}

/// `[target :=] f(args)`: a call of a `function`.
#[derive(Clone, Debug)]
pub struct Call {
    /// Where the result goes, if used (an assignable place).
    pub target: Option<Expr>,
    /// The function called.
    pub function: Name,
    /// The arguments, in order.
    pub args: Vec<Expr>,
    /// The whole call, from the target (or the name) to the closing parenthesis.
    pub spans: Spans,
}

/// `const Param { N = 5; M = Param.N + 1; }`: constants used as `Param.N`.
#[derive(Clone, Debug)]
pub struct ConstBlock {
    /// Doc comments before the block.
    pub doc: String,
    /// The block's name (`Param`).
    pub name: Name,
    /// The constants in source order.
    pub entries: Vec<ConstEntry>,
}

/// One `X = e;` of a const block.
#[derive(Clone, Debug)]
pub struct ConstEntry {
    /// The constant's name.
    pub name: Name,
    /// Its defining expression, which must be constant.
    pub value: Expr,
}

/// `typealias Name type;`
#[derive(Clone, Debug)]
pub struct Alias {
    /// Doc comments before the alias.
    pub doc: String,
    /// The alias's name.
    pub name: Name,
    /// The aliased type (a scalar type).
    pub ty: Type,
}

/// `enum Name { A, B, C }`
#[derive(Clone, Debug)]
pub struct EnumDecl {
    /// Doc comments before the enum.
    pub doc: String,
    /// The enum's name.
    pub name: Name,
    /// Its variants in declaration order (the first is the default value).
    pub variants: Vec<Name>,
}

/// A variable declaration: a global, a thread local, or (without init) a parameter.
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// Doc comments before the declaration.
    pub doc: String,
    /// The declared type.
    pub ty: Type,
    /// The variable's name.
    pub name: Name,
    /// The initialiser after `:=`, if any.
    pub init: Option<Init>,
}

/// An initialiser: one constant, or one constant per array element.
#[derive(Clone, Debug)]
pub enum Init {
    /// `:= e`
    Scalar(Expr),
    /// `:= { e1, e2, ... }`
    List {
        /// The braces.
        spans: Spans,
        /// The element values.
        items: Vec<Expr>,
    },
}

/// `invariant Name: expr;`
#[derive(Clone, Debug)]
pub struct Invariant {
    /// Doc comments before the invariant.
    pub doc: String,
    /// The `invariant` keyword.
    pub keyword: Span,
    /// The invariant's name.
    pub name: Name,
    /// The boolean condition every reachable state must satisfy.
    pub expr: Expr,
}

/// `ltl Name: formula;` (LANGUAGE.md, "Properties (version 2)").
#[derive(Clone, Debug)]
pub struct Ltl {
    /// Doc comments before the property.
    pub doc: String,
    /// The `ltl` keyword.
    pub keyword: Span,
    /// The property's name.
    pub name: Name,
    /// The formula.
    pub formula: Formula,
}

/// An LTL formula as written: temporal and boolean operators over state predicates.
#[derive(Clone, Debug)]
pub enum Formula {
    /// A state predicate: a BIR expression (a comparison, or a parenthesised expression
    /// without temporal operators).
    Atom(Expr),
    /// `! f`, `[] f`, `<> f` or `X f`.
    Unary {
        /// The operator.
        op: FormulaOp,
        /// Its token(s).
        span: Span,
        /// The operand.
        operand: Box<Formula>,
    },
    /// `f && g`, `f || g`, `f -> g`, `f <-> g`, `f U g`, `f W g` or `f R g`.
    Binary {
        /// The operator.
        op: FormulaOp,
        /// Its token(s).
        span: Span,
        /// The left operand.
        left: Box<Formula>,
        /// The right operand.
        right: Box<Formula>,
    },
}

/// An operator of an LTL formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormulaOp {
    /// `!`
    Not,
    /// `[]`
    Always,
    /// `<>`
    Eventually,
    /// `X`
    Next,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `->`
    Implies,
    /// `<->`
    Equiv,
    /// `U`
    Until,
    /// `W`
    WeakUntil,
    /// `R`
    Release,
}

impl FormulaOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            FormulaOp::Not => "!",
            FormulaOp::Always => "[]",
            FormulaOp::Eventually => "<>",
            FormulaOp::Next => "X",
            FormulaOp::And => "&&",
            FormulaOp::Or => "||",
            FormulaOp::Implies => "->",
            FormulaOp::Equiv => "<->",
            FormulaOp::Until => "U",
            FormulaOp::WeakUntil => "W",
            FormulaOp::Release => "R",
        }
    }

    /// True for the operators written as an identifier (`U W R X`), which no variable of a
    /// formula may be named.
    pub fn is_word(self) -> bool {
        matches!(
            self,
            FormulaOp::Until | FormulaOp::WeakUntil | FormulaOp::Release | FormulaOp::Next
        )
    }
}

/// A type as written: a base type, optionally an array of it.
#[derive(Clone, Debug)]
pub struct Type {
    /// The scalar type.
    pub base: BaseType,
    /// `[n]`: the array length expression.
    pub len: Option<Expr>,
    /// From the base type's first token to the closing bracket.
    pub spans: Spans,
}

/// A scalar type as written.
#[derive(Clone, Debug)]
pub enum BaseType {
    /// `boolean`
    Boolean(Span),
    /// `byte`, i.e. `int wrap (0, 255)`
    Byte(Span),
    /// `int`, `int (lo, hi)` or `int wrap (lo, hi)`.
    Int {
        /// The `int` keyword.
        span: Span,
        /// The range, if given.
        range: Option<Box<IntRange>>,
    },
    /// `tid`: null or a thread instance (version 3).
    Tid(Span),
    /// A typealias or an enum.
    Named(Name),
}

/// `(lo, hi)` of an int type, with `wrap` if written.
#[derive(Clone, Debug)]
pub struct IntRange {
    /// True for `int wrap (lo, hi)`.
    pub wrap: bool,
    /// Lower bound (a constant expression).
    pub lo: Expr,
    /// Upper bound (a constant expression).
    pub hi: Expr,
    /// The parenthesised range.
    pub spans: Spans,
}

/// `[active [k]] thread [[k]] Name([type name {, type name}]) { locals locations }`
#[derive(Clone, Debug)]
pub struct Thread {
    /// Doc comments before the thread.
    pub doc: String,
    /// `active` or `active [k]`, if written.
    pub active: Option<Active>,
    /// The `thread` keyword.
    pub keyword: Span,
    /// `thread[k]`: the size of a pool of instances created at run time (version 3).
    pub pool: Option<Expr>,
    /// The thread's name.
    pub name: Name,
    /// The parameters, in order (an active thread takes at most one).
    pub params: Vec<Param>,
    /// The parenthesised parameter list.
    pub param_spans: Spans,
    /// Its locals and its body (locations, or statements that the `steps` stage translates
    /// into locations).
    pub body: Body,
}

/// `active` or `active [k]`.
#[derive(Clone, Debug)]
pub struct Active {
    /// The `active` keyword.
    pub keyword: Span,
    /// The replication count `k`, if written.
    pub count: Option<Expr>,
}

/// A thread parameter: `int index`.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its type.
    pub ty: Type,
    /// Its name.
    pub name: Name,
}

/// `loc name: transform+`
#[derive(Clone, Debug)]
pub struct Location {
    /// Doc comments before the location.
    pub doc: String,
    /// The `loc` keyword.
    pub keyword: Span,
    /// The location's name.
    pub name: Name,
    /// Its guarded transformations in source order.
    pub transforms: Vec<Transform>,
}

/// `[when guard] do { actions [jump] } [jump]`
#[derive(Clone, Debug)]
pub struct Transform {
    /// Doc comments before the transformation.
    pub doc: String,
    /// The first token (`when` or `do`) to the last (the jump's `;` or the closing brace).
    pub spans: Spans,
    /// The guard after `when`.
    pub guard: Option<Expr>,
    /// The `do` keyword.
    pub do_keyword: Span,
    /// The actions in order.
    pub actions: Vec<Action>,
    /// The jump written inside the braces, as their last statement.
    pub inner_jump: Option<Jump>,
    /// The jump written after the braces.
    pub outer_jump: Option<Jump>,
    /// `invoke [target :=] f(args)` between the braces and the `goto` (version 3): the
    /// transformation calls `f` after its actions and continues at the jump on return.
    pub invoke: Option<Call>,
}

/// `goto loc;` or `return;`
#[derive(Clone, Debug)]
pub enum Jump {
    /// `goto name;`
    Goto {
        /// The `goto` keyword to the `;`.
        spans: Spans,
        /// The target location.
        target: Name,
    },
    /// `return [e];`: ends the instance, or returns from a function (with `e`).
    Return {
        /// The `return` keyword to the `;`.
        spans: Spans,
        /// The value returned by a function (version 3).
        value: Option<Expr>,
        /// True for the end of a high-level body, which is `return;` with no token of its
        /// own (`spans` are its thread's or function's name).
        end: bool,
    },
}

impl Jump {
    /// The jump's tokens.
    pub fn spans(&self) -> Spans {
        match self {
            Jump::Goto { spans, .. } | Jump::Return { spans, .. } => *spans,
        }
    }
}

/// One statement of a transformation's block.
#[derive(Clone, Debug)]
pub enum Action {
    /// `target := value;`
    Assign {
        /// The assigned place (parsed as an expression, checked to be assignable).
        target: Expr,
        /// The new value.
        value: Expr,
        /// The whole statement.
        spans: Spans,
    },
    /// `assert (e);`
    Assert {
        /// The condition.
        expr: Expr,
        /// The whole statement.
        spans: Spans,
    },
    /// `assume (e);`
    Assume {
        /// The condition.
        expr: Expr,
        /// The whole statement.
        spans: Spans,
    },
    /// `[target :=] start T(args);`
    Start {
        /// Where the started instance's `tid` goes, if anywhere (version 3).
        target: Option<Box<Expr>>,
        /// The thread to start.
        thread: Name,
        /// The arguments, one per parameter.
        args: Vec<Expr>,
        /// The whole statement.
        spans: Spans,
    },
    /// `exit;`: ends the instance; the rest of the block is not executed.
    Exit {
        /// The whole statement.
        spans: Spans,
    },
    /// `throw e;`: throws the object `e` refers to; ends the step (version 3).
    Throw {
        /// The exception: a reference to an object of a `throwable record`.
        value: Expr,
        /// The whole statement.
        spans: Spans,
    },
    /// `c!(values);` or `c[i]!(values);`: a send (a blocking action, version 3).
    Send {
        /// The channel.
        channel: ChannelRef,
        /// The values sent, one per field.
        values: Vec<Expr>,
        /// The whole statement.
        spans: Spans,
    },
    /// `c?(targets);`: a receive (a blocking action); a `None` target is `_`.
    Receive {
        /// The channel.
        channel: ChannelRef,
        /// Where each field goes (an assignable place), or `_` to drop it.
        targets: Vec<Option<Expr>>,
        /// The whole statement.
        spans: Spans,
    },
    /// `target := new R;`: a new object of record `R`, fields at their defaults (version 3).
    New {
        /// The assigned place (parsed as an expression, checked to be assignable).
        target: Expr,
        /// The record.
        record: Name,
        /// The whole statement.
        spans: Spans,
    },
    /// `lock(l);`, `unlock(l);`, `wait(l);`, `unwait(l);`, `notify(l);`, `notifyAll(l);`.
    Lock {
        /// Which operation.
        op: LockOp,
        /// The lock (a `lock` variable or element).
        operand: Expr,
        /// The whole statement.
        spans: Spans,
    },
}

/// A channel as a communication names it: `c` or `c[i]`.
#[derive(Clone, Debug)]
pub struct ChannelRef {
    /// The channel (or array of channels).
    pub name: Name,
    /// The element of an array of channels.
    pub index: Option<Box<Expr>>,
    /// From the name to the closing bracket.
    pub spans: Spans,
}

/// An operation on a lock (Java monitor semantics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockOp {
    /// `lock(l)`: blocking; takes the lock, or counts one more hold.
    Lock,
    /// `unlock(l)`: one hold fewer; frees the lock at none.
    Unlock,
    /// `wait(l)`: releases the lock and joins its wait set (in a high-level body, followed
    /// by `unwait(l)`).
    Wait,
    /// `unwait(l)`: blocking; re-acquires the lock once notified.
    Unwait,
    /// `notify(l)`: takes one waiting instance out of the wait set.
    Notify,
    /// `notifyAll(l)`: takes every waiting instance out.
    NotifyAll,
}

impl LockOp {
    /// The operation as written.
    pub fn text(self) -> &'static str {
        match self {
            LockOp::Lock => "lock",
            LockOp::Unlock => "unlock",
            LockOp::Wait => "wait",
            LockOp::Unwait => "unwait",
            LockOp::Notify => "notify",
            LockOp::NotifyAll => "notifyAll",
        }
    }

    /// True for the operations that wait for the lock: they must come first in a step.
    pub fn is_blocking(self) -> bool {
        matches!(self, LockOp::Lock | LockOp::Unwait)
    }
}

impl Action {
    /// True for the blocking actions (a communication, `lock`, `unwait`), whose readiness is
    /// part of their step's enabling condition: at most one per step, and first.
    pub fn is_blocking(&self) -> bool {
        match self {
            Action::Send { .. } | Action::Receive { .. } => true,
            Action::Lock { op, .. } => op.is_blocking(),
            _ => false,
        }
    }

    /// The statement's tokens.
    pub fn spans(&self) -> Spans {
        match self {
            Action::Assign { spans, .. }
            | Action::Assert { spans, .. }
            | Action::Assume { spans, .. }
            | Action::Start { spans, .. }
            | Action::Exit { spans }
            | Action::Throw { spans, .. }
            | Action::Send { spans, .. }
            | Action::Receive { spans, .. }
            | Action::New { spans, .. }
            | Action::Lock { spans, .. } => *spans,
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `!`
    Not,
    /// `-`
    Neg,
}

/// A binary operator, in precedence groups as in the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `||` (short-circuit)
    Or,
    /// `&&` (short-circuit)
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (truncating)
    Div,
    /// `%` (sign of the dividend)
    Rem,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }

    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
        }
    }
}

/// `forall` or `exists`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// True when the body holds for every value of the range.
    Forall,
    /// True when the body holds for some value of the range.
    Exists,
}

/// An expression as written.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A decimal literal (at most 2147483648, so that `-2147483648` can be written).
    Int {
        /// Its value.
        value: i64,
        /// The literal token.
        span: Span,
    },
    /// `true` or `false`.
    Bool {
        /// Its value.
        value: bool,
        /// The keyword.
        span: Span,
    },
    /// A variable, parameter or quantified variable.
    Name(Name),
    /// `Scope.Member`: a constant or an enum value.
    Member {
        /// The const block or enum.
        scope: Name,
        /// The constant or variant.
        member: Name,
    },
    /// `a[i]`
    Index {
        /// The array.
        array: Name,
        /// The index.
        index: Box<Expr>,
        /// From the array's name to the closing bracket.
        spans: Spans,
    },
    /// `T@loc` or `T[i]@loc`: that instance is running and at `loc`; `T@f.loc`: its top
    /// frame is function `f` at `loc` (version 3).
    At {
        /// The thread.
        thread: Name,
        /// The instance index of a replicated thread.
        index: Option<Box<Expr>>,
        /// The function of `T@f.loc`.
        function: Option<Name>,
        /// The location.
        location: Name,
    },
    /// `len(c)`, `empty(c)`, `full(c)`, `lockAvailable(l)`, `hasLock(l)`,
    /// `wasNotified(l)` (version 3): a built-in of a channel or a lock.
    Builtin {
        /// Which built-in.
        builtin: Builtin,
        /// Its name as written.
        name: Name,
        /// Its operand (a channel or a lock, as an expression).
        operand: Box<Expr>,
        /// From the name to the closing parenthesis.
        spans: Spans,
    },
    /// `f(args)`: a call of a `fun` (a `function` call in an expression is an error).
    Call {
        /// The function.
        function: Name,
        /// The arguments, in order.
        args: Vec<Expr>,
        /// From the name to the closing parenthesis.
        spans: Spans,
    },
    /// `forall k in lo .. hi : (body)` (half-open range).
    Quant {
        /// `forall` or `exists`.
        kind: Quantifier,
        /// The keyword.
        keyword: Span,
        /// The bound variable.
        var: Name,
        /// Lower bound, inclusive (constant).
        lo: Box<Expr>,
        /// Upper bound, exclusive (constant).
        hi: Box<Expr>,
        /// The condition.
        body: Box<Expr>,
        /// The whole quantifier.
        spans: Spans,
    },
    /// `!e` or `-e`
    Unary {
        /// The operator.
        op: UnOp,
        /// The operator token.
        span: Span,
        /// The operand.
        expr: Box<Expr>,
    },
    /// `lhs op rhs`
    Binary {
        /// The operator.
        op: BinOp,
        /// The operator token(s).
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `cond ? then : otherwise`
    Cond {
        /// The condition.
        cond: Box<Expr>,
        /// The value when the condition holds.
        then: Box<Expr>,
        /// The value otherwise.
        otherwise: Box<Expr>,
    },
    /// `null`: the reference to no object, and the `tid` that names no instance (version 3).
    Null {
        /// The keyword.
        span: Span,
    },
    /// `base.field`: a field of the object `base` refers to (version 3). A field of a
    /// plain name (`x.f`) parses as [`Expr::Member`] and is told from a constant when
    /// checked; this is a field of anything else (`a[i].f`, `x.next.f`).
    Field {
        /// The reference.
        base: Box<Expr>,
        /// The field.
        field: Name,
    },
    /// `base.field[index]`: an element of an array field of the object `base` refers to
    /// (version 3); `x.f[i]` has the base `x` as an [`Expr::Name`].
    FieldIndex {
        /// The reference.
        base: Box<Expr>,
        /// The array field.
        field: Name,
        /// The index.
        index: Box<Expr>,
        /// From the base's first token to the closing bracket.
        spans: Spans,
    },
    /// `(e)`
    Paren {
        /// The inner expression.
        expr: Box<Expr>,
        /// The parentheses.
        spans: Spans,
    },
}

impl Expr {
    /// True when `holds` is true of this expression or of any expression inside it.
    pub fn any(&self, holds: &impl Fn(&Expr) -> bool) -> bool {
        if holds(self) {
            return true;
        }
        match self {
            Expr::Int { .. }
            | Expr::Bool { .. }
            | Expr::Name(_)
            | Expr::Member { .. }
            | Expr::Null { .. } => false,
            Expr::Index { index, .. } => index.any(holds),
            Expr::At { index, .. } => index.as_ref().is_some_and(|index| index.any(holds)),
            Expr::Builtin { operand, .. } => operand.any(holds),
            Expr::Call { args, .. } => args.iter().any(|arg| arg.any(holds)),
            Expr::Quant { lo, hi, body, .. } => lo.any(holds) || hi.any(holds) || body.any(holds),
            Expr::Unary { expr, .. } => expr.any(holds),
            Expr::Binary { lhs, rhs, .. } => lhs.any(holds) || rhs.any(holds),
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => cond.any(holds) || then.any(holds) || otherwise.any(holds),
            Expr::Field { base, .. } => base.any(holds),
            Expr::FieldIndex { base, index, .. } => base.any(holds) || index.any(holds),
            Expr::Paren { expr, .. } => expr.any(holds),
        }
    }

    /// The expression's first and last tokens.
    pub fn spans(&self) -> Spans {
        match self {
            Expr::Int { span, .. } | Expr::Bool { span, .. } | Expr::Null { span } => {
                Spans::one(*span)
            }
            Expr::Field { base, field } => base.spans().to(field.spans()),
            Expr::Name(name) => name.spans(),
            Expr::Member { scope, member } => scope.spans().to(member.spans()),
            Expr::Index { spans, .. }
            | Expr::FieldIndex { spans, .. }
            | Expr::Quant { spans, .. }
            | Expr::Paren { spans, .. }
            | Expr::Builtin { spans, .. }
            | Expr::Call { spans, .. } => *spans,
            Expr::At {
                thread, location, ..
            } => thread.spans().to(location.spans()),
            Expr::Unary { span, expr, .. } => Spans::one(*span).to(expr.spans()),
            Expr::Binary { lhs, rhs, .. } => lhs.spans().to(rhs.spans()),
            Expr::Cond {
                cond, otherwise, ..
            } => cond.spans().to(otherwise.spans()),
        }
    }
}

/// A built-in of a channel or a lock, usable in expressions (version 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `len(c)`: the messages in a channel.
    Len,
    /// `empty(c)`: `len(c) == 0`.
    Empty,
    /// `full(c)`: `len(c)` is the capacity (always true on a rendezvous channel).
    Full,
    /// `lockAvailable(l)`: free or held by this instance.
    LockAvailable,
    /// `hasLock(l)`: held by this instance.
    HasLock,
    /// `wasNotified(l)`: this instance was taken out of `l`'s wait set and has not yet
    /// re-acquired it.
    WasNotified,
    /// `threadTerminated(t)`: the `tid` `t` is `null` or names an ended instance.
    ThreadTerminated,
}

impl Builtin {
    /// Every built-in, in the order of LANGUAGE.md's list.
    pub const ALL: [Builtin; 7] = [
        Builtin::LockAvailable,
        Builtin::HasLock,
        Builtin::WasNotified,
        Builtin::Len,
        Builtin::Empty,
        Builtin::Full,
        Builtin::ThreadTerminated,
    ];

    /// The built-in's name in a model.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Len => "len",
            Builtin::Empty => "empty",
            Builtin::Full => "full",
            Builtin::LockAvailable => "lockAvailable",
            Builtin::HasLock => "hasLock",
            Builtin::WasNotified => "wasNotified",
            Builtin::ThreadTerminated => "threadTerminated",
        }
    }

    /// The built-in of this name, if any (each is the built-in only where `(` follows).
    pub fn named(name: &str) -> Option<Builtin> {
        Builtin::ALL
            .into_iter()
            .find(|builtin| builtin.name() == name)
    }

    /// True for the built-ins that need "this instance" (not allowed in invariants, `fun`s
    /// and properties).
    pub fn needs_instance(self) -> bool {
        matches!(
            self,
            Builtin::LockAvailable | Builtin::HasLock | Builtin::WasNotified
        )
    }
}
