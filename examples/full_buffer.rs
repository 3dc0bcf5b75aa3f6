//! Exceptions (LANGUAGE.md, version 3): a bounded buffer whose `put` throws `Full` when no
//! slot is free. In `FullBuffer` the producer calls `put` through `produce`, which has no
//! handler, so the exception pops both frames and the producer's own `catch (Full full)`,
//! at the call, counts the item as dropped: bir verifies that every item is consumed,
//! left in the buffer or dropped. In `FullBufferEscapes` the producer catches only
//! `Empty`, and the `Full` leaves its body: an uncaught exception, with its trace.
//!
//! `cargo run --release --example full_buffer`

mod caught {
    bir::bir!(file = "../models/full_buffer_caught.bir");
}

mod escapes {
    bir::bir!(file = "../models/full_buffer_escapes.bir");
}

pub use caught::FullBuffer;
pub use escapes::FullBufferEscapes;

fn main() {
    println!("{}", FullBuffer::checker().run());
    println!("{}", FullBufferEscapes::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;
    use bir::FindingKind;

    #[test]
    fn a_full_buffer_drops_the_item_in_the_producers_handler() {
        let report = FullBuffer::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (198, 338));
    }

    #[test]
    fn an_exception_no_frame_catches_is_uncaught() {
        let report = FullBufferEscapes::checker().bfs().run();
        let found = report.assert_found(FindingKind::Uncaught);
        assert!(found.message().contains("no handler catches"), "{report}");
        // Two items put, the third call reaches the throw: 18 steps.
        assert_eq!(found.len(), 18, "{report}");
        let full = FullBufferEscapes::checker().keep_going(0).run();
        assert_eq!(
            (
                full.states(),
                full.transitions(),
                full.errors(),
                full.deadlocks()
            ),
            (107, 182, 6, 0)
        );
    }
}
