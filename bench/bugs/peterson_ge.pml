/* Twin of peterson_ge.bir (spin -a -DN=.., N = 3..12): Peterson's filter lock where a process
 * may enter the critical section from level N-2 (the seeded `>=`). One d_step per BIR
 * transformation, as peers/peterson.pml. Expected: assertion violated (incs <= 1). */
#ifndef N
#define N 4
#endif
byte level[N];
byte victim[N];
byte incs;

#define I _pid
#define LT(k) ((k) == I || (k) >= N || level[k] < level[I])
#define ALLLOWER (LT(0) && LT(1) && LT(2) && LT(3) && LT(4) && LT(5) && LT(6) && LT(7) && LT(8) && LT(9) && LT(10) && LT(11))
#define C (ALLLOWER || victim[level[I]] != I)

active [N] proctype P() {
loc0: if :: d_step { level[I] = 1 }; goto loc1 fi;
loc1: if :: d_step { victim[level[I]] = I }; goto loc2 fi;
loc2: if :: d_step { level[I] <  N-1 && C; level[I] = level[I] + 1 }; goto loc1
         :: d_step { level[I] >= N-2 && C; incs = incs + 1; assert(incs <= 1) }; goto loc3
      fi;
loc3: if :: d_step { incs = incs - 1; level[I] = 0 }; goto loc0 fi
}
