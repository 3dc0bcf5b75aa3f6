/* Twin of counter_race.bir (spin -a -DN=.. -DK=..): N workers increment a shared counter K
 * times each, non-atomically (read, then write the read value plus one); a checker asserts
 * x == N*K once all are done. One d_step per BIR transformation; a finished process stands
 * at an end label (a valid end state). Expected: assertion violated (a lost update). */
#ifndef N
#define N 3
#endif
#ifndef K
#define K 2
#endif
byte x, finished;

active [N] proctype Worker() {
  byte i, tmp;
read:  if :: d_step { i < K; tmp = x }; goto write
          :: d_step { i == K; finished = finished + 1 }; goto end_done
       fi;
write: if :: d_step { x = tmp + 1; tmp = 0; i = i + 1 }; goto read fi;
end_done: false
}

active proctype Checker() {
waiting: if :: d_step { finished == N; assert(x == N * K) }; goto end_checked fi;
end_checked: false
}
