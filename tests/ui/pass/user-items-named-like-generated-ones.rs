use bir::{bir, Model, Verdict};

// The expansion adds one name beside the user's items, the system's: its state type and
// helpers are its own, so a user type named like them changes nothing.
#[allow(dead_code)]
struct MState;
#[allow(dead_code)]
static INFO: u8 = 0;
#[allow(dead_code)]
fn t0() {}

bir! {
    system M {
        int (0, 2) x;

        active thread T() {
            loc a:
                when x < 2 do { x := x + 1; } goto a;
                when x == 2 do { exit; }
        }
    }
}

pub fn main() {
    let state: <M as Model>::State = M.initial_state();
    assert_eq!(format!("{state}"), M.initial_state().to_string());
    let report = M::checker().run();
    assert_eq!(report.verdict(), Verdict::Verified);
    assert_eq!(report.states(), 4);
}
