use bir::{bir, Verdict};

bir! {
    system S {
        int x;

        active thread T() {
            loc a:
                when x == 0 do { x := 1; exit; x := 2; } goto a;
                when x == 0 do {} return;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 3);
}
