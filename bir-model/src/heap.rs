//! The heap of a model with records (LANGUAGE.md, "Records and the heap"): how its objects
//! lie in a state's slots ([`HeapLayout`]), and the garbage collection and canonical
//! renumbering ("heap symmetry", [`HeapLayout::collect`]) that the interpreter and generated
//! code both run at the end of every step, written once here.
//!
//! **Encoding.** Record type `R` (index `r` in [`HeapLayout::records`]) has a bound `k`
//! (`1..=`[`MAX_BOUND`]) of objects. Object `j < k` has a `live` slot (0 or 1) and one slot
//! per field, the fields in declaration order (an array field `int x[3]` is three fields
//! named `x`, with elements 0, 1, 2 in order). A reference to `R` is an integer `0..=k`: 0 is
//! `null`, `v >= 1` is object `v - 1`, printed `R#v`. A field is a reference when its
//! [`FieldLayout::refers`] names a record type; the others (integers, booleans, enums, lock
//! owners, ...) are data that only moves with its object. The *roots* are the reference
//! slots outside the heap (globals, thread locals, channel messages), in a fixed order.
//!
//! **Walk.** A depth-first walk from the roots, in their order, numbers the objects it
//! reaches: visiting a reference `v` to `R` stops when `v` is null or its object was already
//! reached; otherwise the object is reached, gets the next number of its type (1, 2, ... in
//! the order of first visits), and its reference fields are visited in field order, each
//! one completely before the next (a recursive preorder walk, run here with an explicit
//! stack, so that long chains do not overflow the thread's stack). The walk reads reference
//! slots only.
//!
//! **Garbage.** An object whose `live` slot is set and that the walk did not reach is
//! garbage: it is removed (`live` := 0, every field := its default).
//!
//! **Canonical order** ([`HeapOrder::Canonical`]). The reached objects of each type are
//! renumbered by their walk numbers: the object numbered `n` moves to index `n - 1` (its
//! `live` and field slots move with it), every reference (the roots and the reference fields
//! of the reached objects) is rewritten to the new numbers, and the objects past the number
//! reached of each type are dead, with default fields. Two states that differ only in where
//! their objects were allocated thus become one state, and the number of states does not
//! depend on the allocation order; the walk's order only fixes the numbers traces print.
//! [`HeapOrder::Allocation`] keeps the numbers and only removes garbage.
//!
//! **Ill-formed states.** A well-formed state never holds a reference to a dead object nor a
//! dead object with a field off its default. Should a state do so anyway, nothing panics: a
//! reference to a dead object is followed like any other (the object is reached, numbered
//! and moved, and stays dead), and a reference value outside `0..=k` is treated as null by
//! the walk and left as it is; a dead object the walk does not reach keeps its fields unless
//! its type's objects move. Every slot a layout names must be distinct
//! ([`HeapLayout::check`]).
//!
//! **Cost.** Nothing is written when there is no garbage and the renumbering is the
//! identity. A layout of at most 1024 objects (the sum of the bounds) and 64 record types
//! works in fixed arrays on the thread's stack, allocating nothing; a larger one allocates
//! its scratch per call.
//!
//! **Instance symmetry.** The canonical numbering depends on the order of the roots, and
//! permuting a family's instances permutes their roots: the image of a canonical state under
//! an instance permutation is collected again before it is compared.
use std::borrow::Cow;

/// The largest bound of a record type: object numbers fit in a byte.
pub const MAX_BOUND: u32 = 255;

/// Where the objects of a model's heap and the references to them lie in its state's
/// slots (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapLayout {
    /// The record types, in declaration order; a [`FieldLayout::refers`] or a
    /// [`HeapRoot::record`] indexes this table.
    pub records: Cow<'static, [RecordLayout]>,
    /// The reference slots outside the heap, in the order the walk starts from them.
    pub roots: Cow<'static, [HeapRoot]>,
}

/// One record type: its objects' `live` and field slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    /// The record's name (`Node`).
    pub name: Cow<'static, str>,
    /// How many objects of the type can be live at once (`1..=`[`MAX_BOUND`]).
    pub bound: u32,
    /// Per object (`bound` of them), the slot that is 1 while the object is live.
    pub live: Cow<'static, [u32]>,
    /// The fields in declaration order, an array field as one field per element.
    pub fields: Cow<'static, [FieldLayout]>,
}

