package agui

import (
	"bytes"
	"strings"
	"testing"
)

func TestAppendSSEFrame(t *testing.T) {
	dst := []byte(SSEHeartbeat)
	got, err := AppendSSE(dst, &TextMessageContent{MessageID: "m", Delta: "a\nb\r\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := ": ping\n\n" + `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\nb\r\n"}` + "\n\n"
	if string(got) != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
	if bytes.Contains(got, []byte("\r")) {
		t.Error("frame contains CR")
	}
}

func TestAppendSSEFramesEveryEventOnOneLine(t *testing.T) {
	for _, c := range fullEvents() {
		got, err := AppendSSE(nil, c.ev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := "data: " + c.want + "\n\n"; string(got) != want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, want)
		}
		if strings.Count(string(got), "\n") != 2 {
			t.Errorf("%s: frame has inner newlines: %q", c.name, got)
		}
	}
}

func TestAppendSSEErrorsLeaveDstUnchanged(t *testing.T) {
	big := strings.Repeat("x", MaxEventSize)
	cases := []struct {
		name string
		ev   Event
	}{
		{"nil event", nil},
		{"unencodable value", &Custom{Name: "c", Value: make(chan int)}},
		{"oversized event", &TextMessageContent{MessageID: "m", Delta: big}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := make([]byte, 3, 64)
			copy(dst, "abc")
			got, err := AppendSSE(dst, c.ev)
			if CodeOf(err) != CodeSerialization {
				t.Fatalf("err %v, want a %s error", err, CodeSerialization)
			}
			if string(got) != "abc" {
				t.Errorf("dst changed to %q", got[:min(len(got), 20)])
			}
		})
	}
}

func TestAppendSSESizeLimitIsOnTheJSON(t *testing.T) {
	overhead := len(`{"type":"CUSTOM","name":"c","value":""}`)
	atLimit := &Custom{Name: "c", Value: strings.Repeat("y", MaxEventSize-overhead)}
	got, err := AppendSSE(nil, atLimit)
	if err != nil {
		t.Fatalf("event of exactly MaxEventSize bytes refused: %v", err)
	}
	if n := len(got) - len("data: \n\n"); n != MaxEventSize {
		t.Fatalf("JSON is %d bytes, want %d", n, MaxEventSize)
	}
	atLimit.Value = atLimit.Value.(string) + "y"
	if _, err := AppendSSE(nil, atLimit); CodeOf(err) != CodeSerialization {
		t.Fatalf("event one byte over the limit: err %v", err)
	}
}

func TestSSEConstants(t *testing.T) {
	if SSEContentType != "text/event-stream" {
		t.Errorf("SSEContentType %q", SSEContentType)
	}
	if SSEHeartbeat != ": ping\n\n" || !strings.HasPrefix(SSEHeartbeat, ":") {
		t.Errorf("SSEHeartbeat %q is not an SSE comment frame", SSEHeartbeat)
	}
	if MaxEventSize != 10*1024*1024 {
		t.Errorf("MaxEventSize %d", MaxEventSize)
	}
}
