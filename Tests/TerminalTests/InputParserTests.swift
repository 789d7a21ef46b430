import Testing
@testable import Terminal

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
private func key(_ k: Key, _ m: KeyModifiers = []) -> InputEvent { .key(KeyEvent(k, modifiers: m)) }

@Suite struct InputParserTests {
    @Test func keysAndSequences() {
        var p = InputParser()
        let events = p.feed(bytes("q\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}[5~\u{1B}[3~\r\u{7F}\u{03}\t\u{1B}[Z\u{1B}OP\u{1B}[15~é+"))
        #expect(events == [key(.character("q")), key(.up), key(.down), key(.right, .control), key(.pageUp), key(.delete),
                           key(.enter), key(.backspace), key(.character("c"), .control), key(.tab), key(.backTab),
                           key(.function(1)), key(.function(5)), key(.character("é")), key(.character("+"))])
        #expect(!p.hasPendingBytes)
    }

    /// Every sequence split at every byte boundary gives the same events as the whole.
    @Test func sequencesSplitAtEveryByte() {
        let input = bytes("a\u{1B}[1;3D\u{1B}[<0;12;5M\u{1B}[200~hi\u{1B}[201~\u{1B}OA€x\u{1B}[6~")
        var whole = InputParser()
        let expected = whole.feed(input)
        #expect(expected.count == 8)
        for cut in 1..<input.count {
            var p = InputParser()
            let events = p.feed(input[..<cut]) + p.feed(input[cut...])
            #expect(events == expected, "cut at \(cut)")
        }
        // One byte at a time.
        var p = InputParser()
        var events: [InputEvent] = []
        for b in input { events += p.feed([b]) }
        #expect(events == expected)
    }

    @Test func loneEscapeWaitsForFlush() {
        var p = InputParser()
        #expect(p.feed([0x1B]).isEmpty)
        #expect(p.hasPendingBytes)
        #expect(p.flush() == [key(.escape)])
        #expect(p.feed([0x1B, 0x1B]) == [key(.escape)])
        #expect(p.flush() == [key(.escape)])
        #expect(p.feed(bytes("\u{1B}x")) == [key(.character("x"), .alt)])
        #expect(p.feed(bytes("\u{1B}[")).isEmpty)
        #expect(p.flush() == [key(.character("["), .alt)])
    }

    @Test func bracketedPasteIsOneEventEvenWithEscapesAndNewlines() {
        var p = InputParser()
        #expect(p.feed(bytes("\u{1B}[200~line one\nq\u{1B}[A")).isEmpty)
        #expect(p.feed(bytes("tail\u{1B}[201")).isEmpty)
        #expect(p.feed(bytes("~k")) == [.paste("line one\nq\u{1B}[Atail"), key(.character("k"))])
    }

    @Test func sgrMouse() {
        var p = InputParser()
        let events = p.feed(bytes("\u{1B}[<0;10;4M\u{1B}[<32;11;4M\u{1B}[<0;12;5m\u{1B}[<64;3;3M\u{1B}[<65;3;3M"
                                  + "\u{1B}[<2;1;1M\u{1B}[<35;7;8M\u{1B}[<16;200;100M"))
        #expect(events == [
            .mouse(MouseEvent(.press, button: .left, column: 9, row: 3)),
            .mouse(MouseEvent(.drag, button: .left, column: 10, row: 3)),
            .mouse(MouseEvent(.release, button: .left, column: 11, row: 4)),
            .mouse(MouseEvent(.wheelUp, button: .none, column: 2, row: 2)),
            .mouse(MouseEvent(.wheelDown, button: .none, column: 2, row: 2)),
            .mouse(MouseEvent(.press, button: .right, column: 0, row: 0)),
            .mouse(MouseEvent(.move, button: .none, column: 6, row: 7)),
            .mouse(MouseEvent(.press, button: .left, column: 199, row: 99, modifiers: .control)),
        ])
    }

    @Test func terminalRepliesAndUnknownSequencesDoNotBecomeKeys() {
        var p = InputParser()
        let events = p.feed(bytes("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c\u{1B}[99xq"))
        #expect(events == [.unknown(bytes("\u{1B}_Gi=31;OK\u{1B}\\")), .unknown(bytes("\u{1B}[?62;c")),
                           .unknown(bytes("\u{1B}[99x")), key(.character("q"))])
    }
}
