import Testing

/// Polls `condition` until it holds, giving other tasks time to run, for at most `timeout`.
/// Records a test failure (and returns false) when the condition never holds: a bounded wait,
/// never a sleep-and-hope.
@discardableResult
public func waitUntil(
    _ comment: Comment? = nil,
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !(await condition()) {
        guard clock.now < deadline else {
            Issue.record("condition never held within \(timeout)\(comment.map { ": \($0)" } ?? "")",
                         sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
