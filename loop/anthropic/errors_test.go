package anthropic

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/openai"
	oaiopt "github.com/openai/openai-go/v3/option"
)

func TestHTTPErrorClassification(t *testing.T) {
	cases := []struct {
		code      int
		errType   string
		retryable bool
	}{
		{529, "overloaded_error", true},
		{429, "rate_limit_error", true},
		{500, "api_error", true},
		{503, "", true},
		{400, "invalid_request_error", false},
		{401, "authentication_error", false},
		{403, "permission_error", false},
		{404, "not_found_error", false},
	}
	for _, c := range cases {
		s := newServer(t, status(c.code, c.errType))
		_, err := collect(t, newProvider(t, s), loop.ModelRequest{})
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != c.code || ae.Type != c.errType {
			t.Fatalf("%d: err %v", c.code, err)
		}
		if ae.Retryable() != c.retryable || loop.IsRetryable(err) != c.retryable {
			t.Errorf("%d %s: retryable %v, want %v", c.code, c.errType, ae.Retryable(), c.retryable)
		}
		if !strings.HasPrefix(err.Error(), "anthropic: ") {
			t.Errorf("message %q", err)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d: %d requests: the client must not retry on its own", c.code, n)
		}
	}
}

func noWait(int) time.Duration { return 0 }

// loop.Retry's default classification retries an overloaded server and
// does not retry a bad request.
func TestRetryClassification(t *testing.T) {
	s := newServer(t, status(529, "overloaded_error"), status(429, "rate_limit_error"), play(t, "text.sse"))
	p, err := loop.Retry(newProvider(t, s), loop.WithAttempts(3), loop.WithBackoff(noWait))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := collect(t, p, loop.ModelRequest{})
	if err != nil || len(ds) == 0 || len(s.requests()) != 3 {
		t.Fatalf("%d deltas after %d requests, err %v", len(ds), len(s.requests()), err)
	}

	bad := newServer(t, status(400, "invalid_request_error"), play(t, "text.sse"))
	p, err = loop.Retry(newProvider(t, bad), loop.WithAttempts(3), loop.WithBackoff(noWait))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, p, loop.ModelRequest{}); err == nil || len(bad.requests()) != 1 {
		t.Fatalf("bad request: err %v after %d requests", err, len(bad.requests()))
	}
}

// An overloaded Anthropic falls back on an OpenAI-compatible server, and
// the run goes on with the answer of the second.
func TestFallbackAnthropicToOpenAI(t *testing.T) {
	claude := newServer(t, status(529, "overloaded_error"))
	gpt := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Sunny, says GPT."},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
			`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}` + "\n\ndata: [DONE]\n\n"))
	}))
	defer gpt.Close()
	backup, err := openai.New("gpt-4o-mini", openai.WithClientOptions(oaiopt.WithBaseURL(gpt.URL+"/v1"), oaiopt.WithAPIKey("k"), oaiopt.WithHTTPClient(gpt.Client())))
	if err != nil {
		t.Fatal(err)
	}
	retried, err := loop.Retry(newProvider(t, claude), loop.WithAttempts(2), loop.WithBackoff(noWait))
	if err != nil {
		t.Fatal(err)
	}
	p, err := loop.Fallback(retried, backup)
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("Weather?")}})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage)
	if last.Content != "Sunny, says GPT." || res.FinishReason != loop.FinishStop || res.Usage.InputTokens != 10 {
		t.Fatalf("answer %q finish %s usage %+v", last.Content, res.FinishReason, res.Usage)
	}
	if n := len(claude.requests()); n != 2 {
		t.Fatalf("anthropic asked %d times, want 2 (one retry)", n)
	}
}

// When every provider fails, the run fails with PROVIDER_ERROR and both
// errors.
func TestFallbackAllFail(t *testing.T) {
	one := newServer(t, status(401, "authentication_error"))
	two := newServer(t, status(529, "overloaded_error"))
	p, err := loop.Fallback(newProvider(t, one), newProvider(t, two))
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("x")}})
	cause := fmt.Sprint(errors.Unwrap(err)) // the client's message is generic; the cause is whole
	if agui.CodeOf(err) != loop.CodeProvider || !strings.Contains(cause, "401") || !strings.Contains(cause, "529") {
		t.Fatalf("err %v", err)
	}
}
