package agui_test

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/agui-go/agui"
)

func ExampleAppendSSE() {
	events := []agui.Event{
		&agui.RunStarted{ThreadID: "t1", RunID: "r1", ProtocolVersion: agui.ProtocolVersion},
		&agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant},
		&agui.TextMessageContent{MessageID: "m1", Delta: "Hello <world> & co"},
		&agui.TextMessageEnd{MessageID: "m1"},
		&agui.StateSnapshot{}, // a nil snapshot is sent as null
		&agui.RunFinished{ThreadID: "t1", RunID: "r1", Outcome: &agui.Outcome{Type: agui.OutcomeCancelled}},
	}
	// One buffer serves the whole stream: each frame is appended, written
	// and the buffer reset, so steady-state framing does not allocate.
	buf := make([]byte, 0, 1024)
	for _, ev := range events {
		var err error
		if buf, err = agui.AppendSSE(buf[:0], ev); err != nil {
			fmt.Println(agui.CodeOf(err), err)
			return
		}
		os.Stdout.Write(buf)
	}
	// Output:
	// data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1","protocolVersion":"1.0"}
	//
	// data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
	//
	// data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello <world> & co"}
	//
	// data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}
	//
	// data: {"type":"STATE_SNAPSHOT","snapshot":null}
	//
	// data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"cancelled"}}
}

func ExampleAppendSSE_tooLarge() {
	huge := make([]byte, agui.MaxEventSize)
	for i := range huge {
		huge[i] = 'x'
	}
	buf, err := agui.AppendSSE(nil, &agui.TextMessageContent{MessageID: "m1", Delta: string(huge)})
	fmt.Println(len(buf), agui.CodeOf(err))
	// Output:
	// 0 SERIALIZATION
}

// A resumable stream frames each event of its log with the event's
// sequence number as its id, which the client sends back as Last-Event-ID
// to resume; the first frame tells the client how long to wait before
// reconnecting. SSEReader.EventID reads the id back per event.
func ExampleAppendSSEFrame() {
	buf, _ := agui.AppendSSEFrame(nil, agui.SSEFrame{Retry: 2 * time.Second})
	buf, _ = agui.AppendSSEFrame(buf, agui.SSEFrame{ID: "7", Data: []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`)})
	os.Stdout.Write(buf)

	r := agui.NewSSEReader(bytes.NewReader(buf))
	ev, _ := r.Next()
	id, ok := r.EventID()
	fmt.Println(ev.Type(), id, ok)
	// Output:
	// retry: 2000
	//
	// id: 7
	// data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
	//
	// RUN_STARTED 7 true
}
