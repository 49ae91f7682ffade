import AdHocSim

enum Help {
    static let overview = """
        adhocsim: a deterministic simulator of phone-to-phone networks.

        Usage:
          adhocsim run FILE [--out DIR] [--seed N] [--overrides FILE] [--set PATH=VALUE]... [--pcap] [--view] [--timeline] [--quiet]
          adhocsim view DIR
          adhocsim schema
          adhocsim validate FILE... [--set PATH=VALUE]...
          adhocsim range [FILE] [--environment PRESET] [--set PATH=VALUE]...
          adhocsim sweep FILE [--out DIR] [-j N] [--shard K/N] [--resume] [--matrix FILE|JSON] [--overrides FILE] [--set PATH=VALUE]... [--quiet]
          adhocsim merge DIR... --out DIR [--allow-partial]
          adhocsim plot DIR
          adhocsim check FILE... [--seed N] [--golden DIR [--update-golden]] [--set PATH=VALUE]...
          adhocsim calibrate FILE --measured CSV --fit PATH=LOW:HIGH... [--holdout PLACES] [--out FILE]
          adhocsim compare DIR --measured CSV [--out DIR]
          adhocsim bench core [--population P] [--events E] [--repeat R] [--compare] [--no-baseline]
          adhocsim bench medium FILE [--frames F] [--on-air K] [--repeat R]
          adhocsim --version
          adhocsim COMMAND --help

        Exit status: 0 success; 1 the run completed but a check failed (or the event
        budget stopped it); 2 bad input, bad usage, or results that could not be written.
        """

    static let calibrate = """
        adhocsim calibrate FILE --measured CSV --fit PATH=LOW:HIGH... [--holdout PLACES]
                           [--metrics LIST] [--out FILE] [-j N] [--repeat R] [--max-evals N]
                           [--stall N] [--set PATH=VALUE]... [--quiet]

        Fits scenario parameters to field measurements. Each row of CSV is one measured thesis
        test: columns place, protocol, distance_m, packets, size_bytes and any of rtt_mean_ms,
        rtt_sd_ms, rtt_sd_sample_ms, data_rate_mbps, loss_pct (empty: not measured); rows of the
        same cell are averaged. For a point in the --fit bounds, every cell runs FILE R times (the
        same seeds for every point) and the means are compared. A CSV in the per-test layout of
        the published field data (columns side, protocol, place, distance_m, N, S, rtt_mean_ms,
        rtt_sd_sample_ms, rate_mbps, loss_pct, failed, source_file; field-data/README.md) is read
        as it is and compared by medians: per place and protocol for probe tests, per place,
        protocol, S and N for transfers, all distances together, groups of at least 2 tests;
        failed tests and places without a preset are skipped and said so. The loss is the mean of
        (ln((sim+0.01)/(measured+0.01)))² per RTT, jitter and rate value and
        ((sim−measured)/10)² per loss value (4 when no run produced it). A deterministic
        Nelder–Mead search in the bounds minimises it.

          --measured CSV       the measured metrics (rows of a matrix FILE must be its cells)
          --fit PATH=LOW:HIGH  a parameter and its bounds, e.g. host.receiveUs=0:200 (repeatable)
          --metrics LIST       fit only these metrics (comma separated names, e.g.
                               rtt_mean_ms,rtt_sd_sample_ms,data_rate_mbps; default: all)
          --holdout PLACES     fit without these places (comma separated) and report how well
                               the fit predicts their rows
          --out FILE           the calibrated overrides, a JSON object (default:
                               results/<scenario name>.calibrated.json); run and sweep read it
                               with --overrides FILE
          -j N                 parallel runs (default: the processor count; results do not
                               depend on it)
          --repeat R           runs (seeds) per measured cell (default 4)
          --max-evals N        the most loss evaluations (default 40 + 30 per parameter)
          --stall N            stop after N evaluations in a row without a better loss
                               (default: no such stop); the report names the evaluation
                               that first reached the fit
          --set PATH=VALUE     override FILE before fitting
        """

