//! The ids of the IR: one type per kind of thing, so that a thread id cannot index the
//! globals, and lists indexed by them ([`IdVec`]) that only their own id indexes.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense id: the position of an item in the list that holds it.
pub trait Id: Copy + Eq + fmt::Debug {
    /// The id of position `index`.
    fn new(index: usize) -> Self;
    /// The position it names.
    fn index(self) -> usize;
}

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl Id for $name {
            fn new(index: usize) -> Self {
                // Every list of the IR is bounded far below 2^32 by the front end's limits.
                $name(u32::try_from(index).expect("an id fits in 32 bits"))
            }

            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    )*};
}

ids! {
    /// A global variable: its position in `System::globals`.
    GlobalId;
    /// A local of a thread (its started parameter included): its position in
    /// `Thread::locals`.
    LocalId;
    /// A thread declaration: its position in `System::threads`.
    ThreadId;
    /// A location of a thread: its position in `Thread::locations`; the first is the initial
    /// one, and a status below the number of locations is a location id.
    LocationId;
    /// A transformation of a thread: its position in `Thread::transforms`, which lists them
    /// in source order over all locations.
    TransformId;
    /// An enum: its position in `System::enums`.
    EnumId;
    /// A fault site: its position in `System::fault_sites`; the runtime's `Fault::site`.
    SiteId;
    /// A quantified variable, unique within the system.
    QuantVarId;
    /// A record type (version 3): its position in `Hidden::records`.
    RecordId;
    /// A thread instance: threads in declaration order, instances by index (the runtime's
    /// `TransitionInfo::instance`). Instances of one thread are consecutive.
    InstanceId;
}

/// A list indexed by the ids `I` only.
#[derive(Clone, PartialEq, Eq)]
pub struct IdVec<I, T> {
    items: Vec<T>,
    ids: PhantomData<fn(I)>,
}

impl<I: Id, T> IdVec<I, T> {
    /// An empty list.
    pub fn new() -> Self {
        IdVec {
            items: Vec::new(),
            ids: PhantomData,
        }
    }

    /// Appends `item` and returns its id.
    pub fn push(&mut self, item: T) -> I {
        self.items.push(item);
        I::new(self.items.len() - 1)
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there is no item.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The item `id`, if it exists.
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    /// The items in order, to change them in place.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.items.iter_mut()
    }

    /// The items, in id order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The items in order, with their ids.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + '_ {
        self.items
            .iter()
            .enumerate()
            .map(|(index, item)| (I::new(index), item))
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> {
        (0..self.items.len()).map(I::new)
    }

    /// The items as a slice, in id order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
    }
}

impl<I: Id, T> Default for IdVec<I, T> {
    fn default() -> Self {
        IdVec::new()
    }
}

impl<I: Id, T> From<Vec<T>> for IdVec<I, T> {
    fn from(items: Vec<T>) -> Self {
        IdVec {
            items,
            ids: PhantomData,
        }
    }
}

impl<I: Id, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<I: Id, T> Index<I> for IdVec<I, T> {
    type Output = T;

    fn index(&self, id: I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Id, T> IndexMut<I> for IdVec<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.index()]
    }
}

impl<'a, I: Id, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<I, T: fmt::Debug> fmt::Debug for IdVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}
