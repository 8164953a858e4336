package loop

import (
	"context"
	"iter"
	"testing"
)

func TestProviderFunc(t *testing.T) {
	var got ModelRequest
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		got = req
		return func(yield func(Delta, error) bool) { yield(Delta{Text: "hi"}, nil) }
	})
	text, err := collect(t.Context(), p)
	if err != nil || text != "hi" || got.Instructions != "" {
		t.Fatalf("%q %v", text, err)
	}
}
