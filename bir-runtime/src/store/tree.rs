//! [`TreeStates`]: an exact set of states wider than a word, in a few bytes each, by tree
//! compression (as LTSmin's; Laarman, "Optimal storage of combinatorial state spaces"):
//! states share their parts, so each distinct part is stored once and a state is the pair of
//! its two halves' numbers.
//!
//! A state's words ([`Model::write_state_words`]) are cut into 32-bit halves, taken in the
//! order low half of every word, then high half of every word: the layout fills the first
//! words and leaves the last one partly empty, and this order splits a state's information
//! about evenly between the two sides of the tree (on Peterson's filter, local counters,
//! N = 5: about 240,000 distinct values of each side in 5 million states, against 1.1
//! million and 470 for the first word and the second). A balanced binary tree is built over
//! the halves; every node but the root is a pair of two 32-bit parts — a half itself, or the
//! number of a child node — interned in the [`Nodes`] table of its position in the tree,
//! which numbers each distinct pair once, densely. Subtrees that many states share are
//! stored once: the tables grow with the distinct parts, far slower than the states.
//!
//! The root is the pair of its two children's numbers, interleaved bit by bit into one word
//! of at most 62 bits (dense numbers make a narrow word). It needs no number, so it goes to
//! a [`QuotientTable`], which keeps only a remainder of it (quotienting) and widens as the
//! numbers grow: a state costs its root's remainder (with the quotient table's overhead, a
//! few bytes) and its share of the tables, a fraction of a byte where states share their
//! parts (Peterson's filter with local counters, N = 5: 2.2 million nodes for 142 million
//! states). Numbers name
//! distinct pairs, so the root word gives back the state: nothing is lost, and a complete
//! search over this set may say verified.
//!
//! A lookup first compares each node's key with the last key looked up at that node, whose
//! number it keeps: successive states of a search differ in a few halves, so the nodes of a
//! wide state are mostly the previous state's, and need no lookup in their tables.
//!
//! As every seen set, it never allocates on its own ([`Lookup::Full`] names the table and
//! the part that must grow), hashes under a fixed function ([`mix`](super::mix)), and
//! reports the memory it holds.

use crate::model::Model;

use super::nodes::{Nodes, PARTS};
use super::{Footprint, Growth, Lookup, QuotientTable, Store};

/// Growth parts of the root set are below this; table `t`'s part `p` is
/// `(t + 1) * TABLE_PARTS + p`.
const TABLE_PARTS: usize = 1 << 16;
const _: () = assert!(PARTS < TABLE_PARTS);

/// One side of a pair: a state's half, or the number of a node of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Half(usize),
    Node(usize),
}

/// A node of the tree, interned in the table of the same index: a pair of parts, or (when
/// a root's child is a lone half, for states of one word) a part alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    left: Part,
    right: Option<Part>,
}

/// The tree over `count` halves: its nodes, each after its children, and the root's two
/// children.
fn shape(count: usize) -> (Vec<Node>, [usize; 2]) {
    fn build(nodes: &mut Vec<Node>, halves: std::ops::Range<usize>) -> Part {
        if halves.len() == 1 {
            return Part::Half(halves.start);
        }
        let middle = halves.start + halves.len().div_ceil(2);
        let left = build(nodes, halves.start..middle);
        let right = build(nodes, middle..halves.end);
        nodes.push(Node {
            left,
            right: Some(right),
        });
        Part::Node(nodes.len() - 1)
    }
    let mut nodes = Vec::new();
    let side = count / 2;
    let root = [0..side, side..count].map(|halves| match build(&mut nodes, halves) {
        Part::Node(index) => index,
        // A root's child has a number, so that the root word stays narrow.
        half => {
            nodes.push(Node {
                left: half,
                right: None,
            });
            nodes.len() - 1
        }
    });
    (nodes, root)
}

/// Interleaves the bits of two numbers below 2^31: `a`'s in the even bits, `b`'s in the odd.
fn interleave(a: u32, b: u32) -> u64 {
    fn spread(x: u32) -> u64 {
        let mut x = u64::from(x);
        x = (x | x << 16) & 0x0000_ffff_0000_ffff;
        x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
        x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        x = (x | x << 2) & 0x3333_3333_3333_3333;
        (x | x << 1) & 0x5555_5555_5555_5555
    }
    spread(a) | spread(b) << 1
}

