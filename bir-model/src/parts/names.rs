//! The names of the slots that hold what version 3 keeps hidden in a state (LANGUAGE.md,
//! "How `bir` implements version 3"): a channel's length and message cells, a lock's owner
//! and hold count, the instances' wait marks, and the locals and locations of a call's
//! frames. The code generator names its hidden variables with these functions, and
//! [`StateParts`](super::StateParts) reads them back: one definition of the contract.
//!
//! Rule: no variable of a model can have one of these names, so that reading them back
//! never mistakes a model's own variable for hidden state. Each holds a character that no
//! identifier has (`(`, a space, `@`, `#`, or a `.` after a name that is no thread's).

/// The slot holding the length of buffered channel `channel` (each channel of an array of
/// them is an element of that slot's array): `len(c)`.
pub fn channel_length_name(channel: &str) -> String {
    format!("len({channel})")
}

/// The slot of a rendezvous channel, which has no state (its length is always 0 and takes
/// no bits): `rendezvous(c)`. Named apart from a buffered channel's length so that a
/// buffered channel without fields, which has no message cells either, is still told from it.
pub fn rendezvous_name(channel: &str) -> String {
    format!("rendezvous({channel})")
}

/// The slots of field `field` (from 0) of every message cell of channel `channel`, one
/// array: element `c * capacity + s` is cell `s` of channel `c` of an array of them, cell 0
/// the oldest message. `c.0`.
pub fn channel_field_name(channel: &str, field: usize) -> String {
    format!("{channel}.{field}")
}

/// The slot holding the owner of lock `lock` (an instance's global number, or -1 when
/// free), one element per lock of an array of them: `owner(m)`.
pub fn lock_owner_name(lock: &str) -> String {
    format!("owner({lock})")
}

/// The slot holding the hold count of lock `lock` (0 to 3): `holds(m)`.
pub fn lock_holds_name(lock: &str) -> String {
    format!("holds({lock})")
}

/// The slots of whether each object of record `record` is allocated, one array, element
/// `j` for object `j` (referred to as `j + 1`): `live(Node)`.
pub fn heap_live_name(record: &str) -> String {
    format!("live({record})")
}

/// The slots of field `field` of every object of record `record`, one array, element `j`
/// for object `j`: `Node#next`.
pub fn heap_field_name(record: &str, field: &str) -> String {
    format!("{record}#{field}")
}

/// The field of every object that holds the owner of the object's own lock (when some
/// operation takes an object's lock): `lock`, a reserved word, which no field of a model can
/// take as its name; its slots are `R#lock`, its hold count's `R#lock.count`.
pub const OBJECT_LOCK_FIELD: &str = "lock";

/// The field holding the hold count (0 to 3) of the object lock whose owner field is `lock`
/// (the object's own, [`OBJECT_LOCK_FIELD`], or a lock field `f` of its record):
/// `lock.count`, `f.count`. A `.` is in no field name of a model, so that a field named so
/// is always a lock's count and the field before `.count` its owner.
pub fn heap_lock_holds_field(lock: &str) -> String {
    format!("{lock}.count")
}

/// The owner field of the object lock whose hold count field is `field`: `f` for
/// `f.count` (and `f[1]` for `f.count[1]`, an element of an array of lock fields); `None`
/// for a field that is no lock's count.
pub fn heap_lock_of_holds_field(field: &str) -> Option<String> {
    let (name, element) = match field.find('[') {
        Some(at) => field.split_at(at),
        None => (field, ""),
    };
    let lock = name.strip_suffix(".count")?;
    Some(format!("{lock}{element}"))
}

/// The array of the object of record `record` whose lock each instance waits on or was
/// notified by (a reference, `null` otherwise), element `i` for the instance of global
/// number `i`: `wait(Node)`. With the wait mark's lock number, it names one lock of one
/// object (the numbers of objects' locks being the same for every object of a record).
pub fn object_wait_name(record: &str) -> String {
    format!("wait({record})")
}

/// The array of every instance's wait mark, element `i` for the instance of global number
/// `i`: 0 none, `1 + l` waiting on lock element `l`, `1 + L + l` notified by it, of `L` lock
/// elements (numbered over the lock declarations in order, an array's elements by index).
pub const WAIT_MARK_NAME: &str = "wait mark";

/// The array of the hold count each instance's `wait` released, for its `unwait`.
pub const WAIT_HOLDS_NAME: &str = "wait holds";

/// The name of frame `number` (from 1, the thread's body being frame 0) of function
/// `function` in its thread: `f@2`. The frame's locations and locals are named
/// `f@2.loc` and `f@2.x` ([`frame_item_name`]).
pub fn frame_name(function: &str, number: u32) -> String {
    format!("{function}@{number}")
}

/// A location or local of a frame: `f@2.loc`, `f@2.x`.
pub fn frame_item_name(function: &str, number: u32, item: &str) -> String {
    format!("{}.{item}", frame_name(function, number))
}

/// The local of a frame that passes a function's result back to its caller, written and
/// given its initial value again in the step that returns, so that between steps it always
/// holds its initial value: `f@2.return`, a reserved word, which no local of the function
/// can take as its name.
pub const FRAME_RESULT: &str = "return";

/// The local that takes argument `param` of a call of `function` past its bound (the
/// argument's range error comes before the stack error); never written in a reachable
/// state: `f@overflow.0`.
pub fn overflow_name(function: &str, param: usize) -> String {
    format!("{function}@overflow.{param}")
}

/// A frame's location or local read back: `f@2.loc` is `("f", 2, "loc")`; `None` for a
/// name of the thread's body (or an overflow local, which is in no frame).
pub fn parse_frame_item(name: &str) -> Option<(&str, u32, &str)> {
    let (function, rest) = name.split_once('@')?;
    let (number, item) = rest.split_once('.')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((function, number.parse().ok()?, item))
}

/// An overflow local read back: `f@overflow.0` is `true`.
pub fn is_overflow_name(name: &str) -> bool {
    name.split_once('@')
        .is_some_and(|(_, rest)| rest.starts_with("overflow."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_names_read_back() {
        let name = frame_item_name("sum", 3, "if#1");
        assert_eq!(name, "sum@3.if#1");
        assert_eq!(parse_frame_item(&name), Some(("sum", 3, "if#1")));
        // A dotted item stays whole: only the first `.` after the number splits.
        assert_eq!(parse_frame_item("f@1.a.b"), Some(("f", 1, "a.b")));
        assert_eq!(parse_frame_item("call#1"), None);
        assert_eq!(parse_frame_item(&overflow_name("sum", 0)), None);
        assert!(is_overflow_name("sum@overflow.0"));
        assert!(!is_overflow_name("sum@1.n"));
        assert_eq!(parse_frame_item("f@.x"), None);
    }

    #[test]
    fn object_lock_counts_name_their_owner_field() {
        assert_eq!(heap_lock_holds_field(OBJECT_LOCK_FIELD), "lock.count");
        assert_eq!(
            heap_lock_of_holds_field("lock.count").as_deref(),
            Some("lock")
        );
        assert_eq!(
            heap_lock_of_holds_field("f.count[1]").as_deref(),
            Some("f[1]")
        );
        assert_eq!(heap_lock_of_holds_field("count"), None);
        assert_eq!(heap_lock_of_holds_field("f[1]"), None);
    }
}
