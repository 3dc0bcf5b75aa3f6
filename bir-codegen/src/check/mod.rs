//! [`ast::System`] to [`ir::System`]: names resolved, types and constants evaluated, every
//! rule of LANGUAGE.md's "Compile-time checks" enforced. Each pass records its errors and
//! carries on with a placeholder, so that one run reports every independent mistake.
//!
//! Passes, in order: top-level names (`names`), enums, constants and aliases (lazily,
//! with cycle detection), globals (`types`), thread signatures then thread bodies
//! (`threads`), invariants. Expressions are checked by `expr`.

mod atoms;
mod comm;
mod exceptions;
mod expr;
mod functions;
mod funs;
mod inline;
mod names;
mod pools;
mod properties;
mod records;
mod refs;
mod suggest;
mod threads;
mod types;

use std::collections::HashMap;

use proc_macro2::Span;

use crate::diag::Diagnostics;
use crate::front::ast::{self, Spans};
use crate::ir::{self, FaultKind, FaultSite, SiteId};

pub use names::{Override, Overrides};

/// Checks a parsed system. Returns `None` when errors were recorded in `diags`.
pub fn check(system: &ast::System, diags: &mut Diagnostics) -> Option<ir::System> {
    check_with(system, &Overrides::default(), diags)
}

/// Checks a parsed system with some constants replaced by `overrides` (see [`Overrides`]).
/// Returns `None` when errors were recorded in `diags`.
pub fn check_with(
    system: &ast::System,
    overrides: &Overrides,
    diags: &mut Diagnostics,
) -> Option<ir::System> {
    let errors_before = diags.len();
    let function_threads = functions::function_threads(system);
    let mut checker = Checker::new(system, overrides, diags);
    checker.collect_names();
    checker.real_threads = checker.thread_decls.len();
    checker.thread_decls.extend(function_threads.iter());
    checker.check_enums();
    checker.check_consts();
    checker.check_aliases();
    checker.check_record_bounds();
    checker.check_thread_kinds();
    checker.check_globals();
    checker.check_records();
    checker.check_thread_signatures();
    checker.check_function_signatures();
    checker.check_comm_decls();
    checker.check_funs();
    checker.check_state_size();
    checker.check_thread_bodies();
    checker.check_returns();
    checker.check_call_graph();
    checker.check_invariants();
    checker.check_properties();
    if checker.diags.len() == errors_before {
        checker.inline_calls();
        checker.check_rendezvous_partners();
    }
    let system = checker.finish();
    (diags.len() == errors_before).then_some(system)
}

impl Checker<'_> {
    /// The error of a version-3 construct that the checker does not take yet.
    fn unsupported(&mut self, spans: Spans, what: &str) {
        self.diags.error(
            spans,
            format!("{what} is version 3 of BIR, which bir parses but does not check yet"),
        );
    }
}

/// What a top-level name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symbol {
    /// A const block, by index into `Checker::const_blocks`.
    ConstBlock(usize),
    /// A typealias, by index into `Checker::aliases`.
    Alias(usize),
    /// An enum.
    Enum(ir::EnumId),
    /// A global variable.
    Global(ir::GlobalId),
    /// A thread.
    Thread(ir::ThreadId),
    /// A channel (or array of channels), by index into `Checker::channels`.
    Channel(usize),
    /// A lock (or array of locks), by index into `Checker::locks`.
    Lock(usize),
    /// A function, by index into `Checker::function_decls`.
    Function(usize),
    /// A `fun`, by index into `Checker::fun_decls`.
    Fun(usize),
    /// A record type.
    Record(ir::RecordId),
}

impl Symbol {
    /// How users would call it, for messages.
    fn describe(self) -> &'static str {
        match self {
            Symbol::ConstBlock(_) => "a const block",
            Symbol::Alias(_) => "a typealias",
            Symbol::Enum(_) => "an enum",
            Symbol::Global(_) => "a global variable",
            Symbol::Thread(_) => "a thread",
            Symbol::Channel(_) => "a channel",
            Symbol::Lock(_) => "a lock",
            Symbol::Function(_) => "a function",
            Symbol::Fun(_) => "a `fun`",
            Symbol::Record(_) => "a record type",
        }
    }
}

/// Resolution state of a lazily evaluated constant or alias, for cycle detection.
#[derive(Clone, Copy, Debug)]
pub(super) enum Lazy<T> {
    Pending,
    InProgress,
    Done(Option<T>),
}

/// The kind of an expression's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Enum(ir::EnumId),
    /// A reference to an object of this record type (version 3).
    Ref(ir::RecordId),
    /// A `tid` (version 3).
    Tid,
    /// `null`: a reference to no object, or a `tid` that names no instance.
    Null,
    /// The expression had an error, already reported: accept it anywhere.
    Error,
}

