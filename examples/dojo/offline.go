package main

import (
	"context"
	"iter"

	"github.com/agui-go/agui/loop"
)

// offlineText is what every feature answers when no model was chosen.
const offlineText = "This is the Dojo server's scripted model: start it with " +
	"-openai-base-url and -model (or OPENAI_BASE_URL), or -model-provider anthropic, " +
	"to chat with a real model."

// offline is the model of a server started without one (a
// loop.ProviderFunc): it says how to choose one, so that
// `go run ./examples/dojo` works with no network.
func offline(ctx context.Context, _ loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(loop.Delta{}, err)
			return
		}
		yield(loop.Delta{Text: offlineText}, nil)
	}
}
