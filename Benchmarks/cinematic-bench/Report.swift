/// Medians, percentiles and readable durations for benchmark output.
enum Report {
    static func percentile(_ samples: [Duration], _ fraction: Double) -> Duration {
        let sorted = samples.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }

    static func median(_ samples: [Duration]) -> Duration { percentile(samples, 0.5) }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func format(_ duration: Duration) -> String {
        let micros = microseconds(duration)
        if micros >= 1_000_000 { return String(format: "%.2f s", micros / 1e6) }
        if micros >= 1_000 { return String(format: "%.2f ms", micros / 1e3) }
        return String(format: "%.1f µs", micros)
    }

    static func ratio(_ numerator: Duration, _ denominator: Duration) -> String {
        String(format: "%.2fx", microseconds(numerator) / microseconds(denominator))
    }
}
