/// What a QUIC endpoint received per stream (RFC 9000 §2.2: data arrives at any offset and is
/// delivered in order): each stream's contiguous end and its out-of-order ranges, by stream id.
///
/// A table keyed by stream id, as a dictionary would be, but without hashing: the thesis app
/// opens one stream per message (ids 0, 4, 8, … in order, RFC 9000 §2.1) and forgets each once
/// read, so the live ids lie in a short window. Ids from the window's base up to `span` past it
/// are slots of an array (the base moves past the forgotten ones at the front); any other id
/// (behind the base, or far ahead) is kept in a dictionary used only for them. An id lives in
/// one place at a time and every operation looks in both, so the table answers exactly as one
/// dictionary does.
struct ReceivedStreams: Sendable {
    /// One stream: the end of its contiguous prefix, and the ranges received beyond it.
    typealias Entry = (contiguous: Int64, ranges: [(Int64, Int64)])

    /// How far past the base a slot may lie (ids further ahead go to `others`).
    static let span: Int64 = 1 << 16
    /// The entry of an id in the window that has none.
    static let absent: Entry = (-1, [])
    /// Consumed slots kept at the front before the array is compacted.
    static let compactAfter = 1024

    /// The id of slot `head`.
    private var base: Int64 = 0
    /// The window's entries; an id with none holds `absent` (contiguous end −1).
    private var slots: [Entry] = []
    private var head = 0
    /// Streams outside the window when they were first received.
    private var others: [Int64: Entry] = [:]

    /// The slot of `stream`, if it lies in the window.
    @inline(__always) private func slot(_ stream: Int64) -> Int? {
        let i = stream &- base
        return i >= 0 && i < Int64(slots.count - head) ? head + Int(i) : nil
    }

    /// The stream's entry, if it received anything and was not forgotten.
    subscript(stream: Int64) -> Entry? {
        if let s = slot(stream), slots[s].contiguous >= 0 { return slots[s] }
        return others.isEmpty ? nil : others[stream]
    }

    /// Records [offset, offset + length) of the stream (an empty entry first if it has none);
    /// returns its contiguous end.
    mutating func receive(_ stream: Int64, offset: Int64, length: Int64) -> Int64 {
        if let s = slot(stream), slots[s].contiguous >= 0 {
            return Self.add(into: &slots[s], offset: offset, length: length)
        }
        if !others.isEmpty, others[stream] != nil {
            return Self.add(into: &others[stream, default: (0, [])], offset: offset, length: length)
        }
        let i = stream &- base
        guard i >= 0 && i < ReceivedStreams.span else {
            return Self.add(into: &others[stream, default: (0, [])], offset: offset, length: length)
        }
        while Int64(slots.count - head) <= i { slots.append(ReceivedStreams.absent) }
        let s = head + Int(i)
        slots[s] = (0, [])
        return Self.add(into: &slots[s], offset: offset, length: length)
    }

    /// Adds [offset, offset + length) to one stream's entry, changed in place (a copy taken out
    /// and written back would copy the ranges on every out-of-order append); returns its
    /// contiguous end.
    static func add(into entry: inout Entry, offset: Int64, length: Int64) -> Int64 {
        let end = offset + length
        if offset <= entry.contiguous {
            entry.contiguous = Swift.max(entry.contiguous, end)
            var changed = true
            while changed {
                changed = false
                if let i = entry.ranges.firstIndex(where: { $0.0 <= entry.contiguous }) {
                    entry.contiguous = Swift.max(entry.contiguous, entry.ranges[i].1)
                    entry.ranges.remove(at: i)
                    changed = true
                }
            }
        } else {
            entry.ranges.append((offset, end))
        }
        return entry.contiguous
    }

    /// Forgets the stream.
    mutating func remove(_ stream: Int64) {
        if let s = slot(stream), slots[s].contiguous >= 0 {
            slots[s] = ReceivedStreams.absent
            while head < slots.count && slots[head].contiguous < 0 {
                head += 1
                base += 1
            }
            if head == slots.count {
                slots.removeAll(keepingCapacity: true)
                head = 0
            } else if head > ReceivedStreams.compactAfter && head >= slots.count - head {
                slots.removeFirst(head)
                head = 0
            }
            return
        }
        if !others.isEmpty { others[stream] = nil }
    }
}
