package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** netperf UDP_RR's own mechanics on an {@link IdealMachine}: request, wake, response, wake; the period by hand. */
class NetperfUdpRrTest {
    /** send 4,000 ns, receive 1,500 ns, user 1,000 ns, wake-up 800 ns, copy 1 KiB per µs. */
    static final IpcCosts COSTS = new IpcCosts(100, 100, 100, 100, 1000, 800, 10, 4000, 1500, 1000);

    @Test
    void eachTransactionIsTwoSendsTwoReceivesTwoWakeUps() {
        IdealMachine m = new IdealMachine();
        NetperfUdpRr pair = new NetperfUdpRr(1024, 1024, COSTS, 0);
        m.add(pair);
        m.start(); // client (task 0) sends first; the server finds nothing and blocks
        assertThat(m.blocked(1)).isTrue();
        m.run(1_000_000_000L);
        // by hand, with 1 KiB each way (1,000 ns of copy on each side):
        //   client send 5,000 (+800 once the server waits), server receive 2,500, user 1,000, send 5,000 + 800,
        //   client receive 2,500, user 1,000: a steady transaction takes 5,800 + 2,500 + 1,000 + 5,800 + 2,500 + 1,000
        long period = 5_800 + 2_500 + 1_000 + 5_800 + 2_500 + 1_000;
        // the first request is sent before the server is waiting: no wake-up cost in its send stretch
        long first = 5_000 + 2_500 + 1_000 + 5_800 + 2_500;
        long expected = 1 + (1_000_000_000L - first) / period;
        assertThat(pair.transactions()).isEqualTo(expected);
        // every wake-up is of a blocked peer, alternately the server and the client
        assertThat(m.wakes).hasSizeGreaterThanOrEqualTo((int) (2 * expected - 1));
        for (int i = 0; i < m.wakes.size(); i++) assertThat(m.wakes.get(i)[1]).isEqualTo(i % 2 == 0 ? 1 : 0);
        assertThat(m.wakes.get(0)[0]).as("the first request arrives when its send ends").isEqualTo(5_000);
    }

    @Test
    void theServerOnlyAnswersRequests() {
        IdealMachine m = new IdealMachine();
        NetperfUdpRr pair = new NetperfUdpRr(1, 1, COSTS, 0);
        m.add(pair);
        m.start(1); // the server alone: it blocks and never runs again
        m.run(Long.MAX_VALUE);
        assertThat(m.blocked(1)).isTrue();
        assertThat(pair.transactions()).isZero();
        assertThat(m.wakes).isEmpty();
    }
}
