package io.github.flashstock.sale;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * Line charts over time as one SVG file a browser opens, drawn with JFreeChart onto JFreeSVG's canvas: the picture
 * beside the demo's and {@code bin/bench-order}'s text reports. Panels are laid out in a grid, left to right.
 */
public final class Charts {

    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 300;

    private Charts() {
    }

    /** One line: its name in the legend and its points. */
    public record Series(String name, double[] x, double[] y) {

        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException("series " + name + ": " + x.length + " x but " + y.length + " y");
            }
        }

        /** Points from parallel lists. */
        public static Series of(String name, List<Double> x, List<Double> y) {
            return new Series(name, x.stream().mapToDouble(Double::doubleValue).toArray(),
                    y.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    /** One chart: a title, axis labels and its lines. */
    public record Panel(String title, String xLabel, String yLabel, List<Series> series) {
    }

    /** Every panel, {@code columns} per row, as an SVG document. */
    public static String svg(String title, List<Panel> panels, int columns) {
        int rows = Math.max(1, (panels.size() + columns - 1) / columns);
        int header = 36;
        SVGGraphics2D g = new SVGGraphics2D(columns * PANEL_WIDTH, header + rows * PANEL_HEIGHT);
        // a tenth of a pixel is as fine as a screen shows
        g.setGeomDoubleConverter(v -> String.format(java.util.Locale.ROOT, "%.1f", v));
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, columns * PANEL_WIDTH, header + rows * PANEL_HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, 12, 24);
        for (int i = 0; i < panels.size(); i++) {
            int x = (i % columns) * PANEL_WIDTH;
            int y = header + (i / columns) * PANEL_HEIGHT;
            chart(panels.get(i)).draw(g, new Rectangle2D.Double(x, y, PANEL_WIDTH, PANEL_HEIGHT));
        }
        return g.getSVGDocument();
    }

    static JFreeChart chart(Panel panel) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Series s : panel.series()) {
            // equal names would merge into one line: keep each apart
            XYSeries line = new XYSeries(unique(s.name(), data), false, true);
            for (int i = 0; i < s.x().length; i++) {
                line.add(s.x()[i], s.y()[i]);
            }
            data.addSeries(line);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(panel.title(), panel.xLabel(), panel.yLabel(), data,
                PlotOrientation.VERTICAL, true, false, false);
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        // one SVG path per line instead of an element per segment: a tenth of the file's size
        renderer.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            renderer.setSeriesStroke(i, new BasicStroke(1.6f));
        }
        plot.setRenderer(renderer);
        return chart;
    }

    private static String unique(String name, XYSeriesCollection data) {
        String candidate = name;
        for (int n = 2; data.getSeriesIndex(candidate) >= 0; n++) {
            candidate = name + " (" + n + ")";
        }
        return candidate;
    }

    /**
     * Completions per second and the p99 latency of the requests completing in each second, from a run's completion
     * times and latencies (nanoseconds; completion times from the start of the run). Seconds without a completion
     * count 0 and repeat no latency. The last second is partial: its count is scaled to a full second when the run
     * lasted at least half of it, and left out of the rate otherwise (a few answers in a sliver of a second would
     * draw a false dip or spike).
     *
     * @return two series: [0] per second, [1] p99 in milliseconds
     */
    public static Series[] perSecond(String name, long[] doneAtNanos, long[] latencyNanos) {
        long end = Arrays.stream(doneAtNanos).max().orElse(0);
        int seconds = (int) (end / 1_000_000_000L) + 1;
        double lastPart = (end % 1_000_000_000L) / 1e9;
        List<List<Long>> buckets = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            buckets.add(new ArrayList<>());
        }
        for (int i = 0; i < doneAtNanos.length; i++) {
            buckets.get((int) (doneAtNanos[i] / 1_000_000_000L)).add(latencyNanos[i]);
        }
        List<Double> t = new ArrayList<>();
        List<Double> rate = new ArrayList<>();
        List<Double> pt = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            List<Long> bucket = buckets.get(s);
            if (s < seconds - 1) {
                t.add((double) s);
                rate.add((double) bucket.size());
            } else if (lastPart >= 0.5) {
                t.add((double) s);
                rate.add(bucket.size() / lastPart);
            }
            if (!bucket.isEmpty()) {
                long[] sorted = bucket.stream().mapToLong(Long::longValue).sorted().toArray();
                pt.add((double) s);
                p99.add(sorted[Math.max(0, (int) Math.ceil(0.99 * sorted.length) - 1)] / 1e6);
            }
        }
        return new Series[] {Series.of(name, t, rate), Series.of(name, pt, p99)};
    }
}
