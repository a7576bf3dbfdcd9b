package dev.fairbench.orchestrator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcFsTest {
  @Test
  void cpuTicksAreCountedAfterTheCommandNameEvenWithSpacesAndParentheses() {
    String stat = "4242 (my (odd) server) S 1 4242 4242 0 -1 4194560 1000 0 0 0 150 50 7 3 20 0 12 0 100 0 0";

    assertThat(ProcFs.parseCpuTicks(stat, false)).isEqualTo(200);
    assertThat(ProcFs.parseCpuTicks(stat, true)).isEqualTo(210);
  }

  @Test
  void listeningSocketsOnThePortAreFoundInProcNetTcp() {
    List<String> lines = List.of(
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 11111 1 0",
        "   1: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 22222 1 0",
        "   2: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 33333 1 0");

    assertThat(ProcFs.parseListeningInodes(lines, 8080)).containsExactly("11111");
  }

  @Test
  void listeningAddressesAreReadInTheKernelsByteOrder() throws Exception {
    List<String> tcp = List.of(
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 11111 1 0",
        "   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 22222 1 0",
        "   2: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 33333 1 0",
        "   3: 0501A8C0:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 44444 1 0");
    List<String> tcp6 = List.of(
        "  sl  local_address                         remote_address                        st tx_queue rx_queue",
        "   0: 0000000000000000FFFF00000100007F:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000",
        "   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000",
        "   2: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000");

    assertThat(ProcFs.parseListeningAddresses(tcp, 8080)).extracting(java.net.InetAddress::getHostAddress)
        .containsExactly("127.0.0.1", "0.0.0.0");
    assertThat(ProcFs.parseListeningAddresses(tcp, 8081)).extracting(java.net.InetAddress::getHostAddress)
        .containsExactly("192.168.1.5");
    assertThat(ProcFs.parseListeningAddresses(tcp6, 8080)).extracting(java.net.InetAddress::getHostAddress)
        .containsExactly("127.0.0.1", "0:0:0:0:0:0:0:0", "0:0:0:0:0:0:0:1");
  }

  @Test
  void theProcessesHoldingAListeningSocketAreFoundAmongAllOfThisMachine() throws Exception {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      java.util.Set<String> inodes = ProcFs.listeningInodes(socket.getLocalPort());

      assertThat(inodes).isNotEmpty();
      assertThat(ProcFs.socketHolders(inodes)).containsExactly(ProcessHandle.current().pid());
    }
  }

  @Test
  void theCpusAProcessMayRunOnAreThoseOfItsThreads() {
    java.util.BitSet allowed = ProcFs.cpusAllowed(ProcessHandle.current().pid());

    assertThat(allowed.cardinality()).isBetween(1, Runtime.getRuntime().availableProcessors());
    assertThat(ProcFs.cpusAllowed(Long.MAX_VALUE).isEmpty()).as("a process that is gone allows none").isTrue();
  }

  @Test
  void thisProcessHasCpuTime() {
    long pid = ProcessHandle.current().pid();

    assertThat(ProcFs.processTicks(java.util.Set.of(pid))).containsKey(pid);
    assertThat(ProcFs.threadTicks(java.util.Set.of(pid)).keySet()).anyMatch(k -> k.startsWith(pid + "/"));
    assertThat(ProcFs.statusKib(pid, "VmHWM")).isPositive();
  }
}
