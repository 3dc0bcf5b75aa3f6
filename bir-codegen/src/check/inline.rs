//! Calls laid out in the calling thread (LANGUAGE.md, "Functions": a stack of frames per
//! instance). Every call path of a thread gets a frame of its own: the callee's locals as
//! locals of the thread (`f@k.x`, for the thread's k-th frame) and its locations as
//! locations of the thread (`f@k.loc`), so that being at one of them is being in that
//! frame with the caller waiting in the call. A function that is not recursive has one
//! frame per call path; a recursive one as many nested frames as its bound, the call past
//! it a stack error. The frames are the call graph's paths, and since a popped frame's
//! locals are reset to their initial values, equal stacks are equal states: the counts
//! are the spec's.
//!
//! A call is a step of the caller: its actions, the arguments converted to the parameters'
//! types, then the callee's first location. A `return e` is a step of the callee: its
//! actions, `e` converted to the result type, the result written to the caller's target,
//! the frame's locals reset, then the caller's continuation — and when that is itself a
//! `return`, the caller returns in the same step. `exit` in a frame resets every frame of
//! the stack. `T@loc` holds in the thread's location `loc` and in every frame of a call
//! made there; `T@f.loc` in `loc` of every frame of `f`.

use std::collections::HashMap;

use super::functions::ReturnInfo;
use super::Checker;
use crate::diag::Spans;
use crate::ir::{self, Action, Expr, FaultKind, Id as _, Jump, Place, VarRef};

/// The quantified variable that stands for "the instance that executes the step" in a
/// function's body, checked once for every caller: replaced by the calling thread's own
/// expression when the body is laid out in it.
pub(super) const THIS_INSTANCE: ir::QuantVarId = ir::QuantVarId(u32::MAX);

/// `T@f.loc` is checked to a `T@loc` whose location id is this plus an index into
/// `Checker::function_ats`, replaced by the locations of `f`'s frames when they are laid
/// out.
pub(super) const FUNCTION_AT: u32 = u32::MAX / 2;

/// The most frames one thread lays out: the paths of its call graph, recursive functions
/// unrolled to their bounds, can multiply.
pub(super) const MAX_FRAMES: usize = 4096;

/// One frame laid out in a thread.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    /// The function, or `None` for the thread's own body.
    pub(super) function: Option<usize>,
    /// The body's locals and locations as the thread's.
    pub(super) locals: Vec<ir::LocalId>,
    pub(super) locations: Vec<ir::LocationId>,
    /// The local holding the result of a function that returns one.
    result: Option<ir::LocalId>,
    /// The call that made it.
    pub(super) parent: Option<Parent>,
    /// The frames of each function on the stack, up to this one.
    depths: HashMap<usize, u32>,
    /// The location of the thread's body where the chain of calls started.
    root: Option<ir::LocationId>,
}

/// The call that made a frame, in the caller's terms as laid out in the thread.
#[derive(Clone, Debug)]
pub(super) struct Parent {
    pub(super) frame: usize,
    /// The calling transformation, in the caller's body.
    pub(super) call: ir::TransformId,
    /// Where the caller continues once the call returns.
    continuation: Jump,
    /// Where the result goes, with the site of the write.
    target: Option<(Place, ir::SiteId)>,
}

