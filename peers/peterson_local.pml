/* Peterson's filter lock as BEEM writes it (peterson.dve), the twin of
 * models/peterson_local.bir (spin -DN=..): each transformation of the BIR model is one
 * d_step here, from the same location to the same location, so the state counts are equal
 * without reduction (pan -DNOREDUCE); with SPIN's partial-order reduction (the default),
 * they show what SPIN's static reduction keeps. */
#ifndef N
#define N 3
#endif
byte pos[N];
byte step[N];

#define I _pid

active [N] proctype P() {
  byte j = 0;
  byte k = 0;
idle:     if :: d_step { j = 1 }; goto wait fi;
wait:     if :: d_step { j < N; pos[I] = j }; goto q2
             :: d_step { j == N }; goto critical
          fi;
q2:       if :: d_step { step[j - 1] = I; k = 0 }; goto q3 fi;
q3:       if :: d_step { k < N && (k == I || pos[k] < j); k = k + 1 }; goto q3
             :: d_step { step[j - 1] != I || k == N; j = j + 1 }; goto wait
          fi;
critical: if :: d_step { pos[I] = 0 }; goto idle fi
}
