package client_test

import (
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// A known field that holds an empty value is no unknown property; a key
// from a newer protocol is, and is stripped with a warning naming it.
func TestUnknownPropertyWarnings(t *testing.T) {
	_, warnings := runFrames(t, agui.NewInput("t", "r"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":0,"parentRunId":""}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","name":"","futureProp":{"x":1}}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":null}`)
	if len(warnings) != 1 || !strings.Contains(warnings[0].Message, "/futureProp") || warnings[0].Event != agui.TypeTextMessageStart {
		t.Fatalf("warnings %+v, want one, about /futureProp on TEXT_MESSAGE_START", warnings)
	}
}
