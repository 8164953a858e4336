package agui_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

func collectEvents(t *testing.T, seq func(func(agui.Event, error) bool)) ([]agui.Event, error) {
	t.Helper()
	var evs []agui.Event
	for ev, err := range seq {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

func jsonOf(t *testing.T, evs []agui.Event) []string {
	t.Helper()
	out := make([]string, len(evs))
	for i, ev := range evs {
		b, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// TestReadRoundTrip reads back every sample event in both encodings.
func TestReadRoundTrip(t *testing.T) {
	want := aguitest.Samples()
	var sse, pb []byte
	for _, ev := range want {
		var err error
		if sse, err = agui.AppendSSE(sse, ev); err != nil {
			t.Fatal(err)
		}
		if pb, err = agui.AppendProto(pb, ev); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]struct {
		data []byte
		ct   string
	}{"sse": {sse, agui.SSEContentType}, "proto": {pb, agui.ProtoContentType + "; charset=binary"}} {
		got, err := collectEvents(t, agui.ReadEvents(bytes.NewReader(body.data), body.ct))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(jsonOf(t, got), jsonOf(t, want)) {
			t.Errorf("%s: events differ after a round trip", name)
		}
	}
}

// TestSSEReaderGrammar covers the parts of the SSE grammar a proxy or
// another server may produce: CRLF and CR line ends, a data value split
// over lines, no space after the colon, comments, ids, other fields, and a
// last frame that is never dispatched.
func TestSSEReaderGrammar(t *testing.T) {
	body := ": ping\r\n" +
		"id: 7\r\nevent: message\r\ndata: {\"type\":\"RUN_STARTED\",\r\ndata:\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n" +
		"retry: 10\rid: 8\rdata:{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\r" +
		":\n" +
		"data: {\"type\":\"RUN_ERROR\",\"message\":\"never dispatched\"}"
	r := agui.NewSSEReader(strings.NewReader(body))
	ev, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := ev.(*agui.RunStarted); !ok || s.ThreadID != "t" || r.LastEventID() != "7" {
		t.Fatalf("first event %#v, last id %q", ev, r.LastEventID())
	}
	ev, err = r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type() != agui.TypeRunFinished || r.LastEventID() != "8" {
		t.Fatalf("second event %s, last id %q", ev.Type(), r.LastEventID())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last dispatched frame: %v, want io.EOF", err)
	}
	if r.Comments() != 2 {
		t.Errorf("comments %d, want 2", r.Comments())
	}
}

func TestReadSSEErrors(t *testing.T) {
	tests := map[string]string{
		"not JSON":       "data: {nope\n\n",
		"unknown type":   "data: {\"type\":\"NOPE\"}\n\n",
		"frame too big":  "data: \"" + strings.Repeat("x", agui.MaxEventSize) + "\"\n\n",
		"line too long":  "data: " + strings.Repeat("x", agui.MaxEventSize+64),
		"over two lines": "data: \"" + strings.Repeat("x", agui.MaxEventSize/2+1) + "\n" + "data: " + strings.Repeat("x", agui.MaxEventSize/2+1) + "\"\n\n",
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := collectEvents(t, agui.ReadSSE(strings.NewReader("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"+body)))
			if len(evs) != 1 {
				t.Errorf("read %d events before the error, want 1", len(evs))
			}
			var e *agui.Error
			if !errors.As(err, &e) || e.Code == "" {
				t.Fatalf("error %v, want a coded *agui.Error", err)
			}
		})
	}
}

func TestReadProtoErrors(t *testing.T) {
	frame, err := agui.AppendProto(nil, &agui.RunStarted{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]byte{
		"cut in the prefix": frame[:2],
		"cut in the body":   frame[:len(frame)-1],
		"too large":         {0x7f, 0xff, 0xff, 0xff},
	}
	for name, tail := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := collectEvents(t, agui.ReadProto(bytes.NewReader(append(append([]byte{}, frame...), tail...))))
			if len(evs) != 1 || err == nil {
				t.Fatalf("read %d events, error %v; want 1 and an error", len(evs), err)
			}
		})
	}
}

// TestReadSSEStopsEarly checks that breaking out of the loop is safe.
func TestReadSSEStopsEarly(t *testing.T) {
	var body []byte
	for _, ev := range aguitest.Samples() {
		body, _ = agui.AppendSSE(body, ev)
	}
	n := 0
	for range agui.ReadSSE(bytes.NewReader(body)) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("read %d", n)
	}
}

func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	f.Add([]byte(": ping\r\nid: 1\rdata:{}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for ev, err := range agui.ReadSSE(bytes.NewReader(b)) {
			if (ev == nil) == (err == nil) {
				t.Fatalf("event %v with error %v", ev, err)
			}
		}
	})
}

// TestSSEReaderEventID: EventID is the id of the frame that carried the
// event, or none, while LastEventID keeps the stream's last id, as the
// standard says; an id in a frame without data is remembered by
// LastEventID only.
func TestSSEReaderEventID(t *testing.T) {
	body := "id: 1\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
		"id: 2\n\n" +
		"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}\n\n" +
		"id:\ndata: {\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}\n\n" +
		"id: a\x00b\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	r := agui.NewSSEReader(strings.NewReader(body))
	want := []struct {
		id, last string
		ok       bool
	}{{"1", "1", true}, {"", "2", false}, {"", "", true}, {"", "", false}}
	for i, w := range want {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		id, ok := r.EventID()
		if id != w.id || ok != w.ok || r.LastEventID() != w.last {
			t.Errorf("event %d: EventID %q, %v, LastEventID %q; want %q, %v, %q", i, id, ok, r.LastEventID(), w.id, w.ok, w.last)
		}
	}
}

// NextData hands over each frame's data undecoded, even data that is no
// event, with its id as EventID reports it.
func TestSSEReaderNextData(t *testing.T) {
	r := agui.NewSSEReader(strings.NewReader("id: 7\ndata: {\"type\":\"FUTURE\",\ndata: \"x\":1}\n\n: beat\n\ndata: not json\n\n"))
	want := []string{"{\"type\":\"FUTURE\",\n\"x\":1}", "not json"}
	for i, w := range want {
		data, err := r.NextData()
		if err != nil || string(data) != w {
			t.Fatalf("frame %d: %q, %v; want %q", i, data, err, w)
		}
		if id, ok := r.EventID(); (i == 0) != ok || (ok && id != "7") {
			t.Errorf("frame %d: EventID %q, %v", i, id, ok)
		}
	}
	if _, err := r.NextData(); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}
