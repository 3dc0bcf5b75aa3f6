use bir::{bir, Verdict};

// `exit` ends the instance, so a transformation that executes it needs no jump: `Plain` and
// `Dead` are the same model, `Dead` with the jump that is never taken.
bir! {
    system Plain {
        int (0, 3) x;

        active [2] thread T(int index) {
            loc a:
                when x < 3 do { x := x + 1; } goto a;
                when x == 3 do { exit; }
                do { x := 0; exit; x := 1; }
        }
    }
}

bir! {
    system Dead {
        int (0, 3) x;

        active [2] thread T(int index) {
            loc a:
                when x < 3 do { x := x + 1; } goto a;
                when x == 3 do { exit; } goto a;
                do { x := 0; exit; x := 1; } goto a;
        }
    }
}

pub fn main() {
    let plain = Plain::checker().run();
    let dead = Dead::checker().run();
    assert_eq!(plain.verdict(), Verdict::Verified);
    assert_eq!(dead.verdict(), Verdict::Verified);
    let counts = |r: &bir::Report| (r.states(), r.transitions(), r.errors(), r.deadlocks());
    assert_eq!(counts(&plain), counts(&dead));
    assert!(plain.states() > 1);
}