impl Checker<'_> {
    /// Lays out every call of every thread, then drops the functions' bodies and points
    /// every `T@loc` and `T@f.loc` at the frames.
    pub(super) fn inline_calls(&mut self) {
        if self.calls.is_empty() && self.function_ats.is_empty() && self.throws.is_empty() {
            self.threads.truncate(self.real_threads);
            return;
        }
        let mut under = Vec::new();
        for index in 0..self.real_threads {
            let thread = ir::ThreadId::new(index);
            let (laid_out, frames) = self.lay_out(thread);
            self.threads[thread] = laid_out;
            under.push(frames);
        }
        self.threads.truncate(self.real_threads);
        let ats = std::mem::take(&mut self.function_ats);
        let mut rewrite = |expr: &mut Expr| rewrite_at(expr, &under, &ats);
        for thread in self.threads.iter_mut() {
            for transform in thread.transforms.iter_mut() {
                each_expr(transform, &mut rewrite);
            }
        }
        for invariant in &mut self.invariants {
            rewrite(&mut invariant.cond);
            for atom in &mut invariant.atoms {
                rewrite(&mut atom.holds);
                rewrite(&mut atom.fails);
            }
        }
        for property in &mut self.properties {
            for atom in &mut property.atoms {
                rewrite(atom);
            }
        }
    }

    /// Thread `thread` with its calls laid out, and its frames (for `T@loc`).
    fn lay_out(&mut self, thread: ir::ThreadId) -> (ir::Thread, Vec<FrameLocations>) {
        let source = self.threads[thread].clone();
        let mut out = source.clone();
        out.transforms = ir::IdVec::new();
        for location in out.locations.iter_mut() {
            location.transforms.clear();
        }
        let mut frames = vec![Frame {
            function: None,
            locals: source.locals.ids().collect(),
            locations: source.locations.ids().collect(),
            result: None,
            parent: None,
            depths: HashMap::new(),
            root: None,
        }];
        let mut overflow: HashMap<usize, Vec<ir::LocalId>> = HashMap::new();
        let this = self.this_instance(thread);
        let mut index = 0;
        while index < frames.len() {
            if frames.len() > MAX_FRAMES {
                self.diags.error(
                    Spans::one(source.span),
                    format!(
                        "the calls of `{}` need more than {MAX_FRAMES} frames (every path of \
                         its call graph, recursive functions to their bounds)",
                        source.name
                    ),
                );
                break;
            }
            let frame = frames[index].clone();
            let body_thread = match frame.function {
                Some(function) => self.function_thread(function),
                None => thread,
            };
            let body = self.threads[body_thread].clone();
            for (id, transform) in body.transforms.iter_enumerated() {
                let mut laid = remap_transform(transform, &frame, &this);
                let call = self.calls.get(&(body_thread, id)).cloned();
                if let Some(call) = &call {
                    let sig = self.function_sigs[call.function].clone();
                    let depth = frame.depths.get(&call.function).copied().unwrap_or(0);
                    let args: Vec<(Expr, ir::SiteId)> = call
                        .args
                        .iter()
                        .map(|(arg, site)| (remap_expr(arg, &frame, &this), *site))
                        .collect();
                    if depth < sig.bound {
                        let target = call
                            .target
                            .as_ref()
                            .map(|(place, site)| (remap_place(place, &frame, &this), *site));
                        let root = frame.root.or(Some(transform.location));
                        let child = self.new_frame(
                            &mut out,
                            call.function,
                            Parent {
                                frame: index,
                                call: id,
                                continuation: laid.jump,
                                target,
                            },
                            &frame,
                            root,
                            frames.len(),
                        );
                        for ((arg, site), &param) in args.into_iter().zip(&child.locals) {
                            laid.actions.push(assign_local(param, arg, site));
                        }
                        laid.jump = Jump::Goto(child.locations[0]);
                        frames.push(child);
                    } else {
                        let params = overflow.entry(call.function).or_insert_with(|| {
                            sig.params
                                .iter()
                                .enumerate()
                                .map(|(n, &scalar)| {
                                    out.locals.push(ir::Var {
                                        name: bir_model::overflow_name(
                                            &self.function_decls[call.function].name.text,
                                            n,
                                        ),
                                        span: source.span,
                                        doc: String::new(),
                                        ty: ir::Ty { scalar, len: None },
                                        init: vec![scalar.default_value()],
                                    })
                                })
                                .collect()
                        });
                        for ((arg, site), &param) in args.into_iter().zip(params.iter()) {
                            laid.actions.push(assign_local(param, arg, site));
                        }
                        let decl = self.function_decls[call.function];
                        let site = self.site(
                            FaultKind::Stack,
                            format!(
                                "stack error: `{}` would be the frame {} of `{}` on one stack, \
                                 which declares `function[{}]`",
                                call_text(transform),
                                sig.bound + 1,
                                decl.name.text,
                                sig.bound
                            ),
                            call.spans.first,
                            call.spans,
                        );
                        laid.actions.push(Action::Assert {
                            cond: Expr::Bool(false),
                            site,
                        });
                    }
                }
                if let Some(thrown) = self.throws.get(&(body_thread, id)).cloned() {
                    let at = transform.location;
                    let (actions, jump, went) =
                        self.throw_chain(thread, &frames, index, at, &thrown, &out, &this);
                    match laid.rendezvous.as_deref_mut() {
                        Some(meets) => meets.block.extend(actions),
                        None => laid.actions.extend(actions),
                    }
                    laid.jump = jump;
                    laid.text.push_str(&went);
                } else if frame.function.is_some() {
                    if laid.actions.iter().any(|a| matches!(a, Action::Exit)) {
                        let resets = self.resets_to_bottom(&frames, index, &out);
                        let at = laid
                            .actions
                            .iter()
                            .position(|a| matches!(a, Action::Exit))
                            .unwrap_or(laid.actions.len());
                        laid.actions.splice(at..at, resets);
                    } else if call.is_none() && transform.jump == Jump::Return {
                        let value = self.returns.get(&(body_thread, id)).cloned();
                        let (actions, jump) = self.return_chain(&frames, index, value, &out, &this);
                        laid.actions.extend(actions);
                        laid.jump = jump;
                    }
                }
                let location = laid.location;
                let new_id = out.transforms.push(laid);
                out.locations[location].transforms.push(new_id);
            }
            index += 1;
        }
        out.can_end = out
            .transforms
            .iter()
            .any(|t| t.destination() == Jump::Return);
        let located = frames
            .iter()
            .map(|frame| FrameLocations {
                function: frame.function,
                root: frame.root,
                locations: frame.locations.clone(),
            })
            .collect();
        (out, located)
    }

    /// A new frame of `function`, called from `parent`: its locals and locations added to
    /// the thread `out`, named after the frame's number.
    #[allow(clippy::too_many_arguments)]
    fn new_frame(
        &mut self,
        out: &mut ir::Thread,
        function: usize,
        parent: Parent,
        caller: &Frame,
        root: Option<ir::LocationId>,
        number: usize,
    ) -> Frame {
        let body = &self.threads[self.function_thread(function)];
        let function_name = &self.function_decls[function].name.text;
        // A thread lays out at most `MAX_FRAMES` frames, so the number fits.
        let number = u32::try_from(number).unwrap_or(u32::MAX);
        // Named as `bir_model::StateParts` reads frames back: `f@k.loc`, `f@k.x`.
        let item = |item: &str| bir_model::frame_item_name(function_name, number, item);
        let locals = body
            .locals
            .iter()
            .map(|var| {
                out.locals.push(ir::Var {
                    name: item(&var.name),
                    ..var.clone()
                })
            })
            .collect();
        let locations = body
            .locations
            .iter()
            .map(|location| {
                out.locations.push(ir::Location {
                    name: item(&location.name),
                    span: location.span,
                    doc: location.doc.clone(),
                    transforms: Vec::new(),
                })
            })
            .collect();
        let result = self.function_sigs[function].returns.map(|scalar| {
            out.locals.push(ir::Var {
                name: item(bir_model::FRAME_RESULT),
                span: self.function_decls[function].name.span,
                doc: String::new(),
                ty: ir::Ty { scalar, len: None },
                init: vec![scalar.default_value()],
            })
        });
        let mut depths = caller.depths.clone();
        *depths.entry(function).or_insert(0) += 1;
        Frame {
            function: Some(function),
            locals,
            locations,
            result,
            parent: Some(parent),
            depths,
            root,
        }
    }

    /// What returning from frame `index` with `value` does after the step's actions: the
    /// result converted and written to the caller's target, the frame's locals reset, and
    /// the caller's continuation (returning in the same step when that is a `return`).
    fn return_chain(
        &mut self,
        frames: &[Frame],
        index: usize,
        value: Option<ReturnInfo>,
        out: &ir::Thread,
        this: &Expr,
    ) -> (Vec<Action>, Jump) {
        let frame = &frames[index];
        let Some(parent) = &frame.parent else {
            return (Vec::new(), Jump::Return);
        };
        let mut actions = Vec::new();
        if let Some(result) = frame.result {
            if let Some(value) = value {
                actions.push(assign_local(
                    result,
                    remap_expr(&value.value, frame, this),
                    value.site,
                ));
            }
            if let Some((place, site)) = &parent.target {
                actions.push(Action::Assign {
                    place: place.clone(),
                    value: Expr::Read(VarRef::Local(result)),
                    site: *site,
                });
            }
        }
        actions.extend(self.resets(frame, out));
        match parent.continuation {
            Jump::Goto(location) => (actions, Jump::Goto(location)),
            Jump::Return => {
                let caller = &frames[parent.frame];
                let Some(function) = caller.function else {
                    return (actions, Jump::Return);
                };
                let value = self
                    .returns
                    .get(&(self.function_thread(function), parent.call))
                    .cloned();
                let (more, jump) = self.return_chain(frames, parent.frame, value, out, this);
                actions.extend(more);
                (actions, jump)
            }
        }
    }

    /// The assignments that give every local of `frame` its initial value again.
    pub(super) fn resets(&mut self, frame: &Frame, out: &ir::Thread) -> Vec<Action> {
        let site = self.reset_site();
        frame
            .locals
            .iter()
            .chain(&frame.result)
            .flat_map(|&local| {
                let var = &out.locals[local];
                var.init
                    .iter()
                    .enumerate()
                    .map(move |(element, &value)| Action::Assign {
                        place: Place {
                            var: VarRef::Local(local),
                            index: var
                                .ty
                                .len
                                .map(|_| (Box::new(Expr::Int(element as i64)), site)),
                        },
                        value: Expr::Int(value),
                        site,
                    })
            })
            .collect()
    }

    /// The resets of frame `index` and of every frame below it but the thread's body.
    fn resets_to_bottom(
        &mut self,
        frames: &[Frame],
        mut index: usize,
        out: &ir::Thread,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        while let Some(parent) = &frames[index].parent {
            actions.extend(self.resets(&frames[index], out));
            index = parent.frame;
        }
        actions
    }

    /// The site of the writes that reset a popped frame, which cannot fail.
    pub(super) fn reset_site(&mut self) -> ir::SiteId {
        if let Some(site) = self.hidden_site {
            return site;
        }
        let span = self.ast.name.span;
        let site = self.site(
            FaultKind::Range,
            "a popped frame's local left its range (a bug of bir's)".to_string(),
            span,
            Spans::one(span),
        );
        self.hidden_site = Some(site);
        site
    }
}

