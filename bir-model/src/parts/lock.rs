//! A lock read from its slots: its owner (an instance's global number, or -1 when free),
//! its hold count, and from every instance's wait mark who waits on it and whom it
//! notified (LANGUAGE.md, "Locks"; the encoding in [`WAIT_MARK_NAME`](super::WAIT_MARK_NAME)).

/// One lock (one element of an array of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockPart {
    /// `m`, or `m[2]` for element 2 of an array of locks.
    pub name: String,
    /// The slot of its owner.
    pub owner: usize,
    /// The slot of its hold count.
    pub holds: Option<usize>,
    /// Its number among the model's lock elements, which the wait marks name.
    pub number: u32,
}

/// A lock in one state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockState {
    /// The global number of the instance that holds it; `None` when it is free.
    pub owner: Option<i64>,
    /// How many nested `lock`s its owner holds (0 when free).
    pub holds: i64,
    /// The instances in its wait set, by number, with the hold count each `wait` released.
    pub waiting: Vec<Waiter>,
    /// The instances it took out of its wait set that have not re-acquired it yet.
    pub notified: Vec<Waiter>,
}

/// An instance that waits on a lock, or was notified by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiter {
    /// Its global number.
    pub instance: usize,
    /// The hold count its `wait` released, which its `unwait` takes back.
    pub holds: i64,
}

impl LockPart {
    /// This lock in `values`, of `locks` lock elements, the instances' wait marks and
    /// remembered counts being the slots `marks` and `holds` (by instance number).
    pub(super) fn read(
        &self,
        values: &[i64],
        locks: usize,
        marks: &[Option<usize>],
        holds: &[Option<usize>],
    ) -> LockState {
        let wait = WaitMarks {
            locks,
            marks,
            holds,
        };
        read_lock(values, self.owner, self.holds, self.number, &wait, |_| true)
    }
}

/// The instances' wait marks and remembered counts, by instance number, of a model with
/// `locks` lock elements.
pub(super) struct WaitMarks<'a> {
    pub locks: usize,
    pub marks: &'a [Option<usize>],
    pub holds: &'a [Option<usize>],
}

/// The lock whose owner and hold count are the slots `owner` and `holds`, and whose number
/// among the model's lock elements is `number`, in `values`: the instances whose wait mark
/// names that number wait on it or were notified by it, when `mark_is_here` holds of them
/// too (for the lock of an object, that the instance's mark names this object: one number
/// serves every object of a record).
pub(super) fn read_lock(
    values: &[i64],
    owner: usize,
    holds: Option<usize>,
    number: u32,
    wait: &WaitMarks,
    mark_is_here: impl Fn(usize) -> bool,
) -> LockState {
    let value = |slot: Option<usize>| slot.and_then(|s| values.get(s)).copied();
    let owner = value(Some(owner)).filter(|&owner| owner >= 0);
    let (waits_here, notified_here) = (
        1 + i64::from(number),
        1 + wait.locks as i64 + i64::from(number),
    );
    let mut state = LockState {
        owner,
        holds: value(holds).unwrap_or(0),
        ..LockState::default()
    };
    for (instance, &mark) in wait.marks.iter().enumerate() {
        let waiter = Waiter {
            instance,
            holds: value(wait.holds.get(instance).copied().flatten()).unwrap_or(0),
        };
        match value(mark) {
            Some(mark) if mark == waits_here && mark_is_here(instance) => {
                state.waiting.push(waiter)
            }
            Some(mark) if mark == notified_here && mark_is_here(instance) => {
                state.notified.push(waiter)
            }
            _ => {}
        }
    }
    state
}
