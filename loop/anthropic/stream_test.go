package anthropic

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func TestStreamText(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Instructions: "be brief", Messages: []agui.Message{loop.UserText("weather?")}})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var usage loop.Usage
	for _, d := range ds {
		text += d.Text
		if d.Usage != nil {
			usage = usage.Add(*d.Usage)
		}
		if d.Finish != "" {
			t.Fatalf("finish %q on a normal end", d.Finish)
		}
	}
	if text != "It is sunny in Oslo." {
		t.Fatalf("text %q", text)
	}
	// input_tokens leaves out cached tokens; loop.Usage counts them in.
	want := loop.Usage{InputTokens: 25 + 21 + 12, OutputTokens: 9, CachedInputTokens: 21, CacheWriteInputTokens: 12}
	if usage != want {
		t.Fatalf("usage %+v, want %+v", usage, want)
	}
	body := s.requests()[0]
	if body["model"] != "claude-sonnet-5" || body["stream"] != true || body["max_tokens"] != float64(4096) {
		t.Fatalf("body %v", body)
	}
	if path(body, "system", 0, "text") != "be brief" {
		t.Fatalf("system %v", body["system"])
	}
	if path(body, "messages", 0, "role") != "user" || path(body, "messages", 0, "content", 0, "text") != "weather?" {
		t.Fatalf("messages %v", body["messages"])
	}
	for _, k := range []string{"tool_choice", "tools", "thinking", "stop_sequences"} {
		if _, ok := body[k]; ok {
			t.Fatalf("%s sent unasked: %v", k, body)
		}
	}
}

func TestStreamToolCallFragments(t *testing.T) {
	s := newServer(t, play(t, "tools.sse"))
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	args := map[int]string{}
	ids := map[int]string{}
	frags := 0
	text := ""
	for _, d := range ds {
		text += d.Text
		if tc := d.ToolCall; tc != nil {
			args[tc.Index] += tc.Args
			if tc.ID != "" {
				ids[tc.Index] = tc.ID + ":" + tc.Name
			}
			if tc.Args != "" {
				frags++
			}
		}
	}
	if text != "Let me check." {
		t.Fatalf("text %q", text)
	}
	if ids[0] != "toolu_01T1x1fJ34qAmk2tNTrN7Up6:get_weather" || ids[1] != "toolu_01Tm2qWm8cGyJ1LwjDm5hXq4:get_time" {
		t.Fatalf("ids %v", ids)
	}
	if args[0] != `{"city": "Oslo"}` || args[1] != `{"zone": "Europe/Oslo"}` || frags != 5 {
		t.Fatalf("args %v in %d fragments", args, frags)
	}
}

func TestStreamThinking(t *testing.T) {
	s := newServer(t, play(t, "thinking.sse"))
	ds, err := collect(t, newProvider(t, s, WithThinking(2048)), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	var reasoning string
	var encrypted, types []string
	var usage loop.Usage
	for _, d := range ds {
		reasoning += d.Reasoning
		if d.Usage != nil {
			usage = usage.Add(*d.Usage)
		}
		if d.ReasoningEncrypted != "" {
			encrypted = append(encrypted, d.ReasoningEncrypted)
			types = append(types, d.ReasoningEncryptedType)
		}
	}
	if !slices.Equal(types, []string{"anthropic.thinking_signature", "anthropic.redacted_thinking"}) {
		t.Fatalf("encrypted value types %q", types)
	}
	if reasoning != "The user wants the weather. I should call the tool." {
		t.Fatalf("reasoning %q", reasoning)
	}
	want := []string{"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds", redactedPrefix + "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}
	if !slices.Equal(encrypted, want) {
		t.Fatalf("encrypted %q", encrypted)
	}
	if usage != (loop.Usage{InputTokens: 40, OutputTokens: 120, ReasoningTokens: 80}) {
		t.Fatalf("usage %+v", usage)
	}
	if th := s.requests()[0]["thinking"]; path(th, "type") != "enabled" || path(th, "budget_tokens") != float64(2048) {
		t.Fatalf("thinking %v", th)
	}
}

func TestStreamFinishReasons(t *testing.T) {
	for file, want := range map[string]loop.FinishReason{"max_tokens.sse": loop.FinishLength, "refusal.sse": loop.FinishContentFilter, "text.sse": ""} {
		s := newServer(t, play(t, file))
		ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var got loop.FinishReason
		for _, d := range ds {
			if d.Finish != "" {
				got = d.Finish
			}
		}
		if got != want {
			t.Errorf("%s: finish %q, want %q", file, got, want)
		}
	}
}

func TestStreamErrorEvent(t *testing.T) {
	s := newServer(t, play(t, "overloaded.sse"))
	_, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Type != "overloaded_error" || !ae.Retryable() || !loop.IsRetryable(err) {
		t.Fatalf("err %v (%+v)", err, ae)
	}
}

func TestStreamTruncated(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"It\"}}\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err == nil || len(ds) != 1 || !loop.IsRetryable(err) {
		t.Fatalf("%d deltas, err %v", len(ds), err)
	}
}

func TestStreamMalformedEvent(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\nevent: content_block_delta\ndata: {not json\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err == nil || len(ds) != 1 {
		t.Fatalf("%d deltas, err %v", len(ds), err)
	}
}

// Cancellation reaches the HTTP request, and loop.Retry does not retry it.
func TestStreamCancelReachesRequest(t *testing.T) {
	entered := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"thinking\"}}\n\n"))
		w.(http.Flusher).Flush()
		close(entered)
		<-r.Context().Done()
	})
	p, err := loop.Retry(newProvider(t, s), loop.WithAttempts(3))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() {
		for _, err := range p.Stream(ctx, loop.ModelRequest{}) {
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	if _, err := New(""); err == nil {
		t.Fatal("empty model accepted")
	}
	if _, err := New("m", WithMaxTokens(0)); err == nil {
		t.Fatal("MaxTokens 0 accepted")
	}
	if _, err := New("m", WithThinking(100)); err == nil {
		t.Fatal("thinking budget under 1024 accepted")
	}
	if _, err := New("m", WithThinking(8192)); err == nil {
		t.Fatal("thinking budget over MaxTokens accepted")
	}
	if _, err := New("m", WithThinking(2048), WithAdaptiveThinking(), WithMaxTokens(1000)); err != nil {
		t.Fatalf("adaptive thinking replaces the budget: %v", err)
	}
}
