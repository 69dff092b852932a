@testable import Cinematic
import CinematicDomain
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

    /// A sample of every host intent of a feature, built from the schema alone: each member
    /// gets a value of its schema type (a string, an integer, the first of an enum, an intent
    /// nested in an intent: the first of its union, built the same way).
    static func sampleIntents(_ feature: [String: Any]) -> [String] {
        let union = defs[feature["intent"] as! String] as! [String: Any]
        return (union["oneOf"] as! [[String: Any]]).map { option in
            let data = try! JSONSerialization.data(withJSONObject: sample(of: option), options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// A value of the (resolved) schema `node`.
    static func sample(of node: [String: Any]) -> Any {
        var schema = node
        if let ref = schema["$ref"] as? String { schema = defs[String(ref.split(separator: "/").last!)] as! [String: Any] }
        if let constant = schema["const"] { return constant }
        if let options = schema["enum"] as? [Any] { return options.first! }
        if let options = schema["oneOf"] as? [[String: Any]] { return sample(of: options[0]) }
        if let properties = schema["properties"] as? [String: Any] {
            return properties.mapValues { sample(of: $0 as! [String: Any]) }
        }
        if schema["type"] as? String == "integer" {   // a film's id, within the member's range
            return min(max(15249, schema["minimum"] as? Int ?? Int.min), schema["maximum"] as? Int ?? Int.max)
        }
        if schema["type"] as? String == "boolean" { return true }
        return "dune"
    }

    /// Every host intent the schema declares decodes, and encodes back to the same JSON: the
    /// generated decoder, the generated encoder and the schema agree member for member.
    @Test func everyHostIntentOfTheSchemaRoundTrips() throws {
        for (codec, feature) in zip(FeatureCatalog.all, Self.features) {
            let samples = Self.sampleIntents(feature)
            #expect(samples.count == codec.hostIntents.count, "\(codec.name)")
            for sample in samples {
                #expect(Self.roundTrip(codec, sample) == sample, "\(codec.name): \(sample)")
            }
        }
    }

    /// `intent` decoded by `codec` and encoded again, keys sorted (nil when refused).
    static func roundTrip<Codec: FeatureCodec>(_ codec: Codec.Type, _ intent: String) -> String? {
        guard let document = try? JSONDocument(parsing: intent), let reader = try? IntentReader(document),
              let kind = Codec.HostKind(rawValue: reader.type), let host = try? Codec().decodeHost(kind, reader) else { return nil }
        let json = try! JSONSerialization.jsonObject(with: Data(Codec.encodeHost(host).json.text.utf8))
        return String(decoding: try! JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The query limits the schema states (maxLength, x-maxBytes) are the ones search applies.
    @Test func theSchemasQueryLimitsAreTheUseCases() {
        let query = ((Self.defs["queryChanged"] as! [String: Any])["properties"] as! [String: Any])["query"] as! [String: Any]
        #expect(query["maxLength"] as? Int == SearchMoviesUseCase.maximumQueryLength)
        #expect(query["x-maxBytes"] as? Int == SearchMoviesUseCase.maximumQueryBytes)
    }

    /// The section ids the schema lists are the ones the wire names give, in order.
    @Test func theSchemasSectionIdsAreTheWireNames() {
        #expect((Self.defs["sectionId"] as! [String: Any])["enum"] as? [String] == WireNames.sectionIDs)
    }
}
