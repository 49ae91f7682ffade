/// `--set PATH=VALUE`: replaces or adds one scalar in the scenario before it is decoded, so an
/// overridden value passes exactly the same validation as one written in the file, and errors
/// about it name the `--set` argument.
enum Override {
    /// Applies one `PATH=VALUE` argument to `root`, reporting problems to `sink`.
    ///
    /// VALUE is read as a JSON scalar when it is one (`3`, `2.5e-3`, `true`, `null`,
    /// `"quoted"`); anything else is taken as a bare string (`--set environment.preset=city`).
    static func apply(_ argument: String, to root: inout JSONNode, sink: DiagnosticSink) {
        let origin = ValueOrigin.override("--set \(argument)")
        guard let eq = argument.firstIndex(of: "=") else {
            sink.report("expected PATH=VALUE, for example environment.pathLossExponent=3", path: .root, at: origin)
            return
        }
        let pathText = String(argument[..<eq])
        let valueText = String(argument[argument.index(after: eq)...])
        guard let path = JSONPath.parse(pathText) else {
            sink.report(
                "\"\(Diagnostic.excerpt(pathText))\" is not a JSON path like environment.pathLossExponent or "
                    + "nodes[0].position[2] (of at most \(JSONPath.maxComponents) components)",
                path: .root, at: origin)
            return
        }
        let value: JSONValue
        if let parsed = JSONParser.parseScalar(valueText) {
            switch parsed {
            case .array, .object:
                sink.report("--set replaces single values only; set the members one by one", path: path, at: origin)
                return
            default:
                value = parsed
            }
        } else {
            value = .string(valueText)
        }
        set(JSONNode(value, origin: origin), at: path.components[...], in: &root, walked: .root, sink: sink)
    }

    private static func set(
        _ newValue: JSONNode, at rest: ArraySlice<JSONPath.Component>, in node: inout JSONNode,
        walked: JSONPath, sink: DiagnosticSink
    ) {
        guard let step = rest.first else {
            switch node.value {
            case .array, .object:
                sink.report(
                    "--set replaces single values only; this is \(node.value.summary)", path: walked,
                    at: newValue.origin)
            default:
                node = newValue
            }
            return
        }
        let remaining = rest.dropFirst()
        switch step {
        case .key(let key):
            guard case .object(var members) = node.value else {
                sink.report("cannot set \"\(key)\" inside \(node.value.summary)", path: walked, at: newValue.origin)
                return
            }
            let here = walked.appending(key)
            if let i = members.firstIndex(where: { $0.key == key }) {
                set(newValue, at: remaining, in: &members[i].value, walked: here, sink: sink)
            } else {
                var child: JSONNode
                switch remaining.first {
                case nil: child = newValue
                case .key?: child = JSONNode(.object([]), origin: newValue.origin)
                case .index?:
                    sink.report("there is no array here to index", path: here, at: newValue.origin)
                    return
                }
                if !remaining.isEmpty { set(newValue, at: remaining, in: &child, walked: here, sink: sink) }
                members.append(JSONMember(key: key, keyOrigin: newValue.origin, value: child))
            }
            node.value = .object(members)
        case .index(let index):
            guard case .array(var elements) = node.value else {
                sink.report("cannot index [\(index)] into \(node.value.summary)", path: walked, at: newValue.origin)
                return
            }
            guard index < elements.count else {
                sink.report(
                    "index [\(index)] is out of range (the array has \(elements.count) element\(elements.count == 1 ? "" : "s"))",
                    path: walked, at: newValue.origin)
                return
            }
            set(newValue, at: remaining, in: &elements[index], walked: walked.appending(index), sink: sink)
            node.value = .array(elements)
        }
    }
}
