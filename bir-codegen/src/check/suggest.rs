//! "Did you mean ...?" for unknown names: the declared name closest to the unknown one, as
//! rustc finds it (`find_best_match_for_name`: equal but for case, else within an edit
//! distance of a third of the name's length), among the names of the kind the context
//! expects; and the spellings of other languages that BIR writes differently (`True`,
//! `bool`), or a constant or enum value written without its block's or enum's name.

use super::expr::Scope;
use super::{Checker, Symbol};
use crate::ir::{self, Id as _};

/// Rule: suggestions cost at most this many character comparisons in one check, in all.
/// A model with many unknown names and many declarations would otherwise make the checker
/// quadratic in its size; past the budget, errors come without suggestions.
const BUDGET: u64 = 1 << 24;

/// Finds the suggestions of one check, within [`BUDGET`].
#[derive(Debug)]
pub(super) struct Suggester {
    budget: u64,
}

impl Default for Suggester {
    fn default() -> Self {
        Suggester { budget: BUDGET }
    }
}

impl Suggester {
    /// `"; did you mean `x`?"` for the candidate closest to `name`, or `""` when none is
    /// close. Candidates are tried in the order given; the first of equally close ones wins.
    pub fn did_you_mean<'c>(
        &mut self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> String {
        match self.best(name, candidates) {
            Some(best) => format!("; did you mean `{best}`?"),
            None => String::new(),
        }
    }

    /// The candidate closest to `name`: one equal to it but for case, else the closest
    /// within an edit distance of max(length, 3) / 3. Never `name` itself.
    pub fn best<'c>(
        &mut self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> Option<&'c str> {
        let name: Vec<char> = name.chars().collect();
        let limit = name.len().max(3) / 3;
        let mut best: Option<(usize, &'c str)> = None;
        for candidate in candidates {
            let chars: Vec<char> = candidate.chars().collect();
            if chars.is_empty() || chars == name || chars.len().abs_diff(name.len()) > limit {
                continue;
            }
            let cost = (chars.len() as u64 + 1) * (name.len() as u64 + 1);
            if cost > self.budget {
                return None;
            }
            self.budget -= cost;
            let same_but_case = chars.len() == name.len()
                && chars
                    .iter()
                    .zip(&name)
                    .all(|(a, b)| a.to_lowercase().eq(b.to_lowercase()));
            let distance = if same_but_case {
                0
            } else {
                edit_distance(&name, &chars)
            };
            if distance <= limit && best.is_none_or(|(closest, _)| distance < closest) {
                best = Some((distance, candidate));
            }
        }
        best.map(|(_, candidate)| candidate)
    }
}

impl Checker<'_> {
    /// The hint after "unknown name `text`" where a value is read in `scope`: a habit, a
    /// constant or enum value named without its block or enum, or the closest variable in
    /// scope (not in a constant expression, which reads none).
    pub(super) fn unknown_value_hint(&mut self, text: &str, scope: &Scope) -> String {
        if let Some(habit) = value_habit(text) {
            return format!("; {habit}");
        }
        let qualified = self.const_blocks.iter().find_map(|block| {
            let entry = block.entries.iter().find(|entry| entry.name.text == text)?;
            Some(format!("{}.{}", block.name.text, entry.name.text))
        });
        let qualified = qualified.or_else(|| {
            self.enums.iter().find_map(|e| {
                let value = e.variants.iter().find(|value| *value == text)?;
                Some(format!("{}.{value}", e.name))
            })
        });
        if let Some(qualified) = qualified {
            return format!(
                "; did you mean `{qualified}`? (constants and enum values are written with \
                 their block's or enum's name)"
            );
        }
        if scope.constant.is_some() {
            return String::new();
        }
        let quant = scope.quant.iter().rev().map(|(name, _)| name.text.as_str());
        let (index, locals) = match scope.thread {
            Some(thread) => {
                let sig = &self.sigs[thread];
                (sig.index_param.as_deref(), Some(&sig.locals))
            }
            None => (None, None),
        };
        let locals = locals
            .into_iter()
            .flat_map(|locals| locals.iter().map(|local| local.name.as_str()));
        let globals = self.global_decls.iter().map(|decl| decl.name.text.as_str());
        let candidates = quant.chain(index).chain(locals).chain(globals);
        self.suggest.did_you_mean(text, candidates)
    }

    /// The hint after "unknown const block or enum `text`".
    pub(super) fn unknown_scope_hint(&mut self, text: &str) -> String {
        let blocks = self
            .const_blocks
            .iter()
            .map(|block| block.name.text.as_str());
        let enums = self.enum_decls.iter().map(|decl| decl.name.text.as_str());
        self.suggest.did_you_mean(text, blocks.chain(enums))
    }

    /// The hint after "unknown thread `text`".
    pub(super) fn unknown_thread_hint(&mut self, text: &str) -> String {
        let threads = self
            .thread_decls
            .iter()
            .take(self.real_threads)
            .map(|decl| decl.name.text.as_str());
        self.suggest.did_you_mean(text, threads)
    }

    /// The hint after "thread `thread` has no location `text`".
    pub(super) fn unknown_location_hint(&mut self, thread: ir::ThreadId, text: &str) -> String {
        let names = self.sigs[thread].location_names.iter().map(String::as_str);
        self.suggest.did_you_mean(text, names)
    }

    /// The hint after "unknown type `text`": a habit, or the closest built-in type,
    /// typealias or enum.
    pub(super) fn unknown_type_hint(&mut self, text: &str) -> String {
        if let Some(habit) = type_habit(text) {
            return format!("; {habit}");
        }
        let types = self.symbols.iter().filter_map(|(name, symbol)| {
            matches!(symbol, Symbol::Alias(_) | Symbol::Enum(_)).then_some(name)
        });
        let mut types: Vec<&str> = types.map(String::as_str).collect();
        // In declaration order, so that the suggestion does not depend on hashing.
        types.sort_by_key(|name| match self.symbols.get(*name) {
            Some(Symbol::Alias(alias)) => (0, *alias),
            Some(Symbol::Enum(id)) => (1, id.index()),
            _ => (2, 0),
        });
        let builtins = ["boolean", "int", "byte"];
        self.suggest
            .did_you_mean(text, builtins.into_iter().chain(types))
    }
}

