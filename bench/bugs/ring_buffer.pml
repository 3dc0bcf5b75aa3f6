/* Twin of ring_buffer.bir (spin -a -DCAP=.. -DPRODUCERS=.. -DCONSUMERS=..): a ring buffer
 * under one lock whose producers do not check that it is full (the seeded missing guard);
 * one d_step per BIR transformation. Expected: assertion violated (count <= CAP). */
#ifndef CAP
#define CAP 3
#endif
#ifndef PRODUCERS
#define PRODUCERS 2
#endif
#ifndef CONSUMERS
#define CONSUMERS 2
#endif
byte buf[CAP];
byte head, tail, count, next, expected;
bool locked;

active [CONSUMERS] proctype Consumer() {
idle:    if :: d_step { !locked; locked = true }; goto get fi;
get:     if :: d_step { count == 0; locked = false }; goto idle
            :: d_step { count > 0; assert(buf[head] == expected); expected = (expected + 1) % (CAP + 1);
                        head = (head + 1) % CAP; count = count - 1 }; goto release
         fi;
release: if :: d_step { locked = false }; goto idle fi
}

active [PRODUCERS] proctype Producer() {
idle:    if :: d_step { !locked; locked = true }; goto put fi;
put:     if :: d_step { buf[tail] = next; next = (next + 1) % (CAP + 1); tail = (tail + 1) % CAP;
                        count = count + 1; assert(count <= CAP) }; goto release fi;
release: if :: d_step { locked = false }; goto idle fi
}
