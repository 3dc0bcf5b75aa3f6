use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function f() {
            x := 1;
        }

        active thread T() {
            loc a: do { } invoke f();
        }
    }
}

fn main() {}
