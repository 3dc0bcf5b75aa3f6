//! The modes every `ltl` property of the differential tests is checked in. Each verdict is
//! also judged by the whole product (`bir::oracle::judge`), under the fairness the check
//! assumed.

use bir::{Checker, Model, Storage};

/// A change to a check's configuration.
pub type Configure<M> = fn(Checker<M>) -> Checker<M>;

/// The modes every `ltl` property is checked in: without fairness (alone, reduced by
/// partial orders, with compact storage), under weak and under strong fairness.
pub fn ltl_modes<M: Model>() -> [(&'static str, Configure<M>); 5] {
    [
        ("without fairness", |c| c),
        ("with partial-order reduction", |c| c.por(true)),
        ("with compact storage", |c| c.storage(Storage::Compact)),
        ("under weak fairness", |c| c.weak_fairness()),
        ("under strong fairness", |c| c.strong_fairness()),
    ]
}
