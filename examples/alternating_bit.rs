//! The alternating bit protocol over lossy buffered channels (LANGUAGE.md, version 3): a
//! sender retransmits each message, tagged with a bit, until it sees its acknowledgement; a
//! lossy medium may drop any message in either direction; the receiver delivers each
//! message once, in order, and asserts so. bir verifies it, and finds the bug of a receiver
//! that forgets to check the bit: a retransmission delivered twice.
//!
//! `cargo run --release --example alternating_bit`

use bir::bir;

bir! {
    system AlternatingBit {
        const P { MAX = 5; }
        channel (boolean, int (0, 4)) buffer 3 data;
        channel (boolean) buffer 3 ack;
        int (0, 5) recvd;
        boolean done;

        active thread Sender() {
            boolean sbit;
            boolean a;
            int (0, 5) next;
            while next < P.MAX do
                choose
                    when !full(data) do data!(sbit, next);
                    when !empty(ack) do
                        ack?(a);
                        if a == sbit do sbit := !sbit; next := next + 1; end
                end
            end
            done := true;
        }

        active thread Receiver() {
            boolean rbit;
            boolean b;
            int (0, 4) v;
            while !done do
                choose
                    when !empty(data) do
                        data?(b, v);
                        if b == rbit do
                            assert(v == recvd);
                            recvd := recvd + 1;
                            rbit := !rbit;
                        end
                        choose when !full(ack) do ack!(b); else do skip; end
                    when done do skip;
                end
            end
        }

        active thread Lossy() {
            while !done do
                choose
                    when !empty(data) do data?(_, _);
                    when !empty(ack) do ack?(_);
                    when done do skip;
                end
            end
        }
    }
}

bir! {
    /// The receiver delivers whatever arrives, without looking at the bit.
    system ForgetfulReceiver {
        channel (boolean, int (0, 2)) buffer 2 data;
        channel (boolean) buffer 2 ack;
        int (0, 2) recvd;
        boolean done;

        active thread Sender() {
            boolean sbit;
            boolean a;
            int (0, 2) next;
            while next < 2 do
                choose
                    when !full(data) do data!(sbit, next);
                    when !empty(ack) do
                        ack?(a);
                        if a == sbit do sbit := !sbit; next := next + 1; end
                end
            end
            done := true;
        }

        active thread Receiver() {
            boolean b;
            int (0, 2) v;
            while !done do
                choose
                    when !empty(data) do
                        data?(b, v);
                        assert(v == recvd);
                        recvd := recvd + 1;
                        choose when !full(ack) do ack!(b); else do skip; end
                    when done do skip;
                end
            end
        }
    }
}

fn main() {
    println!("{}", AlternatingBit::checker().run());
    println!("{}", ForgetfulReceiver::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivers_every_message_once_and_in_order() {
        // models/v3/README.md: big_abp, 10,634 states and 35,838 transitions.
        let report = AlternatingBit::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (10_634, 35_838));
    }

    #[test]
    fn a_receiver_that_ignores_the_bit_delivers_a_retransmission_twice() {
        let report = ForgetfulReceiver::checker().bfs().run();
        let found = report.assert_assertion_failure();
        assert!(found.message().contains("v == recvd"), "{report}");
        // The shortest trace: message 0 sent twice, delivered twice (12 steps, the loops'
        // entries among them).
        assert_eq!(found.len(), 12, "{report}");
    }
}
