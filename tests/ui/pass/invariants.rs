use bir::{bir, FindingKind, Verdict};

bir! {
    system S {
        const Param { Max = 2; }
        int (0, 3) x;

        active thread T() {
            loc a: do { x := x + 1; } goto a;
        }

        invariant AtMostMax: x <= Param.Max;
        invariant Running: T@a;
        invariant x: x >= 0;
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Invariant));
}
