use bir::{bir, Verdict};

bir! {
    system S {
        active [2] thread T(int index) {
            int (0, 5) n := 2;
            boolean[2] seen := { false, true };
            loc a:
                when n > 0 do { n := n - 1; } goto a;
                when n == 0 do { assert (seen[1] && !seen[0]); } return;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 16);
}
