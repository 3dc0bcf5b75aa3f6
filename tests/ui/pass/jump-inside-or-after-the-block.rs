use bir::{bir, Verdict};

bir! {
    system S {
        int (0, 2) x;

        active thread T() {
            loc a:
                when x < 2 do { x := x + 1; goto a; }
                when x == 2 do {} goto b;
            loc b:
                do { return; }
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 5);
}
