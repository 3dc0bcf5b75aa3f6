use bir::bir;

bir! {
    system S {
        record Plain { int (0, 9) v; }

        active thread T() {
            Plain p;
            p := new Plain;
            throw p;
        }
    }
}

fn main() {}
