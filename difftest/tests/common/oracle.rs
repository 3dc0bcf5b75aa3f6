//! `ltl` verdicts against the oracle that builds a model's whole product and examines its
//! strongly connected components ([`ltl_violated`]), shared by the differential tests.

use bir::oracle::ltl_violated;
use bir::{Fairness, FindingKind, Model, Report, Verdict};

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
