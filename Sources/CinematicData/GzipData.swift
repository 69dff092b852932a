import CZlib
import CinematicDomain

/// Inflates gzip data with zlib (the library cannot use Foundation), bounded: what a file
/// inflates to is hostile until proven small enough.
///
/// Two passes over the compressed bytes: the first counts what they inflate to through a
/// small buffer and refuses more than `maximumBytes` (a gzip bomb costs CPU up to the bound,
/// never memory); the second inflates into an array of exactly that size. Every member of a
/// gzip file is read (`cat a.gz b.gz` is one gzip file, as for gunzip).
///
/// ```swift
/// let text = try GzipData.inflate(compressed, maximumBytes: 1 << 30, what: "movies.tsv.gz")
/// ```
enum GzipData {
    /// The decompressed bytes of the gzip data `compressed`; `.storage` when it is corrupt or
    /// cut short, or inflates to more than `maximumBytes` (the message names `what` and the
    /// bound).
    static func inflate(_ compressed: UnsafeRawBufferPointer, maximumBytes: Int, what: String) throws(MovieError) -> [UInt8] {
        let size = try inflate(compressed, maximumBytes: maximumBytes, what: what) { _ in }
        var output = [UInt8](repeating: 0, count: size)
        var filled = 0
        let result = output.withUnsafeMutableBytes { destination in
            Result { () throws(MovieError) in
                try inflate(compressed, maximumBytes: size, what: what) { piece in
                    let count = min(piece.count, destination.count - filled)
                    destination.baseAddress.map { ($0 + filled).copyMemory(from: piece.baseAddress!, byteCount: count) }
                    filled += count
                }
            }
        }
        guard try result.get() == size, filled == size else { throw .storage("\(what): the gzip data changed while it was read") }
        return output
    }

    /// ``inflate(_:maximumBytes:what:)`` of bytes held in an array.
    static func inflate(_ compressed: [UInt8], maximumBytes: Int, what: String) throws(MovieError) -> [UInt8] {
        let result = compressed.withUnsafeBytes { raw in
            Result { () throws(MovieError) in try inflate(raw, maximumBytes: maximumBytes, what: what) }
        }
        return try result.get()
    }

    /// zlib's CRC-32 of `bytes`: the catalog's fingerprint.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// Inflates every member of `compressed`, handing each piece of output to `consume`
    /// (borrowed for the call), and returns the total; throws past `maximumBytes`.
    private static func inflate(_ compressed: UnsafeRawBufferPointer, maximumBytes: Int, what: String,
                                _ consume: (UnsafeRawBufferPointer) -> Void) throws(MovieError) -> Int {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .storage("zlib: cannot initialise inflate")
        }
        defer { inflateEnd(&stream) }
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { piece.deallocate() }
        var given = 0, total = 0
        while true {
            if stream.avail_in == 0 && given < compressed.count {
                let count = min(compressed.count - given, 1 << 30)
                stream.next_in = UnsafeMutablePointer(mutating: (compressed.baseAddress! + given).assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(count)
                given += count
            }
            stream.next_out = piece.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(piece.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = piece.count - Int(stream.avail_out)
            total += produced
            guard total <= maximumBytes else {
                throw .storage("\(what) inflates to more than \(ByteCount(maximumBytes)), the limit")
            }
            consume(UnsafeRawBufferPointer(rebasing: piece[..<produced]))
            let inputLeft = stream.avail_in > 0 || given < compressed.count
            switch status {
            case Z_STREAM_END:
                guard inputLeft else { return total }
                inflateReset(&stream)            // the next member
            case Z_OK:
                continue
            case Z_BUF_ERROR where inputLeft || produced > 0:
                continue
            case Z_BUF_ERROR:
                throw .storage("\(what): the gzip data is cut short")
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw .storage("\(what): corrupt gzip data (zlib: \(reason))")
            }
        }
    }
}