/// A set of word vectors, all of one length, by tree compression: see the [module](self).
pub(crate) struct TreeWords {
    /// The words of every vector; 0 until the first is met, which lays the tree out.
    words: usize,
    nodes: Vec<Node>,
    root: [usize; 2],
    /// The table of each node.
    tables: Vec<Nodes>,
    set: QuotientTable,
    /// The halves of the vector at hand, low halves first, and the numbers of its nodes.
    halves: Vec<u32>,
    numbers: Vec<u32>,
    /// Per node, the last key looked up and its number (none before the first): successive
    /// states of a search differ in few halves, so most of a wide state's nodes
    /// are the previous state's, known without a lookup in their table. A number, once
    /// given, names its key for good.
    last: Vec<Option<(u64, u32)>>,
}

impl TreeWords {
    /// An empty set.
    pub(crate) fn new() -> TreeWords {
        TreeWords {
            words: 0,
            nodes: Vec::new(),
            root: [0, 0],
            tables: Vec::new(),
            set: QuotientTable::new(),
            halves: Vec::new(),
            numbers: Vec::new(),
            last: Vec::new(),
        }
    }

    /// Splits `words` into the halves of the tree, laying the tree out for the first vector.
    fn load(&mut self, words: &[u64]) {
        // A model of no bits may write no words: its one state is stored as the word 0.
        let words = if words.is_empty() { &[0][..] } else { words };
        if self.words == 0 {
            let (nodes, root) = shape(2 * words.len());
            self.words = words.len();
            self.tables = nodes.iter().map(|_| Nodes::new()).collect();
            self.last = vec![None; nodes.len()];
            (self.nodes, self.root) = (nodes, root);
        }
        assert_eq!(
            words.len(),
            self.words,
            "the model wrote states of different numbers of words"
        );
        self.halves.clear();
        self.halves.extend(words.iter().map(|&word| word as u32));
        self.halves
            .extend(words.iter().map(|&word| (word >> 32) as u32));
    }

    /// The key node `index` is interned by, its parts' numbers being known.
    #[inline]
    fn key(&self, index: usize) -> u64 {
        let part = |part| match part {
            Part::Half(half) => self.halves[half],
            Part::Node(node) => self.numbers[node],
        };
        let node = self.nodes[index];
        match node.right {
            Some(right) => u64::from(part(node.left)) << 32 | u64::from(part(right)),
            None => u64::from(part(node.left)),
        }
    }

    /// The root word of the loaded vector, its nodes' numbers being known.
    fn root_word(&self) -> u64 {
        interleave(self.numbers[self.root[0]], self.numbers[self.root[1]])
    }

    /// Looks `words` up and stores them if they are new and there is room.
    pub(crate) fn insert(&mut self, words: &[u64]) -> Lookup {
        self.load(words);
        self.numbers.clear();
        for index in 0..self.nodes.len() {
            match self.number(index, Nodes::intern) {
                Ok(()) => continue,
                // A node missing means the vector is new: growing the table loses nothing
                // (the nodes numbered so far stay, and are found again on the retry).
                Err(Lookup::Full(growth)) => {
                    return Lookup::Full(Growth {
                        bytes: growth.bytes,
                        part: (index + 1) * TABLE_PARTS + growth.part,
                    })
                }
                Err(other) => return other,
            }
        }
        let root = self.root_word();
        Store::<()>::insert(&mut self.set, &(), Some(root))
    }

    /// True when `words` are stored; stores nothing.
    pub(crate) fn contains(&mut self, words: &[u64]) -> bool {
        self.load(words);
        self.numbers.clear();
        for index in 0..self.nodes.len() {
            if self
                .number(index, |nodes, key| nodes.find(key).ok_or(()))
                .is_err()
            {
                return false;
            }
        }
        let root = self.root_word();
        Store::<()>::contains(&mut self.set, &(), Some(root))
    }

