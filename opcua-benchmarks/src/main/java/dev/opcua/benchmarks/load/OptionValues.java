package dev.opcua.benchmarks.load;

/** The value checks the harness's option parsers share: a parse error or a bound names the option. */
final class OptionValues {

    private OptionValues() {
    }

    static void atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
        }
    }

    static double number(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a number, was '" + value + "'", e);
        }
    }

    static int integer(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs an integer, was '" + value + "'", e);
        }
    }
}