/// The pieces of a thread that other threads and invariants refer to.
#[derive(Clone, Debug)]
struct ThreadSig {
    kind: ir::ThreadKind,
    index_param: Option<String>,
    start_params: Vec<ir::LocalId>,
    locals: ir::IdVec<ir::LocalId, ir::Var>,
    /// False for locals whose type had an error.
    local_ok: ir::IdVec<ir::LocalId, bool>,
    locations: HashMap<String, ir::LocationId>,
    location_names: Vec<String>,
}

struct Checker<'a> {
    ast: &'a ast::System,
    /// Values replacing named constants.
    overrides: &'a Overrides,
    diags: &'a mut Diagnostics,
    symbols: HashMap<String, Symbol>,
    const_blocks: Vec<&'a ast::ConstBlock>,
    /// Each const block's entries by name (the first of a duplicated name): a block may hold
    /// thousands of constants, and a linear search per reference made checking quadratic.
    const_entries: Vec<HashMap<&'a str, usize>>,
    consts: HashMap<(usize, usize), Lazy<(i64, Kind)>>,
    aliases: Vec<&'a ast::Alias>,
    alias_types: Vec<Lazy<ir::Scalar>>,
    enum_decls: Vec<&'a ast::EnumDecl>,
    enums: ir::IdVec<ir::EnumId, ir::Enum>,
    global_decls: Vec<&'a ast::VarDecl>,
    globals: ir::IdVec<ir::GlobalId, ir::Var>,
    /// False for globals whose type had an error: their uses are not reported again.
    global_ok: ir::IdVec<ir::GlobalId, bool>,
    thread_decls: Vec<&'a ast::Thread>,
    /// The kind of each thread declaration (`threads::check_thread_kinds`).
    kinds: Vec<ir::ThreadKind>,
    /// The model's number of thread instances, which the type `tid` needs.
    tid_instances: u32,
    channel_decls: Vec<&'a ast::ChannelDecl>,
    lock_decls: Vec<&'a ast::LockDecl>,
    function_decls: Vec<&'a ast::Function>,
    fun_decls: Vec<&'a ast::Fun>,
    record_decls: Vec<&'a ast::RecordDecl>,
    /// Each record's bound, in declaration order (`records`).
    record_bounds: Vec<u32>,
    /// The record types and their hidden globals (`records`).
    records: ir::IdVec<ir::RecordId, ir::Record>,
    /// Each record's lock fields, in declaration order, by record (`records`).
    lock_fields: Vec<Vec<records::LockField>>,
    /// Each `fun`, checked on first use.
    funs: Vec<Lazy<funs::CheckedFun>>,
    /// The hidden state of each channel and lock (`comm`).
    channels: Vec<comm::Channel>,
    locks: Vec<comm::Lock>,
    waits: Option<comm::Waits>,
    /// The fault site of hidden operations that cannot fail (`comm`).
    hidden_site: Option<SiteId>,
    /// The model's own threads; the functions' bodies are checked as threads after them.
    real_threads: usize,
    function_sigs: Vec<functions::FunctionSig>,
    /// The calls and the returned values of the transformations that make them, by
    /// (body, transformation).
    calls: HashMap<(ir::ThreadId, ir::TransformId), functions::CallInfo>,
    returns: HashMap<(ir::ThreadId, ir::TransformId), functions::ReturnInfo>,
    /// The tokens of each `return;` without a value, and whether it is the end of a
    /// high-level body, by (body, transformation).
    bare_returns: HashMap<(ir::ThreadId, ir::TransformId), (Spans, bool)>,
    /// The record and catch variable of each `catch` clause of a body, in order (`None`
    /// for a clause with an error), by body (`exceptions`).
    catch_locals: HashMap<ir::ThreadId, Vec<Option<(ir::RecordId, ir::LocalId)>>>,
    /// The checked `catch` clauses of each body, in source order.
    catches: HashMap<ir::ThreadId, Vec<exceptions::CatchInfo>>,
    /// The throw that ends each transformation that has one, by (body, transformation).
    throws: HashMap<(ir::ThreadId, ir::TransformId), exceptions::ThrowInfo>,
    /// The warnings about the model as written (`ir::System::warnings`).
    warnings: Vec<ir::Warning>,
    /// The function and location of each `T@f.loc` (`inline::FUNCTION_AT`).
    function_ats: Vec<(usize, ir::LocationId)>,
    sigs: ir::IdVec<ir::ThreadId, ThreadSig>,
    threads: ir::IdVec<ir::ThreadId, ir::Thread>,
    invariants: Vec<ir::Invariant>,
    properties: Vec<ir::Property>,
    heuristics: Vec<ir::Heuristic>,
    sites: ir::IdVec<SiteId, FaultSite>,
    /// The tokens of each site (`ir::System::site_spans`).
    site_spans: ir::IdVec<SiteId, Spans>,
    next_quant_var: ir::QuantVarId,
    /// How many constants and typealiases are being resolved, one inside the other
    /// (bounded by [`MAX_RESOLUTION_DEPTH`]).
    resolving: usize,
    /// Finds the "did you mean" of unknown names.
    suggest: suggest::Suggester,
}

