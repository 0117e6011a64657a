/// One side's batch of sequential requests: how long it took, and the CPU the whole process spent meanwhile (the
/// side's own work, URLSession's and curl's threads, the in-process seed server and, for the client, its reporter).
struct Batch {
    let wall: Duration
    let cpuSeconds: Double
}
