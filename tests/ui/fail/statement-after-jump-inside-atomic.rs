use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            loc top: skip;
            atomic
                x := 1;
                goto top;
                x := 2;
            end
        }
    }
}

fn main() {}
