import CZlib
import CinematicDomain

/// Inflates gzip data with zlib (the library cannot use Foundation).
enum GzipData {
    /// The decompressed bytes of a gzip stream.
    static func inflate(_ compressed: UnsafeRawBufferPointer) throws(MovieError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .storage("zlib: cannot initialise inflate")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(compressed.count * 4, 1 << 16))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: compressed.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(compressed.count)
        while true {
            if produced == output.count { output.append(contentsOf: repeatElement(0, count: output.count)) }
            let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = uInt(buffer.count - produced)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = buffer.count - Int(stream.avail_out)
                return status
            }
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR, stream.avail_in > 0 || stream.avail_out == 0 else {
                throw .storage("zlib: corrupt catalog data (status \(status))")
            }
        }
        output.removeLast(output.count - produced)
        return output
    }

    /// The decompressed bytes of a gzip stream held in an array.
    static func inflate(_ compressed: [UInt8]) throws(MovieError) -> [UInt8] {
        var result: Result<[UInt8], MovieError> = .success([])
        compressed.withUnsafeBytes { raw in
            do throws(MovieError) { result = .success(try inflate(raw)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// zlib's CRC-32 of `bytes`: the catalog's fingerprint.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
