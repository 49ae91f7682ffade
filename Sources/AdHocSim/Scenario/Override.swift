/// `--set PATH=VALUE`: replaces or adds one scalar in the scenario before it is decoded, so an
/// overridden value passes exactly the same validation as one written in the file, and errors
/// about it name the `--set` argument. The one exception is `matrix={...}`, which replaces a
/// sweep's whole matrix.
enum Override {
    /// Applies `PATH=VALUE` arguments to `root` in order (a later one for the same path wins),
    /// reporting problems to `sink`.
    ///
    /// VALUE is read as a JSON scalar when it is one (`3`, `2.5e-3`, `true`, `null`,
    /// `"quoted"`); anything else is taken as a bare string (`--set environment.preset=city`).
    ///
    /// The arguments are gathered into a tree of their paths first, and the document is walked
    /// once: linear in the arguments and the document, however many there are (applied
    /// one by one, each search of an object's members made an overrides file
    /// of 300 000 keys quadratic).
    ///
    /// `source` names where the arguments came from in messages: `--set`, or an overrides file
    /// (`--overrides cal.json`).
    static func apply(_ arguments: [String], source: String = "--set", to root: inout JSONNode, sink: DiagnosticSink) {
        let tree = Step(origin: .generated)
        for argument in arguments {
            guard let (path, value) = parse(argument, source: source, sink: sink) else { continue }
            var step = tree
            var walked = JSONPath.root
            var conflict = false
            for c in path.components {
                if step.value != nil {
                    conflict = true
                    sink.report(
                        "another argument sets this path to a single value, so nothing can be set inside it",
                        path: walked, at: value.origin)
                    break
                }
                step = step.child(c, origin: value.origin)
                walked.components.append(c)
            }
            if conflict { continue }
            if !step.children.isEmpty {
                sink.report(
                    "--set replaces single values only; other arguments set members inside this path", path: path,
                    at: value.origin)
                continue
            }
            step.value = value
        }
        apply(tree, to: &root, walked: .root, sink: sink)
    }

    /// One `PATH=VALUE` argument read, or `nil` after reporting why not.
    private static func parse(_ argument: String, source: String, sink: DiagnosticSink) -> (JSONPath, JSONNode)? {
        let origin = ValueOrigin.override("\(source) \(argument)")
        guard let eq = argument.firstIndex(of: "=") else {
            sink.report("expected PATH=VALUE, for example environment.pathLossExponent=3", path: .root, at: origin)
            return nil
        }
        let pathText = String(argument[..<eq])
        let valueText = String(argument[argument.index(after: eq)...])
        guard let path = JSONPath.parse(pathText) else {
            sink.report(
                "\"\(Diagnostic.excerpt(pathText))\" is not a JSON path like environment.pathLossExponent or "
                    + "nodes[0].position[2] (of at most \(JSONPath.maxComponents) components)",
                path: .root, at: origin)
            return nil
        }
        let value: JSONValue
        if let parsed = JSONParser.parseScalar(valueText) {
            switch parsed {
            case .object where path == wholeObjectPath:
                // The one object `--set` may replace whole: a sweep's matrix from the command line.
                return (path, reorigin(JSONNode(parsed, origin: origin)))
            case .array, .object:
                sink.report("--set replaces single values only; set the members one by one", path: path, at: origin)
                return nil
            default:
                value = parsed
            }
        } else {
            value = .string(valueText)
        }
        return (path, JSONNode(value, origin: origin))
    }

    /// The one path whose value `--set` may replace with an object: the top-level `matrix`
    /// (`adhocsim sweep --matrix`), since an axis's values are an array that cannot
    /// be set one member at a time without first existing.
    static let wholeObjectPath = JSONPath.root.appending("matrix")

    /// `node` with every value and key inside it marked as coming from its argument, so a
    /// problem inside it names the argument, not a position in the scenario file.
    private static func reorigin(_ node: JSONNode) -> JSONNode {
        func walk(_ n: JSONNode, _ o: ValueOrigin) -> JSONNode {
            switch n.value {
            case .array(let items): return JSONNode(.array(items.map { walk($0, o) }), origin: o)
            case .object(let members):
                return JSONNode(
                    .object(members.map { JSONMember(key: $0.key, keyOrigin: o, value: walk($0.value, o)) }),
                    origin: o)
            default: return JSONNode(n.value, origin: o)
            }
        }
        return walk(node, node.origin)
    }

