/// The receive path of the hosts: a complete datagram reaches its socket, and the flow's
/// application reacts (measurement.md, "Procedure of one test"): the server echoes every
/// complete probe and sinks the data; the client times the echoes, starts the transfer when all
/// are back, and writes while the transport takes writes.
extension HostStack {
    /// A complete datagram reached its destination host (the host's way up).
    mutating func deliverUp<L: LinkTechnology>(_ d: Datagram, link: inout L, sim: inout Simulation) {
        switch d.kind {
        case .quic: deliverQuic(d, link: &link, sim: &sim)
        case .udp: deliverUdp(d, link: &link, sim: &sim)
        case .tcp: deliverTcp(d, link: &link, sim: &sim)
        }
    }

    // MARK: UDP

    mutating func deliverUdp<L: LinkTechnology>(_ d: Datagram, link: inout L, sim: inout Simulation) {
        let k = Int(d.flow)
        if d.fromClient {
            if d.flags == UdpMarks.probe {
                var echo = d
                echo.fromClient = false
                echo.flags = UdpMarks.echo
                sendDown(echo, from: flows[k].serverNode, to: flows[k].clientNode, link: &link, sim: &sim)
            } else {
                flows[k].app.delivered(Int64(d.payload), now: sim.now, datagram: true)
            }
        } else if d.flags == UdpMarks.echo {
            if flows[k].app.echoArrived(Int(d.message), now: sim.now) && !flows[k].app.transferring {
                flows[k].app.beginTransfer()
                pump(k, link: &link, sim: &sim)
            }
        }
    }

    // MARK: TCP

    mutating func deliverTcp<L: LinkTechnology>(_ d: Datagram, link: inout L, sim: inout Simulation) {
        let k = Int(d.flow)
        let probeBytes = Int64(FlowApplication.probeBytes)
        let probeStream = Int64(flows[k].app.probes) * probeBytes
        if d.fromClient {
            let server = slot(.server(k))
            tcp[server].receive(d, sim: &sim)
            // Server application: echo every completed probe, then sink the data.
            let upTo = tcp[server].rcvNxt
            if upTo > flows[k].serverConsumed {
                while flows[k].app.serverEchoes < flows[k].app.probes
                        && upTo >= Int64(flows[k].app.serverEchoes + 1) * probeBytes {
                    tcp[server].write(probeBytes, sim: &sim)
                    flows[k].app.serverEchoed()
                }
                if upTo > probeStream {
                    let newData = upTo - Swift.max(flows[k].serverConsumed, probeStream)
                    if newData > 0 { flows[k].app.delivered(newData, now: sim.now, datagram: false) }
                }
                flows[k].serverConsumed = upTo
            }
            flush(.server(k), link: &link, sim: &sim)
            snapshotIfComplete(k)
        } else {
            let client = slot(.client(k))
            let wasEstablished = tcp[client].state == .established
            tcp[client].receive(d, sim: &sim)
            if !wasEstablished && tcp[client].state == .established {
                // Connected: write the probes back to back, or go straight to the transfer.
                for _ in 0..<flows[k].app.probes {
                    flows[k].app.probeWritten(now: sim.now)
                    tcp[client].write(probeBytes, sim: &sim)
                }
                if flows[k].app.probes == 0 { flows[k].app.beginTransfer() }
            }
            let upTo = tcp[client].rcvNxt
            while flows[k].clientConsumed + probeBytes <= upTo {
                let i = Int(flows[k].clientConsumed / probeBytes)
                flows[k].clientConsumed += probeBytes
                if flows[k].app.echoArrived(i, now: sim.now) && !flows[k].app.transferring { flows[k].app.beginTransfer() }
            }
            pump(k, link: &link, sim: &sim)
            // The test is over once every write is acknowledged: close (thesis and bulk runs).
            if flows[k].app.writes != .max && flows[k].app.writesDone == flows[k].app.writes {
                tcp[client].close(sim: &sim)
                flush(.client(k), link: &link, sim: &sim)
            }
        }
    }

    // MARK: QUIC

