package io.cfslab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

class HelpersTest {

    @ParameterizedTest
    @CsvSource({"100ms,100000000", "2.5s,2500000000", "0.2ms,200000", "7ns,7", "1500us,1500000", "0s,0", " 3s ,3000000000",
            "9223372036854775807ns,9223372036854775807"})
    void durations(String text, long ns) {
        assertEquals(ns, Durations.parseNs(text));
        assertEquals(ns, Durations.parseNs(Durations.format(ns)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "-5s", "5 parsecs", "NaN", "", "s", "1e3s", "0.5ns", "1.2.3s", "5sec"})
    void badDurations(String text) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Durations.parseNs(text));
        // a negative duration is out of range (ERANGE, as a too large one); the rest is no duration at all
        assertEquals(text.startsWith("-") ? "ERANGE" : null, e.errno());
    }

    @Test
    void durationNodes() {
        JsonMapper m = JsonMapper.builder().build();
        assertEquals(5, Durations.parseNs(m.readTree("5")));
        assertEquals(5_000_000_000L, Durations.parseNs(m.readTree("\"5s\"")));
        assertThrows(InvalidValueException.class, () -> Durations.parseNs(m.readTree("-1")));
        assertThrows(InvalidValueException.class, () -> Durations.parseNs(m.readTree("1.5")));
        assertThrows(InvalidValueException.class, () -> Durations.parseNs(m.readTree("true")));
        // beyond 2^63-1 ns, bare or with a unit: ERANGE, as every integer beyond its field's range
        assertEquals("ERANGE", assertThrows(InvalidValueException.class,
                () -> Durations.parseNs(m.readTree("99999999999999999999"))).errno());
        assertEquals("ERANGE", assertThrows(InvalidValueException.class,
                () -> Durations.parseNs("9223372036854775808ns")).errno());
        assertEquals("100ms", Durations.format(100_000_000));
    }

    @Test
    void cpuMaxKeepsPeriodAndAcceptsMax() {
        CpuMax cur = new CpuMax(10_000, 50_000);
        assertEquals(new CpuMax(20_000, 50_000), CgroupFiles.parseCpuMax("20000", cur));
        assertEquals(new CpuMax(CpuMax.MAX, 50_000), CgroupFiles.parseCpuMax("max\n", cur));
        assertEquals(new CpuMax(1000, 1000), CgroupFiles.parseCpuMax("1000 1000", cur));
        assertEquals(new CpuMax(CpuMax.MAX, 1_000_000), CgroupFiles.parseCpuMax("max 1000000", cur));
        assertEquals(new CpuMax(CgroupFiles.MAX_BW_US, 1_000_000), CgroupFiles.parseCpuMax(CgroupFiles.MAX_BW_US + " 1000000", cur));
        assertEquals("50000 100000", CgroupFiles.parseCpuMax("50000 100000", cur).toString());
        // as lenient as the kernel's sscanf("%20s %llu"): extra fields ignored, a non-numeric period keeps the
        // current one, the quota is the word's leading digits
        assertEquals(new CpuMax(1000, 100_000), CgroupFiles.parseCpuMax("1000 100000 5", cur));
        assertEquals(new CpuMax(10_000, 50_000), CgroupFiles.parseCpuMax("10000 abc", cur));
        assertEquals(new CpuMax(1000, 100_000), CgroupFiles.parseCpuMax("1000abc 100000", cur));
        assertEquals(new CpuMax(CpuMax.MAX, 50_000), CgroupFiles.parseCpuMax("max max", cur));
        // the kernel's vsscanf() takes a sign only for signed conversions, and only '-' (lib/vsprintf.c): "%llu" of
        // "+5000" converts nothing, so a quota "+5000" is EINVAL and a period "+100000" keeps the current one (a breaker
        // expected "+5000" to be taken: the kernel refuses it too)
        InvalidValueException plus = assertThrows(InvalidValueException.class, () -> CgroupFiles.parseCpuMax("+5000 100000", cur));
        assertEquals("EINVAL", plus.errno());
        assertEquals(new CpuMax(5000, 50_000), CgroupFiles.parseCpuMax("5000 +100000", cur));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0 100000|quota 0 us is below the 1000 us minimum",
            "1000 100|period 100 us is below the 1000 us minimum",
            "max 2000000|period 2000000 us exceeds the 1000000 us maximum",
            "abc|neither a number of us nor \"max\"",
            "''|empty cpu.max value",
            "999 100000|quota 999 us is below the 1000 us minimum",
            "17592186044416|quota 17592186044416 us exceeds the 17592186044415 us maximum",
            "99999999999999999999999 100000|exceeds the 17592186044415 us maximum",
            "-1 100000|neither a number",
            "max 0|period 0 us is below"})
    void cpuMaxEinval(String value, String reason) {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> CgroupFiles.parseCpuMax(value, CpuMax.DEFAULT));
        assertEquals("EINVAL", e.errno());
        assertTrue(e.reason().contains(reason), e.reason());
    }

    @Test
    void burstAgainstQuota() {
        CpuMax q = new CpuMax(10_000, 100_000);
        assertEquals(10_000, CgroupFiles.parseBurst("10000", q));
        assertEquals(0, CgroupFiles.parseBurst("0", q));
        assertEquals(5_000_000, CgroupFiles.parseBurst("5000000", CpuMax.DEFAULT)); // unlimited: not checked
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> CgroupFiles.parseBurst("10001", q));
        assertEquals(new Problem("/p", "burst 10001 us exceeds quota 10000 us", "EINVAL"), e.toProblem("/p"));
        CpuMax huge = new CpuMax(CgroupFiles.MAX_BW_US - 10, 1_000_000);
        e = assertThrows(InvalidValueException.class, () -> CgroupFiles.parseBurst("11", huge));
        assertTrue(e.reason().startsWith("burst + quota"), e.reason());
        assertEquals("ERANGE", assertThrows(InvalidValueException.class,
                () -> CgroupFiles.parseBurst("18446744073709551616", q)).errno());
        assertEquals("EINVAL", assertThrows(InvalidValueException.class, () -> CgroupFiles.parseBurst("1k", q)).errno());
        // cpu.max below the current burst is refused
        e = assertThrows(InvalidValueException.class, () -> CgroupFiles.parseCpuMax("2000 100000", q, 5000));
        assertEquals("burst 5000 us exceeds quota 2000 us", e.reason());
    }

    @Test
    void weight() {
        assertEquals(1, CgroupFiles.parseWeight("1"));
        assertEquals(10_000, CgroupFiles.parseWeight("10000"));
        assertEquals("ERANGE", assertThrows(InvalidValueException.class, () -> CgroupFiles.parseWeight("0")).errno());
        assertEquals("ERANGE", assertThrows(InvalidValueException.class, () -> CgroupFiles.parseWeight("10001")).errno());
        assertEquals("EINVAL", assertThrows(InvalidValueException.class, () -> CgroupFiles.parseWeight("-5")).errno());
        assertEquals("EINVAL", assertThrows(InvalidValueException.class, () -> CgroupFiles.parseWeight("")).errno());
    }

    @Test
    void writeToGroupAndRoot() {
        CgroupSpec a = CgroupFiles.newGroup("/a");
        a = CgroupFiles.write(a, "cpu.max", "10000 100000");
        a = CgroupFiles.write(a, "cpu.max.burst", "5000");
        a = CgroupFiles.write(a, "cpu.weight", "50");
        assertEquals(new CgroupSpec("/a", new CpuMax(10_000, 100_000), 5000, 50), a);
        CgroupSpec root = CgroupFiles.newGroup("/");
        for (String f : CgroupFiles.FILES) {
            InvalidValueException e = assertThrows(InvalidValueException.class, () -> CgroupFiles.write(root, f, "100"));
            assertEquals("ENOENT", e.errno());
            assertEquals("the root cgroup has no " + f + " (cgroup v2)", e.reason());
        }
        CgroupSpec fa = a;
        assertEquals("ENOENT", assertThrows(InvalidValueException.class, () -> CgroupFiles.write(fa, "cpu.shares", "2")).errno());
    }

    @Test
    void cpuLists() {
        BitSet s = CpuLists.parse("0-3,8", 16);
        assertEquals("0-3,8", CpuLists.format(s));
        assertEquals(5, s.cardinality());
        BitSet even = CpuLists.parse("0-15:2", 16);
        assertEquals(8, even.cardinality());
        assertTrue(even.get(14) && !even.get(15));
        assertEquals("1", CpuLists.format(CpuLists.parse(" 1 ", 2)));
        assertEquals("0-1", CpuLists.format(CpuLists.parse("1,0,1", 2)));
        for (String bad : List.of("", "3-1", "0-2", "a", "1,,2", "-1", "0-1:0", "2", "99999999999")) {
            InvalidValueException e = assertThrows(InvalidValueException.class, () -> CpuLists.parse(bad, 2), bad);
            assertEquals("EINVAL", e.errno());
        }
        assertThrows(InvalidValueException.class, () -> CpuLists.parse("1024"));
        assertEquals(1, CpuLists.parse("1023").cardinality());
    }
}
