/// What an event's argument holds, as a value: built where the event is scheduled (`argument`)
/// and read back where it is handled (`init(_:)`); the packing lives only in the value's type.
protocol EventArgument {
    /// The value read from an event's argument.
    init(_ argument: UInt64)
    /// The value as an event's argument.
    var argument: UInt64 { get }
}
