/* Twin of rw_limit.bir (spin -a -DREADERS=.. -DLIMIT=.. -DWRITERS=..): readers and writers
 * with a reading room of LIMIT places whose guard lets LIMIT + 1 readers in (the seeded
 * `<=`); one d_step per BIR transformation. Expected: assertion violated (nr <= LIMIT). */
#ifndef READERS
#define READERS 4
#endif
#ifndef LIMIT
#define LIMIT 3
#endif
#ifndef WRITERS
#define WRITERS 1
#endif
byte nr, nw;

active [WRITERS] proctype Writer() {
idle:    if :: d_step { nr == 0 && nw == 0; nw = nw + 1 }; goto writing fi;
writing: if :: d_step { skip }; goto leaving fi;
leaving: if :: d_step { nw = nw - 1 }; goto idle fi
}

active [READERS] proctype Reader() {
idle:    if :: d_step { nw == 0 && nr <= LIMIT; nr = nr + 1; assert(nr <= LIMIT) }; goto reading fi;
reading: if :: d_step { skip }; goto leaving fi;
leaving: if :: d_step { nr = nr - 1 }; goto idle fi
}
