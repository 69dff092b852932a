@testable import Cinematic
import Testing

@Suite("Handles")
struct HandleTableTests {
    final class Thing: Sendable {}

    @Test func handlesResolveToTheirObjectAndKind() throws {
        let table = HandleTable()
        let thing = Thing()
        let serial = table.reserve()
        let handle = table.install(thing, serial: serial, as: .store)
        #expect(try table.lookup(handle, as: .store, Thing.self) === thing)
        #expect(throws: APIError.self) { try table.lookup(handle, as: .runtime, Thing.self) }
    }

    @Test func closedNullAndForeignHandlesAreStatuses() {
        let table = HandleTable()
        let serial = table.reserve()
        let handle = table.install(Thing(), serial: serial, as: .runtime)
        table.remove(serial)
        func status(_ handle: OpaquePointer?) -> Status? {
            do { _ = try table.lookup(handle, as: .runtime, Thing.self); return nil } catch { return error.status }
        }
        #expect(status(handle) == .closed)
        #expect(status(nil) == .misuse)
        #expect(status(HandleTable.handle(serial: 999, kind: .runtime)) == .misuse)
        #expect(status(OpaquePointer(bitPattern: 0xdead_beef)) == .misuse)
    }
}