    /// A node of the tree of override paths: the value set here, or the steps below it in the
    /// order the arguments first name them.
    private final class Step {
        /// The argument that first named this step (for messages).
        let firstOrigin: ValueOrigin
        var value: JSONNode?
        var children: [(component: JSONPath.Component, step: Step)] = []
        private var keys: [String: Int] = [:]
        private var indices: [Int: Int] = [:]

        init(origin: ValueOrigin) { firstOrigin = origin }

        /// The child for `c`, made when missing (first named by the argument at `origin`).
        func child(_ c: JSONPath.Component, origin: ValueOrigin) -> Step {
            switch c {
            case .key(let k):
                if let i = keys[k] { return children[i].step }
                keys[k] = children.count
            case .index(let n):
                if let i = indices[n] { return children[i].step }
                indices[n] = children.count
            }
            let s = Step(origin: origin)
            children.append((c, s))
            return s
        }
    }

    /// Applies the subtree `step` to `node`, reached by `walked`.
    private static func apply(_ step: Step, to node: inout JSONNode, walked: JSONPath, sink: DiagnosticSink) {
        if let newValue = step.value {
            setLeaf(newValue, in: &node, walked: walked, sink: sink)
            return
        }
        guard let first = step.children.first else { return }
        let origin = first.step.firstOrigin
        switch node.value {
        case .object(var members):
            node.value = .null  // members uniquely referenced: edited in place, not copied
            var position: [String: Int] = [:]
            position.reserveCapacity(members.count)
            for (i, m) in members.enumerated() where position[m.key] == nil { position[m.key] = i }
            for (c, child) in step.children {
                let here: JSONPath
                switch c {
                case .index(let index):
                    sink.report("cannot index [\(index)] into an object", path: walked, at: child.firstOrigin)
                    continue
                case .key(let key):
                    here = walked.appending(key)
                    if let i = position[key] {
                        apply(child, to: &members[i].value, walked: here, sink: sink)
                        continue
                    }
                    var made: JSONNode
                    if let v = child.value {
                        made = v
                    } else if case .index? = child.children.first?.component {
                        sink.report("there is no array here to index", path: here, at: child.firstOrigin)
                        continue
                    } else {
                        made = JSONNode(.object([]), origin: child.firstOrigin)
                        apply(child, to: &made, walked: here, sink: sink)
                    }
                    position[key] = members.count
                    members.append(JSONMember(key: key, keyOrigin: child.firstOrigin, value: made))
                }
            }
            node.value = .object(members)
        case .array(var elements):
            node.value = .null
            for (c, child) in step.children {
                switch c {
                case .key(let key):
                    sink.report(
                        "cannot set \"\(key)\" inside \(JSONValue.array(elements).summary)", path: walked,
                        at: child.firstOrigin)
                case .index(let index):
                    guard index < elements.count else {
                        sink.report(
                            "index [\(index)] is out of range (the array has \(elements.count) element\(elements.count == 1 ? "" : "s"))",
                            path: walked, at: child.firstOrigin)
                        continue
                    }
                    apply(child, to: &elements[index], walked: walked.appending(index), sink: sink)
                }
            }
            node.value = .array(elements)
        default:
            switch first.component {
            case .key(let key):
                sink.report("cannot set \"\(key)\" inside \(node.value.summary)", path: walked, at: origin)
            case .index(let index):
                sink.report("cannot index [\(index)] into \(node.value.summary)", path: walked, at: origin)
            }
        }
    }

    /// Puts `newValue` where `node` stands, unless `node` is an array or an object.
    private static func setLeaf(_ newValue: JSONNode, in node: inout JSONNode, walked: JSONPath, sink: DiagnosticSink) {
        if walked == wholeObjectPath, case .object = newValue.value {
            node = newValue
            return
        }
        switch node.value {
        case .array, .object:
            sink.report(
                "--set replaces single values only; this is \(node.value.summary)", path: walked, at: newValue.origin)
        default:
            node = newValue
        }
    }
}
