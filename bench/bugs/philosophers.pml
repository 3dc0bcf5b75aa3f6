/* Twin of philosophers.bir (peers/phils.pml): dining philosophers, N philosophers (spin -DN=.. ; add -DASYM for the deadlock-free variant).
 * BIR: boolean fork[N];  active [N] thread Phil(int index):
 *   loc0: when !fork[F] do fork[F]:=true goto loc1;   (F = first fork)
 *   loc1: when !fork[S] do fork[S]:=true goto loc2;   (S = second fork)
 *   loc2: do fork[S]:=false goto loc3;
 *   loc3: do fork[F]:=false goto loc0;
 * Symmetric: F = index (left), S = (index+1)%N (right)  -> deadlock (all hold their left fork).
 * ASYM: philosopher N-1 takes right first (F=(index+1)%N, S=index) -> deadlock-free. */
#ifndef N
#define N 4
#endif
bool fork[N];
#define LEFT  (_pid)
#define RIGHT ((_pid + 1) % N)
#ifdef ASYM
#define FIRST  (_pid == N-1 -> RIGHT : LEFT)
#define SECOND (_pid == N-1 -> LEFT : RIGHT)
#else
#define FIRST  LEFT
#define SECOND RIGHT
#endif

active [N] proctype Phil() {
loc0: if :: d_step { !fork[FIRST];  fork[FIRST]  = true  }; goto loc1 fi;
loc1: if :: d_step { !fork[SECOND]; fork[SECOND] = true  }; goto loc2 fi;
loc2: if :: d_step { fork[SECOND] = false }; goto loc3 fi;
loc3: if :: d_step { fork[FIRST]  = false }; goto loc0 fi
}
