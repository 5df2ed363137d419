import CZlib

/// A decoded PNG image: 8-bit RGBA pixels, row by row. Only for the browser checks, which look at
/// Chromium's screenshots: it reads what Chromium writes (8-bit, non-interlaced, colour types
/// RGB, RGBA, grey and grey+alpha) and refuses anything else with a reason.
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes: red, green, blue, alpha.
    public let rgba: [UInt8]

    public enum DecodeError: Error, CustomStringConvertible {
        case notPNG, truncated(String), unsupported(String), inflate(Int32)
        public var description: String {
            switch self {
            case .notPNG: "not a PNG file (no signature)"
            case .truncated(let what): "truncated PNG: \(what)"
            case .unsupported(let what): "unsupported PNG: \(what)"
            case .inflate(let code): "zlib inflate failed (\(code))"
            }
        }
    }

    /// The pixel at column `x`, row `y`: (red, green, blue, alpha).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }

    public init(bytes: [UInt8]) throws {
        let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw DecodeError.notPNG }
        var at = 8
        var width = 0, height = 0, colourType = 0
        var compressed: [UInt8] = []
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        while at + 8 <= bytes.count {
            let length = be32(at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let data = at + 8
            guard data + length + 4 <= bytes.count else { throw DecodeError.truncated("chunk \(type)") }
            switch type {
            case "IHDR":
                width = be32(data)
                height = be32(data + 4)
                let depth = bytes[data + 8]
                colourType = Int(bytes[data + 9])
                guard depth == 8 else { throw DecodeError.unsupported("bit depth \(depth)") }
                guard bytes[data + 12] == 0 else { throw DecodeError.unsupported("interlaced") }
                guard [0, 2, 4, 6].contains(colourType) else { throw DecodeError.unsupported("colour type \(colourType)") }
            case "IDAT": compressed += bytes[data..<(data + length)]
            default: break
            }
            at = data + length + 4
            if type == "IEND" { break }
        }
        guard width > 0, height > 0 else { throw DecodeError.truncated("no IHDR") }
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][colourType]!
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var destLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &destLength, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK else { throw DecodeError.inflate(status) }
        guard Int(destLength) == raw.count else { throw DecodeError.truncated("\(destLength) of \(raw.count) image bytes") }
        // Undo the per-row filters (PNG specification, section 9).
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let row = y * (stride + 1) + 1
            for i in 0..<stride {
                let x = raw[row + i]
                let a = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = y > 0 && i >= channels ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw DecodeError.unsupported("row filter \(filter)")
                }
                pixels[y * stride + i] = UInt8(truncatingIfNeeded: Int(x) + predicted)
            }
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            let s = p * channels, d = p * 4
            switch channels {
            case 1: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s]; rgba[d + 2] = pixels[s]
            case 2: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s]; rgba[d + 2] = pixels[s]; rgba[d + 3] = pixels[s + 1]
            case 3: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s + 1]; rgba[d + 2] = pixels[s + 2]
            default: for k in 0..<4 { rgba[d + k] = pixels[s + k] }
            }
        }
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
