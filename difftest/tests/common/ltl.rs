//! The `ltl` checks of the differential tests: the modes every property is checked in, and
//! the judgement of a verdict by the oracle that builds a model's whole product and
//! examines its strongly connected components ([`ltl_violated`]).

use bir::oracle::ltl_violated;
use bir::{Checker, Fairness, FindingKind, Model, Report, Storage, Verdict};

/// A change to a check's configuration.
pub type Configure<M> = fn(Checker<M>) -> Checker<M>;

/// The modes every `ltl` property is checked in, each with the fairness it assumes: without
/// fairness (alone, reduced by partial orders, with compact storage), under weak and under
/// strong fairness.
pub fn ltl_modes<M: Model>() -> [(&'static str, Fairness, Configure<M>); 5] {
    [
        ("without fairness", Fairness::None, |c| c),
        ("with partial-order reduction", Fairness::None, |c| {
            c.por(true)
        }),
        ("with compact storage", Fairness::None, |c| {
            c.storage(Storage::Compact)
        }),
        ("under weak fairness", Fairness::Weak, |c| c.weak_fairness()),
        ("under strong fairness", Fairness::Strong, |c| {
            c.strong_fairness()
        }),
    ]
}

/// What the oracle says of a report's verdict.
pub enum Judged {
    /// The oracle gives the report's verdict.
    Agrees,
    /// The oracle says otherwise: why.
    Disagrees(String),
    /// The report does not answer about the property (a fault, a limit...), or the product
    /// is larger than the limit or meets a fault: no judgement.
    Unjudged,
}

/// Judges the verdict of `report`, a check of the `ltl` property `name` of `model` under
/// `fairness` (with or without reductions), by the whole unreduced product of `model`,
/// built up to `limit` states.
pub fn judge<M: Model>(
    report: &Report,
    model: &M,
    name: &str,
    fairness: Fairness,
    limit: usize,
) -> Judged {
    let violated = match report.verdict() {
        Verdict::Found(FindingKind::Property) => true,
        Verdict::Verified => false,
        _ => return Judged::Unjudged,
    };
    match ltl_violated(model, name, fairness, limit) {
        Some(expected) if expected == violated => Judged::Agrees,
        Some(expected) => Judged::Disagrees(format!(
            "violated {violated}, the whole product says {expected}\n{report}"
        )),
        None => Judged::Unjudged,
    }
}
