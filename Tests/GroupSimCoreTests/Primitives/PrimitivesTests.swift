import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimSimulation

@Suite struct PrimitivesTests {
    /// FIPS 180-4 test vectors: the trace digest must be real SHA-256 (determinism rule 6, README).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256Vectors(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }

    @Test func sha256OfAMillionAs() {
        var hasher = SHA256()
        hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(hasher.hexDigest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// SplitMix64's published first outputs for seed 0 (determinism rule 2, README).
    @Test func splitMixMatchesTheReference() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func boundedDrawsStayInRange() {
        var generator = SplitMix64(seed: 42)
        for bound in [1, 2, 3, 7, 1_000, 5_000_000] as [UInt64] {
            for _ in 0..<200 { #expect(generator.next(below: bound) < bound) }
        }
        #expect(generator.next(below: 0) == 0)
    }

    /// A draw in one stream never shifts another (determinism rule 2, README).
    @Test func streamsAreIndependent() {
        let streams = RandomStreams(seed: 9)
        var latency = streams.stream(.latency, "a", "b")
        let first = latency.next()
        var race = streams.stream(.race, "1")
        _ = race.next()
        _ = race.next()
        var again = streams.stream(.latency, "a", "b")
        #expect(again.next() == first)
        var other = streams.stream(.latency, "b", "a")
        #expect(other.next() != first)
        var otherSeed = RandomStreams(seed: 10).stream(.latency, "a", "b")
        #expect(otherSeed.next() != first)
    }

    /// Events come out by time, then in the order they were scheduled (determinism rule 3, README).
    @Test func eventQueueOrdersByTimeThenSequence() {
        var queue = EventQueue<String>()
        queue.schedule("c", at: VirtualTime(nanoseconds: 5))
        queue.schedule("a", at: VirtualTime(nanoseconds: 1))
        queue.schedule("d", at: VirtualTime(nanoseconds: 5))
        queue.schedule("b", at: VirtualTime(nanoseconds: 1))
        queue.schedule("e", at: VirtualTime(nanoseconds: 9))
        #expect(queue.remove(sequence: 4)?.payload == "e")
        var order: [String] = []
        while let entry = queue.next() { order.append(entry.payload) }
        #expect(order == ["a", "b", "c", "d"])
    }

    @Test func eventQueueMatchesASortOnManyEvents() {
        var queue = EventQueue<Int>()
        var generator = SplitMix64(seed: 3)
        var expected: [(Int64, Int)] = []
        for index in 0..<2_000 {
            let time = Int64(generator.next(below: 50))
            queue.schedule(index, at: VirtualTime(nanoseconds: time))
            expected.append((time, index))
        }
        expected.sort { $0 < $1 }
        var got: [Int] = []
        while let entry = queue.next() { got.append(entry.payload) }
        #expect(got == expected.map(\.1))
    }

    @Test(arguments: [
        (0, "0ms"), (80_000_000, "80ms"), (1_500_000_000, "1500ms"), (120_000_000_000, "2m"),
        (2_250_000, "2250us"), (2_250_500, "2250.5us"), (7, "7ns"), (250_000, "250us"),
    ] as [(Int64, String)])
    func durationsPrintExactly(nanoseconds: Int64, text: String) {
        #expect(VirtualDuration(nanoseconds: nanoseconds).description == text)
    }

    @Test func instantsPrintToTheMicrosecond() {
        #expect(VirtualTime(nanoseconds: 100_392_270).description == "100.392ms")
        #expect(VirtualTime(nanoseconds: 500_000_000).description == "500ms")
    }

    /// Participant identifiers print and parse as UUIDs (M1).
    @Test func participantIdentifiersRoundTrip() {
        let id = ParticipantID(bits: 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)
        #expect(id.uuidString == "01234567-89AB-4DEF-BEDC-BA9876543210")
        #expect(ParticipantID(uuidString: id.uuidString) == id)
        #expect(ParticipantID(uuidString: id.uuidString.lowercased()) == id)
        #expect(ParticipantID(uuidString: "not-a-uuid") == nil)
        #expect(ParticipantID.occurrences(in: "?a=\(id.uuidString)&b=x\(id.uuidString)") == [id, id])
    }

    /// Identifiers are written group by group: over many seeded identifiers, `uuidString`
    /// is the halves' hex digits with the dashes at 8, 13, 18 and 23, it reads
    /// back in either case, a text holding it with a digit spoiled reads as nothing, and
    /// `occurrences` finds exactly the whole ones among near misses.
    @Test func participantIdentifiersByGroupsMatchTheDigits() {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        for seed in 1...2_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let id = ParticipantID(bits: generator.next(), generator.next())
            let digits = Array(hex(id.high) + hex(id.low))
            let expected = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
            #expect(id.uuidString == expected, "seed \(seed)")
            #expect(ParticipantID(uuidString: expected.lowercased()) == id, "seed \(seed)")
            var spoiled = Array(expected)
            let place = Int(generator.next(below: 36))
            spoiled[place] = [8, 13, 18, 23].contains(place) ? "0" : "g"
            #expect(ParticipantID(uuidString: String(spoiled)) == nil, "seed \(seed): \(String(spoiled))")
            #expect(ParticipantID.occurrences(in: "x\(String(spoiled))&\(expected)-\(expected.prefix(35))") == [id], "seed \(seed)")
        }
        #expect(ParticipantID.occurrences(in: "short") == [])
    }

    /// A string's bytes in memory are parsed without branching on the kind of each digit:
    /// with every byte value at every place of a UUID, that parse and the one of any
    /// collection of bytes read the same halves, or both nothing.
    @Test func bytesInPlaceParseAsAnyBytes() {
        let valid = Array(ParticipantID(bits: 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210).uuidString.lowercased().utf8)
        var compared = 0
        for place in 0..<36 {
            for byte in UInt8.min...UInt8.max {
                var bytes = valid
                bytes[place] = byte
                let inPlace = bytes.withUnsafeBufferPointer { ParticipantID.parse(contiguous: $0) }
                let generic = ParticipantID.parse(bytes.lazy.map { $0 })
                #expect(inPlace?.high == generic?.high && inPlace?.low == generic?.low, "byte \(byte) at \(place)")
                if generic != nil { compared += 1 }
            }
        }
        // 32 digit places, 22 hex digits each (upper and lower case letters), and a dash at 4 places.
        #expect(compared == 32 * 22 + 4)
    }

    /// The url setter keeps no scheme, http, https and data only (M8).
    @Test(arguments: [
        ("?Base=base01", true), ("https://example.com/x", true), ("HTTP://x", true), ("data:text/plain,hi", true),
        ("myapp://state", false), ("mailto:a@b.c", false), ("tel:123", false), ("relative/path?x=1", true),
    ])
    func urlSchemes(url: String, kept: Bool) {
        #expect(MessageURL.isAccepted(url) == kept)
    }

    @Test func stateMapRoundTripsThroughTheURL() {
        var state = StateMap()
        state["q"] = "pick a topping & more"
        state["bob"] = "tomatoes"
        state["é"] = "100%"
        let url = state.url()
        #expect(url == "?bob=tomatoes&q=pick%20a%20topping%20%26%20more&%C3%A9=100%25")
        #expect(StateMap(url: url) == state)
        #expect(StateMap(url: "https://x.y/p?a=1&a=2#frag").entries == [Scenario.DataEntry("a", "1"), Scenario.DataEntry("a", "2")])
    }
}

/// `ExactCount`: the counts of exhaustive exploration, exact at any size.
@Suite struct ExactCountTests {
    @Test func arithmeticMatchesIntegersAcrossTheSixtyFourBitBoundary() {
        let big = ExactCount(UInt64.max)
        #expect((big + 1).description == "18446744073709551616")
        #expect((big * big).description == "340282366920938463426481119284349108225")
        #expect((big * big) - (big * big) == .zero)
        #expect(((big + 1) - 1) == big)
        #expect(ExactCount(3) - ExactCount(5) == .zero, "a count never goes below zero")
        #expect(ExactCount.factorial(25).description == "15511210043330985984000000")
        let (quotient, remainder) = ExactCount.factorial(25).quotientAndRemainder(dividingBy: 7)
        #expect(quotient * 7 + ExactCount(remainder) == .factorial(25))
    }

    @Test func parsingPrintingAndOrder() {
        let digits = "12780000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001"
        #expect(ExactCount(digits)?.description == digits)
        #expect(ExactCount("12a") == nil && ExactCount("") == nil && ExactCount("-1") == nil)
        #expect(ExactCount(digits)?.readable == "1.278 × 10^97")
        #expect(ExactCount(746_496).readable == "746496" && ExactCount(746_496).grouped == "746,496")
        #expect(ExactCount(UInt64.max) < ExactCount(UInt64.max) + 1 && !(ExactCount(2) < ExactCount(2)))
        #expect(ExactCount(10).int == 10 && (ExactCount(UInt64.max)).int == nil && ExactCount(UInt64.max).clampedInt == Int.max)
    }

    /// Percentages are exact, rounded half up, whatever the size.
    @Test func percentagesOfHugeCounts() {
        let total = ExactCount.factorial(120)
        #expect((total - total.quotientAndRemainder(dividingBy: 5).quotient).percent(of: total) == "80.0%")
        #expect(ExactCount(1).percent(of: 3) == "33.3%" && ExactCount(2).percent(of: 3) == "66.7%")
        #expect(ExactCount(1).percent(of: 2_000) == "0.1%" && ExactCount(1).percent(of: 2_001) == "0.0%")
        #expect(ExactCount(5).percent(of: 4) == "over 100%" && ExactCount(5).percent(of: 0) == "0%")
        #expect(ExactCount(1).scaled(to: 320, of: 3) == 107)
    }
}
