import CinematicDomain
import Synchronization

/// Answers a replay's requests from a recording. The replayed stores make their requests
/// themselves; each is matched to the earliest recorded request with the same content not yet
/// matched, and gets that request's recorded answer when the replay reaches the answer's line
/// (at once if it already has). A request the recording never made fails with `network`.
final class ScriptedAnswers<Request: Equatable & Sendable, Answer: Sendable>: Sendable {
    private struct Book {
        /// Recorded requests not yet matched, in recording order.
        var unmatched: [(id: UInt64, request: Request)] = []
        /// Matched requests waiting for their answer.
        var waiting: [UInt64: CheckedContinuation<Result<Answer, MovieError>, Never>] = [:]
        /// Answers whose line was reached before the replay made the request.
        var released: [UInt64: Result<Answer, MovieError>] = [:]
        /// Recorded requests by id (to decode their answers).
        var requests: [UInt64: Request] = [:]
    }

    private let book = Mutex(Book())

    /// Learns a recorded request.
    func recorded(_ request: Request, id: UInt64) {
        book.withLock { book in
            book.unmatched.append((id, request))
            book.requests[id] = request
        }
    }

    /// The recorded request with `id`.
    func request(_ id: UInt64) -> Request? { book.withLock { $0.requests[id] } }

    /// The replay reached the answer to recorded request `id`.
    func answer(_ id: UInt64, with answer: Result<Answer, MovieError>) {
        let continuation = book.withLock { book -> CheckedContinuation<Result<Answer, MovieError>, Never>? in
            if let continuation = book.waiting.removeValue(forKey: id) { return continuation }
            if book.unmatched.contains(where: { $0.id == id }) { book.released[id] = answer }
            return nil
        }
        continuation?.resume(returning: answer)
    }

    /// A replayed store's request: waits for the matching recorded answer.
    func perform(_ request: Request) async -> Result<Answer, MovieError> {
        let id = Mutex<UInt64?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, MovieError>, Never>) in
                let ready = book.withLock { book -> Result<Answer, MovieError>? in
                    guard let index = book.unmatched.firstIndex(where: { $0.request == request }) else {
                        return .failure(.network("the recording has no such request"))
                    }
                    let matched = book.unmatched.remove(at: index).id
                    if let answer = book.released.removeValue(forKey: matched) { return answer }
                    book.waiting[matched] = continuation
                    id.withLock { $0 = matched }
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let continuation = book.withLock { book in id.withLock { $0 }.flatMap { book.waiting.removeValue(forKey: $0) } }
            continuation?.resume(returning: .failure(.network("cancelled")))
        }
    }
}
