package agui_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agui-go/agui"
)

func TestNegotiate(t *testing.T) {
	const proto = agui.ProtoContentType
	cases := []struct {
		accept string
		want   agui.Format
	}{
		// No preference, or no mention of protobuf: SSE.
		{"", agui.FormatSSE},
		{"   ", agui.FormatSSE},
		{"text/event-stream", agui.FormatSSE},
		{"application/json", agui.FormatSSE},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", agui.FormatSSE},

		// Wildcards admit protobuf but never choose it (unlike the
		// TypeScript encoder, which answers protobuf to all of these).
		{"*/*", agui.FormatSSE},
		{"application/*", agui.FormatSSE},
		{"text/event-stream;q=1, */*;q=0.1", agui.FormatSSE},
		{"application/*, text/event-stream;q=0.1", agui.FormatSSE},

		// Explicit protobuf.
		{proto, agui.FormatProto},
		{"APPLICATION/VND.AG-UI.EVENT+PROTO", agui.FormatProto},
		{proto + ";charset=utf-8", agui.FormatProto},
		{proto + ";q=0.5", agui.FormatProto},
		{",," + proto + ",,", agui.FormatProto},

		// Explicitly refused.
		{proto + ";q=0", agui.FormatSSE},
		{proto + ";q=0.000", agui.FormatSSE},
		{proto + ";q=0, */*", agui.FormatSSE},

		// Compared with SSE: at least as preferred wins, a tie included.
		{"text/event-stream, " + proto, agui.FormatProto},
		{proto + ", text/event-stream", agui.FormatProto},
		{proto + " ; q=0.7 , text/event-stream ;q=0.7", agui.FormatProto},
		{proto + ";q=0.9, text/event-stream;q=0.8", agui.FormatProto},
		{proto + ";q=0.5, text/event-stream", agui.FormatSSE},
		{proto + ";q=0.5, */*;q=0.4", agui.FormatProto},
		{proto + ";q=0.5, */*", agui.FormatSSE},
		{proto + ";q=0.5, text/*;q=0.6", agui.FormatSSE},
		{"*/*, " + proto + ";q=0.5, text/event-stream;q=0.4", agui.FormatProto}, // the most specific SSE match counts
		{"text/event-stream;q=0, " + proto + ";q=0.001", agui.FormatProto},
		{proto + ";q=0.5, " + proto + ";q=0.8, text/event-stream;q=0.7", agui.FormatProto}, // highest listing counts

		// Accept extensions after q do not change the weight; quoted
		// commas and semicolons do not split.
		{proto + `;q=0.8;ext="a,b;c", text/event-stream;q=0.9`, agui.FormatSSE},
		{`text/event-stream;q=0.5;note="x,application/vnd.ag-ui.event+proto", ` + proto, agui.FormatProto},

		// Near misses are other types.
		{"application/vnd.ag-ui.event+protobuf", agui.FormatSSE},
		{"application/vnd.ag-ui.event", agui.FormatSSE},

		// Malformed headers are SSE, whatever they list.
		{proto + ";q=1.5", agui.FormatSSE},
		{proto + ";q=abc", agui.FormatSSE},
		{proto + ";q=", agui.FormatSSE},
		{proto + ";q=0.1234", agui.FormatSSE},
		{proto + ";q=-1", agui.FormatSSE},
		{proto + ";=1", agui.FormatSSE},
		{proto + ";noequals", agui.FormatSSE},
		{proto + ", garbage", agui.FormatSSE},
		{proto + ", /", agui.FormatSSE},
		{proto + ", */json", agui.FormatSSE},
		{proto + ", text/event stream", agui.FormatSSE},
		{"application/vnd.ag-ui.event+proto\x00", agui.FormatSSE},
	}
	for _, tc := range cases {
		if got := agui.Negotiate(tc.accept); got != tc.want {
			t.Errorf("Negotiate(%q) = %v, want %v", tc.accept, got, tc.want)
		}
	}
}

func TestFormatContentType(t *testing.T) {
	if got := agui.FormatSSE.ContentType(); got != "text/event-stream" {
		t.Errorf("SSE content type %q", got)
	}
	if got := agui.FormatProto.ContentType(); got != "application/vnd.ag-ui.event+proto" {
		t.Errorf("proto content type %q", got)
	}
	if agui.FormatSSE.String() != "sse" || agui.FormatProto.String() != "proto" {
		t.Errorf("String: %v %v", agui.FormatSSE, agui.FormatProto)
	}
}

func TestFormatAppendFrame(t *testing.T) {
	ev := &agui.TextMessageContent{MessageID: "m", Delta: "hi"}
	sse, err := agui.FormatSSE.AppendFrame([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	want, err := agui.AppendSSE([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sse, want) {
		t.Errorf("SSE frame %q, want %q", sse, want)
	}
	pb, err := agui.FormatProto.AppendFrame([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	want, err = agui.AppendProto([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pb, want) {
		t.Errorf("proto frame %x, want %x", pb, want)
	}
}

// FuzzNegotiate checks that no header makes Negotiate panic, and that a
// header which does not name the protobuf type never gets protobuf.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"", "*/*", agui.ProtoContentType, agui.ProtoContentType + ";q=0.5, text/event-stream",
		`a/b;c="d\"e,f";q=1`, "text/*;q=0.", `x/y;"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		got := agui.Negotiate(accept)
		if got == agui.FormatProto && !bytes.Contains(bytes.ToLower([]byte(accept)), []byte(agui.ProtoContentType)) {
			t.Fatalf("Negotiate(%q) chose protobuf without it being named", accept)
		}
	})
}

func ExampleNegotiate() {
	for _, accept := range []string{
		"text/event-stream",
		"*/*",
		"application/vnd.ag-ui.event+proto",
		"application/vnd.ag-ui.event+proto;q=0.5, text/event-stream",
	} {
		f := agui.Negotiate(accept)
		fmt.Printf("%-60q -> %s (%s)\n", accept, f, f.ContentType())
	}
	// Output:
	// "text/event-stream"                                          -> sse (text/event-stream)
	// "*/*"                                                        -> sse (text/event-stream)
	// "application/vnd.ag-ui.event+proto"                          -> proto (application/vnd.ag-ui.event+proto)
	// "application/vnd.ag-ui.event+proto;q=0.5, text/event-stream" -> sse (text/event-stream)
}
