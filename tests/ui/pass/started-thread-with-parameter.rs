use bir::{bir, Verdict};

bir! {
    system S {
        int (0, 10) total;

        thread Adder(int (0, 5) amount) {
            loc a: do { total := total + amount; amount := 0; } return;
        }

        thread Idle() {
            loc a: do {} return;
        }

        active thread Main() {
            loc a: do { start Adder(3); start Idle(); } goto b;
            loc b: when total == 3 do {} return;
        }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