/// The text of a calling transformation, for the stack error's message.
fn call_text(transform: &ir::Transform) -> &str {
    &transform.text
}

/// Where the frames of a laid-out thread are, for `T@loc` and `T@f.loc`.
struct FrameLocations {
    function: Option<usize>,
    root: Option<ir::LocationId>,
    locations: Vec<ir::LocationId>,
}

/// `local := value` with the write's range site.
fn assign_local(local: ir::LocalId, value: Expr, site: ir::SiteId) -> Action {
    Action::Assign {
        place: Place {
            var: VarRef::Local(local),
            index: None,
        },
        value,
        site,
    }
}

/// What one side of a communication does, in the terms of the thread where `frame` lays it
/// out.
fn remap_role(role: &ir::RendezvousRole, frame: &Frame, this: &Expr) -> ir::RendezvousRole {
    match role {
        ir::RendezvousRole::Send(values) => ir::RendezvousRole::Send(
            values
                .iter()
                .map(|(value, scalar, site)| (remap_expr(value, frame, this), *scalar, *site))
                .collect(),
        ),
        ir::RendezvousRole::Receive(targets) => ir::RendezvousRole::Receive(
            targets
                .iter()
                .map(|target| {
                    target
                        .as_ref()
                        .map(|(place, site)| (remap_place(place, frame, this), *site))
                })
                .collect(),
        ),
    }
}

