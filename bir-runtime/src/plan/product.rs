//! How the product states of an LTL check are laid out: as one word (the model's word and
//! the automaton's state above it) when both fit, and then whether the nested search's
//! colour bits fit beside them. The plan names the layout; the product and the nested
//! search build it.

use crate::model::{Model, PropertyKind};
use crate::store::COLOURS;

/// The bits of the states 0..n of an automaton with `n` states (those of n - 1).
pub(crate) fn automaton_bits(n: usize) -> u32 {
    u64::BITS - (n.max(1) as u64 - 1).leading_zeros()
}

/// The bits of the product states of `model` with its LTL property `property` as words:
/// the model's word and the automaton's state above it, when the model's states are words
/// and both fit in 63 bits together.
pub(crate) fn product_word_bits<M: Model>(model: &M, property: usize) -> Option<u32> {
    let states = match model.properties().get(property).map(|p| &p.kind) {
        Some(PropertyKind::Ltl { automaton, .. }) => automaton.states.len(),
        _ => 0,
    };
    let bits = model.state_word_bits()? + automaton_bits(states);
    (bits <= 63).then_some(bits)
}

/// Whether the product states of `model` with property `property` are words narrow enough
/// for the colour bits, so that one coloured table ([`WordTable::coloured`](crate::store::WordTable::coloured)) holds blue, cyan and red (with exact
/// storage).
pub(crate) fn one_table<M: Model>(model: &M, property: usize) -> bool {
    product_word_bits(model, property).is_some_and(|bits| bits <= COLOURS.trailing_zeros())
}
