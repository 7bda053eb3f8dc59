package dev.opcua.benchmarks.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws the {@code soak} CSV as a PNG with java.awt, headless (no chart library): three panels over the
 * run's minutes, memory (RSS and heap after GC, MiB, with the settle time and the RSS tolerance band),
 * threads / open files / sessions, and the load (operations and notifications per second). Also a command:
 * {@code SoakChart CSV PNG [SETTLE_S]}.
 */
final class SoakChart {

    static final int WIDTH = 1000;
    static final int HEIGHT = 780;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int GAP = 50;
    private static final int PANELS = 3;
    private static final Color GRID = new Color(225, 225, 225);
    private static final Color BAND = new Color(200, 235, 200);

    private SoakChart() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SoakChart CSV PNG [SETTLE_S (600)]");
            System.exit(2);
        }
        List<SoakSample> samples = SoakSample.read(Path.of(args[0]));
        render(samples, args.length > 2 ? Long.parseLong(args[2]) : 600, "soak", Path.of(args[1]));
    }

    /** Writes the chart of {@code samples} to {@code png}; {@code title} heads it. */
    static void render(List<SoakSample> samples, long settleS, String title, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples to draw");
        }
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, LEFT, 22);
            double minutes = Math.max(1.0 / 60, samples.get(samples.size() - 1).elapsedS() / 60.0);
            int panelHeight = (HEIGHT - TOP - GAP * PANELS) / PANELS;
            SoakVerdict verdict = SoakVerdict.judge(samples, settleS, 0);

            Panel memory = new Panel(g, TOP, panelHeight, minutes, "MiB", samples,
                    max(samples, s -> s.rssKib() / 1024.0) * 1.1);
            if (verdict.rssBaseKib() > 0) {
                memory.band(settleS / 60.0, minutes, verdict.rssBaseKib() / 1024.0 * (1 - SoakVerdict.TOLERANCE),
                        verdict.rssBaseKib() / 1024.0 * (1 + SoakVerdict.TOLERANCE));
            }
            memory.frame();
            memory.vertical(settleS / 60.0, "settle");
            memory.series(s -> s.rssKib() / 1024.0, new Color(31, 119, 180), "RSS", 0);
            memory.series(s -> s.heapKib() / 1024.0, new Color(255, 127, 14), "heap after GC", 1);

            Panel counts = new Panel(g, TOP + panelHeight + GAP, panelHeight, minutes, "count", samples,
                    Math.max(max(samples, SoakSample::threads), Math.max(max(samples, SoakSample::openFiles),
                            max(samples, SoakSample::sessions))) * 1.15 + 1);
            counts.frame();
            counts.series(SoakSample::threads, new Color(148, 103, 189), "threads", 0);
            counts.series(SoakSample::openFiles, new Color(44, 160, 44), "open files", 1);
            counts.series(SoakSample::sessions, new Color(214, 39, 40), "sessions", 2);

            Panel load = new Panel(g, TOP + 2 * (panelHeight + GAP), panelHeight, minutes, "per second", samples,
                    Math.max(max(samples, SoakSample::opsPerS), max(samples, SoakSample::notificationsPerS)) * 1.15 + 1);
            load.frame();
            load.series(SoakSample::opsPerS, new Color(31, 119, 180), "operations", 0);
            load.series(SoakSample::notificationsPerS, new Color(23, 190, 207), "notifications", 1);
            load.xLabel("minutes");
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    private static double max(List<SoakSample> samples, ToDoubleFunction<SoakSample> field) {
        return samples.stream().mapToDouble(field).max().orElse(1);
    }

    /** One panel: its box, y scale from 0 to {@code yMax}, x in minutes. */
    private static final class Panel {

        private final Graphics2D g;
        private final int top;
        private final int height;
        private final double minutes;
        private final String unit;
        private final List<SoakSample> samples;
        private final double yMax;
        private final int width = WIDTH - LEFT - RIGHT;

        Panel(Graphics2D g, int top, int height, double minutes, String unit, List<SoakSample> samples, double yMax) {
            this.g = g;
            this.top = top;
            this.height = height;
            this.minutes = minutes;
            this.unit = unit;
            this.samples = samples;
            this.yMax = yMax > 0 ? yMax : 1;
        }

        int x(double minute) {
            return LEFT + (int) Math.round(minute / minutes * width);
        }

        int y(double value) {
            return top + height - (int) Math.round(Math.max(0, value) / yMax * height);
        }

        void frame() {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            FontMetrics metrics = g.getFontMetrics();
            for (int i = 0; i <= 4; i++) {
                double value = yMax * i / 4;
                int y = y(value);
                g.setColor(GRID);
                g.drawLine(LEFT, y, LEFT + width, y);
                g.setColor(Color.DARK_GRAY);
                String label = String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
                g.drawString(label, LEFT - 6 - metrics.stringWidth(label), y + 4);
            }
            double step = niceStep(minutes);
            for (double m = 0; m <= minutes + 1e-9; m += step) {
                int x = x(m);
                g.setColor(GRID);
                g.drawLine(x, top, x, top + height);
                g.setColor(Color.DARK_GRAY);
                String label = String.format(Locale.ROOT, step < 1 ? "%.1f" : "%.0f", m);
                g.drawString(label, x - metrics.stringWidth(label) / 2, top + height + 14);
            }
            g.setColor(Color.BLACK);
            g.drawRect(LEFT, top, width, height);
            g.drawString(unit, 8, top + 10);
        }

        void band(double fromMinute, double toMinute, double low, double high) {
            g.setColor(BAND);
            int x0 = x(Math.min(fromMinute, minutes));
            g.fillRect(x0, y(high), x(toMinute) - x0, y(low) - y(high));
        }

        void vertical(double minute, String label) {
            if (minute > minutes) {
                return;
            }
            g.setColor(Color.GRAY);
            g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f},
                    0f));
            g.drawLine(x(minute), top, x(minute), top + height);
            g.setStroke(new BasicStroke(1f));
            g.drawString(label, x(minute) + 4, top + 12);
        }

        void series(ToDoubleFunction<SoakSample> field, Color color, String name, int legendSlot) {
            g.setColor(color);
            g.setStroke(new BasicStroke(1.8f));
            int px = -1;
            int py = -1;
            for (SoakSample sample : samples) {
                int x = x(sample.elapsedS() / 60.0);
                int y = y(field.applyAsDouble(sample));
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                } else {
                    g.fillRect(x - 1, y - 1, 3, 3);
                }
                px = x;
                py = y;
            }
            g.setStroke(new BasicStroke(1f));
            int lx = LEFT + 10 + legendSlot * 150;
            g.fillRect(lx, top - 13, 18, 4);
            g.setColor(Color.BLACK);
            g.drawString(name, lx + 24, top - 8);
        }

        void xLabel(String label) {
            g.setColor(Color.BLACK);
            g.drawString(label, LEFT + width / 2 - 20, top + height + 30);
        }

        private static double niceStep(double span) {
            for (double step : new double[] {0.5, 1, 2, 5, 10, 15, 30, 60}) {
                if (span / step <= 12) {
                    return step;
                }
            }
            return 120;
        }
    }
}
