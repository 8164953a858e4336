package main

import (
	"context"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// What one echo run sends is bounded, whatever the request: at most
// maxEchoBytes of the message (cut at a character boundary, marked "…"),
// in at most maxEchoDeltas deltas (the rest of the text goes in the
// last). Without both, 8 MiB of one-letter words came back as 4 million
// events, 449 MB.
const (
	maxEchoBytes  = 4 << 10
	maxEchoDeltas = 256
)

// echoAgent streams the last user message back word by word, within
// maxEchoBytes and maxEchoDeltas.
func echoAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		text := lastUserText(rc.Input())
		if text == "" {
			text = "Say something and I will repeat it."
		}
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		if len(text) > maxEchoBytes {
			text = strings.ToValidUTF8(text[:maxEchoBytes], "") + "…"
		}
		// SplitAfterN keeps the spaces, so the deltas add up to the text.
		for _, word := range strings.SplitAfterN(text, " ", maxEchoDeltas) {
			if err := m.Delta(word); err != nil {
				return agui.Outcome{}, err
			}
		}
		if err := m.End(); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}

// lastUserText returns the text of the input's last user message.
func lastUserText(in *agui.RunAgentInput) string {
	for i := len(in.Messages) - 1; i >= 0; i-- {
		if m, ok := in.Messages[i].(*agui.UserMessage); ok {
			return m.Content.String()
		}
	}
	return ""
}