    /// The client writes its probes back to back (or starts the transfer when there are none).
    mutating func quicWriteProbes(_ k: Int, sim: inout Simulation) {
        let probes = flows[k].app.probes
        for i in 0..<probes {
            flows[k].app.probeWritten(now: sim.now)
            quicClientWrite(k, bytes: Int64(FlowApplication.probeBytes), message: i, sim: &sim)
        }
        if probes == 0 { flows[k].app.beginTransfer() }
    }

    /// The client writes message `message` (probe or transfer write) on QUIC: on a stream of its
    /// own (`streamPerWrite`) or at the next offset of stream 0.
    mutating func quicClientWrite(_ k: Int, bytes: Int64, message: Int, sim: inout Simulation) {
        let client = slot(.client(k))
        if quic[client].config.streamPerWrite {
            quic[client].write(stream: 4 * Int64(message), offset: 0, bytes: bytes, sim: &sim)
        } else {
            quic[client].write(stream: 0, offset: flows[k].clientStreamOffset, bytes: bytes, sim: &sim)
            flows[k].clientStreamOffset += bytes
        }
    }

    mutating func deliverQuic<L: LinkTechnology>(_ d: Datagram, link: inout L, sim: inout Simulation) {
        let k = Int(d.flow)
        let probeBytes = Int64(FlowApplication.probeBytes)
        let (client, server) = (slot(.client(k)), slot(.server(k)))
        let perWrite = quic[client].config.streamPerWrite
        let probes = flows[k].app.probes
        if d.fromClient {
            if let (stream, offset, length) = quic[server].receive(d, sim: &sim) {
                let before = quic[server].streams[stream]?.contiguous ?? 0
                let upTo = quic[server].deliverStream(stream, offset: offset, length: length)
                if perWrite {
                    let message = Int(stream / 4)
                    if message < probes {
                        if upTo >= probeBytes && before < probeBytes {
                            quic[server].write(stream: stream, offset: 0, bytes: probeBytes, sim: &sim)
                            flows[k].app.serverEchoed()
                            quic[server].closeStream(stream)
                        }
                    } else if upTo > before {
                        flows[k].app.delivered(upTo - before, now: sim.now, datagram: false)
                        if upTo >= flows[k].app.chunk { quic[server].closeStream(stream) }
                    }
                } else if upTo > flows[k].serverConsumed {
                    let probeStream = Int64(probes) * probeBytes
                    while flows[k].app.serverEchoes < probes && upTo >= Int64(flows[k].app.serverEchoes + 1) * probeBytes {
                        quic[server].write(stream: 0, offset: flows[k].serverStreamOffset, bytes: probeBytes, sim: &sim)
                        flows[k].serverStreamOffset += probeBytes
                        flows[k].app.serverEchoed()
                    }
                    if upTo > probeStream {
                        let newData = upTo - Swift.max(flows[k].serverConsumed, probeStream)
                        if newData > 0 { flows[k].app.delivered(newData, now: sim.now, datagram: false) }
                    }
                    flows[k].serverConsumed = upTo
                }
            }
            flush(.server(k), link: &link, sim: &sim)
            snapshotIfComplete(k)
        } else {
            let wasEstablished = quic[client].state == .established
            let carried = quic[client].receive(d, sim: &sim)
            if !wasEstablished && quic[client].state == .established && flows[k].app.probeSent.isEmpty {
                quicWriteProbes(k, sim: &sim)
            }
            if let (stream, offset, length) = carried {
                let upTo = quic[client].deliverStream(stream, offset: offset, length: length)
                if perWrite {
                    if upTo >= probeBytes {
                        quic[client].closeStream(stream)
                        if flows[k].app.echoArrived(Int(stream / 4), now: sim.now) && !flows[k].app.transferring {
                            flows[k].app.beginTransfer()
                        }
                    }
                } else {
                    while flows[k].clientConsumed + probeBytes <= upTo {
                        let i = Int(flows[k].clientConsumed / probeBytes)
                        flows[k].clientConsumed += probeBytes
                        if flows[k].app.echoArrived(i, now: sim.now) && !flows[k].app.transferring { flows[k].app.beginTransfer() }
                    }
                }
            }
            pump(k, link: &link, sim: &sim)
            flush(.client(k), link: &link, sim: &sim)
        }
    }
}
