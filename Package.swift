// swift-tools-version: 6.2
// TraceKit: replay GPS traces through a location-sharing policy.
// The module graph is drawn once, in docs/architecture.md ("Module graph"); PackageProductsTests
// fails when that drawing and the targets below differ. C libraries: PROJ only through TraceProj,
// GEOS only through TraceGeometry, libxml2 only in tests, benchmarks and fuzzing, zlib only in tests
// (PNGPixels, the browser checks' screenshots); CTracePlatform is our own C shim (TraceService's prefetch
// hint).
// Outside the product: tracekit-bench (Benchmarks/), trip-generator (Tools/TripGenerator), the
// fuzz-* targets (Fuzz/, make fuzz) and the test support targets (docs/architecture.md, "Outside the
// product").
import PackageDescription

// Warnings in our own code fail the build (SwiftPM does not apply this to packages that depend
// on TraceKit, so it never breaks a service's build).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]
let testSettings: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "TraceKit",
    products: [
        // Products by layer. The core: the sharing logic, the live request, the phone, the energy model,
        // smoothing, the readers, the replay and batch, in pure Swift: no system library in its closure
        // (services and apps; the exact solver is TraceGeodesy's KarneyGeodesic or one passed in).
        .library(
            name: "TraceKitCore",
            targets: [
                "TraceDomain", "TraceGeodesy", "TraceJSON", "TraceSharing", "TraceDevice", "TraceService", "TraceEnergy", "TraceSmoothing",
                "TraceSimulation", "TraceIO", "TraceReplay", "TraceBatch", "TraceTune",
            ]),
        // The C libraries' wrappers, each alone: PROJ (exact geodesic, CRS transforms) and GEOS (geometry).
        .library(name: "TraceKitProj", targets: ["TraceProj"]),
        .library(name: "TraceKitGeometry", targets: ["TraceGeometry"]),
        // Everything, as before.
        .library(
            name: "TraceKit",
            targets: [
                "TraceGeodesy", "TraceProj", "TraceGeometry", "TraceJSON", "TraceDomain", "TraceSharing", "TraceEnergy", "TraceIO",
                "TraceSmoothing", "TraceSimulation", "TraceDevice", "TraceService", "TraceReplay", "TraceBatch", "TraceTune",
            ]),
        .executable(name: "tracekit", targets: ["tracekit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        .systemLibrary(
            name: "CGeos",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        .target(name: "TraceGeodesy", swiftSettings: strict),
        .target(name: "TraceProj", dependencies: ["CProj", "TraceGeodesy"], swiftSettings: strict),
        .target(name: "TraceGeometry", dependencies: ["CGeos", "TraceGeodesy"], swiftSettings: strict),
        .target(name: "TraceJSON", swiftSettings: strict),
        .target(name: "TraceDomain", swiftSettings: strict),
        // The one seam to the C library's system interface (a Linux and a Darwin branch in each function).
        .target(name: "CTracePlatform"),
        .target(name: "TracePlatform", swiftSettings: strict),
        .target(name: "TraceIO", dependencies: ["TraceDomain", "TraceGeodesy", "TraceJSON", "TracePlatform"], swiftSettings: strict),
        .target(name: "TraceSharing", dependencies: ["TraceDomain", "TraceGeodesy", "TraceJSON"], swiftSettings: strict),
        .target(name: "TraceEnergy", dependencies: ["TraceDomain", "TraceJSON"], swiftSettings: strict),
        .target(name: "TraceSmoothing", dependencies: ["TraceDomain", "TraceGeodesy"], swiftSettings: strict),
        .target(name: "TraceSimulation", dependencies: ["TraceGeodesy"], swiftSettings: strict),
        .target(
            name: "TraceDevice",
            dependencies: ["TraceDomain", "TraceGeodesy", "TraceJSON", "TraceSharing", "TraceSmoothing", "TraceSimulation"],
            swiftSettings: strict
        ),
        .target(
            name: "TraceService", dependencies: ["TraceDomain", "TraceGeodesy", "TraceSharing", "TraceDevice", "CTracePlatform"],
            swiftSettings: strict),
        .target(
            name: "TraceReplay",
            dependencies: [
                "TraceDomain", "TraceIO", "TraceSharing", "TraceEnergy", "TraceDevice", "TraceGeodesy", "TraceJSON", "TraceSimulation",
                "TracePlatform",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TraceBatch",
            dependencies: [
                "TraceDomain", "TraceGeodesy", "TraceReplay", "TraceJSON", "TraceIO", "TraceSharing", "TraceEnergy", "TracePlatform",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "TraceTune",
            dependencies: ["TraceDomain", "TraceGeodesy", "TraceJSON", "TraceSharing", "TraceReplay", "TraceBatch"],
            swiftSettings: strict
        ),
        .target(
            name: "TraceCLI",
            dependencies: [
                "TraceGeodesy", "TraceProj", "TraceJSON", "TraceDomain", "TraceSharing", "TraceIO", "TraceSmoothing",
                "TraceEnergy", "TraceDevice", "TraceReplay", "TraceBatch", "TraceTune", "TracePlatform",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "tracekit", dependencies: ["TraceCLI", "TracePlatform"], swiftSettings: strict),
        // The seeded demo and regression trips of Traces/trips; a tool, not part of the library product.
        .executableTarget(
            name: "trip-generator",
            dependencies: ["TraceSimulation", "TraceIO", "TraceJSON", "TraceDomain", "TraceSharing", "TraceGeodesy", "TracePlatform"],
            path: "Tools/TripGenerator",
            swiftSettings: strict
        ),
        // libFuzzer targets (make fuzz; README, "Hardening: fuzzing"): one per input kind, each an
        // executable that a normal build links as a file replayer; not in any product.
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .target(
            name: "FuzzSupport", dependencies: ["TraceIO", "CFuzzDriver", "TracePlatform"], path: "Fuzz/Support", swiftSettings: strict),
        .executableTarget(name: "fuzz-gpx", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/GPX", swiftSettings: strict),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/CSV", swiftSettings: strict),
        .executableTarget(name: "fuzz-plt", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/PLT", swiftSettings: strict),
        .executableTarget(name: "fuzz-rec", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/REC", swiftSettings: strict),
        .executableTarget(name: "fuzz-nmea", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/NMEA", swiftSettings: strict),
        .executableTarget(name: "fuzz-kml", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/KML", swiftSettings: strict),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/JSON", swiftSettings: strict),
        .executableTarget(name: "fuzz-ndjson", dependencies: ["FuzzSupport", "TraceIO"], path: "Fuzz/NDJSON", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-policy", dependencies: ["FuzzSupport", "TraceDomain", "TraceSharing"], path: "Fuzz/Policy", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-scenario", dependencies: ["FuzzSupport", "TraceDomain", "TraceReplay"], path: "Fuzz/Scenario", swiftSettings: strict
        ),
        .executableTarget(name: "fuzz-merge", dependencies: ["FuzzSupport", "TraceCLI"], path: "Fuzz/Merge", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-gpx-diff", dependencies: ["FuzzSupport", "GPXDifferential"], path: "Fuzz/GPXDiff", swiftSettings: strict),
        .target(name: "CBaselines", dependencies: ["CProj", "CLibXML2"], path: "Benchmarks/CBaselines"),
        .executableTarget(
            name: "tracekit-bench",
            dependencies: [
                "TraceGeodesy", "TraceProj", "TraceDomain", "TraceSharing", "TraceIO", "TraceSmoothing", "TraceSimulation", "TraceDevice",
                "TraceReplay", "TraceBatch", "TraceService", "TracePlatform", "CProj", "CBaselines", "TestSupport",
                "TraceTune",
            ],
            path: "Benchmarks/TraceBench",
            swiftSettings: strict
        ),
        // libxml2, only as the oracle of the GPX reader's differential tests.
        .systemLibrary(name: "CLibXML2", path: "Tests/Support/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "GPXOracle", dependencies: ["CLibXML2"], path: "Tests/Support/GPXOracle"),
        // The GPX reader compared with libxml2: the differential tests' and fuzzer's verdict.
        .target(
            name: "GPXDifferential", dependencies: ["GPXOracle", "TraceIO", "TraceGeodesy"], path: "Tests/Support/GPXDifferential",
            swiftSettings: strict),
        // libxml2's XML Schema validator, only for the JUnit report's tests.
        .target(name: "XMLSchemaOracle", dependencies: ["CLibXML2"], path: "Tests/Support/XMLSchemaOracle"),
        // zlib, only to decode the browser checks' screenshots (PNGPixels).
        .systemLibrary(name: "CZlib", path: "Tests/Support/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "PNGPixels", dependencies: ["CZlib"], path: "Tests/Support/PNGPixels", swiftSettings: strict),
        // Runs a program and reports its own peak RSS (the hostile-input tests' memory bound).
        .executableTarget(name: "rss-probe", path: "Tests/Support/RSSProbe"),
        .target(name: "TestSupport", dependencies: ["TraceSimulation"], path: "Tests/Support/TestSupport", swiftSettings: strict),
        .testTarget(name: "TraceGeodesyTests", dependencies: ["TraceGeodesy", "TestSupport"], swiftSettings: testSettings),
        .testTarget(
            name: "TraceProjTests", dependencies: ["TraceProj", "TraceGeodesy", "TestSupport"], exclude: ["Data"],
            swiftSettings: testSettings),
        .testTarget(name: "TraceGeometryTests", dependencies: ["TraceGeometry", "TraceGeodesy"], swiftSettings: testSettings),
        .testTarget(
            name: "TraceIOTests",
            dependencies: [
                "TraceIO", "TraceDomain", "TraceGeodesy", "TraceProj", "TraceJSON", "TracePlatform", "TestSupport", "GPXDifferential",
            ],
            exclude: ["Fuzz"], swiftSettings: testSettings),
        .testTarget(name: "TraceJSONTests", dependencies: ["TraceJSON", "TestSupport"], swiftSettings: testSettings),
        .testTarget(name: "TraceDomainTests", dependencies: ["TraceDomain", "TestSupport"], swiftSettings: testSettings),
        .testTarget(
            name: "TraceSharingTests",
            dependencies: ["TraceSharing", "TraceDomain", "TraceGeodesy", "TraceGeometry", "TraceJSON", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceEnergyTests", dependencies: ["TraceEnergy", "TraceDomain", "TraceSharing", "TraceJSON"], swiftSettings: testSettings
        ),
        .testTarget(name: "TraceSimulationTests", dependencies: ["TraceSimulation", "TraceGeodesy"], swiftSettings: testSettings),
        .testTarget(
            name: "TraceSmoothingTests",
            dependencies: ["TraceSmoothing", "TraceSimulation", "TraceDomain", "TraceSharing", "TraceGeodesy", "TraceIO", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceDeviceTests",
            dependencies: [
                "TraceDevice", "TraceDomain", "TraceSharing", "TraceSmoothing", "TraceGeodesy", "TraceProj", "TraceJSON", "TestSupport",
            ],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceCorpusTests",
            dependencies: ["trip-generator", "TraceIO", "TraceJSON", "TraceDomain", "TraceSharing", "TraceGeodesy", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceReplayTests",
            dependencies: [
                "TraceReplay", "TraceDevice", "TraceIO", "TraceDomain", "TraceSharing", "TraceEnergy", "TraceGeodesy", "TraceJSON",
                "TraceProj", "TestSupport",
            ],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceCLITests",
            dependencies: [
                "TraceCLI", "tracekit", "rss-probe", "TestSupport", "TraceSimulation", "TraceGeodesy", "TraceIO", "TraceDomain",
                "TraceSharing", "TraceSmoothing", "TraceBatch", "TraceJSON", "TraceEnergy", "TracePlatform", "XMLSchemaOracle", "PNGPixels",
            ],
            exclude: ["Golden"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceServiceTests",
            dependencies: ["TraceService", "TraceSharing", "TraceDevice", "TraceDomain", "TraceGeodesy", "TraceProj", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceBatchTests",
            dependencies: ["TraceBatch", "TraceReplay", "TraceDomain", "TraceSharing", "TraceJSON", "TracePlatform", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "TraceTuneTests",
            dependencies: ["TraceTune", "TraceBatch", "TraceReplay", "TraceDomain", "TraceSharing", "TraceJSON", "TestSupport"],
            swiftSettings: testSettings),
    ],
    swiftLanguageModes: [.v6]
)
