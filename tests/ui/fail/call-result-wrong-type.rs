use bir::bir;

bir! {
    system S {
        boolean done;

        function count() returns int (0, 9) {
            return 3;
        }

        active thread T() {
            done := count();
        }
    }
}

fn main() {}
