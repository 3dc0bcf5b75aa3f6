use bir::bir;

bir! {
    system S {
        int (0, 3)[4] a;

        active thread T() {
            loc l:
                when forall i in 0 .. 1000 : (exists j in 0 .. 1000 : (a[i % 4] != j % 4))
                do {} goto l;
        }
    }
}

fn main() {}
