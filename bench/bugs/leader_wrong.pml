/* Twin of leader_wrong.bir: the ring election with the kind-2 comparison reversed (the
 * seeded bug) and the winner's assertion that no node has a larger number. From
 * peers/leader_election.pml, the twin of models/leader_election.bir (spin -a -DN=..
 * -DK=..; nodes numbered (i * 11) % 29). Each d_step is one transformation of bir's
 * translation of the high-level body to steps (LANGUAGE.md: a jump is not a step; a
 * `choose` branch that starts with `atomic` is a step of its own; a loop's exit is a step),
 * so that pan counts bir's states and, plus one, its transitions. A node's end is a blocked
 * statement at an end label: a valid end state with no step to leave it (pan would count a
 * process's exit as a step). Each ring channel has one sender and one receiver: -DXRXS
 * declares it (xr/xs, through a local channel variable per end, which widens the state
 * vector) for SPIN's partial-order reduction; bir finds it without being told. */
#ifndef N
#define N 4
#endif
#ifndef K
#define K 2
#endif
#define ID ((_pid * 11) % 29)
#define LE(k, x) ((k) >= N || ((k) * 11) % 29 <= (x))
#define MAXIMAL(x) (LE(0, x) && LE(1, x) && LE(2, x) && LE(3, x) && LE(4, x) && LE(5, x) && LE(6, x) \
    && LE(7, x) && LE(8, x) && LE(9, x) && LE(10, x) && LE(11, x) && LE(12, x) && LE(13, x) \
    && LE(14, x) && LE(15, x) && LE(16, x) && LE(17, x) && LE(18, x) && LE(19, x))
#ifndef XRXS
#define inbox ring[_pid]
#define outbox ring[(_pid + 1) % N]
#endif
chan ring[N] = [K] of { byte, byte };
byte leaders;

active [N] proctype Node() {
  byte max, neigh, kind, number;
  bit passive, know, done;
#ifdef XRXS
  chan inbox = ring[_pid];
  chan outbox = ring[(_pid + 1) % N];
  xr inbox;
  xs outbox;
#endif
start: if :: d_step { nfull(outbox); outbox!1,ID; max = ID }; goto w fi;
w:  if
    :: d_step { !done && nempty(inbox); inbox?kind,number }; goto c
    :: d_step { done }; goto end_node
    fi;
c:  if
    :: d_step { kind == 1 && !passive && number != max }; goto second
    :: d_step { kind == 1 && !passive && number == max }; goto won
    :: d_step { kind == 1 && passive && nfull(outbox); outbox!1,number }; goto w
    :: d_step { kind == 2 && !passive && neigh < number && neigh < max }; goto lead
    :: d_step { kind == 2 && !passive && !(neigh < number && neigh < max); passive = 1 }; goto w
    :: d_step { kind == 2 && passive && nfull(outbox); outbox!2,number }; goto w
    :: d_step { kind == 0 }; goto announced
    fi;
second: if :: d_step { nfull(outbox); outbox!2,number; neigh = number }; goto w fi;
won:    if :: d_step { nfull(outbox); outbox!0,number; know = 1; assert(MAXIMAL(number)) }; goto w fi;
lead:   if :: d_step { nfull(outbox); outbox!1,neigh; max = neigh }; goto w fi;
announced:
    if
    :: d_step { number == ID; leaders++ }; goto pass
    :: d_step { number != ID }; goto pass
    fi;
pass:
    if
    :: d_step { !know && nfull(outbox); outbox!0,number }; goto stop
    :: d_step { know }; goto stop
    fi;
stop: if :: d_step { done = 1 }; goto w fi;
end_node: false
}
