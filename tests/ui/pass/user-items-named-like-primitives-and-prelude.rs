//! The generated code names everything by absolute paths (`::core::primitive::i64`,
//! `::core::option::Option`, `::bir::...`): items of the user's named like primitive types
//! or prelude items do not change its meaning.
#![allow(non_camel_case_types, dead_code)]

use bir::{bir, FindingKind, Verdict};

struct bool;
struct i64;
struct str;
struct u8;
struct u16;
struct u32;
struct u64;
struct usize;
struct Option;
struct Result;
struct Some;
struct None;
struct Ok;
struct Err;
struct Vec;

bir! {
    system S {
        int (0, 3) x;
        boolean[2] b;
        enum E { A, B }
        E e;

        active [2] thread T(int index) {
            loc l:
                when x < 3 && exists i in 0 .. 2 : (!b[i]) do {
                    x := x + 1;
                    b[index] := !b[index];
                    e := e == E.A ? E.B : E.A;
                } goto l;
        }

        invariant Small: x <= 3;
    }
}

pub fn main() {
    let report = S::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
}
