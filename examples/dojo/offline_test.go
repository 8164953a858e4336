package main

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui/loop"
)

func TestOfflineSaysHowToChooseAModel(t *testing.T) {
	var text string
	for d, err := range offline(t.Context(), loop.ModelRequest{}) {
		if err != nil {
			t.Fatal(err)
		}
		text += d.Text
	}
	if text != offlineText {
		t.Fatalf("text %q", text)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, err := range offline(ctx, loop.ModelRequest{}) {
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v", err)
		}
	}
}
