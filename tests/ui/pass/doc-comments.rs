use bir::{bir, Verdict};

bir! {
    //! Inner doc comments describe the system too.

    /// A system documented everywhere a doc comment may stand.
    system S {
        /// Sizes.
        const Param { N = 2; }
        /// A mode.
        enum Mode { Counting, Done }
        /// A small counter type.
        typealias Counter int (0, 2);
        /// How far we counted.
        Counter x;

        /// The only thread.
        active thread T() {
            /// Where the thread is.
            Mode mode;
            /// Counting up.
            loc a:
                /// One more.
                when x < Param.N do { x := x + 1; } goto a;
                /// Enough.
                when x == Param.N do { mode := Mode.Done; } goto b;
            /// Finished.
            loc b:
                do {} return;
        }

        /// The counter stays in bounds.
        invariant Bounded: x <= Param.N;
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