    static let compare = """
        adhocsim compare DIR --measured CSV [--out DIR] [--quiet]

        Sets a sweep's simulated tests (DIR/cells.csv) against measured ones and writes a
        validation report to --out (default DIR/compare): compare.md (the summary and a table per
        metric), compare.csv (one line per group and metric) and box plots of the measured and
        simulated distributions (compare-*.svg). CSV is read as calibrate reads it: the per-test
        layout of the published field data (medians per place and protocol for probe tests, per
        place, protocol, S and N for transfers, every distance together, groups of at least 2
        tests), or the per-cell layout (means per cell). A group agrees when the simulated value
        is within 1.5x (RTT, jitter), 2x (data rate) or 10 percentage points (loss).

          --measured CSV   the measured tests
          --out DIR        the report folder (missing, empty, or an earlier adhocsim folder)
        """

    static let run = """
        adhocsim run FILE [--out DIR] [--seed N] [--set PATH=VALUE]... [--pcap] [--view] [--timeline] [--quiet]

        Simulates the scenario in FILE and writes its results to DIR (default:
        results/<scenario name>/), replacing that folder atomically: metadata.json,
        scenario.json (the effective input) and the result tables.

          --out DIR          the folder for this run's results
          --seed N           the run seed (overrides "seed" in the file)
          --set PATH=VALUE   override one value by its JSON path, e.g.
                             --set environment.pathLossExponent=3 --set nodes[1].position[0]=30
                             (repeatable; validated like the file)
          --overrides FILE   apply a file of overrides first ({"json.path": value, ...}, as
                             adhocsim calibrate writes it)
          --pcap             also write <node>.pcap per node (IP/TCP/UDP/QUIC headers, for
                             Wireshark and tshark)
          --timeline         also record timeline.jsonl: positions, sessions, heartbeats, message
                             hops, routes, flow progress and probe RTTs over time (the run's
                             results are unchanged)
          --view             record the timeline and write view.html, a self-contained page
                             that plays the run back (open it in any browser)
          --quiet            print only errors

        On a terminal, a run that takes longer than a second shows its simulated time,
        events per second and an ETA on one updating line of stderr (not with --quiet, and
        never when stderr is a pipe or a file); the results are the same either way.
        """

    static let view = """
        adhocsim view DIR

        Writes DIR/view.html from DIR/timeline.jsonl (recorded by `adhocsim run FILE --view`
        or `--timeline`): one self-contained page, no network, that plays the run back with a
        time slider, play/pause and speed. Phones at their positions, coloured by state;
        sessions; message frames and route returns hop by hop; heartbeat pulses; the clicked
        phone's route table; probe RTTs and bytes delivered for flows. Open view.html#t=80 to
        start at 80 s.
        """

    static let schema = """
        adhocsim schema [--table SECTION]

        Prints the JSON Schema (draft 2020-12) of the scenario format, the same as
        topologies/scenario.schema.json. Point a scenario's "$schema" at it (the shipped
        topologies do: "$schema": "../scenario.schema.json") and editors complete and check
        its keys, types and choices. The decoder stays the judge: it also checks node ids,
        ranges that depend on other keys and sizes (adhocsim validate).

        --table SECTION   prints the Markdown parameter table of a section declared once
                          (key, range, default, meaning, source), as docs/models/SECTION.md
                          holds it; declared so far: \(DeclaredSection.all.map(\.name).joined(separator: ", "))
        """

    static let validate = """
        adhocsim validate FILE... [--set PATH=VALUE]...

        Checks scenario files without running them and prints every problem of every file
        (file:line:column: error: json.path: what was expected, what was found).
        Writes nothing. Exit status 2 if any file has a problem.
        """

    static let bench = """
        adhocsim bench core [--population P] [--events E] [--repeat R] [--compare] [--no-baseline]

        The hold-model benchmark of the event core: P pending events (default 1000); every
        executed event schedules one new event at now + Exp(mean 1 ms) drawn from a named
        random stream; stops after E events (default 20000000). Runs R times (default 3) and
        reports the best, beside a bare 4-ary heap loop (no dispatch) measured in the same
        process as the baseline:

          events_per_s=<best> ... baseline_events_per_s=<...> ratio_to_baseline=<...>

          --compare          also time bare loops for every heap shape (docs/decisions/2026-11-22-event-queue.md)
          --no-baseline      skip the baseline (for memory measurements of the core alone)

        adhocsim bench medium FILE [--frames F] [--on-air K] [--repeat R] [--set PATH=VALUE]...

        The radio medium's receiver loop alone, on FILE's channel (place, radio, phones, seed):
        F frames (default 20000) begun and ended K at a time (default 8), no MAC or mesh.
        Prints, per variant, the best of R runs (default 3) as nanoseconds per receiver per
        frame (begin and end together) and as a ratio to the `row` baseline timed in the same
        process: `row` adds and removes each pair's static power, `draw` adds the fading draw,
        `medium` is the medium itself (locking, interference, carrier sense).
        """

