@testable import Cinematic
import Testing

/// Reading snapshots (Snapshots/StoreSnapshots.swift): formats and their migration, the
/// feature declarations' data, and hostile documents refused with a status and a path.
@Suite("Snapshots: formats, migration, validation")
struct SnapshotTests {
    /// Reads `text` as cinematic_store_restore would; the error's status and path, or nil.
    func refusal(_ text: String, expecting feature: String? = nil) -> (Status, String?, String)? {
        do {
            let document = try parse(text)
            try withExtendedLifetime(document) { () throws(APIError) in
                let snapshot = try Snapshots.readStore(JSONValueReader(document.root, path: "$"), expecting: feature)
                if let data = snapshot.data { _ = try snapshot.codec.decodeAny(data) }
            }
            return nil
        } catch {
            return (error.status, error.path, error.message)
        }
    }

    @Test func theCurrentFormatReadsWhateverVersionWroteIt() throws {
        for library in ["0.3.0", "0.2.0", "7.3.1"] {
            #expect(refusal(#"{"format":1,"library":"\#(library)","feature":"search","data":{"query":"dune","pagesLoaded":2}}"#) == nil)
        }
        #expect(refusal(#"{"format":1,"feature":"detail","data":{"movieId":15249},"view":{"firstVisibleIndex":3}}"#) == nil)
    }

