package a2ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// The surfaces the Dojo's recovery fixtures answer with: the broken one
// (the root's template names no component) and the valid one.
const (
	brokenHotels = `{"surfaceId":"hotel-comparison","components":[{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}}],"data":{"items":[{"name":"The Ritz","rating":4.8}]}}`
	validHotels  = hotels
)

// serve serves agent over HTTP through core and returns its URL.
func serve(t *testing.T, agent *loop.Agent) string {
	t.Helper()
	h, err := core.NewHandler[core.NoState](agent)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// run posts one run with the user's text and returns its events, read
// with the ordering verifier.
func run(t *testing.T, url, text string) []agui.Event {
	t.Helper()
	in := agui.RunAgentInput{ThreadID: "t-" + t.Name(), RunID: "r1", Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent(text)}}}
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return aguitest.ReadSSE(t, res.Body)
}

func newAgent(t *testing.T, p loop.Provider, tools ...loop.Tool) *loop.Agent {
	t.Helper()
	a, err := loop.New(p, loop.WithTools(tools...))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func results(evs []agui.Event) []string {
	var out []string
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok {
			out = append(out, r.Content.String())
		}
	}
	return out
}

func activities(evs []agui.Event) []*agui.ActivitySnapshot {
	var out []*agui.ActivitySnapshot
	for _, ev := range evs {
		if a, ok := ev.(*agui.ActivitySnapshot); ok && a.ActivityType == a2ui.ActivityType {
			out = append(out, a)
		}
	}
	return out
}

func renderCall(args string) loop.Turn {
	return loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.RenderToolName, Args: args}}}
}

// envelope decodes a result that must be an a2ui_operations envelope.
func envelope(t *testing.T, s string) a2ui.Envelope {
	t.Helper()
	var e a2ui.Envelope
	if err := json.Unmarshal([]byte(s), &e); err != nil || len(e.Operations) == 0 {
		t.Fatalf("not an envelope (%v): %s", err, s)
	}
	return e
}

// A valid surface: the result is the envelope (the catalog's id filled
// in), and with WithActivity an ACTIVITY_SNAPSHOT carries the same.
func TestRenderPaints(t *testing.T) {
	render, err := a2ui.Render(a2ui.WithCatalog(*catalog(t)), a2ui.WithActivity())
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, newAgent(t, loop.Script(renderCall(validHotels), loop.Turn{Text: "Here they are."}), render))
	evs := run(t, url, "Compare hotels")
	rs := results(evs)
	if len(rs) != 1 {
		t.Fatalf("results %v", rs)
	}
	e := envelope(t, rs[0])
	if len(e.Operations) != 3 || e.Operations[0].CreateSurface.CatalogID != catalog(t).ID || e.Operations[2].UpdateDataModel == nil {
		t.Fatalf("envelope %s", rs[0])
	}
	acts := activities(evs)
	if len(acts) != 1 {
		t.Fatalf("activities %v", acts)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(rs[0]), &want); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	b, _ := json.Marshal(acts[0].Content)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("activity carries %v, result %v", acts[0].Content, want)
	}
}

// toolError decodes a call's error result.
func toolError(t *testing.T, s string) (code, msg string) {
	t.Helper()
	var e struct{ Code, Message string }
	if err := json.Unmarshal([]byte(s), &e); err != nil || e.Code == "" {
		t.Fatalf("not an error result (%v): %s", err, s)
	}
	return e.Code, e.Message
}

// An invalid surface gets an error result listing the problems, the
// model's next call fixes it, and it paints.
func TestRenderRetry(t *testing.T) {
	render, err := a2ui.Render()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, newAgent(t, loop.Script(renderCall(brokenHotels), renderCall(validHotels), loop.Turn{Text: "Fixed."}), render))
	rs := results(run(t, url, "Compare hotels"))
	if len(rs) != 2 {
		t.Fatalf("results %v", rs)
	}
	code, msg := toolError(t, rs[0])
	if code != string(a2ui.CodeInvalidSurface) || !strings.Contains(msg, `- [A2UI_UNRESOLVED_CHILD] components[0].children.componentId: "card" is not the id of a component`) {
		t.Fatalf("first result %s", rs[0])
	}
	envelope(t, rs[1])
}

// A surface naming another catalog than the tool's is refused.
func TestRenderOtherCatalog(t *testing.T) {
	render, err := a2ui.Render(a2ui.WithCatalog(*catalog(t)))
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(validHotels, `"surfaceId":"hotel-comparison"`, `"surfaceId":"hotel-comparison","catalogId":"https://example.com/other.json"`, 1)
	url := serve(t, newAgent(t, loop.Script(renderCall(other), loop.Turn{Text: "Hm."}), render))
	rs := results(run(t, url, "Compare hotels"))
	if _, msg := toolError(t, rs[0]); !strings.Contains(msg, `- [A2UI_UNKNOWN_CATALOG] catalogId: "https://example.com/other.json" is not the catalog`) {
		t.Fatalf("result %s", rs[0])
	}
}