/// Rule: a constant or typealias depends on a chain of at most this many others (`A = C.B;
/// B = C.C; ...`). They are resolved lazily and recursively, one inside the other, so a
/// longer chain would overflow the compiler's stack; models need a handful.
const MAX_RESOLUTION_DEPTH: usize = 64;

impl<'a> Checker<'a> {
    fn new(ast: &'a ast::System, overrides: &'a Overrides, diags: &'a mut Diagnostics) -> Self {
        Checker {
            ast,
            overrides,
            diags,
            symbols: HashMap::new(),
            const_blocks: Vec::new(),
            const_entries: Vec::new(),
            consts: HashMap::new(),
            aliases: Vec::new(),
            alias_types: Vec::new(),
            enum_decls: Vec::new(),
            enums: ir::IdVec::new(),
            global_decls: Vec::new(),
            globals: ir::IdVec::new(),
            global_ok: ir::IdVec::new(),
            thread_decls: Vec::new(),
            kinds: Vec::new(),
            tid_instances: 0,
            channel_decls: Vec::new(),
            lock_decls: Vec::new(),
            function_decls: Vec::new(),
            fun_decls: Vec::new(),
            record_decls: Vec::new(),
            record_bounds: Vec::new(),
            records: ir::IdVec::new(),
            lock_fields: Vec::new(),
            funs: Vec::new(),
            channels: Vec::new(),
            locks: Vec::new(),
            waits: None,
            hidden_site: None,
            real_threads: 0,
            function_sigs: Vec::new(),
            calls: HashMap::new(),
            returns: HashMap::new(),
            bare_returns: HashMap::new(),
            catch_locals: HashMap::new(),
            catches: HashMap::new(),
            throws: HashMap::new(),
            warnings: Vec::new(),
            function_ats: Vec::new(),
            sigs: ir::IdVec::new(),
            threads: ir::IdVec::new(),
            invariants: Vec::new(),
            properties: Vec::new(),
            heuristics: Vec::new(),
            sites: ir::IdVec::new(),
            site_spans: ir::IdVec::new(),
            next_quant_var: ir::QuantVarId(0),
            resolving: 0,
            suggest: suggest::Suggester::default(),
        }
    }

    /// Records a fault site and returns its id: its line is `at`'s, and `tokens` are what
    /// a diagnostic about it underlines (see `ir::System::site_spans`).
    fn site(&mut self, kind: FaultKind, message: String, at: Span, tokens: Spans) -> SiteId {
        self.site_spans.push(tokens);
        self.sites.push(FaultSite {
            kind,
            message: message.into(),
            line: line_of(at),
        })
    }

    /// Forgets the sites recorded after the first `count` (those of a folded constant).
    fn truncate_sites(&mut self, count: usize) {
        self.sites.truncate(count);
        self.site_spans.truncate(count);
    }

    fn finish(self) -> ir::System {
        let consts = self
            .consts
            .iter()
            .filter_map(|(&(block, entry), state)| match state {
                Lazy::Done(Some((value, kind))) => Some((block, entry, *value, *kind)),
                _ => None,
            })
            .collect::<Vec<_>>();
        let mut consts: Vec<_> = consts
            .into_iter()
            .map(|(block, entry, value, kind)| {
                let decl = self.const_blocks[block];
                (
                    (block, entry),
                    ir::Const {
                        block: decl.name.text.clone(),
                        name: decl.entries[entry].name.text.clone(),
                        value,
                        is_bool: kind == Kind::Bool,
                    },
                )
            })
            .collect();
        consts.sort_by_key(|(key, _)| *key);
        let hidden = self.hidden();
        ir::System {
            name: self.ast.name.text.clone(),
            name_span: self.ast.name.span,
            doc: self.ast.doc.clone(),
            consts: consts.into_iter().map(|(_, c)| c).collect(),
            enums: self.enums,
            globals: self.globals,
            threads: self.threads,
            invariants: self.invariants,
            properties: self.properties,
            heuristics: self.heuristics,
            fault_sites: self.sites,
            site_spans: self.site_spans,
            hidden,
            warnings: self.warnings,
        }
    }
}

/// The 1-based source line of a span, or 0 when the span carries no position.
pub(crate) fn line_of(span: Span) -> u32 {
    span.start().line as u32
}

#[cfg(test)]
mod tests;
