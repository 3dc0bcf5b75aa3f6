//! The translator against a direct evaluator: for random formulas over two or three
//! propositions, the automaton must accept exactly the lasso words `u v^ω` (`|u|, |v| ≤ 3`)
//! that satisfy the formula. `BIR_LTL_FORMULAS` sets how many formulas and `BIR_LTL_SEED`
//! the generator's seed (a release build checks 10,000 by default, a debug build 100).

use super::{translate, Automaton, Formula};

/// A word `u v^ω`: `letters[..loop_start]` is `u`, the rest is `v` (never empty); each
/// letter is a set of propositions (bit `n` for proposition `n`).
struct Lasso {
    letters: Vec<u64>,
    loop_start: usize,
}

impl Lasso {
    fn next(&self, position: usize) -> usize {
        if position + 1 == self.letters.len() {
            self.loop_start
        } else {
            position + 1
        }
    }
}

/// Per position of the lasso, whether `formula` holds there.
fn holds(formula: &Formula, word: &Lasso) -> Vec<bool> {
    use Formula::*;
    let n = word.letters.len();
    let at = |values: &[bool], p: usize| values[word.next(p)];
    match formula {
        True => vec![true; n],
        False => vec![false; n],
        Atom(a) => word.letters.iter().map(|l| l & (1 << a) != 0).collect(),
        Not(f) => holds(f, word).into_iter().map(|v| !v).collect(),
        And(f, g) => zip(holds(f, word), holds(g, word), |a, b| a && b),
        Or(f, g) => zip(holds(f, word), holds(g, word), |a, b| a || b),
        Implies(f, g) => zip(holds(f, word), holds(g, word), |a, b| !a || b),
        Equiv(f, g) => zip(holds(f, word), holds(g, word), |a, b| a == b),
        Next(f) => {
            let f = holds(f, word);
            (0..n).map(|p| at(&f, p)).collect()
        }
        Always(f) => holds(&Release(Box::new(False), f.clone()), word),
        Eventually(f) => holds(&Until(Box::new(True), f.clone()), word),
        WeakUntil(f, g) => holds(
            &Or(
                Box::new(Until(f.clone(), g.clone())),
                Box::new(Always(f.clone())),
            ),
            word,
        ),
        Until(f, g) => {
            // The least fixpoint of u = g || (f && X u).
            let (f, g) = (holds(f, word), holds(g, word));
            let mut u = vec![false; n];
            for _ in 0..=n {
                u = (0..n).map(|p| g[p] || (f[p] && at(&u, p))).collect();
            }
            u
        }
        Release(f, g) => {
            // The greatest fixpoint of r = g && (f || X r).
            let (f, g) = (holds(f, word), holds(g, word));
            let mut r = vec![true; n];
            for _ in 0..=n {
                r = (0..n).map(|p| g[p] && (f[p] || at(&r, p))).collect();
            }
            r
        }
    }
}

fn zip(a: Vec<bool>, b: Vec<bool>, op: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    a.into_iter().zip(b).map(|(a, b)| op(a, b)).collect()
}

/// True when the automaton accepts the word: in the product of the automaton with the
/// lasso's positions, an accepting node lies on a cycle reachable from the start.
fn accepts(automaton: &Automaton, word: &Lasso) -> bool {
    let positions = word.letters.len();
    let node = |state: usize, position: usize| state * positions + position;
    let successors = |state: usize, position: usize| {
        let next = word.next(position);
        automaton
            .step(state, word.letters[next])
            .map(move |to| (to, next))
    };
    // Nodes reachable from the start, which reads the first letter.
    let mut reached = vec![false; automaton.len() * positions];
    let mut work: Vec<(usize, usize)> = automaton
        .step(0, word.letters[0])
        .map(|to| (to, 0))
        .collect();
    let mut order = Vec::new();
    while let Some((state, position)) = work.pop() {
        if std::mem::replace(&mut reached[node(state, position)], true) {
            continue;
        }
        order.push((state, position));
        work.extend(successors(state, position));
    }
    // An accepting reachable node that can reach itself.
    order.iter().any(|&(state, position)| {
        if !automaton.accepting[state] {
            return false;
        }
        let mut seen = vec![false; automaton.len() * positions];
        let mut work: Vec<(usize, usize)> = successors(state, position).collect();
        while let Some((s, p)) = work.pop() {
            if (s, p) == (state, position) {
                return true;
            }
            if !std::mem::replace(&mut seen[node(s, p)], true) {
                work.extend(successors(s, p));
            }
        }
        false
    })
}

