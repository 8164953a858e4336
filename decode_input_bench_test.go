package agui

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agui-go/agui/internal/threadfixture"
)

// benchInput is a RunAgentInput of n messages, about 315 bytes each:
// user, assistant (every third one calling a tool) and tool messages, with
// line breaks and quotes in their text, as a long conversation has.
func benchInput(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"threadId":"thread-1","runId":"run-2","protocolVersion":"1.0","state":{"step":3,"items":["a","b"]},"messages":[`)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 6) + `He said \"fine\".\nNext line.`
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case i%3 == 0:
			fmt.Fprintf(&b, `{"id":"msg-%04d","role":"user","content":"%s"}`, i, text)
		case i%3 == 1 && i%2 == 1:
			fmt.Fprintf(&b, `{"id":"msg-%04d","role":"assistant","content":"%s","toolCalls":[{"id":"call-%04d","type":"function","function":{"name":"search","arguments":"{\"q\":\"fox\"}"}}]}`, i, text[:120], i)
		case i%3 == 1:
			fmt.Fprintf(&b, `{"id":"msg-%04d","role":"assistant","content":"%s"}`, i, text)
		default:
			fmt.Fprintf(&b, `{"id":"msg-%04d","role":"tool","toolCallId":"call-%04d","content":"%s"}`, i, i-1, text[:200])
		}
	}
	b.WriteString(`],"tools":[{"name":"search","description":"Searches the web.","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}],"context":[{"description":"user","value":"ada"}],"forwardedProps":{}}`)
	return []byte(b.String())
}

// The plain structs encoding/json decodes the same body into: the floor.
type plainInput struct {
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	ProtocolVersion string          `json:"protocolVersion"`
	State           json.RawMessage `json:"state"`
	Messages        []plainMessage  `json:"messages"`
	Tools           []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"tools"`
	Context []struct {
		Description string `json:"description"`
		Value       string `json:"value"`
	} `json:"context"`
	ForwardedProps json.RawMessage `json:"forwardedProps"`
}

type plainMessage struct {
	ID         string `json:"id"`
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"toolCallId"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"toolCalls"`
}

func TestBenchInputDecodesTheSameBothWays(t *testing.T) {
	data := benchInput(200)
	in, err := DecodeInput(data)
	if err != nil {
		t.Fatal(err)
	}
	var p plainInput
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if len(in.Messages) != 200 || len(p.Messages) != 200 {
		t.Fatalf("%d and %d messages, want 200", len(in.Messages), len(p.Messages))
	}
	for i, m := range in.Messages {
		var text string
		switch m := m.(type) {
		case *UserMessage:
			text = m.Content.Text
		case *AssistantMessage:
			text = m.Content
		case *ToolMessage:
			text = m.Content.Text
		}
		if text != p.Messages[i].Content {
			t.Fatalf("message %d: %q, encoding/json %q", i, text, p.Messages[i].Content)
		}
	}
	if n := len(data); n < 60_000 || n > 66_000 {
		t.Errorf("benchmark input is %d bytes, want about 63 KB", n)
	}
}

// BenchmarkDecodeInput decodes a 63 KB RunAgentInput of 200 messages with
// DecodeInput and, as the floor, with encoding/json into plain structs.
func BenchmarkDecodeInput(b *testing.B) {
	data := benchInput(200)
	b.Run("agui", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeInput(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var p plainInput
			if err := json.Unmarshal(data, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDecodeInputAllocatesPerThreadNotPerMessage holds DecodeInput to a
// few allocations whatever the thread's length (strings sliced from one
// copy of the body, messages and handles from slabs), and a long thread to
// bytes within three times the body's (a short one's are the slabs' first
// chunks).
func TestDecodeInputAllocatesPerThreadNotPerMessage(t *testing.T) {
	for _, n := range []int{10, 1000, 5000} {
		data := benchInput(n)
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := DecodeInput(data); err != nil {
				t.Fatal(err)
			}
		})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := DecodeInput(data); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		bytes := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d messages, %d bytes: %.0f allocations, %d bytes allocated", n, len(data), allocs, bytes)
		if allocs > 60 {
			t.Errorf("%d messages: %.0f allocations, want at most 60", n, allocs)
		}
		if n >= 1000 && bytes > 3*uint64(len(data)) {
			t.Errorf("%d messages: %d bytes allocated for a %d-byte body, want at most 3 times", n, bytes, len(data))
		}
	}
}

// sweepInput is a RunAgentInput of n messages laid out as the thread
// sweep of bench/e2e lays them out (threadfixture.Messages).
func sweepInput(n int) []byte {
	b := []byte(`{"threadId":"t","runId":"r","messages":`)
	b = append(b, threadfixture.Messages(n)...)
	return append(b, '}')
}

// BenchmarkDecodeInputSweep decodes 1,000 messages of the thread sweep's
// layout (320 KB).
func BenchmarkDecodeInputSweep(b *testing.B) {
	data := sweepInput(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeInput(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSweepInputDecodes keeps the benchmark's input valid.
func TestSweepInputDecodes(t *testing.T) {
	in, err := DecodeInput(sweepInput(8))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Messages) != 8 || len(in.Messages[1].(*AssistantMessage).ToolCalls) != 1 ||
		in.Messages[2].(*ToolMessage).Content.Text[:12] != `{"results":[` {
		t.Fatalf("decoded %#v", in.Messages)
	}
}
