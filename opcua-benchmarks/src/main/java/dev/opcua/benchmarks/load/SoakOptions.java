package dev.opcua.benchmarks.load;

/**
 * The {@code soak} scenario's own options ({@code --duration} is its length, {@code --warmup} the warm-up
 * of its capacity measurement, {@code --sessions} its worker sessions).
 *
 * @param rate operations per second of the mix; 0 measures the capacity first and takes 80 % of it
 *        ({@code --rate})
 * @param settleS seconds after which RSS is judged ({@code --settle}, 600: minute 10)
 * @param sampleS seconds between samples ({@code --sample}, 10)
 * @param report directory of {@code soak.csv} and {@code soak.png} ({@code --report}, {@value #DEFAULT_REPORT})
 */
record SoakOptions(double rate, int settleS, int sampleS, String report) {

    static final String DEFAULT_REPORT = "soak-report";
    static final SoakOptions DEFAULT = new SoakOptions(0, 600, 10, DEFAULT_REPORT);

    SoakOptions {
        if (rate < 0 || Double.isNaN(rate)) {
            throw new IllegalArgumentException("--rate must be 0 (80 % of the measured capacity) or positive, was "
                    + rate);
        }
        if (settleS < 0) {
            throw new IllegalArgumentException("--settle must be at least 0, was " + settleS);
        }
        if (sampleS < 1) {
            throw new IllegalArgumentException("--sample must be at least 1, was " + sampleS);
        }
    }

    SoakOptions withRate(double value) {
        return new SoakOptions(value, settleS, sampleS, report);
    }

    SoakOptions withSettle(int value) {
        return new SoakOptions(rate, value, sampleS, report);
    }

    SoakOptions withSample(int value) {
        return new SoakOptions(rate, settleS, value, report);
    }

    SoakOptions withReport(String value) {
        return new SoakOptions(rate, settleS, sampleS, value);
    }
}
