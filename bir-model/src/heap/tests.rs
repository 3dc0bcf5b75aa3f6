//! Hand cases of the heap's collection; `brute` holds the canonical form against brute force.
use super::*;

mod brute;
mod edges;

/// One field of a record under construction: name, element, default, referred record.
type Field = (&'static str, Option<u32>, i64, Option<u32>);

/// A data field of default `default`.
fn data(name: &'static str, default: i64) -> Vec<Field> {
    vec![(name, None, default, None)]
}

/// A reference field to record `record`.
fn refs(name: &'static str, record: u32) -> Vec<Field> {
    vec![(name, None, 0, Some(record))]
}

/// An array field of `n` references to record `record`.
fn ref_array(name: &'static str, record: u32, n: u32) -> Vec<Field> {
    (0..n).map(|i| (name, Some(i), 0, Some(record))).collect()
}

/// Builds a layout whose slots are numbered as they are asked for: roots and objects
/// (each object's live slot, then its fields) in the order of the calls.
#[derive(Default)]
struct Builder {
    records: Vec<RecordLayout>,
    roots: Vec<HeapRoot>,
    slots: u32,
}

impl Builder {
    fn root(&mut self, record: u32) -> u32 {
        self.roots.push(HeapRoot {
            slot: self.slots,
            record,
        });
        self.slots += 1;
        self.slots - 1
    }

    fn record(&mut self, name: &'static str, bound: u32, fields: &[Vec<Field>]) {
        let fields: Vec<Field> = fields.concat();
        let mut live = Vec::new();
        let mut slots = vec![Vec::new(); fields.len()];
        for _ in 0..bound {
            live.push(self.slots);
            self.slots += 1;
            for column in &mut slots {
                column.push(self.slots);
                self.slots += 1;
            }
        }
        let fields = fields
            .iter()
            .zip(slots)
            .map(|(&(name, element, default, refers), slots)| FieldLayout {
                name: name.into(),
                element,
                slots: slots.into(),
                default,
                refers,
            })
            .collect::<Vec<_>>();
        self.records.push(RecordLayout {
            name: name.into(),
            bound,
            live: live.into(),
            fields: fields.into(),
        });
    }

    /// The layout and a state of it with every object dead and every root null.
    fn build(self) -> (HeapLayout, Vec<i64>) {
        let layout = HeapLayout {
            records: self.records.into(),
            roots: self.roots.into(),
        };
        layout.check().unwrap();
        let mut state = vec![0; self.slots as usize];
        for record in layout.records.iter() {
            for field in record.fields.iter() {
                for &slot in field.slots.iter() {
                    state[slot as usize] = field.default;
                }
            }
        }
        (layout, state)
    }
}

/// Makes object `number` (1-based) of record `record` live with the fields `values`, in
/// field order (an array field as its elements).
fn object(layout: &HeapLayout, state: &mut [i64], record: u32, number: usize, values: &[i64]) {
    let record = &layout.records[record as usize];
    state[record.live[number - 1] as usize] = 1;
    assert_eq!(values.len(), record.fields.len());
    for (field, &value) in record.fields.iter().zip(values) {
        state[field.slots[number - 1] as usize] = value;
    }
}

fn canonical(layout: &HeapLayout, state: &[i64]) -> Vec<i64> {
    let mut out = state.to_vec();
    layout.collect(&mut out, HeapOrder::Canonical);
    out
}

/// `record Node { int value; Node next; }`, `a` and `b` global.
fn nodes(bound: u32) -> (HeapLayout, Vec<i64>, [u32; 2]) {
    let mut b = Builder::default();
    let roots = [b.root(0), b.root(0)];
    b.record("Node", bound, &[data("value", 0), refs("next", 0)]);
    let (layout, state) = b.build();
    (layout, state, roots)
}

#[test]
fn allocation_order_makes_one_state() {
    // a := new Node; b := new Node; and the other way round.
    let (layout, mut first, [a, b]) = nodes(2);
    let mut second = first.clone();
    object(&layout, &mut first, 0, 1, &[1, 0]);
    object(&layout, &mut first, 0, 2, &[2, 0]);
    (first[a as usize], first[b as usize]) = (1, 2);
    object(&layout, &mut second, 0, 2, &[1, 0]);
    object(&layout, &mut second, 0, 1, &[2, 0]);
    (second[a as usize], second[b as usize]) = (2, 1);
    assert_ne!(first, second);
    assert_eq!(canonical(&layout, &first), first);
    assert_eq!(canonical(&layout, &second), first);
    assert_eq!(
        layout.describe(&canonical(&layout, &second)),
        [
            "Node#1 { value = 1, next = null }",
            "Node#2 { value = 2, next = null }"
        ]
    );
}

#[test]
fn list_with_garbage_in_the_middle() {
    // a -> #3 -> #1 -> null; #2 and #4 are garbage (#4 points into the list).
    let (layout, mut state, [a, _]) = nodes(4);
    object(&layout, &mut state, 0, 1, &[10, 0]);
    object(&layout, &mut state, 0, 2, &[20, 3]);
    object(&layout, &mut state, 0, 3, &[30, 1]);
    object(&layout, &mut state, 0, 4, &[40, 1]);
    state[a as usize] = 3;
    let collected = canonical(&layout, &state);
    assert_eq!(collected[a as usize], 1);
    assert_eq!(
        layout.describe(&collected),
        [
            "Node#1 { value = 30, next = Node#2 }",
            "Node#2 { value = 10, next = null }"
        ]
    );
    let (_, mut expected, _) = nodes(4);
    object(&layout, &mut expected, 0, 1, &[30, 2]);
    object(&layout, &mut expected, 0, 2, &[10, 0]);
    expected[a as usize] = 1;
    assert_eq!(collected, expected);
}

#[test]
fn cycles_and_self_loops() {
    // a -> #3 -> #2 -> #3; b -> #1 -> #1.
    let (layout, mut state, [a, b]) = nodes(3);
    object(&layout, &mut state, 0, 1, &[1, 1]);
    object(&layout, &mut state, 0, 2, &[2, 3]);
    object(&layout, &mut state, 0, 3, &[3, 2]);
    (state[a as usize], state[b as usize]) = (3, 1);
    let collected = canonical(&layout, &state);
    assert_eq!((collected[a as usize], collected[b as usize]), (1, 3));
    assert_eq!(
        layout.describe(&collected),
        [
            "Node#1 { value = 3, next = Node#2 }",
            "Node#2 { value = 2, next = Node#1 }",
            "Node#3 { value = 1, next = Node#3 }",
        ]
    );
    // Only `b` left: the cycle of a is garbage.
    state[a as usize] = 0;
    let collected = canonical(&layout, &state);
    assert_eq!(
        layout.describe(&collected),
        ["Node#1 { value = 1, next = Node#1 }"]
    );
    assert_eq!(collected[b as usize], 1);
}

#[test]
fn two_record_types_refer_to_each_other() {
    // record A { B b; int x; }  record B { A a; A other; }, roots: B, A.
    let mut builder = Builder::default();
    let root_b = builder.root(1);
    builder.record("A", 3, &[refs("b", 1), data("x", 7)]);
    let root_a = builder.root(0);
    builder.record("B", 2, &[refs("a", 0), refs("other", 0)]);
    let (layout, mut state) = builder.build();
    // B#2 { a = A#3, other = A#2 }, A#3 { b = B#1 }, B#1 { a = A#3, other = null },
    // A#2 { b = B#2 }, A#1 garbage.
    object(&layout, &mut state, 1, 2, &[3, 2]);
    object(&layout, &mut state, 1, 1, &[3, 0]);
    object(&layout, &mut state, 0, 3, &[1, 1]);
    object(&layout, &mut state, 0, 2, &[2, 2]);
    object(&layout, &mut state, 0, 1, &[0, 3]);
    (state[root_b as usize], state[root_a as usize]) = (2, 2);
    let collected = canonical(&layout, &state);
    assert_eq!(
        layout.describe(&collected),
        [
            "A#1 { b = B#2, x = 1 }",
            "A#2 { b = B#1, x = 2 }",
            "B#1 { a = A#1, other = A#2 }",
            "B#2 { a = A#1, other = null }",
        ]
    );
    assert_eq!(
        (collected[root_b as usize], collected[root_a as usize]),
        (1, 2)
    );
    assert_eq!(canonical(&layout, &collected), collected);
}

#[test]
fn array_fields_of_references() {
    // record Node { Node kids[3]; int v; }: root -> #4 { kids = [#2, null, #1] } and
    // #2 { kids = [#3, #4, null] }: preorder #4, #2, #3, then #1.
    let mut builder = Builder::default();
    let root = builder.root(0);
    builder.record("Node", 4, &[ref_array("kids", 0, 3), data("v", 0)]);
    let (layout, mut state) = builder.build();
    object(&layout, &mut state, 0, 4, &[2, 0, 1, 4]);
    object(&layout, &mut state, 0, 3, &[0, 0, 0, 3]);
    object(&layout, &mut state, 0, 2, &[3, 4, 0, 2]);
    object(&layout, &mut state, 0, 1, &[0, 0, 0, 1]);
    state[root as usize] = 4;
    let collected = canonical(&layout, &state);
    assert_eq!(
        layout.describe(&collected),
        [
            "Node#1 { kids = [Node#2, null, Node#4], v = 4 }",
            "Node#2 { kids = [Node#3, Node#1, null], v = 2 }",
            "Node#3 { kids = [null, null, null], v = 3 }",
            "Node#4 { kids = [null, null, null], v = 1 }",
        ]
    );
}

#[test]
fn the_walk_is_a_preorder_depth_first_search() {
    // root -> A { left = B { left = C }, right = D }: A, B, C, D (a breadth-first walk
    // would number D before C). Allocated as A = #4, B = #3, C = #1, D = #2.
    let mut builder = Builder::default();
    let root = builder.root(0);
    builder.record("T", 4, &[data("v", 0), refs("left", 0), refs("right", 0)]);
    let (layout, mut state) = builder.build();
    object(&layout, &mut state, 0, 4, &[1, 3, 2]);
    object(&layout, &mut state, 0, 3, &[2, 1, 0]);
    object(&layout, &mut state, 0, 1, &[3, 0, 0]);
    object(&layout, &mut state, 0, 2, &[4, 0, 0]);
    state[root as usize] = 4;
    let collected = canonical(&layout, &state);
    let values: Vec<i64> = (0..4)
        .map(|j| collected[layout.records[0].fields[0].slots[j] as usize])
        .collect();
    assert_eq!(values, [1, 2, 3, 4]);
}

#[test]
fn allocation_order_keeps_numbers_and_removes_garbage() {
    let (layout, mut state, [a, b]) = nodes(4);
    object(&layout, &mut state, 0, 2, &[2, 4]);
    object(&layout, &mut state, 0, 3, &[3, 0]);
    object(&layout, &mut state, 0, 4, &[4, 0]);
    object(&layout, &mut state, 0, 1, &[1, 3]);
    (state[a as usize], state[b as usize]) = (2, 0);
    let mut collected = state.clone();
    layout.collect(&mut collected, HeapOrder::Allocation);
    assert_eq!(
        layout.describe(&collected),
        [
            "Node#2 { value = 2, next = Node#4 }",
            "Node#4 { value = 4, next = null }"
        ]
    );
    assert_eq!(collected[a as usize], 2);
    let (_, mut expected, _) = nodes(4);
    object(&layout, &mut expected, 0, 2, &[2, 4]);
    object(&layout, &mut expected, 0, 4, &[4, 0]);
    expected[a as usize] = 2;
    assert_eq!(collected, expected);
}
