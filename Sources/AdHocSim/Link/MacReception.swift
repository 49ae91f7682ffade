import Foundation

/// Frame reception in `WirelessLink`'s MAC: each MPDU of a frame that ended at its receiver is
/// decoded with the error model at the frame's SINR (capture included); duplicates of MPDUs that
/// already arrived are acknowledged but not passed up (§10.3.2.11); what arrived is handed up in
/// sequence order (`ReorderBuffer`); a data frame is answered after SIFS with an ACK or a block
/// ACK, and an ACK or block ACK ends its sender's exchange.
extension WirelessLink {
    /// Whether an MPDU of `bytes` at `mcs` received at `signalMw` over `noiseMw` survives at `r`
    /// (`FrameDecoder`, drawing from `r`'s stream only when the outcome is uncertain).
    mutating func survives(signalMw: Double, noiseMw: Double, mcs: Mcs, bytes: Int, at r: Int) -> Bool {
        decoder.survives(
            signalMw: signalMw, noiseMw: noiseMw, mcs: mcs, bytes: bytes, stream: &stations[r].receiveStream)
    }

    /// `frame` from `sender`, which `r` was locked onto, ended at `signalMw`.
    mutating func receive(_ frame: MacFrame, from sender: Int, at r: Int, signalMw: Double, sim: inout Simulation) {
        let noise = medium.noiseAndInterference(at: r)
        switch frame.kind {
        case .data, .broadcast:
            guard frame.kind == .broadcast || frame.destination == r else {
                access[r].useEifs = false
                return
            }
            var bitmap: UInt64 = 0
            var odds = decoder.odds(signalMw: signalMw, noiseMw: noise, mcs: frame.mcs)
            for k in 0..<frame.mpdus {
                let packet = stations[sender].queue[k].packet
                let bytes = AmpduPlanner.mpduBytes(packet.bytes)
                if decoder.survives(&odds, bytes: bytes, stream: &stations[r].receiveStream) {
                    bitmap |= 1 << UInt64(k)
                    if frame.kind == .broadcast {
                        passUp(packet, at: r)
                    } else if !stations[sender].queue[k].arrived {
                        stations[sender].queue[k].arrived = true
                        reorderArrival(packet, seq: stations[sender].queue[k].macSeq, from: sender, at: r)
                    }
                } else {
                    access[r].receiveFailures += 1
                }
            }
            access[r].useEifs = bitmap == 0
            if frame.kind == .data && bitmap != 0 {
                setPendingResponse(r, (sender, bitmap, frame.mpdus, phy.rateBitsPerSecond(frame.mcs)))
                sim.cancel(access[r].accessTimer)
                sim.schedule(after: mac.sifs, target: UInt32(r), kind: .macRespond)
            }
        case .ack, .blockAck:
            guard frame.destination == r, access[r].state == .awaitingResponse else { return }
            let rate = ControlFrame.basicRate(forDataRate: phy.rateBitsPerSecond(stations[r].inFlightMcs))
            let bytes = frame.kind == .ack ? ControlFrame.ackBytes : ControlFrame.blockAckBytes
            if survives(signalMw: signalMw, noiseMw: noise, mcs: rate.mcs, bytes: bytes, at: r) {
                sim.cancel(stations[r].ackTimer)
                acknowledged(r, bitmap: frame.bitmap, sim: &sim)
            }
        }
    }

    /// `receive` for the receivers of a broadcast frame (one MPDU, `packet`, no response) whose
    /// receptions ended, `items[range]` (all `frameEnded`), in order: each decodes as `receive`
    /// decodes (`FrameDecoder`) and passes the packet up or counts a failure, in one loop over
    /// the stations' storage (no uniqueness check or packet lookup per receiver).
    mutating func receiveBroadcast(
        _ packet: LinkPacket, mcs: Mcs, _ items: UnsafeMutablePointer<PhyIndication>, _ range: Range<Int>
    ) {
        var out = notices
        notices = []
        let bytes = AmpduPlanner.mpduBytes(packet.bytes)
        let decoder = self.decoder
        let medium = self.medium.readings  // read while the stations are written
        var ac = access
        access = []  // written through `ac` without a uniqueness check per receiver
        defer { access = ac }
        ac.withUnsafeMutableBufferPointer { ac in
            stations.withUnsafeMutableBufferPointer { st in
                for k in range {
                    guard case .frameEnded(let r, let signalMw) = items[k] else { continue }
                    let noise = medium.noiseAndInterference(at: r)
                    if decoder.survives(
                        signalMw: signalMw, noiseMw: noise, mcs: mcs, bytes: bytes, stream: &st[r].receiveStream)
                    {
                        // As `passUp(_:at:)`.
                        ac[r].received += 1
                        ac[r].receivedBytes += UInt64(packet.bytes)
                        out.append(LinkNotice(kind: .delivered, node: UInt32(r), packet: packet))
                        ac[r].useEifs = false
                    } else {
                        ac[r].receiveFailures += 1
                        ac[r].useEifs = true
                    }
                }
            }
        }
        notices = out
    }

