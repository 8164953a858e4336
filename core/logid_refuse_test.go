package core

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// No log line carries an unbounded client value: a refusal of an input
// with 4 MiB ids (put on the context by middleware, past the id limit) and
// a 4 MiB message quoting the client logs a few KiB, not megabytes.
func TestRefusalLogIsBounded(t *testing.T) {
	var logs bytes.Buffer
	h, err := NewHandler[NoState](sayHi(), WithHandlerLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("x", 4<<20)
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	req = req.WithContext(ContextWithInput(req.Context(), agui.NewInput(huge, huge)))
	h.InputReader().Refuse(httptest.NewRecorder(), req, &RequestError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidInput, Message: "bad: " + huge})
	logFailure(t.Context(), slog.New(slog.NewTextHandler(&logs, nil)), agui.NewInput(huge, huge), errors.New(huge), "AGENT_ERROR")
	if logs.Len() > 16<<10 {
		t.Fatalf("two log lines of %d bytes", logs.Len())
	}
	if !strings.Contains(logs.String(), "agui refused") || !strings.Contains(logs.String(), "…") {
		t.Fatalf("log:\n%.500s", logs.String())
	}
}
