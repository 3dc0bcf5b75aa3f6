//! The size of the code lowering will produce, measured before anything is lowered so that
//! the front end can refuse a model whose generated checker would be too large to compile
//! (LANGUAGE.md, "Limits"). The rule deciding which quantifiers lowering unrolls lives here
//! too, so that the measure and the lowering cannot disagree.

use crate::diag::Diagnostics;
use crate::ir::{self, Expr};

/// Quantifiers over at most this many values are unrolled into `&&`/`||` chains. Rule: only
/// a quantifier whose body holds no other quantifier is unrolled, so that unrolling grows the
/// code at most `UNROLL_LIMIT`-fold; unrolling nested ones would multiply their ranges
/// (`forall a in 0..64 : (forall b in 0..64 : (...))` into 4096 copies, and so on).
pub const UNROLL_LIMIT: i64 = 64;

/// True when lowering unrolls `forall`/`exists _ in lo..hi : (body)` (see [`UNROLL_LIMIT`]).
pub fn unrolls(lo: i64, hi: i64, body: &Expr) -> bool {
    hi - lo <= UNROLL_LIMIT && !has_quantifier(body)
}

/// True when `expr` contains a quantifier.
fn has_quantifier(expr: &Expr) -> bool {
    matches!(expr, Expr::Quant { .. }) || expr.children().any(has_quantifier)
}

/// An upper bound of the number of nodes of `expr` once lowered: quantifiers that lowering
/// unrolls count their body once per value. Saturates.
pub fn lowered_size(expr: &Expr) -> u64 {
    expr.weighted_size(&|lo, hi, body| {
        if unrolls(lo, hi, body) {
            u64::try_from(hi - lo).unwrap_or(0)
        } else {
            1
        }
    })
}

/// Rule: the generated checker has at most this size, counted over every transition (each
/// transformation of each instance) as [`TRANSITION_SIZE`] plus the nodes of its guard and
/// actions once lowered (quantifiers unrolled), plus the invariants and the predicates and
/// automaton edges of the properties. Each instance gets its
/// own copy of its thread's code, specialised to its index, so instances multiply a thread's
/// size: 4096 instances of a 2 KB thread made the macro emit 200 MB of Rust, and a
/// few more transformations exhausted memory. At 45 to 65 bytes of Rust per unit, the limit
/// keeps the output under about 60 MB, far above the reference models: 100 dining
/// philosophers measure 9,000 units (0.5 MB of Rust), 4096 of them 368,640 (20 MB).
pub const MAX_CODE_SIZE: u64 = 1 << 20;

/// What one transition costs in [`MAX_CODE_SIZE`] besides its expressions: its function,
/// its `match` arm and its entry in the tables, about as much Rust as 16 nodes.
pub const TRANSITION_SIZE: u64 = 16;

/// The size of the generated code in the units of [`MAX_CODE_SIZE`], saturating; reports a
/// system whose code would pass the limit, on the thread that passes it (or the system's
/// name, for its invariants).
pub fn code_size(system: &ir::System, diags: &mut Diagnostics) -> u64 {
    let mut size: u64 = system
        .invariants
        .iter()
        .map(|invariant| &invariant.cond)
        .chain(system.properties.iter().flat_map(|p| &p.atoms))
        .map(lowered_size)
        .fold(0, u64::saturating_add);
    // A formula's automaton is a `match` of its edges.
    for property in &system.properties {
        if let Some(automaton) = &property.automaton {
            let edges: usize = automaton.edges.iter().map(Vec::len).sum();
            size = size.saturating_add(edges as u64);
        }
    }
    let mut culprit = system.name_span;
    for thread in &system.threads {
        let per_instance = thread
            .transforms
            .iter()
            .map(transform_size)
            .fold(0, u64::saturating_add);
        size = size.saturating_add(per_instance.saturating_mul(u64::from(thread.instances())));
        if size > MAX_CODE_SIZE {
            culprit = thread.span;
            break;
        }
    }
    if size > MAX_CODE_SIZE {
        diags.error_at(
            culprit,
            format!(
                "the model is too large to generate: its transformations, copied for each \
                 instance, measure more than {MAX_CODE_SIZE} units (one per transition and \
                 expression node, a transition counting {TRANSITION_SIZE}); use fewer \
                 instances or smaller threads"
            ),
        );
    }
    size
}

/// The size of one transition of `transform`.
fn transform_size(transform: &ir::Transform) -> u64 {
    let guard = transform.guard.as_ref().map_or(0, lowered_size);
    let actions = transform.actions.iter().map(|action| match action {
        ir::Action::Assign { place, value, .. } => place
            .index
            .as_ref()
            .map_or(1, |(index, _)| lowered_size(index))
            .saturating_add(lowered_size(value)),
        ir::Action::Assert { cond, .. } | ir::Action::Assume(cond) => lowered_size(cond),
        ir::Action::Start { args, result, .. } => args
            .iter()
            .map(lowered_size)
            .fold(1, u64::saturating_add)
            .saturating_add(result.as_ref().map_or(0, |place| {
                place
                    .index
                    .as_ref()
                    .map_or(1, |(index, _)| lowered_size(index))
            })),
        ir::Action::Exit => 1,
    });
    actions.fold(TRANSITION_SIZE.saturating_add(guard), u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    fn errors(source: &str) -> Vec<String> {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        match crate::front_end(tokens) {
            Ok(_) => Vec::new(),
            Err(diags) => diags.iter().map(|d| d.message.clone()).collect(),
        }
    }

    #[test]
    fn the_generated_code_is_bounded() {
        let philosophers = |n: usize| {
            include_str!("../../../models/dining_philosophers.bir")
                .replace("N = 5;", &format!("N = {n};"))
        };
        // 4096 philosophers (the most instances) measure 368,640 units: accepted.
        assert_eq!(errors(&philosophers(4096)), Vec::<String>::new());
        // One more transformation, whose guard has 100 conjuncts, makes each of the 4096
        // instances about 400 units larger: over 2^20.
        let guard = vec!["fork[index]"; 100].join(" && ");
        let big = philosophers(4096).replace(
            "loc takeLeft:",
            &format!("loc takeLeft:\n      when {guard} do {{ }} goto takeLeft;"),
        );
        let errors = errors(&big);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("the model is too large to generate"),
            "{errors:?}"
        );
    }
}
