package io.cfslab.scenario;

/**
 * One thing wrong with a scenario.
 *
 * @param path   JSON pointer (RFC 6901) of the offending value, e.g. {@code /cgroups/0/cpu.max}
 * @param reason what is wrong, in words a kernel developer would use
 * @param errno  the errno the kernel gives for the same write ({@code EINVAL}, {@code ERANGE}, {@code EBUSY},
 *               {@code ENOENT}), or null where no kernel write corresponds
 */
public record Problem(String path, String reason, String errno) {
    /** One line: {@code /cgroups/0/cpu.max: quota below 1000 us (EINVAL)}. */
    public String line() { return (path == null || path.isEmpty() ? "" : printable(path) + ": ") + printable(reason) + (errno == null ? "" : " (" + errno + ")"); }

    /** Control characters escaped, so that one problem is always one line. */
    private static String printable(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ScenarioText.isControl(ch)) b.append(String.format("\\u%04x", (int) ch)); else b.append(ch);
        }
        return b.toString();
    }
}
