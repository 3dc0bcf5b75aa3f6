use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function f() {
            x := 1;
        }

        active thread T() {
            atomic
                x := 2;
                f();
            end
        }
    }
}

fn main() {}
