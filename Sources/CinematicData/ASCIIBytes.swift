extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is ASCII (below 0x80), read 8 bytes at a time: the test the index
    /// builder's byte readings (``ASCIITitleForms``, ``CatalogRow/init(validASCII:)``) make
    /// before reading text as bytes.
    var isASCII: Bool {
        let raw = UnsafeRawBufferPointer(self)
        var high: UInt64 = 0, index = 0
        while index + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
