//! The translator against a direct evaluator: for random formulas over two or three
//! propositions, the automaton must accept exactly the lasso words `u v^ω` (`|u|, |v| ≤ 3`)
//! that satisfy the formula. `BIR_LTL_FORMULAS` sets how many formulas and `BIR_LTL_SEED`
//! the generator's seed (a release build checks 10,000 by default, a debug build 100). The
//! evaluator works on bit sets of positions and the acceptance check on reused buffers, so
//! that 10,000 formulas take seconds, split between two tests that run in parallel.

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

/// Per position of the lasso (bit `p` for position `p`; a lasso has at most six), whether
/// `formula` holds there. The temporal operators are the fixpoints of their expansions, so
/// `n + 1` rounds of each reach them on `n` positions.
fn holds(formula: &Formula, word: &Lasso) -> u8 {
    use Formula::*;
    let n = word.letters.len();
    let all = ((1u16 << n) - 1) as u8;
    // Bit p of `next(mask)`: whether `mask` holds at the position after p.
    let next = |mask: u8| (0..n).fold(0u8, |out, p| out | (((mask >> word.next(p)) & 1) << p));
    let least = |step: &dyn Fn(u8) -> u8| (0..=n).fold(0, |u, _| step(u));
    let greatest = |step: &dyn Fn(u8) -> u8| (0..=n).fold(all, |r, _| step(r));
    match formula {
        True => all,
        False => 0,
        Atom(a) => (0..n).fold(0, |out, p| out | (((word.letters[p] >> a) & 1) as u8) << p),
        Not(f) => !holds(f, word) & all,
        And(f, g) => holds(f, word) & holds(g, word),
        Or(f, g) => holds(f, word) | holds(g, word),
        Implies(f, g) => (!holds(f, word) | holds(g, word)) & all,
        Equiv(f, g) => !(holds(f, word) ^ holds(g, word)) & all,
        Next(f) => next(holds(f, word)),
        Always(f) => {
            let f = holds(f, word);
            greatest(&|r| f & next(r))
        }
        Eventually(f) => {
            let f = holds(f, word);
            least(&|u| f | next(u))
        }
        Until(f, g) => {
            let (f, g) = (holds(f, word), holds(g, word));
            least(&|u| g | (f & next(u)))
        }
        WeakUntil(f, g) => {
            let (f, g) = (holds(f, word), holds(g, word));
            greatest(&|w| g | (f & next(w)))
        }
        Release(f, g) => {
            let (f, g) = (holds(f, word), holds(g, word));
            greatest(&|r| g & (f | next(r)))
        }
    }
}

/// The automaton's successors per state and letter, computed once per formula:
/// `targets[first[state * letters + letter]..first[state * letters + letter + 1]]`.
struct Steps<'a> {
    automaton: &'a Automaton,
    letters: usize,
    first: Vec<usize>,
    targets: Vec<usize>,
}

impl<'a> Steps<'a> {
    fn new(automaton: &'a Automaton, atoms: u32) -> Self {
        let letters = 1usize << atoms;
        let (mut first, mut targets) = (Vec::new(), Vec::new());
        for state in 0..automaton.len() {
            for letter in 0..letters {
                first.push(targets.len());
                targets.extend(automaton.step(state, letter as u64));
            }
        }
        first.push(targets.len());
        Steps {
            automaton,
            letters,
            first,
            targets,
        }
    }

    fn from(&self, state: usize, letter: u64) -> &[usize] {
        let at = state * self.letters + letter as usize;
        &self.targets[self.first[at]..self.first[at + 1]]
    }
}

/// Buffers for [`accepts`], reused from word to word.
#[derive(Default)]
struct Scratch {
    /// Per product node, its depth-first number (`usize::MAX`: not visited yet).
    number: Vec<usize>,
    /// Per product node, the least number it reaches within its component so far.
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    /// The depth-first path: a node and how many of its successors were tried.
    path: Vec<(usize, usize)>,
}