    /// Appends the number of node `index` of the loaded vector, its children's numbers
    /// being known: the node's last number if its key is the last one, else what `look`
    /// finds in the node's table (interning the key, or only finding it).
    #[inline]
    fn number<E>(
        &mut self,
        index: usize,
        look: impl FnOnce(&mut Nodes, u64) -> Result<u32, E>,
    ) -> Result<(), E> {
        let key = self.key(index);
        let number = match self.last[index] {
            Some((last, number)) if last == key => number,
            _ => {
                let number = look(&mut self.tables[index], key)?;
                self.last[index] = Some((key, number));
                number
            }
        };
        self.numbers.push(number);
        Ok(())
    }

    /// Allocates what an [`insert`](Self::insert) asked for.
    pub(crate) fn grow(&mut self, growth: Growth) {
        match (growth.part / TABLE_PARTS).checked_sub(1) {
            None => Store::<()>::grow(&mut self.set, growth),
            Some(table) => {
                if let Some(nodes) = self.tables.get_mut(table) {
                    nodes.grow(growth.part % TABLE_PARTS);
                }
            }
        }
    }

    /// The nodes interned, in all tables.
    #[cfg(test)]
    fn nodes(&self) -> usize {
        self.tables.iter().map(Nodes::len).sum()
    }
}

impl Footprint for TreeWords {
    fn bytes(&self) -> usize {
        self.set.bytes() + self.tables.iter().map(Nodes::bytes).sum::<usize>()
    }
}

/// The states of a model, stored by tree compression of the words the model writes them as.
pub(crate) struct TreeStates<'m, M: Model> {
    model: &'m M,
    tree: TreeWords,
    /// The words of the state at hand.
    words: Vec<u64>,
}

impl<'m, M: Model> TreeStates<'m, M> {
    /// An empty set of `model`'s states; the model writes its states as words (the plan
    /// checked that it does).
    pub(crate) fn new(model: &'m M) -> Self {
        TreeStates {
            model,
            tree: TreeWords::new(),
            words: Vec::new(),
        }
    }

    fn write(&mut self, state: &M::State) -> &[u64] {
        self.words.clear();
        // The plan chose this set because the model wrote its initial state as words; a
        // model that then writes none breaks `Model::write_state_words`'s contract.
        assert!(
            self.model.write_state_words(state, &mut self.words),
            "the model wrote its initial state as words, but not this one: {state:?}"
        );
        &self.words
    }
}

impl<M: Model> Store<M::State> for TreeStates<'_, M> {
    #[inline]
    fn insert(&mut self, state: &M::State, _: Option<u64>) -> Lookup {
        self.write(state);
        self.tree.insert(&self.words)
    }

    fn grow(&mut self, growth: Growth) {
        self.tree.grow(growth);
    }

    fn contains(&mut self, state: &M::State, _: Option<u64>) -> bool {
        self.write(state);
        self.tree.contains(&self.words)
    }
}

impl<M: Model> Footprint for TreeStates<'_, M> {
    fn bytes(&self) -> usize {
        self.tree.bytes()
    }
}

/// The compact exact set of a search: [`QuotientTable`] when every state fits in a word (the
/// search keys states by their word), [`TreeStates`] otherwise. One type for both, so that
/// a search is compiled once for compact storage whatever the model.
pub(crate) enum CompactStates<'m, M: Model> {
    /// States that fit in a word.
    Words(QuotientTable),
    /// Wider states.
    Tree(TreeStates<'m, M>),
}

impl<'m, M: Model> CompactStates<'m, M> {
    /// The compact set for `model`'s states: of words when `words` (the search keys its
    /// states by word), else a tree.
    pub(crate) fn new(model: &'m M, words: bool) -> Self {
        if words {
            CompactStates::Words(QuotientTable::new())
        } else {
            CompactStates::Tree(TreeStates::new(model))
        }
    }
}

