package client

import (
	"strconv"

	"github.com/agui-go/agui"
)

// legacy translates the retired THINKING_* events of agents before 0.0.45
// into the reasoning events that replaced them, minting the ids they
// lacked, as @ag-ui/client's compatibility boundary does.
//
// A legacy is not safe for concurrent use.
type legacy struct {
	n             int
	span, thought string
}

func (l *legacy) mint() string {
	l.n++
	return "thinking-" + strconv.Itoa(l.n)
}

// translate returns the event a THINKING_* event stands for, or nil for
// any other type.
func (l *legacy) translate(t agui.EventType, delta string) agui.Event {
	switch t {
	case "THINKING_START":
		l.span = l.mint()
		return &agui.ReasoningStart{MessageID: l.span}
	case "THINKING_END":
		return &agui.ReasoningEnd{MessageID: l.span}
	case "THINKING_TEXT_MESSAGE_START":
		l.thought = l.mint()
		return &agui.ReasoningMessageStart{MessageID: l.thought}
	case "THINKING_TEXT_MESSAGE_CONTENT":
		return &agui.ReasoningMessageContent{MessageID: l.thought, Delta: delta}
	case "THINKING_TEXT_MESSAGE_END":
		return &agui.ReasoningMessageEnd{MessageID: l.thought}
	}
	return nil
}
