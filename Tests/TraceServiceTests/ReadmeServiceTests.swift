import Foundation
import TestSupport
import Testing

@Test("README's service code is the example package's, to the byte")
func readmeShowsTheExample() throws {
    let source = try String(
        contentsOf: packageRoot.appendingPathComponent("Examples/RelayService/Sources/RelayService/RelayService.swift"), encoding: .utf8)
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let begin = try #require(source.range(of: "// README: service begins\n"))
    let end = try #require(source.range(of: "// README: service ends"))
    let region = String(source[begin.upperBound..<end.lowerBound])
    #expect(region.contains("struct RelayService"))
    #expect(readme.contains("```swift\n" + region + "```\n"), "README.md's \"For services\" block differs from RelayService.swift")
}
