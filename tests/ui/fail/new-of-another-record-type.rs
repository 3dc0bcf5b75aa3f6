use bir::bir;

bir! {
    system S {
        record A { boolean b; }
        record B { boolean b; }
        A a;
        active thread T() {
            loc l: do { a := new B; } return;
        }
    }
}

fn main() {}