/// A transformation of a body, in the terms of the thread where `frame` lays it out.
fn remap_transform(transform: &ir::Transform, frame: &Frame, this: &Expr) -> ir::Transform {
    let remap_actions = |actions: &[Action]| -> Vec<Action> {
        actions
            .iter()
            .map(|action| remap_action(action, frame, this))
            .collect()
    };
    ir::Transform {
        location: frame.locations[transform.location.index()],
        guard: transform.guard.as_ref().map(|g| remap_expr(g, frame, this)),
        actions: remap_actions(&transform.actions),
        jump: match transform.jump {
            Jump::Goto(location) => Jump::Goto(frame.locations[location.index()]),
            Jump::Return => Jump::Return,
        },
        rendezvous: transform.rendezvous.as_ref().map(|meets| {
            Box::new(ir::Rendezvous {
                channel: meets.channel,
                index: meets
                    .index
                    .as_ref()
                    .map(|(index, site)| (remap_expr(index, frame, this), *site)),
                role: remap_role(&meets.role, frame, this),
                block: remap_actions(&meets.block),
            })
        }),
        buffered: transform.buffered.as_ref().map(|op| {
            Box::new(ir::Buffered {
                index: op
                    .index
                    .as_ref()
                    .map(|index| remap_expr(index, frame, this)),
                role: remap_role(&op.role, frame, this),
                ..(**op).clone()
            })
        }),
        ..transform.clone()
    }
}

