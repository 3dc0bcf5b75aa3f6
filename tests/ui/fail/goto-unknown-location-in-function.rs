use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function f() {
            loc first: x := 1;
            goto frist;
        }

        active thread T() {
            f();
        }
    }
}

fn main() {}
