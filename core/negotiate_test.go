package core_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agui-go/agui/core"
)

func TestNegotiate(t *testing.T) {
	const proto = core.ProtoContentType
	cases := []struct {
		accept string
		want   core.Format
	}{
		// No preference, or no mention of protobuf: SSE.
		{"", core.FormatSSE},
		{"   ", core.FormatSSE},
		{"text/event-stream", core.FormatSSE},
		{"application/json", core.FormatSSE},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", core.FormatSSE},

		// Wildcards admit protobuf but never choose it (unlike the
		// TypeScript encoder, which answers protobuf to all of these).
		{"*/*", core.FormatSSE},
		{"application/*", core.FormatSSE},
		{"text/event-stream;q=1, */*;q=0.1", core.FormatSSE},
		{"application/*, text/event-stream;q=0.1", core.FormatSSE},

		// Explicit protobuf.
		{proto, core.FormatProto},
		{"APPLICATION/VND.AG-UI.EVENT+PROTO", core.FormatProto},
		{proto + ";charset=utf-8", core.FormatProto},
		{proto + ";q=0.5", core.FormatProto},
		{",," + proto + ",,", core.FormatProto},

		// Explicitly refused.
		{proto + ";q=0", core.FormatSSE},
		{proto + ";q=0.000", core.FormatSSE},
		{proto + ";q=0, */*", core.FormatSSE},

		// Compared with SSE: at least as preferred wins, a tie included.
		{"text/event-stream, " + proto, core.FormatProto},
		{proto + ", text/event-stream", core.FormatProto},
		{proto + " ; q=0.7 , text/event-stream ;q=0.7", core.FormatProto},
		{proto + ";q=0.9, text/event-stream;q=0.8", core.FormatProto},
		{proto + ";q=0.5, text/event-stream", core.FormatSSE},
		{proto + ";q=0.5, */*;q=0.4", core.FormatProto},
		{proto + ";q=0.5, */*", core.FormatSSE},
		{proto + ";q=0.5, text/*;q=0.6", core.FormatSSE},
		{"*/*, " + proto + ";q=0.5, text/event-stream;q=0.4", core.FormatProto}, // the most specific SSE match counts
		{"text/event-stream;q=0, " + proto + ";q=0.001", core.FormatProto},
		{proto + ";q=0.5, " + proto + ";q=0.8, text/event-stream;q=0.7", core.FormatProto}, // highest listing counts

		// Accept extensions after q do not change the weight; quoted
		// commas and semicolons do not split.
		{proto + `;q=0.8;ext="a,b;c", text/event-stream;q=0.9`, core.FormatSSE},
		{`text/event-stream;q=0.5;note="x,application/vnd.ag-ui.event+proto", ` + proto, core.FormatProto},

		// Near misses are other types.
		{"application/vnd.ag-ui.event+protobuf", core.FormatSSE},
		{"application/vnd.ag-ui.event", core.FormatSSE},

		// Malformed headers are SSE, whatever they list.
		{proto + ";q=1.5", core.FormatSSE},
		{proto + ";q=abc", core.FormatSSE},
		{proto + ";q=", core.FormatSSE},
		{proto + ";q=0.1234", core.FormatSSE},
		{proto + ";q=-1", core.FormatSSE},
		{proto + ";=1", core.FormatSSE},
		{proto + ";noequals", core.FormatSSE},
		{proto + ", garbage", core.FormatSSE},
		{proto + ", /", core.FormatSSE},
		{proto + ", */json", core.FormatSSE},
		{proto + ", text/event stream", core.FormatSSE},
		{"application/vnd.ag-ui.event+proto\x00", core.FormatSSE},
	}
	for _, tc := range cases {
		if got := core.Negotiate(tc.accept); got != tc.want {
			t.Errorf("Negotiate(%q) = %v, want %v", tc.accept, got, tc.want)
		}
	}
}

func TestFormatContentType(t *testing.T) {
	if got := core.FormatSSE.ContentType(); got != "text/event-stream" {
		t.Errorf("SSE content type %q", got)
	}
	if got := core.FormatProto.ContentType(); got != "application/vnd.ag-ui.event+proto" {
		t.Errorf("proto content type %q", got)
	}
	if core.FormatSSE.String() != "sse" || core.FormatProto.String() != "proto" {
		t.Errorf("String: %v %v", core.FormatSSE, core.FormatProto)
	}
}

func TestFormatAppendFrame(t *testing.T) {
	ev := &core.TextMessageContent{MessageID: "m", Delta: "hi"}
	sse, err := core.FormatSSE.AppendFrame([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	want, err := core.AppendSSE([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sse, want) {
		t.Errorf("SSE frame %q, want %q", sse, want)
	}
	pb, err := core.FormatProto.AppendFrame([]byte("x"), ev)
	if err != nil {
		t.Fatal(err)
	}
	want, err = core.AppendProto([]byte("x"), ev)
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
	for _, s := range []string{"", "*/*", core.ProtoContentType, core.ProtoContentType + ";q=0.5, text/event-stream",
		`a/b;c="d\"e,f";q=1`, "text/*;q=0.", `x/y;"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		got := core.Negotiate(accept)
		if got == core.FormatProto && !bytes.Contains(bytes.ToLower([]byte(accept)), []byte(core.ProtoContentType)) {
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
		f := core.Negotiate(accept)
		fmt.Printf("%-60q -> %s (%s)\n", accept, f, f.ContentType())
	}
	// Output:
	// "text/event-stream"                                          -> sse (text/event-stream)
	// "*/*"                                                        -> sse (text/event-stream)
	// "application/vnd.ag-ui.event+proto"                          -> proto (application/vnd.ag-ui.event+proto)
	// "application/vnd.ag-ui.event+proto;q=0.5, text/event-stream" -> sse (text/event-stream)
}
