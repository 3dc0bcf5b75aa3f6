use bir::{bir, Verdict};

bir! {
    system S {
        enum Color { Red, Green }
        int (0, 2) x;
        boolean zero := true;
        Color c;

        active thread T() {
            loc a:
                do {
                    x := x < 2 ? x + 1 : 0;
                    zero := x == 0 ? true : false;
                    c := zero ? Color.Red : x == 1 ? Color.Green : Color.Red;
                } goto a;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.stats().states, 3);
}
