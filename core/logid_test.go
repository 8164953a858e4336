package core

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

func TestLogIDTruncates(t *testing.T) {
	if got := LogID("short"); got != "short" {
		t.Fatalf("LogID(short) = %q", got)
	}
	long := strings.Repeat("é", MaxLogIDLen) // two bytes each
	got := LogID(long)
	if len(got) > MaxLogIDLen+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Fatalf("LogID of %d bytes = %d bytes %q", len(long), len(got), got)
	}
}

// A run whose client sent a megabyte-long threadId logs a line of
// bounded size, with the failure's full cause.
func TestRunFailureLogIsBounded(t *testing.T) {
	var logs bytes.Buffer
	in := agui.NewInput(strings.Repeat("t", 1<<20), strings.Repeat("r", 1<<20))
	for _, err := range Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Outcome{}, &agui.Error{Code: agui.CodeAgent, Message: "generic", Err: agui.NewError(agui.CodeAgent, "the cause")}
	}), in, WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if logs.Len() > 4096 || !strings.Contains(logs.String(), "generic: the cause") {
		t.Fatalf("log of %d bytes:\n%.500s", logs.Len(), logs.String())
	}
}

func ExampleLogID() {
	fmt.Println(LogID("thread-1"))
	// Output: thread-1
}
