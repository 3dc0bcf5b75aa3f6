use bir::bir;

bir! {
    system S {
        const C { A = forall i in 0 .. 2000000000 : (i >= 0); }
        boolean x := C.A;
        active thread T() { loc l: do { } goto l; }
    }
}

fn main() {}
