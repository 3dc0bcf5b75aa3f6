use bir::{bir, Verdict};

bir! {
    system S {
        enum Color { Red, Green, Blue, }
        typealias Counter int (0, 3);
        typealias Shade Color;
        typealias Tally Counter;

        Shade c := Color.Green;
        Tally n;

        active thread T() {
            loc a:
                when c == Color.Green && n < 3 do { n := n + 1; } goto a;
                when c != Color.Green || n == 3 do { c := Color.Blue; } goto b;
            loc b:
                do {} return;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 6);
}