/// An action of a body, in the thread's terms.
fn remap_action(action: &Action, frame: &Frame, this: &Expr) -> Action {
    match action {
        Action::Assign { place, value, site } => Action::Assign {
            place: remap_place(place, frame, this),
            value: remap_expr(value, frame, this),
            site: *site,
        },
        Action::Assert { cond, site } => Action::Assert {
            cond: remap_expr(cond, frame, this),
            site: *site,
        },
        Action::Assume(cond) => Action::Assume(remap_expr(cond, frame, this)),
        Action::Start {
            thread,
            args,
            site,
            arg_sites,
            result,
        } => Action::Start {
            thread: *thread,
            args: args.iter().map(|a| remap_expr(a, frame, this)).collect(),
            site: *site,
            arg_sites: arg_sites.clone(),
            result: result.as_ref().map(|place| remap_place(place, frame, this)),
        },
        Action::Exit => Action::Exit,
    }
}

/// A place of a body, in the thread's terms.
fn remap_place(place: &Place, frame: &Frame, this: &Expr) -> Place {
    Place {
        var: remap_var(place.var, frame),
        index: place
            .index
            .as_ref()
            .map(|(index, site)| (Box::new(remap_expr(index, frame, this)), *site)),
    }
}

/// A variable of a body, in the thread's terms.
fn remap_var(var: VarRef, frame: &Frame) -> VarRef {
    match var {
        VarRef::Local(local) => VarRef::Local(frame.locals[local.index()]),
        global => global,
    }
}

/// An expression of a body, in the thread's terms: its locals the frame's, and "this
/// instance" the thread's.
pub(super) fn remap_expr(expr: &Expr, frame: &Frame, this: &Expr) -> Expr {
    let mut expr = expr.clone();
    remap_in_place(&mut expr, frame, this);
    expr
}

fn remap_in_place(expr: &mut Expr, frame: &Frame, this: &Expr) {
    match expr {
        Expr::Read(var) => *var = remap_var(*var, frame),
        Expr::Element { var, index, .. } => {
            *var = remap_var(*var, frame);
            remap_in_place(index, frame, this);
        }
        Expr::QuantVar(var) if *var == THIS_INSTANCE => *expr = this.clone(),
        _ => each_child(expr, &mut |child| remap_in_place(child, frame, this)),
    }
}

