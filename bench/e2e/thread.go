package e2e

// PathThread answers a run whose input carries a whole thread: the server
// decodes and checks the input as it does for a real agent, then streams
// ThreadEvents events (RUN_STARTED, a text message of three deltas,
// RUN_FINISHED). What it costs grows with the thread, so the thread-length
// sweep (Compare with Messages) measures the cost of a request's history.
const PathThread = "/thread"

// ThreadEvents is the number of events a PathThread stream carries.
const ThreadEvents = 7

// threadDeltas are the three deltas of the PathThread answer.
var threadDeltas = [3]string{"Here is ", "the answer ", "you asked for."}
