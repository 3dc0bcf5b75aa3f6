use bir::bir;

bir! {
    system S {
        record A { boolean b; }
        record B { boolean b; }
        A a;
        B b;
        active thread T() {
            loc l: do { assert(a == b); } return;
        }
    }
}

fn main() {}
