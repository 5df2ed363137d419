// swift-tools-version: 6.2
// A small in-process relay service on TraceKit's C-free core (the README's "For services"):
// it holds many live requests and forwards each phone's fixes to whoever the policy allows.
// Builds without PROJ, GEOS or any other system library (make examples shows it).
import PackageDescription

let package = Package(
    name: "RelayService",
    dependencies: [.package(name: "TraceKit", path: "../..")],
    targets: [
        // The service: a team copies this.
        .target(name: "RelayService", dependencies: [.product(name: "TraceKitCore", package: "TraceKit")]),
        // The demo: the bundled ride replayed through many live requests, its figures checked.
        .executableTarget(
            name: "relay-demo", dependencies: ["RelayService", .product(name: "TraceKitCore", package: "TraceKit")]),
    ],
    swiftLanguageModes: [.v6]
)