// The third invalid surface of a run ends the retries with the failure
// the A2UI middleware shows; nothing is painted.
func TestRenderExhausted(t *testing.T) {
	render, err := a2ui.Render(a2ui.WithActivity())
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, newAgent(t, loop.Script(renderCall(brokenHotels), renderCall(brokenHotels), renderCall(`{"surfaceId":"s","components":[{"id":"x"}]}`), loop.Turn{Text: "Sorry."}), render))
	evs := run(t, url, "Compare hotels")
	rs := results(evs)
	if len(rs) != 3 {
		t.Fatalf("results %v", rs)
	}
	var f a2ui.Failure
	if err := json.Unmarshal([]byte(rs[2]), &f); err != nil {
		t.Fatal(err)
	}
	if f.Code != a2ui.RecoveryExhausted || f.Error != "Failed to generate valid A2UI after 3 attempt(s)" || len(f.Attempts) != 3 || f.Attempts[2].Errors[0].Code != a2ui.CodeMalformed {
		t.Fatalf("failure %s", rs[2])
	}
	acts := activities(evs)
	if len(acts) != 1 || acts[0].Content["status"] != "failed" {
		t.Fatalf("activities %+v", acts)
	}
}

// subModel is a model that always calls render_a2ui with what answer
// returns for the request, and records the requests.
type subModel struct {
	mu     sync.Mutex
	reqs   []loop.ModelRequest
	answer func(loop.ModelRequest) string
}

func (m *subModel) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		m.mu.Lock()
		m.reqs = append(m.reqs, req)
		m.mu.Unlock()
		args := m.answer(req)
		if args == "" {
			yield(loop.Delta{Text: "no"}, nil)
			return
		}
		half := len(args) / 2
		if yield(loop.Delta{ToolCall: &loop.ToolCallDelta{ID: "sub", Name: a2ui.RenderToolName, Args: args[:half]}}, nil) {
			yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Args: args[half:]}}, nil)
		}
	}
}

// allText is the text of the request's system prompt and messages.
func allText(req loop.ModelRequest) string {
	s := req.Instructions
	for _, m := range req.Messages {
		switch m := m.(type) {
		case *agui.UserMessage:
			s += "\n" + m.Content.String()
		case *agui.AssistantMessage:
			s += "\n" + m.Content
		}
	}
	return s
}

// The Dojo's recovery contract, luxury case: the planner calls
// generate_a2ui, the sub-model (forced to render_a2ui, with the user's
// request) writes an invalid surface, the retry prompt tells it what was
// wrong, and its second surface paints.
func TestGenerateRecovers(t *testing.T) {
	sub := &subModel{answer: func(req loop.ModelRequest) string {
		if strings.Contains(allText(req), "Previous attempt was invalid") {
			return validHotels
		}
		return brokenHotels
	}}
	gen, err := a2ui.Generate(sub, a2ui.WithCatalog(*catalog(t)), a2ui.WithActivity())
	if err != nil {
		t.Fatal(err)
	}
	planner := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{"intent":"create"}`}}}, loop.Turn{Text: "Done!"})
	evs := run(t, serve(t, newAgent(t, planner, gen)), "Compare 3 luxury hotels with ratings and prices.")
	rs := results(evs)
	if len(rs) != 1 {
		t.Fatalf("results %v", rs)
	}
	envelope(t, rs[0])
	if len(sub.reqs) != 2 {
		t.Fatalf("%d sub-model calls, want 2", len(sub.reqs))
	}
	for _, req := range sub.reqs {
		if len(req.Tools) != 1 || req.Tools[0].Name != a2ui.RenderToolName || req.Settings.ToolChoice != loop.UseTool(a2ui.RenderToolName) {
			t.Fatalf("sub-model request offers %+v with choice %+v", req.Tools, req.Settings.ToolChoice)
		}
		last, ok := req.Messages[len(req.Messages)-1].(*agui.UserMessage)
		if !ok || last.Content.String() != "Compare 3 luxury hotels with ratings and prices." {
			t.Fatalf("the sub-model's last message is %#v", req.Messages[len(req.Messages)-1])
		}
	}
	if !strings.Contains(sub.reqs[1].Instructions, "## Previous attempt was invalid — fix these and regenerate:\n- [A2UI_UNRESOLVED_CHILD] components[0].children.componentId:") {
		t.Fatalf("retry prompt:\n%s", sub.reqs[1].Instructions)
	}
	// One activity message goes from building to retrying to painted.
	var states []string
	for _, a := range activities(evs) {
		if a.MessageID != activities(evs)[0].MessageID {
			t.Fatalf("activity ids %s and %s", a.MessageID, activities(evs)[0].MessageID)
		}
		if s, ok := a.Content["status"].(string); ok {
			states = append(states, s)
		} else if a.Content["a2ui_operations"] != nil {
			states = append(states, "painted")
		}
	}
	if strings.Join(states, " ") != "building retrying painted" {
		t.Fatalf("activity states %v", states)
	}
}

// The broken case: every attempt is invalid, the result is the failure
// with each attempt's problems, and the sub-model was asked three times.
func TestGenerateExhausted(t *testing.T) {
	sub := &subModel{answer: func(loop.ModelRequest) string { return brokenHotels }}
	gen, err := a2ui.Generate(sub)
	if err != nil {
		t.Fatal(err)
	}
	planner := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{}`}}}, loop.Turn{Text: "Done!"})
	rs := results(run(t, serve(t, newAgent(t, planner, gen)), "Compare 3 broken hotels with ratings and prices."))
	var f a2ui.Failure
	if len(rs) != 1 || json.Unmarshal([]byte(rs[0]), &f) != nil {
		t.Fatalf("results %v", rs)
	}
	if f.Code != "a2ui_recovery_exhausted" || len(f.Attempts) != 3 || f.Attempts[0].OK || f.Attempts[0].Errors[0].Code != a2ui.CodeUnresolvedChild {
		t.Fatalf("failure %s", rs[0])
	}
	if len(sub.reqs) != 3 {
		t.Fatalf("%d sub-model calls", len(sub.reqs))
	}
}

