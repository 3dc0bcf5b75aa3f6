use bir::{bir, Verdict};

bir! {
    system S {
        const Param { N = 3; }
        int (0, 3)[Param.N] a := { 0, 1, 2 };

        active thread T() {
            loc l:
                when forall i in 0 .. Param.N : (a[i] == i)
                     && exists i in 0 .. Param.N : (a[i] == Param.N - 1)
                     && forall i in 0 .. Param.N : (forall j in 0 .. Param.N : (j >= i || a[j] < a[i]))
                     && forall i in 2 .. 2 : (false)
                     && !exists i in 0 .. 0 : (true)
                do {} return;
        }

        invariant Sorted: forall i in 1 .. Param.N : (a[i - 1] <= a[i]);
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
