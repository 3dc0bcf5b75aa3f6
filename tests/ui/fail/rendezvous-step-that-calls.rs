use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        channel go;

        function f() {
            x := 1;
        }

        active thread T() {
            loc a: do { go!; } invoke f() goto b;
            loc b: do {} return;
        }

        active thread R() {
            go?;
        }
    }
}

fn main() {}