    @Test func formatZeroIsMigratedFromTheArguments() throws {
        let document = try parse(#"{"feature":"detail","args":{"movieId":15249}}"#)
        try withExtendedLifetime(document) {
            let snapshot = try Snapshots.readStore(JSONValueReader(document.root, path: "$"))
            #expect(snapshot.codec.name == "detail")
            #expect(snapshot.data == nil)
            #expect(try snapshot.legacyArguments?.object().required("movieId").int() == 15249)
        }
        // A recording's open line is one.
        #expect(refusal(#"{"event":"open","t":12,"store":3,"feature":"search","args":null}"#) == nil)
    }

    @Test func aNewerFormatIsRefusedNamingItAndItsWriter() throws {
        let refused = try #require(refusal(#"{"format":2,"library":"0.4.0","feature":"search","data":{}}"#))
        #expect(refused.0 == .invalid)
        #expect(refused.1 == "$.format")
        #expect(refused.2.contains("snapshot format 2 (written by cinematic 0.4.0) is newer than this library's format \(snapshotFormat)"))
        #expect(refusal(#"{"format":-4,"feature":"search","data":{}}"#)?.0 == .invalid)
        #expect(refusal(#"{"format":"1","feature":"search","data":{}}"#)?.0 == .invalid)
    }

    @Test(arguments: [
        (#"[]"#, "$"), (#"{}"#, "$"), (#"{"format":1}"#, "$.feature"), (#"{"format":1,"feature":"search"}"#, "$.data"),
        (#"{"format":1,"feature":"search","data":{},"extra":true}"#, "$.extra"),
        (#"{"format":1,"feature":"search","data":{"query":"dune"}}"#, "$.data.pagesLoaded"),
        (#"{"format":1,"feature":"search","data":{"query":"dune","pagesLoaded":-1}}"#, "$.data.pagesLoaded"),
        (#"{"format":1,"feature":"search","data":{"query":"dune","pagesLoaded":1.5}}"#, "$.data.pagesLoaded"),
        (#"{"format":1,"feature":"discover","data":{"sections":[{"section":"comedy"}]}}"#, "$.data.sections[0].pagesLoaded"),
        (#"{"format":1,"feature":"discover","data":{"sections":{"comedy":1}}}"#, "$.data.sections"),
        (#"{"format":1,"feature":"search","data":{},"view":[]}"#, "$.view"),
        (#"{"format":1,"feature":"search","data":{},"view":{"firstVisibleIndex":-1}}"#, "$.view.firstVisibleIndex"),
        (#"{"format":1,"library":42,"feature":"search","data":{}}"#, "$.library"),
    ])
    func hostileDocumentsAreInvalidWithAPath(text: String, path: String) throws {
        let refused = try #require(refusal(text))
        #expect(refused.0 == .invalid, "\(text): \(refused.2)")
        #expect(refused.1 == path, "\(text): \(refused.2)")
    }

    @Test func tooManySectionsAreRefusedBeforeAnyIsRead() throws {
        let sections = Array(repeating: #"{"section":"comedy","pagesLoaded":1}"#, count: 10).joined(separator: ",")
        let refused = try #require(refusal(#"{"format":1,"feature":"discover","data":{"sections":[\#(sections)]}}"#))
        #expect(refused.2.contains("more than 9 items"))
    }

    @Test func aSnapshotOfAnotherFeatureOrNoneIsRefused() {
        #expect(refusal(#"{"format":1,"feature":"detail","data":{"movieId":1}}"#, expecting: "search")?.0 == .invalid)
        #expect(refusal(#"{"format":1,"feature":"no such feature","data":{}}"#)?.0 == .unknownFeature)
    }

    @Test func theViewIsBounded() throws {
        let deep = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect(refusal(#"{"format":1,"feature":"favorites","data":{},"view":{"a":\#(deep)}}"#)?.2.contains("deeper than 8") == true)
        let shallow = String(repeating: "[", count: 6) + String(repeating: "]", count: 6)
        #expect(refusal(#"{"format":1,"feature":"favorites","data":{},"view":{"a":\#(shallow)}}"#) == nil)
        let big = String(repeating: "x", count: SnapshotView.maximumBytes)
        #expect(refusal(#"{"format":1,"feature":"favorites","data":{},"view":{"a":"\#(big)"}}"#)?.2.contains("larger than") == true)
    }

    @Test func runtimeSnapshotsAreBoundedAndVersioned() throws {
        let stores = Array(repeating: #"{"format":1,"feature":"favorites","data":{}}"#, count: Snapshots.maximumStores + 1)
        #expect(throws: APIError.self) { try Snapshots.readRuntime(parse(#"{"format":1,"stores":[\#(stores.joined(separator: ","))]}"#)) }
        let runtime = try parse(#"{"format":1,"stores":[\#(stores.dropLast().joined(separator: ","))]}"#)
        let count = try withExtendedLifetime(runtime) { () throws(APIError) in try Snapshots.readRuntime(runtime).count }
        #expect(count == Snapshots.maximumStores)
        do {
            _ = try Snapshots.readRuntime(parse(#"{"format":0,"library":"0.1.0","stores":[]}"#))
            Issue.record("format 0 runtime snapshots do not exist")
        } catch {
            #expect(error.message.contains("runtime snapshot format 0 (written by cinematic 0.1.0)"))
        }
    }

    @Test func featuresWithoutASnapshotDeclarationSaveTheirArguments() throws {
        // detail and favorites declare no snapshot in the schema: their data is their arguments.
        #expect(DetailCodec.snapshotIsArguments && FavoritesCodec.snapshotIsArguments)
        #expect(!SearchCodec.snapshotIsArguments && !DiscoverCodec.snapshotIsArguments)
        let origin = StoreOrigin()
        let arguments = try parse(#"{"movieId":7}"#)
        withExtendedLifetime(arguments) { origin.set(arguments: ArgumentsSnapshot(arguments: JSONFragment(copying: arguments.root)), view: .none) }
        #expect(DetailCodec.snapshotData(of: DetailCodec.Reducer.State(movieID: 7), origin: origin).text == #"{"movieId":7}"#)
        #expect(FavoritesCodec.snapshotData(of: FavoritesCodec.Reducer.State(), origin: StoreOrigin()).text == "{}")
    }

    @Test func searchSavesAPendingDebounceAsOnePageOfItsQuery() {
        let origin = StoreOrigin()
        var state = SearchCodec.Reducer.State(query: "dune", results: .loaded([]), resultsQuery: "dune", pagesLoaded: 3)
        #expect(SearchCodec.snapshot(of: state, origin: origin) == .init(query: "dune", pagesLoaded: 3))
        state.query = "dunes"
        #expect(SearchCodec.snapshot(of: state, origin: origin) == .init(query: "dunes", pagesLoaded: 1))
        #expect(SearchCodec.snapshot(of: SearchCodec.Reducer.State(), origin: origin) == .init(query: "", pagesLoaded: 0))
    }
}

extension FeatureCodec {
    /// Reads a snapshot's data with this codec (tests only).
    static func decodeAny(_ data: JSONObjectReader) throws(APIError) -> Any { try decodeSnapshot(data) }
}
