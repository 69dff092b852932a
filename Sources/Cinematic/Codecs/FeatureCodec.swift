import CJansson
import MVIKit

/// Translates one feature's intents and states to and from JSON.
protocol FeatureCodec: Sendable {
    associatedtype Reducer: MVIKit.Reducer

    /// Decodes a host intent. Effect-result intents are internal: a host sending one gets
    /// `invalid`.
    func decodeIntent(_ intent: IntentReader) throws(APIError) -> Reducer.Intent

    /// Encodes a state. Codecs may cache the fragments of parts that rarely change.
    func encodeState(_ state: Reducer.State) -> JSONFragment
}

/// An intent document: an object with a string `type`.
struct IntentReader {
    let object: JSONObjectReader
    let type: String

    init(_ document: JSONDocument) throws(APIError) {
        object = try document.object("an intent object")
        type = try object.required("type").string()
    }

    /// Checks that the intent carries nothing but its `type` (e.g. `{"type":"task"}`).
    func requireNoMembers() throws(APIError) {
        try object.rejectUnknownKeys(allowing: ["type"])
    }

    /// The error for a `type` this feature does not accept from hosts.
    func unknown(hostIntents: Set<String>, internalIntents: Set<String>) -> APIError {
        let accepted = hostIntents.sorted().joined(separator: ", ")
        if internalIntents.contains(type) {
            return .invalid("\"\(type)\" is an internal effect result; hosts may send: \(accepted)", at: "$.type")
        }
        return .invalid("unknown intent \"\(type)\"; hosts may send: \(accepted)", at: "$.type")
    }
}
