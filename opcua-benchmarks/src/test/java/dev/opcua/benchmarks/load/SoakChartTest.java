package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak chart: a PNG drawn from the CSV's rows, the RSS series where its values put it. */
class SoakChartTest {

    private static final int RSS_BLUE = 0x1F77B4;

    @Test
    void the_chart_of_a_csv_is_a_png_with_the_rss_line_in_the_memory_panel(@TempDir Path dir) throws Exception {
        List<SoakSample> samples = new ArrayList<>();
        for (int i = 0; i <= 36; i++) { // 6 minutes, RSS flat at 200 MiB, heap 16 MiB
            samples.add(new SoakSample(i * 10L, 200 * 1024, 16 * 1024, 30, 35, 13, 13, 13, 500, 80, 0, i));
        }
        Path csv = dir.resolve("soak.csv");
        List<String> lines = new ArrayList<>(List.of(SoakSample.HEADER));
        samples.forEach(s -> lines.add(s.csv()));
        Files.write(csv, lines);
        Path png = dir.resolve("soak.png");

        SoakChart.main(new String[] {csv.toString(), png.toString(), "120"});

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(SoakChart.WIDTH);
        assertThat(image.getHeight()).isEqualTo(SoakChart.HEIGHT);
        assertThat(Files.size(png)).isLessThan(200_000);
        // the memory panel's scale is 0 to 1.1 x the largest RSS: a flat RSS is a horizontal line at 1/1.1 of
        // its height, so the middle column holds the RSS colour in that panel's upper tenth
        int x = SoakChart.WIDTH / 2;
        boolean found = false;
        for (int y = 40; y < 40 + 120 && !found; y++) {
            found = (image.getRGB(x, y) & 0xFFFFFF) == RSS_BLUE;
        }
        assertThat(found).as("the RSS line near the top of the memory panel").isTrue();
    }

    @Test
    void a_csv_with_another_header_is_refused_by_name(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("other.csv");
        Files.writeString(csv, "a,b\n1,2\n");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SoakSample.read(csv))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a soak CSV");
    }
}
