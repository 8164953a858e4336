package e2e

import (
	"strconv"
	"strings"
)

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

// ThreadMessages returns the JSON array of n messages of a long agentic
// thread, about 300 bytes each, in groups of four: a user message, an
// assistant message calling a tool, the tool's result, and the assistant's
// answer. Every peer's input schema accepts it.
func ThreadMessages(n int) []byte {
	const filler = "the quick brown fox jumps over the lazy dog and then, having done so, rests for a while; "
	text := func(i int, prefix string) string {
		s := prefix + strconv.Itoa(i) + ": " + strings.Repeat(filler, 3)
		return s[:250]
	}
	b := make([]byte, 0, n*320+2)
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		id := strconv.Itoa(i)
		call := "call-" + strconv.Itoa(i/4)
		switch i % 4 {
		case 0:
			b = append(b, `{"id":"m-`+id+`","role":"user","content":"`+text(i, "question")+`"}`...)
		case 1:
			b = append(b, `{"id":"m-`+id+`","role":"assistant","toolCalls":[{"id":"`+call+
				`","type":"function","function":{"name":"search_recipes","arguments":"{\"query\":\"vegetarian lasagna `+id+
				`\",\"max_results\":10,\"filters\":{\"cuisine\":\"italian\",\"max_minutes\":90}}"}}]}`...)
		case 2:
			b = append(b, `{"id":"m-`+id+`","role":"tool","toolCallId":"`+call+`","content":"{\"results\":[{\"id\":\"r1\",\"title\":\"Spinach Lasagna `+id+
				`\",\"minutes\":75},{\"id\":\"r2\",\"title\":\"Ricotta Bake\",\"minutes\":60}],\"total\":2,\"source\":\"recipes\"}"}`...)
		default:
			b = append(b, `{"id":"m-`+id+`","role":"assistant","content":"`+text(i, "answer")+`"}`...)
		}
	}
	return append(b, ']')
}
