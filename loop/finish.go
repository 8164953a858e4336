package loop

import (
	"github.com/agui-go/agui"
)

// Finish reasons a provider reports for a turn it ended early (see
// [Delta.Finish]). A run whose last turn ended so ends with the same reason,
// successfully: its transcript is valid, and RUN_FINISHED's result names
// the reason.
const (
	// FinishLength: the model hit its output token limit
	// ([ModelSettings.MaxOutputTokens] or the provider's default); the
	// answer is cut off.
	FinishLength FinishReason = "length"
	// FinishContentFilter: the model refused, or the provider's content
	// filter stopped the answer.
	FinishContentFilter FinishReason = "content-filter"
)

// endOfTurn decides, once a model turn is in the transcript, whether the
// run ends with it and why. A turn the provider ended early ends the run
// with the provider's reason, and its tool calls are dropped: their
// arguments may be cut off, and none of them was announced to the client.
// Other reasons a provider reports are ignored. A turn without calls ends
// the run with FinishStop, or, under Output, once its answer is checked.
func (r *run) endOfTurn(msg *agui.AssistantMessage) (FinishReason, bool) {
	if f := r.turnFinish; f == FinishLength || f == FinishContentFilter {
		for _, c := range msg.ToolCalls {
			delete(r.argDeltas, c.ID)
		}
		msg.ToolCalls = nil
		return f, true
	}
	if len(msg.ToolCalls) > 0 {
		return "", false
	}
	return r.finalAnswer(msg)
}
