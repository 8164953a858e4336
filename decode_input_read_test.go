package agui

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// readInputSeeds are bodies of the usual shape, with a variation each
// that readInput reads, or leaves to the indexing decoder.
var readInputSeeds = []string{
	`{"threadId":"t","runId":"r","messages":[]}`,
	`{"messages":[{"role":"user","id":"u","content":"hi"}],"runId":"r","threadId":"t","protocolVersion":"1.2"}`,
	`{"threadId":"t","runId":"r","protocolVersion":null,"parentRunId":"p","state":{"a":[1, 2]},"messages":[` +
		`{"id":"a","role":"assistant","content":null,"toolCalls":[]},` +
		`{"id":"b","role":"assistant","name":"n","toolCalls":[{"id":"c","function":{"name":"f","arguments":"{}"},"type":null},` +
		`{"id":"d","type":"function","function":{"arguments":"[]","name":"g"},"encryptedValue":"e","encryptedValueType":"x.y"}]},` +
		`{"id":"t","role":"tool","toolCallId":"c","content":"ok","error":"boom","subagentRunId":"s"},` +
		`{"id":"s","role":"system","content":"be brief","name":null},{"id":"v","role":"developer","content":"d"},` +
		`{"id":"z","role":"reasoning","content":"hm","encryptedValue":"e"}],` +
		`"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}],"context":[{"description":"d","value":"v"}],` +
		`"forwardedProps":{"x":null},"resume":[{"interruptId":"i","status":"resolved","payload":[1]}],"extra":[{"deep":true}]}`,
	// Shapes left to the indexing decoder, message by message.
	`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"a"}]},` +
		`{"id":"m","role":"user","content":"x","metadata":{"n":1.50}},{"id":"a","role":"activity","activityType":"k","content":{"p":1}},` +
		`{"id":"t","role":"tool","toolCallId":"c","content":"x","name":"ignored"},{"id":"u2","role":"user","content":"y","unknown":1}]}`,
	// Whitespace everywhere.
	" {\n \"threadId\" : \"t\" ,\t\"runId\":\"r\",\r\n\"messages\" : [ { \"id\" : \"u\" , \"role\" : \"user\" , \"content\" : \"a\\nb\\u00e9\" } ] } \n",
	// Errors and repeats, all the indexing decoder's.
	`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"robot","content":"x"}]}`,
	`{"threadId":"t","runId":"r","messages":[{"id":"u","id":"v","role":"user","content":"x"}]}`,
	`{"threadId":"t","threadId":"u","runId":"r","messages":[]}`,
	`{"threadId":"t","runId":"r","protocolVersion":"2.0","messages":[]}`,
	`{"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"other","function":{"name":"f","arguments":""}}]}]}`,
	`{"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":null}]}]}`,
	`{"threadId":"t","runId":"r","messages":[{"id":"t","role":"tool","content":"x"}]}`,
	`{"threadId":null,"runId":"r","messages":[]}`,
	`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"x"}]`,
	`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"x"},]}`,
	`{"threadId":"t","runId":"r","messages":[]} x`,
	"{\"threadId\":\"\xff\",\"runId\":\"\\ud800\",\"messages\":[{\"id\":\"m\",\"role\":\"user\",\"content\":\"\xc3(\"}]}",
}

// FuzzReadInputAgreesWithDecodeInput holds readInput to the indexing
// decoder: an input it reads is the indexing decoder's input, equal in
// every field, lenient and strict alike.
func FuzzReadInputAgreesWithDecodeInput(f *testing.F) {
	for _, s := range readInputSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Add(sweepInput(4), false)
	f.Add(benchInput(3), true)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		got, ok := readInput(data, strict)
		want, err := decodeInput(data, strict)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("readInput reads what the indexing decoder refuses: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("readInput read\n%s\nthe indexing decoder\n%s", g, w)
		}
	})
}

// TestReadInputReadsTheUsualShapes keeps long threads on the one-pass
// reading: a body of the usual shape that readInput gave up on would
// decode alike, only slower (the BENCHMARKS figures would not be ours).
func TestReadInputReadsTheUsualShapes(t *testing.T) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, sweepInput(8), "", "  "); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"sweep": sweepInput(100), "bench": benchInput(100), "indented": indented.Bytes(),
		"every member": []byte(readInputSeeds[2]),
	} {
		for _, strict := range []bool{false, true} {
			if strict && name == "every member" {
				continue // its extra member is unknown
			}
			if _, ok := readInput(data, strict); !ok {
				t.Errorf("%s (strict %v): readInput gave up", name, strict)
			}
		}
	}
}

// TestReadInputLeavesOddMessagesToTheIndex checks that a message of a
// shape readInput does not read costs it only that message: the rest of
// the body is still read in one pass, and the input is the same.
func TestReadInputLeavesOddMessagesToTheIndex(t *testing.T) {
	data := []byte(readInputSeeds[3])
	got, ok := readInput(data, false)
	if !ok {
		t.Fatal("readInput gave up")
	}
	if len(got.Messages) != 5 || got.Messages[1].(*UserMessage).Metadata["n"] != json.Number("1.50") {
		t.Fatalf("messages %#v", got.Messages)
	}
	if _, ok := readInput(data, true); ok {
		t.Error("strict: readInput read a message with an unknown member")
	}
}
