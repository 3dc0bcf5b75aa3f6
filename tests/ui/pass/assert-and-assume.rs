use bir::{bir, Verdict};

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            loc a:
                do { x := x + 1; assume (x < 3); assert (x != 3); } goto a;
                when x == 2 do {} return;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 4);
}
