use bir::bir;

bir! {
    system S {
        active [2] thread U(int index) {
            loc m0: do {} goto m1;
            loc m1: do {} goto m0;
        }

        ltl Someone: []<>(exists i in 0 .. 2 : (U[i]@m1));
    }
}

fn main() {}
