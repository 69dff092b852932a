extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is ASCII (below 0x80): the test the index builder's byte readings
    /// (``ASCIITitleForms``, ``CatalogRow/init(validASCII:)``) make before reading text as
    /// bytes. One OR over the bytes, which the compiler vectorizes.
    var isASCII: Bool {
        var any: UInt8 = 0
        for byte in self { any |= byte }
        return any < 0x80
    }
}
