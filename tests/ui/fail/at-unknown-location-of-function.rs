use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function f() {
            loc inside: x := 1;
        }

        active thread T() {
            loc calling: f();
        }

        invariant Away: !T@f.calling;
    }
}

fn main() {}