/// One field of a record type (or one element of an array field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// The field's name (`next`; `kids` for every element of `Node kids[3]`).
    pub name: Cow<'static, str>,
    /// For an element of an array field, its index.
    pub element: Option<u32>,
    /// Per object (`bound` of them), the slot holding the field.
    pub slots: Cow<'static, [u32]>,
    /// The value of the field in a new object, and in a dead one.
    pub default: i64,
    /// When the field is a reference, the record type it refers to.
    pub refers: Option<u32>,
}

/// A reference slot outside the heap: a global, a thread local, a channel message's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapRoot {
    /// The slot holding the reference.
    pub slot: u32,
    /// The record type it refers to.
    pub record: u32,
}

/// Read and write access to the slots of a state, by slot number, for [`HeapLayout::collect`].
pub trait HeapSlots {
    /// The value of slot `slot`.
    fn heap_get(&self, slot: u32) -> i64;
    /// Sets slot `slot` to `value`.
    fn heap_set(&mut self, slot: u32, value: i64);
}

impl HeapSlots for [i64] {
    #[inline]
    fn heap_get(&self, slot: u32) -> i64 {
        self[slot as usize]
    }

    #[inline]
    fn heap_set(&mut self, slot: u32, value: i64) {
        self[slot as usize] = value;
    }
}

impl HeapSlots for Vec<i64> {
    #[inline]
    fn heap_get(&self, slot: u32) -> i64 {
        self[slot as usize]
    }

    #[inline]
    fn heap_set(&mut self, slot: u32, value: i64) {
        self[slot as usize] = value;
    }
}

/// How [`HeapLayout::collect`] numbers the objects that remain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeapOrder {
    /// By the walk from the roots: the canonical heap (heap symmetry).
    Canonical,
    /// As allocated: only garbage is removed.
    Allocation,
}

impl HeapOrder {
    /// The name of the environment variable that selects [`HeapOrder::Allocation`] for
    /// the checkers `bir!` generates, when set to `allocation`: a switch for measuring
    /// what the canonical heap saves (more states) and costs (the renumbering), not a
    /// setting of a model.
    pub const ENV: &'static str = "BIR_HEAP_ORDER";
}

/// The order the generated checkers number the heap's objects in: [`HeapOrder::Canonical`]
/// unless the environment variable [`HeapOrder::ENV`] says `allocation`, read once.
pub fn order() -> HeapOrder {
    if let Some(order) = steps::overridden() {
        return order;
    }
    static ORDER: std::sync::OnceLock<HeapOrder> = std::sync::OnceLock::new();
    *ORDER.get_or_init(|| match std::env::var(HeapOrder::ENV).as_deref() {
        Ok("allocation") => HeapOrder::Allocation,
        _ => HeapOrder::Canonical,
    })
}

/// The scratch of a layout of at most this many objects, of at most [`FEW_TYPES`] record
/// types, lies in fixed arrays on the thread's stack, small enough that clearing them costs
/// little beside the walk.
const TINY: usize = 16;
/// The most record types of a [`TINY`] layout.
const FEW_TYPES: usize = 4;
/// The same for layouts of at most this many objects and [`TYPES`] types.
const SMALL: usize = 64;
/// The same for larger layouts; past it, the scratch is allocated.
const LARGE: usize = 1024;
/// The most record types whose scratch lies in a fixed array.
const TYPES: usize = 64;

/// Per object, in `Scratch::marks`: not reached by the walk.
const UNREACHED: u16 = 0;
/// Per object: live and not reached (walk numbers are `1..=MAX_BOUND`).
const GARBAGE: u16 = u16::MAX;

/// An object the walk is inside of: its reference fields from `field` on are still to visit.
#[derive(Clone, Copy)]
struct Frame {
    record: u32,
    object: u32,
    field: u32,
}

impl Frame {
    const ZERO: Frame = Frame {
        record: 0,
        object: 0,
        field: 0,
    };
}

/// What the walk found of one record type.
#[derive(Clone, Copy)]
struct Tally {
    /// The index in `Scratch::marks` of the type's object 0.
    base: u32,
    /// How many of its objects the walk reached.
    reached: u32,
    /// How many of its objects are garbage.
    garbage: u32,
    /// True when the canonical renumbering moves some of its objects.
    moved: bool,
}

impl Tally {
    const ZERO: Tally = Tally {
        base: 0,
        reached: 0,
        garbage: 0,
        moved: false,
    };
}

/// The working memory of one [`HeapLayout::collect`]: `marks` has one entry per object (the
/// types' objects one after another), `tallies` one per type, `stack` one per object (each
/// object is pushed at most once); `from` and `old`, at least one per object of the
/// largest type, hold one column of a type while it is renumbered.
struct Scratch<'a> {
    marks: &'a mut [u16],
    tallies: &'a mut [Tally],
    stack: &'a mut [Frame],
    from: &'a mut [u8],
    old: &'a mut [i64],
}

