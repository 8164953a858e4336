package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestLoopDemoLogsStarts(t *testing.T) {
	var buf bytes.Buffer
	d := loopDemo{logger: slog.New(slog.NewTextHandler(&buf, nil))}
	d.started(t.Context(), "book_trip")
	if !strings.Contains(buf.String(), `msg="tool started" tool=book_trip`) {
		t.Fatalf("log: %s", buf.String())
	}
	loopDemo{}.started(t.Context(), "x") // no logger: nothing to do
}

func TestLoopDemoBookDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := loopDemo{bookDelay: time.Minute}
		start := time.Now()
		if err := d.book(t.Context()); err != nil || time.Since(start) != time.Minute {
			t.Fatalf("book: %v after %v", err, time.Since(start))
		}
		ctx, cancel := context.WithCancelCause(t.Context())
		cause := errors.New("client gone")
		cancel(cause)
		if err := d.book(ctx); !errors.Is(err, cause) {
			t.Fatalf("book with a cancelled context: %v", err)
		}
	})
}
