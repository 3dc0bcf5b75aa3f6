/* Twin of java_notify.bir (spin -a -DCAP=.. -DPRODUCERS=.. -DCONSUMERS=.., at most 12
 * processes): a Java monitor encoded by hand: owner (0 free, else pid + 1), a wait set and a
 * notified set, one d_step per monitor operation; notify() takes one waiting process out (one
 * alternative per process) or does nothing. The seeded bug: notify where notifyAll is
 * needed. Not bir's translation step for step: its own state count. Expected: invalid end
 * state (every process waits). */
#ifndef CAP
#define CAP 2
#endif
#ifndef PRODUCERS
#define PRODUCERS 3
#endif
#ifndef CONSUMERS
#define CONSUMERS 3
#endif
#define NPROC (PRODUCERS + CONSUMERS)
byte owner, count;
bool waiting[NPROC];
bool notified[NPROC];
#define NONE_WAITING (!(waiting[0] || waiting[1 % NPROC] || waiting[2 % NPROC] || waiting[3 % NPROC] \
    || waiting[4 % NPROC] || waiting[5 % NPROC] || waiting[6 % NPROC] || waiting[7 % NPROC] \
    || waiting[8 % NPROC] || waiting[9 % NPROC] || waiting[10 % NPROC] || waiting[11 % NPROC]))
#define WAKE(k) :: d_step { (k) < NPROC && waiting[k]; waiting[k] = 0; notified[k] = 1 }
#define NOTIFY if :: d_step { NONE_WAITING } WAKE(0) WAKE(1) WAKE(2) WAKE(3) WAKE(4) WAKE(5) \
    WAKE(6) WAKE(7) WAKE(8) WAKE(9) WAKE(10) WAKE(11) fi

active [PRODUCERS] proctype Producer() {
end_top: if :: d_step { owner == 0; owner = _pid + 1 } fi;
check:   if
         :: d_step { count == CAP; waiting[_pid] = 1; owner = 0 };
asleep:     if :: d_step { notified[_pid] && owner == 0; notified[_pid] = 0; owner = _pid + 1 } fi;
            goto check
         :: d_step { count < CAP; count = count + 1 }
         fi;
         NOTIFY;
         d_step { owner = 0 };
         goto end_top
}

active [CONSUMERS] proctype Consumer() {
end_top: if :: d_step { owner == 0; owner = _pid + 1 } fi;
check:   if
         :: d_step { count == 0; waiting[_pid] = 1; owner = 0 };
asleep:     if :: d_step { notified[_pid] && owner == 0; notified[_pid] = 0; owner = _pid + 1 } fi;
            goto check
         :: d_step { count > 0; count = count - 1 }
         fi;
         NOTIFY;
         d_step { owner = 0 };
         goto end_top
}
