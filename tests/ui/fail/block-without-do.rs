use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            if x > 2 x := 0; end
        }
    }
}

fn main() {}
