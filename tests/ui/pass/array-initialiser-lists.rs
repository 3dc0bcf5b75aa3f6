use bir::{bir, Verdict};

bir! {
    system S {
        enum Color { Red, Green }
        boolean[2] forks := { true, false };
        int (-1, 1)[3] a := { -1, 0, 1 };
        Color[2] colors := { Color.Red, Color.Green };
        int[2] zeros;

        active thread T() {
            loc l:
                do {
                    assert (forks[0] && !forks[1]);
                    assert (a[0] + a[2] == 0 && zeros[1] == 0);
                    assert (colors[1] == Color.Green);
                } return;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 2);
}