impl HeapLayout {
    /// A layout without record types: a model without a heap.
    pub const EMPTY: HeapLayout = HeapLayout {
        records: Cow::Borrowed(&[]),
        roots: Cow::Borrowed(&[]),
    };

    /// True when the layout has no record type: [`collect`](Self::collect) does nothing.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Removes the garbage of `state` and, in [`HeapOrder::Canonical`], renumbers its
    /// objects in the order of the walk from the roots, in place (see the [module
    /// documentation](self)). Says whether it wrote anything: it writes nothing when there
    /// is no garbage and the renumbering is the identity. Panics when a bound exceeds
    /// [`MAX_BOUND`], or when a slot or a record index is out of range.
    pub fn collect<S: HeapSlots + ?Sized>(&self, state: &mut S, order: HeapOrder) -> bool {
        let mut total = 0usize;
        for record in self.records.iter() {
            assert!(
                record.bound <= MAX_BOUND,
                "record {} has a bound of {}, more than {MAX_BOUND}",
                record.name,
                record.bound
            );
            total += record.bound as usize;
        }
        let types = self.records.len();
        if total == 0 {
            false
        } else if total <= TINY && types <= FEW_TYPES {
            self.collect_fixed::<S, TINY, FEW_TYPES>(state, order, total)
        } else if total <= SMALL && types <= TYPES {
            self.collect_fixed::<S, SMALL, TYPES>(state, order, total)
        } else if total <= LARGE && types <= TYPES {
            self.collect_fixed::<S, LARGE, TYPES>(state, order, total)
        } else {
            let mut marks = vec![UNREACHED; total];
            let mut tallies = vec![Tally::ZERO; types];
            let mut stack = vec![Frame::ZERO; total];
            let mut from = vec![0; total];
            let mut old = vec![0; total];
            let scratch = Scratch {
                marks: &mut marks,
                tallies: &mut tallies,
                stack: &mut stack,
                from: &mut from,
                old: &mut old,
            };
            self.collect_in(state, order, scratch)
        }
    }

    /// [`collect`](Self::collect) with its scratch in arrays of `N` objects and `T` types.
    fn collect_fixed<S: HeapSlots + ?Sized, const N: usize, const T: usize>(
        &self,
        state: &mut S,
        order: HeapOrder,
        total: usize,
    ) -> bool {
        let mut marks = [UNREACHED; N];
        let mut tallies = [Tally::ZERO; T];
        let mut stack = [Frame::ZERO; N];
        let mut from = [0; N];
        let mut old = [0; N];
        let scratch = Scratch {
            marks: &mut marks[..total],
            tallies: &mut tallies[..self.records.len()],
            stack: &mut stack[..total],
            from: &mut from[..total],
            old: &mut old[..total],
        };
        self.collect_in(state, order, scratch)
    }