impl<M: Model> Store<M::State> for CompactStates<'_, M> {
    #[inline]
    fn insert(&mut self, state: &M::State, key: Option<u64>) -> Lookup {
        match self {
            CompactStates::Words(set) => Store::<M::State>::insert(set, state, key),
            CompactStates::Tree(set) => set.insert(state, key),
        }
    }

    fn grow(&mut self, growth: Growth) {
        match self {
            CompactStates::Words(set) => Store::<M::State>::grow(set, growth),
            CompactStates::Tree(set) => set.grow(growth),
        }
    }

    fn contains(&mut self, state: &M::State, key: Option<u64>) -> bool {
        match self {
            CompactStates::Words(set) => Store::<M::State>::contains(set, state, key),
            CompactStates::Tree(set) => set.contains(state, key),
        }
    }

    #[inline]
    fn prefetch(&mut self, key: Option<u64>) {
        if let CompactStates::Words(set) = self {
            Store::<M::State>::prefetch(set, key);
        }
    }
}

impl<M: Model> Footprint for CompactStates<'_, M> {
    fn bytes(&self) -> usize {
        match self {
            CompactStates::Words(set) => set.bytes(),
            CompactStates::Tree(set) => set.bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::store::mix;
    use crate::store::tests::{insert, new_then_seen};
    use crate::test_models::Philosophers;

    /// Inserts a vector, growing whenever the set asks to.
    fn add(tree: &mut TreeWords, words: &[u64]) -> Lookup {
        loop {
            match tree.insert(words) {
                Lookup::Full(growth) => tree.grow(growth),
                other => return other,
            }
        }
    }

    #[test]
    fn the_tree_has_a_node_per_pair_and_numbered_children_at_the_root() {
        // One word: two halves, each numbered alone.
        let (nodes, root) = shape(2);
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].right, None);
        assert_eq!(root, [0, 1]);
        // Two words: the low halves paired, and the high halves.
        let (nodes, root) = shape(4);
        assert_eq!(
            nodes[0],
            Node {
                left: Part::Half(0),
                right: Some(Part::Half(1))
            }
        );
        assert_eq!(root, [0, 1]);
        // Three words: a pair and a half on each side.
        let (nodes, root) = shape(6);
        assert_eq!(nodes.len(), 4);
        assert_eq!(
            nodes[1],
            Node {
                left: Part::Node(0),
                right: Some(Part::Half(2))
            }
        );
        assert_eq!(root, [1, 3]);
    }

    #[test]
    fn the_nodes_of_the_last_vector_are_known_without_a_lookup() {
        let mut tree = TreeWords::new();
        let (a, b) = ([1u64, 2, 3, 4], [1u64, 2, 3, 5]);
        assert_eq!(add(&mut tree, &a), Lookup::New);
        let after_a = tree.nodes();
        // `b` differs in one low half: only the nodes above it are new.
        assert_eq!(add(&mut tree, &b), Lookup::New);
        assert_eq!(
            tree.nodes() - after_a,
            2,
            "one low half's path: its pair and the pair above"
        );
        // Back and forth: each node's last key changes, and the numbers stay right.
        for _ in 0..2 {
            assert_eq!(add(&mut tree, &a), Lookup::Seen(None));
            assert_eq!(add(&mut tree, &b), Lookup::Seen(None));
            assert!(tree.contains(&a) && tree.contains(&b));
            assert!(!tree.contains(&[1, 2, 3, 6]));
        }
        assert_eq!(add(&mut tree, &[1, 2, 3, 6]), Lookup::New);
        assert_eq!(add(&mut tree, &b), Lookup::Seen(None));
    }

    #[test]
    fn interleaving_is_a_bijection_onto_62_bits() {
        assert_eq!(interleave(0, 0), 0);
        assert_eq!(interleave(1, 0), 1);
        assert_eq!(interleave(0, 1), 2);
        assert_eq!(interleave(3, 1), 0b111);
        let top = (1 << 31) - 1;
        assert_eq!(interleave(top, top), (1 << 62) - 1);
        let mut seen = HashSet::new();
        for a in 0..64 {
            for b in 0..64 {
                assert!(seen.insert(interleave(a, b)));
            }
        }
    }

    /// Random vectors of `len` words sharing their parts as states do: each word is one of
    /// a few hundred values, some of whose bits vary more than others.
    fn vectors(len: usize, count: usize, seed: u64) -> Vec<Vec<u64>> {
        let mut x = seed;
        let mut next = move || {
            x = mix(x.wrapping_add(0x9e37_79b9_7f4a_7c15));
            x
        };
        (0..count)
            .map(|_| {
                (0..len)
                    .map(|i| {
                        let r = next();
                        match i % 3 {
                            0 => r % 300,
                            1 => ((r % 50) << 40) | ((r >> 20) % 7),
                            _ => r, // every bit random
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_tree_agrees_with_a_hash_set_on_random_wide_vectors_across_growth() {
        for len in [1, 2, 3, 5] {
            let mut tree = TreeWords::new();
            let mut oracle: HashSet<Vec<u64>> = HashSet::new();
            let mut grew = false;
            for words in vectors(len, 30_000, len as u64) {
                let expected = if oracle.insert(words.clone()) {
                    Lookup::New
                } else {
                    Lookup::Seen(None)
                };
                let found = loop {
                    match tree.insert(&words) {
                        Lookup::Full(growth) => {
                            grew = true;
                            tree.grow(growth);
                        }
                        other => break other,
                    }
                };
                assert_eq!(found, expected, "{words:?}");
            }
            assert!(grew);
            for words in vectors(len, 30_000, len as u64) {
                assert!(tree.contains(&words));
            }
            for words in vectors(len, 2_000, 99) {
                assert_eq!(tree.contains(&words), oracle.contains(&words), "{words:?}");
            }
            assert!(tree.bytes() > 0);
        }
    }

    #[test]
    fn vectors_that_share_their_halves_take_a_few_bytes_each() {
        // Two words whose halves take 256 and 32 values (the first word's low and high
        // halves) and 128 and 64 (the second's), independently: 64 million combinations, of
        // which about a million are stored. The low halves pair into at most 32,768 values,
        // the high ones into 2,048: the tables stay small and the root word narrow.
        let mut tree = TreeWords::new();
        let count = 1_000_000u64;
        for i in 0..count {
            let r = mix(i);
            let low = (r & 0xff) | (r >> 8 & 0x1f) << 32;
            let high = (r >> 16 & 0x7f) | (r >> 24 & 0x3f) << 32;
            add(&mut tree, &[low, high]);
        }
        let stored = (0..count)
            .map(|i| {
                let r = mix(i);
                (
                    (r & 0xff) | (r >> 8 & 0x1f) << 32,
                    (r >> 16 & 0x7f) | (r >> 24 & 0x3f) << 32,
                )
            })
            .collect::<HashSet<_>>()
            .len();
        assert!(tree.nodes() <= 2 * 32_768, "{}", tree.nodes());
        let per_state = tree.bytes() as f64 / stored as f64;
        assert!(per_state < 5.0, "{per_state} bytes per vector");
    }

    #[test]
    fn the_states_of_a_model_are_stored_through_their_words() {
        // Philosophers' states are one word each: two halves, each numbered.
        let model = Philosophers::new(6, false);
        let mut set = TreeStates::new(&model);
        assert_eq!(insert(&mut set, &5, None), Lookup::New);
        assert_eq!(insert(&mut set, &5, None), Lookup::Seen(None));
        assert!(set.contains(&5, None) && !set.contains(&6, None));
        // Any word, the top bit included, as for a model of 64-bit states.
        let set = new_then_seen(TreeStates::new(&model));
        assert!(set.bytes() > 0);
        let mut set = TreeStates::new(&model);
        for state in [u64::MAX, 1 << 63, 0] {
            assert_eq!(insert(&mut set, &state, None), Lookup::New);
        }
        assert!(set.contains(&u64::MAX, None) && !set.contains(&(u64::MAX - 1), None));
    }

    #[test]
    fn growth_is_asked_for_before_any_allocation() {
        let mut tree = TreeWords::new();
        assert_eq!(tree.bytes(), 0);
        let mut asked = 0;
        loop {
            match tree.insert(&[1, 2]) {
                Lookup::Full(growth) => {
                    let before = tree.bytes();
                    tree.grow(growth);
                    assert!(tree.bytes() > before);
                    assert!(tree.bytes() - before <= growth.bytes + 64, "{growth:?}");
                    asked += 1;
                }
                other => {
                    assert_eq!(other, Lookup::New);
                    break;
                }
            }
        }
        // Each table a chunk and a hash table, then the root set.
        assert_eq!(asked, 5);
        assert_eq!(tree.insert(&[1, 2]), Lookup::Seen(None));
    }
}
