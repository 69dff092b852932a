@testable import Cinematic
import Testing

/// Parses `text` as the C API would (through a C string).
func parse(_ text: String) throws(APIError) -> JSONDocument {
    try text.withCString { pointer in Result { () throws(APIError) in try JSONDocument(parsing: pointer) } }.get()
}

@Suite("JSON input rules")
struct JSONDocumentTests {

    func status(_ text: String) -> Status? {
        do { _ = try parse(text); return nil } catch { return error.status }
    }

    @Test func malformedJSONReportsLineAndColumn() {
        #expect(throws: APIError.self) { try parse("{\n  \"type\": }") }
        do { _ = try parse("{\n  \"type\": }") } catch {
            #expect(error.status == .json)
            #expect(error.line == 2)
            #expect(error.column != nil)
        }
    }

    @Test func sizeLimitIsOneMebibyte() {
        let padding = String(repeating: " ", count: JSONDocument.maximumBytes - 2)
        #expect(status("{}" + padding) == nil)
        #expect(status("{}" + padding + " ") == .tooLarge)
    }

    @Test func deepNestingIsAJSONError() {
        #expect(status(String(repeating: "[", count: 100_000)) == .json)
        #expect(status(String(repeating: "[", count: 3_000) + String(repeating: "]", count: 3_000)) == .json)
    }

    @Test func duplicateKeysAndNulEscapesAreRejected() {
        #expect(status(#"{"a":1,"a":2}"#) == .json)
        #expect(status(#"{"a":"x\u0000y"}"#) == .json)
    }

    @Test func invalidUTF8IsRejected() {
        let bytes: [CChar] = [0x22, CChar(bitPattern: 0xFF), 0x22, 0]
        let result = bytes.withUnsafeBufferPointer { buffer -> Status? in
            do throws(APIError) { _ = try JSONDocument(parsing: buffer.baseAddress!); return nil } catch { return error.status }
        }
        #expect(result == .json)
    }

    @Test func readersNameThePathOfAMismatch() throws {
        let document = try parse(#"{"search":{"debounceMs":"fast"}}"#)
        do {
            _ = try RuntimeConfig(document)
            Issue.record("expected an error")
        } catch {
            #expect(error.status == .invalid)
            #expect(error.path == "$.search.debounceMs")
        }
    }
}

@Suite("Runtime config")
struct RuntimeConfigTests {
    func config(_ text: String) throws(APIError) -> RuntimeConfig {
        try RuntimeConfig(parse(text))
    }

    @Test func everyKeyDecodes() throws {
        let decoded = try config(#"{"catalog":{"path":"/tmp/c.sqlite"},"favorites":"/tmp/f.sqlite","clock":"manual","delivery":"queued","search":{"debounceMs":100}}"#)
        #expect(decoded.catalog == .index(path: "/tmp/c.sqlite"))
        #expect(decoded.favorites == "/tmp/f.sqlite")
        #expect(decoded.manualClock)
        #expect(decoded.delivery == .queued)
        #expect(decoded.searchDebounceMilliseconds == 100)
        #expect(try config(#"{"catalog":"host"}"#).catalog == .host(source: nil))
        #expect(try config(#"{"catalog":{"host":"http://127.0.0.1:8631"}}"#).catalog == .host(source: "http://127.0.0.1:8631"))
    }

    @Test("bad configs name the offending path", arguments: [
        (#"{"clok":"manual"}"#, "$.clok"),
        (#"{"clock":"sundial"}"#, "$.clock"),
        (#"{"delivery":1}"#, "$.delivery"),
        (#"{"catalog":{"path":""}}"#, "$.catalog.path"),
        (#"{"catalog":{"dir":"/tmp"}}"#, "$.catalog.dir"),
        (#"{"search":{"debounceMs":-1}}"#, "$.search.debounceMs"),
        (#"{"favorites":""}"#, "$.favorites"),
    ])
    func badConfigs(text: String, path: String) {
        do {
            _ = try config(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.status == .invalid)
            #expect(error.path == path)
        }
    }

    @Test func aConfigMustBeAnObject() {
        #expect(throws: APIError.self) { try config("[]") }
    }
}