/// Calls `f` on each direct subexpression of `expr`.
fn each_child(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match expr {
        Expr::Bool(_) | Expr::Int(_) | Expr::Read(_) | Expr::InstanceIndex | Expr::QuantVar(_) => {}
        Expr::Element { index, .. } => f(index),
        Expr::Not(inner) | Expr::Neg(inner, _) | Expr::Quant { body: inner, .. } => f(inner),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Cmp { lhs, rhs, .. }
        | Expr::And(lhs, rhs)
        | Expr::Or(lhs, rhs) => {
            f(lhs);
            f(rhs);
        }
        Expr::Cond {
            cond,
            then,
            otherwise,
        } => {
            f(cond);
            f(then);
            f(otherwise);
        }
        Expr::At { instance, .. } => {
            if let Some((index, _)) = instance {
                f(index);
            }
        }
    }
}

/// Calls `f` on every expression of a transformation (guard, values, conditions, indices).
fn each_expr(transform: &mut ir::Transform, f: &mut dyn FnMut(&mut Expr)) {
    if let Some(guard) = &mut transform.guard {
        f(guard);
    }
    if let Some(meets) = &mut transform.rendezvous {
        if let Some((index, _)) = &mut meets.index {
            f(index);
        }
        each_role_expr(&mut meets.role, f);
        each_action_expr(&mut meets.block, f);
    }
    if let Some(op) = &mut transform.buffered {
        if let Some(index) = &mut op.index {
            f(index);
        }
        each_role_expr(&mut op.role, f);
    }
    each_action_expr(&mut transform.actions, f);
}

/// Calls `f` on every expression of one side of a communication (values, target indices).
fn each_role_expr(role: &mut ir::RendezvousRole, f: &mut dyn FnMut(&mut Expr)) {
    match role {
        ir::RendezvousRole::Send(values) => values.iter_mut().for_each(|(v, _, _)| f(v)),
        ir::RendezvousRole::Receive(targets) => {
            for (place, _) in targets.iter_mut().flatten() {
                if let Some((index, _)) = &mut place.index {
                    f(index);
                }
            }
        }
    }
}

/// Calls `f` on every expression of `actions`.
fn each_action_expr(actions: &mut [Action], f: &mut dyn FnMut(&mut Expr)) {
    for action in actions {
        match action {
            Action::Assign { place, value, .. } => {
                if let Some((index, _)) = &mut place.index {
                    f(index);
                }
                f(value);
            }
            Action::Assert { cond, .. } | Action::Assume(cond) => f(cond),
            Action::Start { args, result, .. } => {
                args.iter_mut().for_each(&mut *f);
                if let Some((index, _)) = result.as_mut().and_then(|place| place.index.as_mut()) {
                    f(index);
                }
            }
            Action::Exit => {}
        }
    }
}

/// Points `T@loc` at `loc` and at every frame of a call made there, and `T@f.loc` at `loc`
/// of every frame of `f`: an `or` of `T@l` over those locations (false when there are
/// none).
fn rewrite_at(expr: &mut Expr, frames: &[Vec<FrameLocations>], ats: &[(usize, ir::LocationId)]) {
    each_child(expr, &mut |child| rewrite_at(child, frames, ats));
    let Expr::At {
        thread,
        instance,
        location,
    } = expr
    else {
        return;
    };
    let Some(frames) = frames.get(thread.index()) else {
        return;
    };
    let locations: Vec<ir::LocationId> = if location.0 >= FUNCTION_AT {
        let (function, at) = ats[(location.0 - FUNCTION_AT) as usize];
        frames
            .iter()
            .filter(|frame| frame.function == Some(function))
            .map(|frame| frame.locations[at.index()])
            .collect()
    } else {
        let mut all = vec![*location];
        all.extend(
            frames
                .iter()
                .filter(|frame| frame.root == Some(*location))
                .flat_map(|frame| frame.locations.iter().copied()),
        );
        all
    };
    let (thread, instance) = (*thread, instance.clone());
    let at = |location: ir::LocationId| Expr::At {
        thread,
        instance: instance.clone(),
        location,
    };
    *expr = match locations.split_first() {
        None => Expr::Bool(false),
        Some((&first, rest)) => rest.iter().fold(at(first), |or, &next| {
            Expr::Or(Box::new(or), Box::new(at(next)))
        }),
    };
}