/// How BIR writes a value that `name` spells as another language does (`True`), if it is
/// one.
pub(super) fn value_habit(name: &str) -> Option<&'static str> {
    match name.to_lowercase().as_str() {
        "true" => Some("BIR writes booleans in lower case: `true`"),
        "false" => Some("BIR writes booleans in lower case: `false`"),
        _ => None,
    }
}

/// How BIR writes a type that `name` spells as another language does (`bool`), if it is
/// one.
pub(super) fn type_habit(name: &str) -> Option<&'static str> {
    match name {
        "bool" | "Bool" | "Boolean" => Some("BIR writes the boolean type `boolean`"),
        "integer" | "Integer" | "Int" | "i32" | "i64" | "int32" | "long" => {
            Some("BIR's integer type is `int`, or `int (lo, hi)` for a range")
        }
        "u8" | "Byte" | "char" => Some("BIR's byte type is `byte`, an `int wrap (0, 255)`"),
        _ => None,
    }
}

/// The edit distance between two words, as rustc measures it (the optimal string
/// alignment distance): the fewest insertions, deletions, substitutions of characters and
/// swaps of adjacent ones that turn one into the other.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    // Rows i - 2, i - 1 and i of the table of distances between prefixes.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 0..a.len() {
        current[0] = i + 1;
        for j in 0..b.len() {
            let substitute = previous[j] + usize::from(a[i] != b[j]);
            let mut best = substitute.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                best = best.min(before[j - 1] + 1);
            }
            current[j + 1] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best<'c>(name: &str, candidates: &[&'c str]) -> Option<&'c str> {
        Suggester::default().best(name, candidates.iter().copied())
    }

    #[test]
    fn the_closest_name_within_a_third_of_the_length_is_suggested() {
        let names = ["locked", "count", "turn", "flag"];
        assert_eq!(best("lockd", &names), Some("locked"));
        assert_eq!(best("Locked", &names), Some("locked"));
        assert_eq!(best("cuont", &names), Some("count"), "a swap is one edit");
        assert_eq!(best("Levle", &["Level"]), Some("Level"));
        assert_eq!(best("flags", &names), Some("flag"));
        assert_eq!(best("x", &names), None);
        assert_eq!(best("unrelated", &names), None);
        assert_eq!(best("locked", &names), None, "never the name itself");
        // Case only beats any edit; among equally close names, the first given.
        assert_eq!(best("ab", &["aB", "ab2"]), Some("aB"));
        assert_eq!(best("tum", &["tun", "tub"]), Some("tun"));
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        let d = |a: &str, b: &str| {
            edit_distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("abc", "abc"), 0);
        assert_eq!(d("flaw", "lawn"), 2);
        assert_eq!(d("ab", "ba"), 1);
        assert_eq!(d("abc", "ca"), 3);
    }

    #[test]
    fn suggestions_stop_when_the_budget_is_spent() {
        let mut suggester = Suggester { budget: 10 };
        assert_eq!(suggester.best("abcd", ["abce"]), None);
        assert_eq!(Suggester::default().best("abcd", ["abce"]), Some("abce"));
    }
}
