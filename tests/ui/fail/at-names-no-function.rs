use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        active thread T() {
            loc work: x := 1;
        }

        active thread U() {
            x := 2;
        }

        invariant NotBoth: !T@U.work;
    }
}

fn main() {}
