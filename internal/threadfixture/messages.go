package threadfixture

import (
	"strconv"
	"strings"
)

// Messages returns the JSON array of n messages of a long agentic thread,
// about 300 bytes each, in groups of four: a user message, an assistant
// message calling a tool, the tool's result, and the assistant's answer.
// Tool arguments and results are JSON inside strings, so the decoder meets
// an escape every few bytes, as it does in real threads. Every AG-UI SDK's
// input schema accepts it.
func Messages(n int) []byte {
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