    static let range = """
        adhocsim range [FILE] [--environment PRESET] [--set PATH=VALUE]...

        Prints range_m=<metres>: the largest distance at which a 1024-byte frame at the
        lowest MCS is received with probability >= 50 %, with shadowing at its median,
        no blockage and no fast fading, between handheld phones (1.2 m). Uses FILE's
        environment and radio, or the default radio in the given place (default field).

          --environment PRESET   underground, city, field, forest or custom
          --set PATH=VALUE       e.g. --set radio.txPowerDbm=10 --set environment.pathLossExponent=3
        """

    static let sweep = """
        adhocsim sweep FILE [--out DIR] [-j N] [--shard K/N] [--resume] [--matrix FILE|JSON]
                       [--overrides FILE] [--set PATH=VALUE]... [--quiet]

        Runs every cell of FILE's "matrix" ({"<json path>": [values...], "repeat": R}) and writes
        DIR (default results/<name>/): cells/ (one committed file per finished cell and repeat),
        cells.csv and cells.jsonl (rows sorted by cell id: the same bytes for any -j, sharding or
        resume) and metadata.json. Each cell's seed derives from the sweep seed and its id.

          -j N          worker threads (default: the number of cores)
          --shard K/N   run only every N-th cell starting at the K-th (for batch schedulers)
          --resume      keep finished cells in DIR and run the rest
          --matrix FILE|JSON  sweep this matrix instead of FILE's own: a file holding the
                        matrix object, or the object itself ('{"distance_m": [1, 10, 50]}');
                        the same as --set matrix={...}, the one object --set may replace
          --overrides FILE  apply a file of overrides to every cell first (as adhocsim
                        calibrate writes it)
          --quiet       no progress output
        """

    static let merge = """
        adhocsim merge DIR... --out DIR [--allow-partial]

        Joins the cells of shard folders of one sweep into one cells.csv and cells.jsonl; refuses
        folders from different sweeps (input hash or version differ), and an incomplete set: every
        unit must be present exactly once, every shard finished, every cell file whole.
        --allow-partial merges such a set anyway and says what is missing.
        """

    static let plot = """
        adhocsim plot DIR

        Writes self-contained SVG charts of a sweep's cells.csv, and an index.html showing them,
        to DIR/plots: RTT and jitter per place and protocol (box plots), data rate and goodput
        against distance, UDP loss against the number of writes, maximum range per place.
        """

    static var check: String {
        let forms = ExpectationMetric.forms.map { "  " + $0.form + "\n" + wrapped($0.help, indent: 6) }
            .joined(separator: "\n")
        return """
            adhocsim check FILE... [--seed N] [--golden DIR [--update-golden]] [--set PATH=VALUE]...

            Runs each scenario and evaluates its "expectations", each one of:
            \(forms)
            Prints expected and observed values; exit status 1 if any check fails.

              --seed N           run with this seed instead of the file's
              --golden DIR       also compare the routes with DIR/<file name>.routes: every
                                 node's route to every destination, looked at every 100 ms
                                 (whatever the heartbeat interval) and kept as its changes
                                 ("t node destination path", "-" for none); a difference names
                                 the pairs that changed, those that changed only in time (by
                                 how much), and the first change (time, node, destination,
                                 stored and new route)
              --update-golden    write those logs instead of comparing them
            """
    }

    /// `text` broken into lines of at most 92 columns, each indented by `indent` spaces.
    static func wrapped(_ text: String, indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > 92 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        let pad = String(repeating: " ", count: indent)
        return lines.map { pad + $0 }.joined(separator: "\n")
    }

    static func text(for topic: String) -> String? {
        switch topic {
        case "run": return run
        case "view": return view
        case "schema": return schema
        case "validate": return validate
        case "bench": return bench
        case "range": return range
        case "sweep": return sweep
        case "merge": return merge
        case "plot": return plot
        case "check": return check
        case "calibrate": return calibrate
        case "compare": return compare
        default: return nil
        }
    }
}
