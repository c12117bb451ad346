package io.cfslab.web;

/**
 * CIE Lab (D65) of an sRGB colour and the CIEDE2000 distance between two (Sharma, Wu and Dalal 2005), as
 * frontend/test/palette.test.ts computes them: the browser tests hold the colours a page's charts actually use to it.
 */
final class Ciede2000 {
    private Ciede2000() {}

    /** The CIEDE2000 distance of two {@code #rrggbb} colours. */
    static double distance(String hex1, String hex2) {
        return deltaE(lab(hex1), lab(hex2));
    }

    static double[] lab(String hex) {
        int n = Integer.parseInt(hex.substring(1, 7), 16);
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = ((n >> (16 - 8 * i)) & 255) / 255.0;
            c[i] = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        double x = (0.4124564 * c[0] + 0.3575761 * c[1] + 0.1804375 * c[2]) / 0.95047;
        double y = 0.2126729 * c[0] + 0.7151522 * c[1] + 0.072175 * c[2];
        double z = (0.0193339 * c[0] + 0.119192 * c[1] + 0.9503041 * c[2]) / 1.08883;
        return new double[] {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : ((24389.0 / 27) * t + 16) / 116;
    }

    static double deltaE(double[] p, double[] q) {
        double rad = Math.PI / 180;
        double c1 = Math.hypot(p[1], p[2]);
        double c2 = Math.hypot(q[1], q[2]);
        double cb7 = Math.pow((c1 + c2) / 2, 7);
        double g = 0.5 * (1 - Math.sqrt(cb7 / (cb7 + Math.pow(25, 7))));
        double a1p = (1 + g) * p[1];
        double a2p = (1 + g) * q[1];
        double c1p = Math.hypot(a1p, p[2]);
        double c2p = Math.hypot(a2p, q[2]);
        double h1 = hue(p[2], a1p);
        double h2 = hue(q[2], a2p);
        double dh = 0;
        if (c1p * c2p != 0) {
            dh = h2 - h1;
            if (dh > 180) dh -= 360;
            else if (dh < -180) dh += 360;
        }
        double dL = q[0] - p[0];
        double dC = c2p - c1p;
        double dH = 2 * Math.sqrt(c1p * c2p) * Math.sin(dh * rad / 2);
        double lb = (p[0] + q[0]) / 2;
        double cbp = (c1p + c2p) / 2;
        double hb = h1 + h2;
        if (c1p * c2p != 0) hb = Math.abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2;
        double t = 1 - 0.17 * Math.cos((hb - 30) * rad) + 0.24 * Math.cos(2 * hb * rad) + 0.32 * Math.cos((3 * hb + 6) * rad)
                - 0.2 * Math.cos((4 * hb - 63) * rad);
        double dTheta = 30 * Math.exp(-Math.pow((hb - 275) / 25, 2));
        double cbp7 = Math.pow(cbp, 7);
        double rc = 2 * Math.sqrt(cbp7 / (cbp7 + Math.pow(25, 7)));
        double sl = 1 + 0.015 * Math.pow(lb - 50, 2) / Math.sqrt(20 + Math.pow(lb - 50, 2));
        double sc = 1 + 0.045 * cbp;
        double sh = 1 + 0.015 * cbp * t;
        double rt = -Math.sin(2 * dTheta * rad) * rc;
        return Math.sqrt(Math.pow(dL / sl, 2) + Math.pow(dC / sc, 2) + Math.pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh));
    }

    private static double hue(double b, double a) {
        return b == 0 && a == 0 ? 0 : (Math.toDegrees(Math.atan2(b, a)) + 360) % 360;
    }
}
