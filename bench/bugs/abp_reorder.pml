/* Twin of abp_reorder.bir: the alternating bit protocol over a lossy channel that also
 * reorders (Lossy may hold one data message, hv != -1, and put it back later).
 * From peers/alternating_bit.pml, the twin of models/alternating_bit.bir
 * (spin -a -DMAX=.. -DK=..; MAX = 5, K = 3 is models/v3/big_abp.bir). Each d_step is one
 * transformation of bir's translation of the high-level bodies to steps (LANGUAGE.md: a
 * jump is not a step; a branch or a loop body that starts with a block is a step of its
 * own), so that pan counts bir's states and, plus one, its transitions. A thread's end is
 * a blocked statement at an end label: a valid end state with no step to leave it (pan
 * would count a process's exit as a step). */
#ifndef MAX
#define MAX 5
#endif
#ifndef K
#define K 3
#endif
/* -DFORGETFUL=1: the receiver delivers whatever arrives (bir: --set P.CHECK_BIT=false). */
#ifndef FORGETFUL
#define FORGETFUL 0
#endif
chan data = [K] of { bit, byte };
chan ack = [K] of { bit };
byte recvd;
bool done;

active proctype Sender() {
  bit sbit, a;
  byte next;
w:  if
    :: d_step { next < MAX }; goto c
    :: d_step { next >= MAX }; goto fin
    fi;
c:  if
    :: d_step { nfull(data); data!sbit,next }; goto w
    :: d_step { nempty(ack); ack?a }; goto i
    fi;
i:  if
    :: d_step { a == sbit; sbit = !sbit }; goto inc
    :: d_step { a != sbit }; goto w
    fi;
inc: if :: d_step { next = next + 1 }; goto w fi;
fin: if :: d_step { done = true } fi;
end_sender: false
}

active proctype Receiver() {
  bit rbit, b;
  byte v;
w:  if
    :: d_step { !done }; goto c
    :: d_step { done }; goto end_receiver
    fi;
c:  if
    :: d_step { nempty(data); data?b,v }; goto i
    :: d_step { done }; goto w
    fi;
i:  if
    :: d_step { b == rbit || FORGETFUL; assert(v == recvd) }; goto deliver
    :: d_step { !(b == rbit || FORGETFUL) }; goto acknowledge
    fi;
deliver: if :: d_step { recvd = recvd + 1 } fi;
flip: if :: d_step { rbit = !rbit } fi;
acknowledge:
    if
    :: d_step { nfull(ack); ack!b }; goto w
    :: d_step { full(ack) }; goto w
    fi;
end_receiver: false
}

active proctype Lossy() {
  bit hb;
  short hv = -1;
w:  if
    :: d_step { !done }; goto c
    :: d_step { done }; goto end_lossy
    fi;
c:  if
    :: d_step { nempty(data); data?_,_ }; goto w
    :: d_step { nempty(ack); ack?_ }; goto w
    :: d_step { nempty(data) && hv == -1; data?hb,hv }; goto w
    :: d_step { hv != -1 && nfull(data); data!hb,hv }; goto clear
    :: d_step { done }; goto w
    fi;
clear: if :: d_step { hv = -1 }; goto w fi;
end_lossy: false
}
