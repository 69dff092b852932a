import Synchronization

/// Maps the opaque handles given to C to live objects.
///
/// A handle is an integer in pointer clothing: a never-reused serial number plus a kind tag.
/// Nothing is ever dereferenced from a handle, so a NULL, closed, foreign or garbage handle
/// is answered with a status (`misuse` or `closed`) instead of a crash, and closed handles
/// leave nothing behind (no tombstones, no growth over open/close cycles).
final class HandleTable: Sendable {
    /// What a handle names.
    enum Kind: UInt, Sendable {
        case runtime = 1
        case store = 2

        var name: String { self == .runtime ? "runtime" : "store" }
    }

    private struct Table {
        var lastSerial: UInt64 = 0
        var objects: [UInt64: any AnyObject & Sendable] = [:]
    }

    static let shared = HandleTable()
    private let table = Mutex(Table())
    private static let kindBits: UInt = 2

    /// A fresh serial number for an object about to be installed with ``install(_:serial:as:)``.
    func reserve() -> UInt64 {
        table.withLock { table in
            table.lastSerial += 1
            return table.lastSerial
        }
    }

    /// Makes `object` reachable through the returned handle.
    func install(_ object: any AnyObject & Sendable, serial: UInt64, as kind: Kind) -> OpaquePointer {
        table.withLock { $0.objects[serial] = object }
        return Self.handle(serial: serial, kind: kind)
    }

    /// The handle for `serial` of `kind`.
    static func handle(serial: UInt64, kind: Kind) -> OpaquePointer {
        OpaquePointer(bitPattern: (UInt(serial) << kindBits) | kind.rawValue)!
    }

    /// The live object behind `handle`: `misuse` for NULL, a handle of another kind or one
    /// never issued; `closed` for a handle that was closed.
    func lookup<T: AnyObject>(_ handle: OpaquePointer?, as kind: Kind, _ type: T.Type = T.self) throws(APIError) -> T {
        guard let handle else { throw .misuse("NULL \(kind.name) handle") }
        let bits = UInt(bitPattern: handle)
        guard bits & ((1 << Self.kindBits) - 1) == kind.rawValue else { throw .misuse("not a \(kind.name) handle") }
        let serial = UInt64(bits >> Self.kindBits)
        let found = table.withLock { table -> ((any AnyObject & Sendable)?, Bool) in
            (table.objects[serial], serial >= 1 && serial <= table.lastSerial)
        }
        if let object = found.0 {
            guard let typed = object as? T else { throw .misuse("not a \(kind.name) handle") }
            return typed
        }
        throw found.1 ? .closed("the \(kind.name)") : .misuse("unknown \(kind.name) handle")
    }

    /// Forgets `serial`: its handle answers `closed` from now on.
    func remove(_ serial: UInt64) {
        _ = table.withLock { $0.objects.removeValue(forKey: serial) }
    }
}