// A sub-model that answers without the render call, or with a huge
// surface, spends attempts; one that fails fails the call with a fixed
// message.
func TestGenerateHostileModel(t *testing.T) {
	huge := `{"surfaceId":"s","components":[` + strings.Repeat(`{"id":"x","component":"Text","text":"`+strings.Repeat("a", 1000)+`"},`, 1100) + `{"id":"root","component":"Text"}]}`
	sub := &subModel{answer: func(req loop.ModelRequest) string {
		if strings.Contains(req.Instructions, "A2UI_NO_RENDER") {
			return huge
		}
		return ""
	}}
	gen, err := a2ui.Generate(sub, a2ui.WithMaxAttempts(2))
	if err != nil {
		t.Fatal(err)
	}
	planner := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{"prompt":"a table"}`}}}, loop.Turn{Text: "Done!"})
	rs := results(run(t, serve(t, newAgent(t, planner, gen)), "hi"))
	var f a2ui.Failure
	if len(rs) != 1 || json.Unmarshal([]byte(rs[0]), &f) != nil || len(f.Attempts) != 2 {
		t.Fatalf("results %v", rs)
	}
	if f.Attempts[0].Errors[0].Code != a2ui.CodeNoRender || f.Attempts[1].Errors[0].Code != a2ui.CodeTooLarge {
		t.Fatalf("attempts %+v", f.Attempts)
	}
	if last := sub.reqs[0].Messages[len(sub.reqs[0].Messages)-1].(*agui.UserMessage); last.Content.String() != "a table" {
		t.Fatalf("the prompt argument is not the last message: %v", last)
	}

	failing := loop.ProviderFunc(func(context.Context, loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		return func(yield func(loop.Delta, error) bool) {
			yield(loop.Delta{}, errors.New("dial tcp 10.0.0.7:443: refused"))
		}
	})
	gen, err = a2ui.Generate(failing)
	if err != nil {
		t.Fatal(err)
	}
	planner = loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{}`}}}, loop.Turn{Text: "Done!"})
	rs = results(run(t, serve(t, newAgent(t, planner, gen)), "hi"))
	code, msg := toolError(t, rs[0])
	if code != string(loop.CodeProvider) || strings.Contains(msg, "10.0.0.7") {
		t.Fatalf("provider failure result %s", rs[0])
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, opts := range [][]a2ui.Option{
		{a2ui.WithMaxAttempts(0)}, {a2ui.WithMaxAttempts(11)}, {a2ui.WithCatalog(a2ui.Catalog{})},
		{a2ui.WithLimits(a2ui.Limits{Components: -1})}, {a2ui.WithInstructions("")}, {nil},
	} {
		if _, err := a2ui.Render(opts...); err == nil {
			t.Errorf("Render accepted %v", opts)
		}
	}
	if _, err := a2ui.Generate(nil); err == nil {
		t.Error("Generate accepted a nil model")
	}
}

// Runs count their invalid surfaces apart: eight runs at once each get
// two error results and then their own failure.
func TestRenderRunsCountApart(t *testing.T) {
	render, err := a2ui.Render()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, newAgent(t, loop.Script(renderCall(brokenHotels), renderCall(brokenHotels), renderCall(brokenHotels), loop.Turn{Text: "Sorry."}), render))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			t.Run(fmt.Sprint("run", i), func(t *testing.T) {
				rs := results(run(t, url, "Compare hotels"))
				var f a2ui.Failure
				if len(rs) != 3 || json.Unmarshal([]byte(rs[2]), &f) != nil || len(f.Attempts) != 3 {
					t.Errorf("results %v", rs)
				}
			})
		})
	}
	wg.Wait()
}