    /// A data or broadcast frame whose sender failed while sending it ended at `r`: its packets
    /// were dropped at the failure, so a receiver it was meant for decodes none of its MPDUs
    /// (and defers by EIFS, as after any frame it could not decode).
    mutating func receiveCutShort(_ frame: MacFrame, at r: Int) {
        guard frame.kind == .broadcast || frame.destination == r else {
            access[r].useEifs = false
            return
        }
        access[r].receiveFailures += UInt64(frame.mpdus)
        access[r].useEifs = true
    }

    @inline(__always)
    mutating func passUp(_ packet: LinkPacket, at r: Int) {
        access[r].received += 1
        access[r].receivedBytes += UInt64(packet.bytes)
        notices.append(LinkNotice(kind: .delivered, node: UInt32(r), packet: packet))
    }

    /// Hands MPDU `seq` from `sender` (or its give-up, `nil`) to `r`'s reordering buffer and
    /// passes up what is then in order.
    mutating func reorderArrival(_ packet: LinkPacket?, seq: UInt64, from sender: Int, at r: Int) {
        switch stations[r].reorder.advance(seq: seq, from: sender, nodeCount: stations.count) {
        case .stale:
            return
        case .inOrder:
            if let packet { passUp(packet, at: r) }
        case .outOfOrder:
            var ready = readyScratch
            readyScratch = []
            stations[r].reorder.buffer(packet, seq: seq, from: sender, nodeCount: stations.count, ready: &ready)
            for p in ready { passUp(p, at: r) }
            ready.removeAll(keepingCapacity: true)
            readyScratch = ready
        }
    }

    /// SIFS after a data frame: send its ACK or block ACK.
    mutating func respond(_ r: Int, sim: inout Simulation) {
        guard let response = stations[r].pendingResponse, !medium.isOff(r) else { return }
        setPendingResponse(r, nil)
        let rate = ControlFrame.basicRate(forDataRate: response.dataRate)
        let blockAck = response.mpdus > 1
        let airtime = ControlFrame.airtime(
            bytes: blockAck ? ControlFrame.blockAckBytes : ControlFrame.ackBytes,
            dbps: rate.dbps, is24GHz: phy.is24GHz)
        startTransmission(
            MacFrame(
                kind: blockAck ? .blockAck : .ack, destination: response.to, mpdus: 0, mcs: rate.mcs,
                bitmap: response.bitmap), from: r, airtime: airtime, sim: &sim)
    }

    /// The ACK or block ACK arrived: acknowledged MPDUs leave the queue, the rest are retried.
    mutating func acknowledged(_ i: Int, bitmap: UInt64, sim: inout Simulation) {
        let n = stations[i].inFlight
        let sentMask: UInt64 = n >= 64 ? .max : (1 << UInt64(n)) - 1
        reportExchange(i, sent: n, delivered: (bitmap & sentMask).nonzeroBitCount, now: sim.now)
        var kept = keptScratch
        keptScratch = []
        kept.removeAll(keepingCapacity: true)
        for k in 0..<n {
            let entry = stations[i].queue[k]
            if bitmap & (1 << UInt64(k)) != 0 {
                stations[i].counters.delivered += 1
                notices.append(LinkNotice(kind: .senderDone, node: UInt32(i), packet: entry.packet))
            } else {
                kept.append(entry)
            }
        }
        stations[i].queue.replacePrefix(n, with: kept)
        dropExhausted(i, upTo: kept.count)
        kept.removeAll(keepingCapacity: true)
        keptScratch = kept
        finishExchange(i, success: true, sim: &sim)
    }
}
