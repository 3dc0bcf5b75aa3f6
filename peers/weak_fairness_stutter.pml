/* SPIN 6.5.2's weak fairness misses a stuttered deadlock (found by the LTL differential,
 * tests/suite/spin_ltl.rs). One process sets x and then blocks for good: the only run is
 * x = false, then x = true forever (the deadlock, stuttered). It violates <>[]!x, and the run
 * is fair: no process is enabled in the deadlock.
 *
 *   spin -a weak_fairness_stutter.pml && gcc -O2 -DNOREDUCE -o pan pan.c
 *   ./pan -a      acceptance cycle, errors: 1                            (right)
 *   ./pan -a -f   errors: 0, depth reached 9999 (pan's default -m10000)   (wrong)
 *
 * With -f the nested search goes down the claim's stutter moves at the deadlock without
 * ever closing a cycle (the stutter moves no process, so the fairness counter never
 * completes), to the depth bound, and reports no error (nor "max search depth too small").
 * Adding a process that loops exactly in the deadlock state (spin -a -DSTUTTER) makes the
 * stutter an ordinary cycle, and pan -a -f then finds the violation. The LTL differential
 * gives the peers that deadlock such a process (it adds no state: checked there). */
bool x;

active proctype A() {
loc0: if :: d_step { !x; x = true }; goto loc1 fi;
loc1: if :: d_step { !x }; goto loc0 fi
}

#ifdef STUTTER
active proctype Stutter() { do :: (A[0]@loc1 && x) od }
#endif

ltl F { <> [] (!x) }
