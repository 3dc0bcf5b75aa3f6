//! Robustness: the front end and code generator never panic. Thousands of mutants of the
//! reference models (tokens deleted, duplicated, swapped, or replaced by tokens taken from
//! other models) go through the whole of `bir_codegen::expand`; each must produce tokens,
//! errors or code, never a panic.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

const MODELS: &[&str] = &[
    include_str!("../../models/two_dining_philosophers.bir"),
    include_str!("../../models/bounded_buffer.bir"),
    include_str!("../../models/readers_writers.bir"),
    include_str!("../../models/sum_to_n.bir"),
    include_str!("../../models/dining_philosophers.bir"),
    include_str!("../../models/dining_philosophers_fixed.bir"),
    include_str!("../../models/peterson_filter.bir"),
    // Constructs the reference models do not use.
    "system Extra {
        const C { K = 2; B = C.K > 1; }
        typealias Small int wrap (-2, 2);
        enum Mode { Off, On }
        Small[3] s := { -2, 0, 2 };
        Mode m := Mode.On;
        byte b;
        invariant Ok: s[0] <= 2 && (m == Mode.On || b > 0);
        thread Worker(int (0, 3) job) { int acc; loc w: do { acc := acc / job; exit; } goto w; }
        active [C.K] thread T(int index) {
            loc a: when exists k in 0 .. 3 : (s[k] == index) do { start Worker(1); } goto b;
                   do { assume (Worker@w); s[index] := s[index] + 1; } return;
            loc b: when T[1 - index]@a ? true : b % 2 == 0 do { b := -b * 3; assert (b != 7); } goto a;
        }
    }",
];

/// A token tree with its groups opened up, so that any token can be mutated in place.
#[derive(Clone)]
enum Tok {
    Leaf(TokenTree),
    Group(Delimiter, Vec<Tok>),
}

fn open(stream: TokenStream) -> Vec<Tok> {
    stream
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => Tok::Group(group.delimiter(), open(group.stream())),
            leaf => Tok::Leaf(leaf),
        })
        .collect()
}

fn close(toks: &[Tok]) -> TokenStream {
    toks.iter()
        .map(|tok| match tok {
            Tok::Leaf(leaf) => leaf.clone(),
            Tok::Group(delimiter, inner) => TokenTree::Group(Group::new(*delimiter, close(inner))),
        })
        .collect()
}

/// Every position in the tree: the path of indices to a token (leaf or group).
fn positions(toks: &[Tok], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    for (i, tok) in toks.iter().enumerate() {
        prefix.push(i);
        out.push(prefix.clone());
        if let Tok::Group(_, inner) = tok {
            positions(inner, prefix, out);
        }
        prefix.pop();
    }
}

/// The list holding the token at `path`, and its index there.
fn parent<'a>(toks: &'a mut Vec<Tok>, path: &[usize]) -> (&'a mut Vec<Tok>, usize) {
    let (last, init) = path.split_last().expect("non-empty path");
    let mut list = toks;
    for &i in init {
        list = match &mut list[i] {
            Tok::Group(_, inner) => inner,
            Tok::Leaf(_) => unreachable!("paths only descend into groups"),
        };
    }
    (list, *last)
}

/// splitmix64: a small deterministic generator, so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Applies 1 to 3 random edits to `toks`, drawing replacements from `pool`.
fn mutate(toks: &mut Vec<Tok>, pool: &[TokenTree], rng: &mut Rng) {
    for _ in 0..1 + rng.below(3) {
        let mut all = Vec::new();
        positions(toks, &mut Vec::new(), &mut all);
        if all.is_empty() {
            return;
        }
        let path = all[rng.below(all.len())].clone();
        let (list, i) = parent(toks, &path);
        match rng.below(4) {
            0 => {
                list.remove(i);
            }
            1 => {
                let copy = list[i].clone();
                list.insert(i, copy);
            }
            2 => {
                if i + 1 < list.len() {
                    list.swap(i, i + 1);
                }
            }
            _ => list[i] = Tok::Leaf(pool[rng.below(pool.len())].clone()),
        }
    }
}

fn leaves(toks: &[Tok], out: &mut Vec<TokenTree>) {
    for tok in toks {
        match tok {
            Tok::Leaf(leaf) => out.push(leaf.clone()),
            Tok::Group(_, inner) => leaves(inner, out),
        }
    }
}

/// The reference models as token trees, and the pool of tokens mutations draw from: every
/// token of the models, and tokens no model contains (edge-case literals among them).
fn models_and_pool() -> (Vec<Vec<Tok>>, Vec<TokenTree>) {
    let models: Vec<Vec<Tok>> = MODELS
        .iter()
        .map(|source| open(TokenStream::from_str(source).expect("tokenizes")))
        .collect();
    let mut pool = Vec::new();
    for model in &models {
        leaves(model, &mut pool);
    }
    for extra in [
        "0",
        "4294967296",
        "2147483648",
        "-",
        "..",
        "@",
        "#",
        "'a",
        "\"s\"",
        "1.5",
        "r#x",
    ] {
        pool.extend(TokenStream::from_str(extra).expect("tokenizes"));
    }
    (models, pool)
}

/// Expands mutants `part`, `part + parts`, `part + 2 * parts`... of the first `mutants`;
/// returns how many the front end rejected. Mutant `n` is drawn from its own generator,
/// seeded by `seed` and `n`, so that it is the same whichever thread expands it.
fn expand_mutants(seed: u64, mutants: usize, part: usize, parts: usize) -> usize {
    let (models, pool) = models_and_pool();
    let mut rejected = 0;
    for n in (part..mutants).step_by(parts) {
        let mut rng = Rng(seed ^ (n as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut toks = models[n % models.len()].clone();
        mutate(&mut toks, &pool, &mut rng);
        let input = close(&toks);
        let text = input.to_string();
        let output = catch_unwind(AssertUnwindSafe(|| bir_codegen::expand(input)));
        match output {
            Ok(tokens) => {
                if tokens.to_string().contains("compile_error") {
                    rejected += 1;
                }
            }
            Err(_) => panic!("mutant {n} (seed {seed:#x}) panicked:\n{text}"),
        }
    }
    rejected
}

#[test]
fn ten_thousand_mutants_never_panic() {
    let seed = std::env::var("BIR_MUTATION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_u64);
    let mutants: usize = std::env::var("BIR_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12_000);
    // Two threads: the token trees are not `Send`, so each builds its own.
    let parts = 2;
    let rejected: usize = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..parts)
            .map(|part| scope.spawn(move || expand_mutants(seed, mutants, part, parts)))
            .collect();
        threads
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .sum()
    });
    // The mutations must exercise the error paths, not only harmless edits.
    assert!(
        rejected > mutants / 2,
        "only {rejected} of {mutants} mutants were rejected"
    );
}
