package agui_test

import (
	"errors"
	"fmt"

	"github.com/agui-go/agui"
)

func ExampleDecodeInput() {
	body := []byte(`{
		"threadId": "t1", "runId": "r1",
		"messages": [
			{"id": "m1", "role": "user", "content": "hi"},
			{"id": "m2", "role": "assistant", "content": "hello"},
			{"id": "m3", "role": "robot", "content": "beep"}
		]
	}`)
	_, err := agui.DecodeInput(body)
	fmt.Println(err)

	var ie *agui.InputError
	if errors.As(err, &ie) {
		// A transport answers 422 for invalid content, 400 for malformed JSON.
		fmt.Println(ie.Field, ie.Malformed, ie.Code())
	}

	_, err = agui.DecodeInput([]byte(`{"threadId": "t1", "runId": "r1", "messages": [], "colour": "red"}`), agui.Strict())
	fmt.Println(err)
	// Output:
	// messages[2].role: unknown role "robot"
	// messages[2].role false PROTOCOL
	// colour: unknown field
}

func ExampleDecodeEvent() {
	ev, err := agui.DecodeEvent([]byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hel"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if e, ok := ev.(*agui.TextMessageContent); ok {
		fmt.Printf("%s %s %q\n", e.Type(), e.MessageID, e.Delta)
	}

	_, err = agui.DecodeEvent([]byte(`{"type":"STEP_STARTED","stepName":"plan","timestamp":1.5}`))
	fmt.Println(err)
	// Output:
	// TEXT_MESSAGE_CONTENT m1 "Hel"
	// timestamp: expected integer, got 1.5
}

func ExampleDowngrade() {
	finished := &agui.RunFinished{ThreadID: "t1", RunID: "r1", Outcome: &agui.Outcome{Type: agui.OutcomeCancelled}}
	ev, keep := agui.Downgrade(finished)
	out, _ := ev.AppendJSON(nil)
	fmt.Println(keep, agui.DowngradeLossy(finished), string(out))

	_, keep = agui.Downgrade(&agui.SubagentStarted{SubagentRunID: "s1", Name: "researcher"})
	fmt.Println(keep)
	// Output:
	// true true {"type":"RUN_ERROR","message":"run cancelled","code":"CANCELLED"}
	// false
}
