// Core layer: simulated time, the event queue, the simulation loop and named random streams.
//
// The core owns the single clock and the single pending-event queue of one simulation run.
// Time is an integer count of nanoseconds (`SimTime`); events are 32-byte value types ordered
// by (time, insertion sequence), so simultaneous events run in the order they were scheduled.
// Upper layers give events meaning through a small `EventHandler` protocol that the loop calls
// with a `switch`-friendly `EventKind`; the core never knows what a packet or a node is.
// Every random draw comes from a `RandomStream` seeded from the run seed and a stable FNV-1a
// hash of the stream's name, so adding a stream never changes another stream's draws.
// Nothing in this folder allocates per event, uses closures on the hot path, or iterates a
// `Dictionary` or `Set` in a way that could reach event order.
