use bir::{bir, Verdict};

bir! {
    system S {
        int wrap (0, 2) w;
        byte b := 255;
        int wrap (-1, 1)[2] pair := { -1, 1 };

        active thread T() {
            loc a:
                do { w := w + 1; b := b + 1; pair[0] := pair[0] - 1; } goto a;
        }
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    // w has period 3 and b period 256.
    assert_eq!(report.stats().states, 768);
}