    /// [`collect`](Self::collect) in the scratch `s`.
    fn collect_in<S: HeapSlots + ?Sized>(
        &self,
        state: &mut S,
        order: HeapOrder,
        s: Scratch,
    ) -> bool {
        let Scratch {
            marks,
            tallies,
            stack,
            from,
            old,
        } = s;
        let records = &self.records[..];
        let mut base = 0;
        for (tally, record) in tallies.iter_mut().zip(records) {
            *tally = Tally {
                base,
                ..Tally::ZERO
            };
            base += record.bound;
        }

        // The walk: a preorder depth-first search. The top frame's object has been numbered;
        // each round visits its next reference field, pushing the object found there (which
        // is numbered before anything else is visited) or popping the frame when no field is
        // left, which is the order of the recursive walk.
        for root in self.roots.iter() {
            let value = state.heap_get(root.slot);
            let Some(object) = reach(records, tallies, marks, root.record, value) else {
                continue;
            };
            stack[0] = Frame {
                record: root.record,
                object,
                field: 0,
            };
            let mut depth = 1;
            while depth > 0 {
                let frame = &mut stack[depth - 1];
                let fields = &records[frame.record as usize].fields;
                let start = frame.field as usize;
                let Some(offset) = fields[start..].iter().position(|f| f.refers.is_some()) else {
                    depth -= 1;
                    continue;
                };
                let field = &fields[start + offset];
                frame.field = (start + offset + 1) as u32;
                let value = state.heap_get(field.slots[frame.object as usize]);
                let target = field.refers.unwrap_or_default();
                if let Some(object) = reach(records, tallies, marks, target, value) {
                    stack[depth] = Frame {
                        record: target,
                        object,
                        field: 0,
                    };
                    depth += 1;
                }
            }
        }

        // The garbage: live and not reached.
        let mut changes = false;
        for (tally, record) in tallies.iter_mut().zip(records) {
            if order == HeapOrder::Allocation {
                tally.moved = false;
            }
            changes |= tally.moved;
            let marks = &mut marks[tally.base as usize..][..record.bound as usize];
            for (mark, &live) in marks.iter_mut().zip(record.live.iter()) {
                if *mark == UNREACHED && state.heap_get(live) != 0 {
                    *mark = GARBAGE;
                    tally.garbage += 1;
                }
            }
            changes |= tally.garbage > 0;
        }
        if !changes {
            return false;
        }

        for root in self.roots.iter() {
            if tallies[root.record as usize].moved {
                let value = state.heap_get(root.slot);
                let renamed = rename(records, tallies, marks, root.record, value);
                if renamed != value {
                    state.heap_set(root.slot, renamed);
                }
            }
        }
        // `from`: per type whose objects move, where each new index takes its object from:
        // the object numbered `n` goes to `n - 1`. `old`: the column of one field across
        // one type's objects, read whole before any of it is written: a permutation of at
        // most `MAX_BOUND` values, cheaper than following its cycles, and every slot is
        // written at most once (and only when its value changes).
        for (r, record) in records.iter().enumerate() {
            let tally = tallies[r];
            let bound = record.bound as usize;
            let marks_of = &marks[tally.base as usize..][..bound];
            if tally.moved {
                for (object, &mark) in marks_of.iter().enumerate() {
                    if mark != UNREACHED && mark != GARBAGE {
                        from[mark as usize - 1] = object as u8;
                    }
                }
            }
            let live = std::iter::once((&record.live[..], 0, None));
            let fields = record
                .fields
                .iter()
                .map(|f| (&f.slots[..], f.default, f.refers));
            for (slots, default, refers) in live.chain(fields) {
                let retarget = refers.filter(|&t| tallies[t as usize].moved);
                if !tally.moved && retarget.is_none() {
                    if tally.garbage > 0 {
                        for (&mark, &slot) in marks_of.iter().zip(slots) {
                            if mark == GARBAGE {
                                state.heap_set(slot, default);
                            }
                        }
                    }
                    continue;
                }
                for (value, &slot) in old.iter_mut().zip(slots) {
                    *value = state.heap_get(slot);
                }
                let renamed = |value: i64| match retarget {
                    Some(t) => rename(records, tallies, marks, t, value),
                    None => value,
                };
                for (index, &slot) in slots.iter().enumerate() {
                    let new = if tally.moved {
                        if index < tally.reached as usize {
                            renamed(old[from[index] as usize])
                        } else {
                            default
                        }
                    } else {
                        match marks_of[index] {
                            GARBAGE => default,
                            UNREACHED => old[index],
                            _ => renamed(old[index]),
                        }
                    };
                    if new != old[index] {
                        state.heap_set(slot, new);
                    }
                }
            }
        }
        true
    }
}

/// The walk's visit of reference `value` to type `record`: when it names an object not
/// reached yet, marks it reached with the type's next number and answers its index.
#[inline]
fn reach(
    records: &[RecordLayout],
    tallies: &mut [Tally],
    marks: &mut [u16],
    record: u32,
    value: i64,
) -> Option<u32> {
    let bound = records[record as usize].bound;
    if value < 1 || value > i64::from(bound) {
        return None;
    }
    let object = (value - 1) as u32;
    let tally = &mut tallies[record as usize];
    let mark = &mut marks[(tally.base + object) as usize];
    if *mark != UNREACHED {
        return None;
    }
    tally.reached += 1;
    *mark = tally.reached as u16;
    tally.moved |= tally.reached != object + 1;
    Some(object)
}

/// Reference `value` to type `record` in the canonical numbering (unchanged when it names
/// no reached object).
#[inline]
fn rename(
    records: &[RecordLayout],
    tallies: &[Tally],
    marks: &[u16],
    record: u32,
    value: i64,
) -> i64 {
    let bound = records[record as usize].bound;
    if value < 1 || value > i64::from(bound) {
        return value;
    }
    match marks[(tallies[record as usize].base + (value - 1) as u32) as usize] {
        UNREACHED | GARBAGE => value,
        number => i64::from(number),
    }
}

pub mod steps;
mod text;

#[cfg(test)]
mod tests;
