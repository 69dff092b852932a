@testable import Cinematic
import Foundation
import Testing

/// The Swift feature catalog and the schema describe the same features: same names, same
/// host intents, same internal intents. Adding a feature or an intent on one side only fails
/// here.
@Suite("Feature catalog and schema")
struct FeatureCatalogTests {
    /// schema/cinematic.schema.json, parsed.
    static var schema: [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schema/cinematic.schema.json")
        let data = try! Data(contentsOf: url)
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static var meta: [String: Any] { schema["x-cinematic"] as! [String: Any] }
    static var defs: [String: Any] { schema["$defs"] as! [String: Any] }
    static var features: [[String: Any]] { meta["features"] as! [[String: Any]] }

    /// The `type` consts of an intent union in the schema.
    static func intentTypes(_ def: String) -> [String] {
        let union = defs[def] as! [String: Any]
        return (union["oneOf"] as! [[String: Any]]).map { option in
            let name = String((option["$ref"] as! String).split(separator: "/").last!)
            let properties = (defs[name] as! [String: Any])["properties"] as! [String: Any]
            return (properties["type"] as! [String: Any])["const"] as! String
        }
    }

    @Test func theCatalogListsTheSchemasFeaturesInOrder() {
        #expect(FeatureCatalog.names == Self.features.map { $0["name"] as! String })
    }

    @Test func hostAndInternalIntentsMatchTheSchema() {
        for (feature, entry) in zip(FeatureCatalog.intentNames, Self.features) {
            #expect(feature.host == Self.intentTypes(entry["intent"] as! String), "host intents of \(feature.name)")
            #expect(feature.internal == entry["internalIntents"] as! [String], "internal intents of \(feature.name)")
        }
    }

    @Test func everyStatusHasTheSchemasNameAndValue() {
        let statuses = (Self.meta["statuses"] as! [[String: Any]]).map { ($0["name"] as! String, Int32($0["value"] as! Int)) }
        #expect(Status.allCases.map { (String(describing: $0.name), $0.rawValue) }.elementsEqual(statuses) { $0 == $1 })
    }
}
