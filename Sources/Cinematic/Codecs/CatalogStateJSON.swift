import CJansson
import CinematicData

/// The catalog's load state as the loading phases of states: `{"phase":"loading",
/// "progress":0.42}`, `{"phase":"loaded"}`, `{"phase":"failed","error":{"code","message"}}`.
enum CatalogStateJSON {
    static func encode(_ state: CatalogLoadState) -> UnsafeMutablePointer<json_t> {
        switch state {
        case let .loading(progress):
            return JSONBuilder.object(["phase": JSONBuilder.string("loading"), "progress": JSONBuilder.real(progress)])
        case .ready:
            return JSONBuilder.object(["phase": JSONBuilder.string("loaded")])
        case let .failed(error):
            return JSONBuilder.object(["phase": JSONBuilder.string("failed"), "error": DomainJSON.encode(error)])
        }
    }
}
