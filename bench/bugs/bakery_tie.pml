/* Twin of bakery_tie.bir (spin -a -DN=.. -DMAXT=..): Lamport's bakery with bounded tickets
 * whose waiting condition has no tie-break on the process index (the seeded bug); one d_step
 * per BIR transformation. Expected: assertion violated (incs <= 1). */
#ifndef N
#define N 3
#endif
#ifndef MAXT
#define MAXT 3
#endif
bool choosing[N];
byte number[N];
byte incs;
#define I _pid

active [N] proctype P() {
  byte mx, j;
idle:     if :: d_step { choosing[I] = true }; goto scan fi;
scan:     if :: d_step { j < N; mx = (number[j] > mx -> number[j] : mx); j = j + 1 }; goto scan
             :: d_step { j == N && mx < MAXT; number[I] = mx + 1; choosing[I] = false; mx = 0; j = 0 }; goto waiting
             :: d_step { j == N && mx == MAXT; mx = 0; j = 0 }; goto scan
          fi;
waiting:  if :: d_step { j < N && (j == I || (!choosing[j] && (number[j] == 0 || number[j] >= number[I]))); j = j + 1 }; goto waiting
             :: d_step { j == N; j = 0; incs = incs + 1; assert(incs <= 1) }; goto critical
          fi;
critical: if :: d_step { incs = incs - 1; number[I] = 0 }; goto idle fi
}
