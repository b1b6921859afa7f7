/// Reads protocol-buffer fields in place: enough to check an ONNX file's structure and read its
/// metadata without a protobuf library. Shared with Perception (class names in a model's metadata).
package struct ProtobufReader {
    package let bytes: UnsafeRawBufferPointer
    package var offset = 0

    package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    package mutating func nextKey() -> (field: Int, wireType: Int)? {
        guard offset < bytes.count, let key = varint() else { return nil }
        return (Int(key >> 3), Int(key & 7))
    }

    package mutating func lengthDelimited() -> UnsafeRawBufferPointer? {
        guard let length = varint(), length <= UInt64(bytes.count - offset) else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)])
        offset += Int(length)
        return slice
    }

    /// Skips a field's value; false when the data is malformed.
    package mutating func skip(wireType: Int) -> Bool {
        switch wireType {
        case 0: return varint() != nil
        case 1: guard bytes.count - offset >= 8 else { return false }; offset += 8; return true
        case 2: return lengthDelimited() != nil
        case 5: guard bytes.count - offset >= 4 else { return false }; offset += 4; return true
        default: return false
        }
    }
}
