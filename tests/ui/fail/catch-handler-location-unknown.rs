use bir::bir;

bir! {
    system S {
        throwable record Full { int (0, 9) size; }
        int (0, 9) x;

        active thread T() {
            loc put: do { x := 1; } goto handled;
            loc handled: do { x := 2; } return;
            catch Full e at put goto handler;
        }
    }
}

fn main() {}
