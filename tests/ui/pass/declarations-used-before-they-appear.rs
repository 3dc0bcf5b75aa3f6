use bir::{bir, Verdict};

bir! {
    system S {
        Small[Param.N] a := { 0, 1, Param.Max };
        boolean flag := Other.Flag;

        active thread T() {
            loc l:
                when flag && a[Param.Max] == Param.Max do {} return;
        }

        typealias Small int (0, Param.Max);
        const Param { N = 3; Max = Param.N - 1 + Other.K; }
        const Other { K = 0; Flag = Param.N > 2; }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