/// Every lasso over `atoms` propositions with `|u|, |v| ≤ 3`.
fn lassos(atoms: u32) -> Vec<Lasso> {
    let letters = 1u64 << atoms;
    let words = |length: u32| -> Vec<Vec<u64>> {
        (0..letters.pow(length))
            .map(|mut code| {
                (0..length)
                    .map(|_| {
                        let letter = code % letters;
                        code /= letters;
                        letter
                    })
                    .collect()
            })
            .collect()
    };
    let mut all = Vec::new();
    for u_length in 0..=3 {
        for v_length in 1..=3 {
            for u in words(u_length) {
                for v in words(v_length) {
                    let mut letters = u.clone();
                    letters.extend(&v);
                    all.push(Lasso {
                        letters,
                        loop_start: u.len(),
                    });
                }
            }
        }
    }
    all
}

/// A tiny reproducible generator (splitmix64).
struct Random(u64);

impl Random {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % bound
    }
}

/// A random formula with about `size` operators over `atoms` propositions.
fn random_formula(random: &mut Random, atoms: u32, size: u32) -> Formula {
    use Formula::*;
    if size == 0 {
        return match random.below(12) {
            0 => True,
            1 => False,
            _ => Atom(random.below(u64::from(atoms)) as u32),
        };
    }
    let pick = random.below(13);
    let mut go = |size| Box::new(random_formula(random, atoms, size));
    let left = size / 2;
    let right = size - 1 - left;
    match pick {
        0 => Not(go(size - 1)),
        1 => And(go(left), go(right)),
        2 => Or(go(left), go(right)),
        3 => Implies(go(left), go(right)),
        4 => Equiv(go(left), go(right)),
        5 => Next(go(size - 1)),
        6 => Always(go(size - 1)),
        7 => Eventually(go(size - 1)),
        8 | 9 => Until(go(left), go(right)),
        10 => WeakUntil(go(left), go(right)),
        _ => Release(go(left), go(right)),
    }
}

fn formulas() -> usize {
    std::env::var("BIR_LTL_FORMULAS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 100 } else { 10_000 })
}

#[test]
fn automata_accept_exactly_the_lassos_that_satisfy_the_formula() {
    let words = [lassos(2), lassos(3)];
    let seed = std::env::var("BIR_LTL_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut random = Random(seed.unwrap_or(7));
    let count = formulas();
    for index in 0..count {
        let atoms = 2 + (index % 4 == 3) as u32;
        let size = 1 + random.below(9) as u32;
        let formula = random_formula(&mut random, atoms, size);
        let automaton = match translate(&formula) {
            Ok(automaton) => automaton,
            Err(error) => panic!("{formula:?}: {error:?}"),
        };
        let words = &words[atoms as usize - 2];
        // Three-proposition formulas are checked on a sample of their 340,000 lassos.
        let stride = if atoms == 3 { 97 } else { 1 };
        for word in words.iter().step_by(stride) {
            let expected = holds(&formula, word)[0];
            assert_eq!(
                accepts(&automaton, word),
                expected,
                "formula {formula:?}, word {:?} looping from {}, automaton {automaton:?}",
                word.letters,
                word.loop_start
            );
        }
    }
}

#[test]
fn the_textbook_properties_translate_to_the_expected_sizes() {
    use Formula::*;
    let p = || Box::new(Atom(0));
    let q = || Box::new(Atom(1));
    // The negation of [](p -> <>q): <>(p && []!q), as SPIN's: the start looping on
    // anything, and an accepting state entered on p && !q that loops on !q.
    let response = Always(Box::new(Implies(p(), Box::new(Eventually(q())))));
    let automaton = super::violations(&response).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(automaton.len(), 2, "{automaton:?}");
    // A ten-operator formula translates (its cost is measured by `benches/expand.rs`).
    let big = Always(Box::new(Implies(
        Box::new(And(p(), Box::new(Next(q())))),
        Box::new(Until(
            Box::new(Or(q(), Box::new(Not(p())))),
            Box::new(Eventually(Box::new(Always(Box::new(And(p(), q())))))),
        )),
    )));
    assert!(big.size() >= 10);
    let automaton = super::violations(&big).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(!automaton.is_empty());
}
