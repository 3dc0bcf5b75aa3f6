use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            atomic
                while x < 3 do
                    x := x + 1;
                end
            end
        }
    }
}

fn main() {}
