import Testing

@testable import TraceGeometry

@Suite("Context, message handling and lifetimes")
struct ContextTests {
    @Test("a failed call's message is not reported by later calls")
    func noStaleMessages() throws {
        let context = try GeometryContext()
        let first = #expect(throws: GeometryError.self) { try context.geometry(fromWKT: "POLYGON ((0 0, 1 0, 1 1))") }
        guard case .invalidWKT(let firstMessage) = first else {
            Issue.record("expected .invalidWKT, got \(String(describing: first))")
            return
        }
        #expect(firstMessage.contains("closed"))
        #expect(!context.hasPendingMessages)

        // A valid call afterwards succeeds, reports no notice and leaves nothing pending.
        #expect(try context.geometry(fromWKT: "POINT (3 4)") == .point(pt(3, 4)))
        #expect(context.notices.isEmpty)
        #expect(!context.hasPendingMessages)

        // A second, different failure carries exactly its own message: the same text a fresh
        // context reports, with nothing of the first message.
        let second = #expect(throws: GeometryError.self) { try context.geometry(fromWKT: "FOO (1 2)") }
        let fresh = #expect(throws: GeometryError.self) { try GeometryContext().geometry(fromWKT: "FOO (1 2)") }
        guard case .invalidWKT(let secondMessage) = second else {
            Issue.record("expected .invalidWKT, got \(String(describing: second))")
            return
        }
        #expect(second == fresh)
        #expect(!secondMessage.contains(firstMessage))
        #expect(!secondMessage.contains("closed"))
    }

    @Test("notices are collected per operation")
    func noticesPerOperation() throws {
        let context = try GeometryContext()
        let bowtie = try Polygon(shell: [pt(0, 0), pt(1, 1), pt(1, 0), pt(0, 1), pt(0, 0)])
        #expect(try context.isValid(.polygon(bowtie)) == false)
        #expect(context.notices.count == 1)
        #expect(context.notices.first?.contains("Self-intersection") == true)
        #expect(try context.isValid(.polygon(Polygon(shell: square(0, 0, 1)))) == true)
        #expect(context.notices.isEmpty)
    }

    @Test("a prepared polygon keeps its context alive")
    func preparedOutlivesContextVariable() throws {
        func makePrepared() throws -> PreparedPolygon {
            let context = try GeometryContext()  // the only named reference ends with this scope
            return try context.prepare(Polygon(shell: square(0, 0, 10)))
        }
        let prepared = try makePrepared()
        #expect(try prepared.contains(pt(5, 5)) == true)
        #expect(try prepared.contains(pt(15, 5)) == false)
    }

    @Test("independent contexts on concurrent tasks")
    func contextPerTask() async throws {
        let results = try await withThrowingTaskGroup(of: Double.self) { group in
            for i in 1...8 {
                group.addTask {
                    let context = try GeometryContext()
                    return try context.distance(from: pt(0, Double(i)), to: LineString([pt(-1, 0), pt(1, 0)]))
                }
            }
            var all: [Double] = []
            for try await d in group { all.append(d) }
            return all.sorted()
        }
        #expect(results == (1...8).map(Double.init))
    }
}
