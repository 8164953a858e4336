package agui_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// TestAppendSSEFrameFields: each field is written only when set, in the
// order id, retry, data; what it writes reads back through SSEReader with
// its id; a field that would break the frame is refused and leaves dst as
// it was.
func TestAppendSSEFrameFields(t *testing.T) {
	data := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	for _, c := range []struct {
		f    agui.SSEFrame
		want string
	}{
		{agui.SSEFrame{}, ""},
		{agui.SSEFrame{Retry: 1500 * time.Millisecond}, "retry: 1500\n\n"},
		{agui.SSEFrame{ID: "4", Data: data}, "id: 4\ndata: " + string(data) + "\n\n"},
		{agui.SSEFrame{ID: "4", Retry: time.Second, Data: data}, "id: 4\nretry: 1000\ndata: " + string(data) + "\n\n"},
		{agui.SSEFrame{Data: data}, "data: " + string(data) + "\n\n"},
	} {
		got, err := agui.AppendSSEFrame([]byte("x"), c.f)
		if err != nil || string(got) != "x"+c.want {
			t.Errorf("%+v: %q, %v; want %q", c.f, got, err, "x"+c.want)
		}
	}
	b, err := agui.AppendSSEFrame(nil, agui.SSEFrame{ID: "9", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	r := agui.NewSSEReader(bytes.NewReader(b))
	if ev, err := r.Next(); err != nil || ev.Type() != agui.TypeRunStarted {
		t.Fatalf("read back: %v, %v", ev, err)
	}
	if id, ok := r.EventID(); id != "9" || !ok {
		t.Fatalf("read back id %q, %v", id, ok)
	}
	for _, bad := range []agui.SSEFrame{
		{ID: "1\n2", Data: data},
		{ID: "1\r", Data: data},
		{ID: "1\x00", Data: data},
		{ID: "1", Data: []byte("{\n}")},
		{Data: []byte("{\r}")},
		{Data: bytes.Repeat([]byte("x"), agui.MaxEventSize+1)},
	} {
		dst := []byte("keep")
		got, err := agui.AppendSSEFrame(dst, bad)
		if agui.CodeOf(err) != agui.CodeSerialization || string(got) != "keep" {
			t.Errorf("%q: %q, %v; want dst unchanged and a SERIALIZATION error", bad.ID, got, err)
		}
	}
}
