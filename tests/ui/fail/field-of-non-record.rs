use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        active thread T() {
            loc l: do { x := x.value; } return;
        }
    }
}

fn main() {}