/// True when the automaton accepts the word: in the product of the automaton with the
/// lasso's positions, an accepting node lies on a cycle reachable from the start, that is,
/// in a strongly connected component (Tarjan's) with an edge inside it.
fn accepts(steps: &Steps, word: &Lasso, scratch: &mut Scratch) -> bool {
    let automaton = steps.automaton;
    let positions = word.letters.len();
    let nodes = automaton.len() * positions;
    // The `k`-th successor of node `n` (automaton state `n / positions` at position
    // `n % positions`), which reads the next position's letter.
    let successor = |n: usize, k: usize| {
        let next = word.next(n % positions);
        steps
            .from(n / positions, word.letters[next])
            .get(k)
            .map(|to| to * positions + next)
    };
    let Scratch {
        number,
        low,
        on_stack,
        stack,
        path,
    } = scratch;
    number.clear();
    number.resize(nodes, usize::MAX);
    low.clear();
    low.resize(nodes, 0);
    on_stack.clear();
    on_stack.resize(nodes, false);
    stack.clear();
    let mut count = 0;
    // The start reads the first letter from automaton state 0.
    for root in steps
        .from(0, word.letters[0])
        .iter()
        .map(|to| to * positions)
    {
        if number[root] != usize::MAX {
            continue;
        }
        path.clear();
        path.push((root, 0));
        number[root] = count;
        low[root] = count;
        count += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (n, ref mut tried)) = path.last_mut() {
            if let Some(m) = successor(n, *tried) {
                *tried += 1;
                if number[m] == usize::MAX {
                    number[m] = count;
                    low[m] = count;
                    count += 1;
                    stack.push(m);
                    on_stack[m] = true;
                    path.push((m, 0));
                } else if on_stack[m] {
                    low[n] = low[n].min(number[m]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                low[parent] = low[parent].min(low[n]);
            }
            if low[n] != number[n] {
                continue;
            }
            // `n` is the root of a component: the nodes above it on the stack.
            let start = stack.iter().rposition(|&m| m == n).unwrap_or(0);
            let component = &stack[start..];
            let cyclic =
                component.len() > 1 || (0..).map_while(|k| successor(n, k)).any(|m| m == n);
            if cyclic
                && component
                    .iter()
                    .any(|&m| automaton.accepting[m / positions])
            {
                return true;
            }
            for &m in component {
                on_stack[m] = false;
            }
            stack.truncate(start);
        }
    }
    false
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

/// Checks the formulas numbered `part` modulo [`PARTS`] of the run: every part draws the
/// same sequence of formulas (the seed's), so that the parts, which the test harness runs
/// on parallel threads, together check all of them.
fn check_part(part: usize) {
    let words = [lassos(2), lassos(3)];
    let seed = std::env::var("BIR_LTL_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut random = Random(seed.unwrap_or(7));
    let mut scratch = Scratch::default();
    for index in 0..formulas() {
        let atoms = 2 + (index % 4 == 3) as u32;
        let size = 1 + random.below(9) as u32;
        let formula = random_formula(&mut random, atoms, size);
        if index % PARTS != part {
            continue;
        }
        let automaton = match translate(&formula) {
            Ok(automaton) => automaton,
            Err(error) => panic!("{formula:?}: {error:?}"),
        };
        let steps = Steps::new(&automaton, atoms);
        let words = &words[atoms as usize - 2];
        // Three-proposition formulas are checked on a sample of their 340,000 lassos.
        let stride = if atoms == 3 { 97 } else { 1 };
        for word in words.iter().step_by(stride) {
            let expected = holds(&formula, word) & 1 == 1;
            assert_eq!(
                accepts(&steps, word, &mut scratch),
                expected,
                "formula {formula:?}, word {:?} looping from {}, automaton {automaton:?}",
                word.letters,
                word.loop_start
            );
        }
    }
}

/// How many tests share the formulas.
const PARTS: usize = 2;

#[test]
fn automata_accept_exactly_the_lassos_that_satisfy_the_formula() {
    check_part(0);
}

#[test]
fn automata_accept_exactly_the_lassos_that_satisfy_the_formula_part_2() {
    check_part(1);
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
    // A ten-operator formula translates (its cost is measured by `bench/benches/expand.rs`).
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
