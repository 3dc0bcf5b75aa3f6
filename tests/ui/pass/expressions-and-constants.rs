use bir::{bir, Verdict};

bir! {
    system S {
        const P { N = true ? 1 : 2; M = -7 / 2; R = -7 % 2; B = P.N == 1 && !(P.M > 0); }
        enum One { Only }
        int (-5, -1) neg;
        int (0, 3) z := -0;
        One o := One.Only;
        boolean b := P.B;
        int[3] a := { P.M, P.R, P.N };

        active [2] thread W(int index) {
            loc l:
                when forall i in -2 .. 2 : (i * i >= 0) && (b == true) != (neg > -1)
                do { a[index] := (a[index] + 1) % 3; } goto l;
                when exists i in 0 .. 2 : (W[i]@l) && o == One.Only && z == 0
                do {} return;
        }

        invariant Negative: neg == -5 && a[0] >= -3 && P.M == -3 && P.R == -1;
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
