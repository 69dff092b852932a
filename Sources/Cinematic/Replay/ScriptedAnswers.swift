import CinematicDomain
import Synchronization

/// Answers a replay's requests from a recording. The replayed stores make their requests
/// themselves; each is matched to the earliest recorded request with the same content not yet
/// matched, and gets that request's recorded answer when the replay reaches the answer's line
/// (at once if it already has). A request not learned yet waits until the recording's reader
/// learns it (the replay may make a request a little before its line); one the recording
/// never made fails with `network` when the reader reaches the end (``finish()``).
final class ScriptedAnswers<Request: Equatable & Sendable, Answer: Sendable>: Sendable {
    private struct Book {
        /// Recorded requests not yet matched, in recording order.
        var unmatched: [(id: UInt64, request: Request)] = []
        /// Matched requests waiting for their answer.
        var waiting: [UInt64: CheckedContinuation<Result<Answer, MovieError>, Never>] = [:]
        /// Answers whose line was reached before the replay made the request.
        var released: [UInt64: Result<Answer, MovieError>] = [:]
        /// Recorded requests by id (to decode their answers), until answered.
        var requests: [UInt64: Request] = [:]
        /// Replayed requests made before the recorded one was learned, by a key per call.
        var early: [UInt64: (request: Request, ticket: Ticket, continuation: CheckedContinuation<Result<Answer, MovieError>, Never>)] = [:]
        var lastKey: UInt64 = 0
        /// Set by ``finish()``: no more requests will be learned.
        var finished = false
    }

    private let book = Mutex(Book())

    /// Learns a recorded request (matching a replayed one that waits for it, if any).
    func recorded(_ request: Request, id: UInt64) {
        book.withLock { book in
            book.requests[id] = request
            if let key = book.early.keys.sorted().first(where: { book.early[$0]?.request == request }),
               let early = book.early.removeValue(forKey: key) {
                book.waiting[id] = early.continuation
                early.ticket.matched.withLock { $0 = id }
            } else {
                book.unmatched.append((id, request))
            }
        }
    }

    /// The whole recording was read: replayed requests still waiting for a recorded one fail.
    func finish() {
        let waiting = book.withLock { book in
            book.finished = true
            defer { book.early = [:] }
            return Array(book.early.values)
        }
        for early in waiting { early.continuation.resume(returning: .failure(.network("the recording has no such request"))) }
    }

    /// The replay is over: every replayed request still waiting fails, and later ones fail at
    /// once, so no effect stays suspended (and holds its task) after the replay returns.
    func close() {
        let continuations = book.withLock { book in
            book.finished = true
            book.unmatched = []
            defer { book.early = [:]; book.waiting = [:] }
            return book.early.values.map(\.continuation) + book.waiting.values
        }
        for continuation in continuations { continuation.resume(returning: .failure(.network("the replay has ended"))) }
    }

    /// The recorded request with `id`.
    func request(_ id: UInt64) -> Request? { book.withLock { $0.requests[id] } }

    /// The replay reached the answer to recorded request `id`.
    func answer(_ id: UInt64, with answer: Result<Answer, MovieError>) {
        let continuation = book.withLock { book -> CheckedContinuation<Result<Answer, MovieError>, Never>? in
            book.requests[id] = nil
            if let continuation = book.waiting.removeValue(forKey: id) { return continuation }
            if book.unmatched.contains(where: { $0.id == id }) { book.released[id] = answer }
            return nil
        }
        continuation?.resume(returning: answer)
    }

    /// A replayed store's request: waits for the matching recorded answer.
    func perform(_ request: Request) async -> Result<Answer, MovieError> {
        let ticket = Ticket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, MovieError>, Never>) in
                let ready = book.withLock { book -> Result<Answer, MovieError>? in
                    // Cancelled before this body ran: the handler found nothing to resume
                    // (the flag is set before the handler runs, and both hold the book's lock).
                    if Task.isCancelled { return .failure(.network("cancelled")) }
                    guard let index = book.unmatched.firstIndex(where: { $0.request == request }) else {
                        guard !book.finished else { return .failure(.network("the recording has no such request")) }
                        book.lastKey += 1
                        book.early[book.lastKey] = (request, ticket, continuation)
                        ticket.early.withLock { $0 = book.lastKey }
                        return nil
                    }
                    let matched = book.unmatched.remove(at: index).id
                    if let answer = book.released.removeValue(forKey: matched) { return answer }
                    book.waiting[matched] = continuation
                    ticket.matched.withLock { $0 = matched }
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let continuation = book.withLock { book in
                ticket.matched.withLock { $0 }.flatMap { book.waiting.removeValue(forKey: $0) }
                    ?? ticket.early.withLock { $0 }.flatMap { book.early.removeValue(forKey: $0)?.continuation }
            }
            continuation?.resume(returning: .failure(.network("cancelled")))
        }
    }
}

/// What a replayed request was matched to (set under the book's lock), for its cancellation.
private final class Ticket: Sendable {
    /// The recorded request's id, once matched.
    let matched = Mutex<UInt64?>(nil)
    /// Its key among the early requests while it waits for the recorded one.
    let early = Mutex<UInt64?>(nil)
}
