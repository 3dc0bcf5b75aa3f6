/* Twin of phils_host.bir (spin -a -DN=..): dining philosophers with a host whose guard lets
 * all N sit down (`seated <= N-1`, the seeded bug); one d_step per BIR transformation.
 * Expected: invalid end state (deadlock: everyone seated holding the left fork). */
#ifndef N
#define N 5
#endif
bool fork[N];
byte seated;
#define LEFT  (_pid)
#define RIGHT ((_pid + 1) % N)

active [N] proctype Phil() {
loc0: if :: d_step { seated <= N - 1; seated = seated + 1 }; goto loc1 fi;
loc1: if :: d_step { !fork[LEFT];  fork[LEFT]  = true  }; goto loc2 fi;
loc2: if :: d_step { !fork[RIGHT]; fork[RIGHT] = true  }; goto loc3 fi;
loc3: if :: d_step { fork[RIGHT] = false }; goto loc4 fi;
loc4: if :: d_step { fork[LEFT]  = false }; goto loc5 fi;
loc5: if :: d_step { seated = seated - 1 }; goto loc0 fi
}
