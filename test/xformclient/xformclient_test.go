// Package xformclient_test runs the built-in transformers' output through
// the official client: each scenario runs an agent with core.Run and
// WithTransformers, encodes the stream with AppendJSON, and client.mjs
// replays it through @ag-ui/client@1.0.0's runAgent pipeline (or 0.0.58's,
// for the shapes older clients must decode). The test then checks what the
// client ends with: its state, its messages, or its error.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing. It skips only when node or
// npm is not on PATH.
package xformclient_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/transformers"
)

// clientCase is one stream for client.mjs.
type clientCase struct {
	Name   string            `json:"name"`
	Client string            `json:"client"`
	State  json.RawMessage   `json:"state,omitempty"`
	Events []json.RawMessage `json:"events"`
}

// clientResult is what the client ended with.
type clientResult struct {
	Name     string           `json:"name"`
	OK       bool             `json:"ok"`
	Error    string           `json:"error"`
	State    any              `json:"state"`
	Messages []map[string]any `json:"messages"`
	Warnings []string         `json:"warnings"`
}

// toolsAgent calls lookup_customer and search, then speaks.
func toolsAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, c := range [][2]string{{"lookup_customer", `"customer-secret"`}, {"search", `["golang.org"]`}} {
			tc, err := rc.ToolCall(c[0])
			if err != nil {
				return agui.Outcome{}, err
			}
			if err := tc.Args(`{"q":"go"}`); err != nil {
				return agui.Outcome{}, err
			}
			if err := tc.ResultText(c[1]); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), rc.Say("Done.")
	})
}

// draft is the state of editorAgent.
type draft struct {
	Title    string `json:"title"`
	Revision int    `json:"revision"`
}

// editorAgent updates its state around two search calls.
func editorAgent() core.Agent[draft] {
	return core.AgentFunc[draft](func(ctx context.Context, rc *core.RunContext[draft]) (agui.Outcome, error) {
		for i, q := range []string{"first", "second"} {
			if err := rc.UpdateState(func(d *draft) { d.Revision++; d.Title = q }); err != nil {
				return agui.Outcome{}, err
			}
			tc, err := rc.ToolCall("search")
			if err != nil {
				return agui.Outcome{}, err
			}
			if err := tc.ResultText(`{"hits":["` + q + `"],"n":` + string(rune('1'+i)) + `}`); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	})
}

// supervisorAgent delegates to a planner, which nests an estimator.
func supervisorAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		planner, err := rc.Subagent("planner")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Say("Two tasks: scope, then risks."); err != nil {
			return agui.Outcome{}, err
		}
		estimator, err := planner.Subagent("estimator")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Say("About a day each."); err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Finish(map[string]int{"tasks": 2}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("Plan ready.")
	})
}

// encode runs a on in with ts and returns the stream as JSON events.
func encode[S any](t *testing.T, a core.Agent[S], in *agui.RunAgentInput, ts ...core.TransformerFactory) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for ev, err := range core.Run(t.Context(), a, in, core.WithTransformers(ts...)) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func TestOfficialClientAcceptsTransformerOutput(t *testing.T) {
	node := nodetest.Node(t, ".")

	toState, err := transformers.ToolResultToState(transformers.StateMapping{Tool: "search", Path: "/search/results"})
	if err != nil {
		t.Fatal(err)
	}
	bigState := `{"title":"","revision":0,"notes":"` + strings.Repeat("lorem ipsum ", 20) + `"}`
	input := func(state string) *agui.RunAgentInput {
		in := agui.NewInput("thread-1", "run-1")
		if state != "" {
			in.State = json.RawMessage(state)
		}
		return in
	}
	supervise := func(v transformers.Visibility) []json.RawMessage {
		return encode(t, supervisorAgent(), input(""), transformers.SubagentVisibility(v))
	}
	var logged strings.Builder
	sink := &endSink{}
	cases := []clientCase{
		{Name: "deny", Client: "1.0", Events: encode(t, toolsAgent(), input(""), transformers.DenyToolCalls("lookup_customer"))},
		{Name: "allow", Client: "1.0", Events: encode(t, toolsAgent(), input(""), transformers.AllowToolCalls("search"))},
		{Name: "state-small", Client: "1.0", State: json.RawMessage(`{"keep":1}`), Events: encode(t, editorAgent(), input(`{"keep":1}`), toState)},
		{Name: "state-big", Client: "1.0", State: json.RawMessage(bigState), Events: encode(t, editorAgent(), input(bigState), toState)},
		{Name: "emitted", Client: "1.0", Events: supervise(transformers.VisibilityEmitted)},
		{Name: "emitted-old", Client: "0.0.58", Events: supervise(transformers.VisibilityEmitted)},
		{Name: "inline", Client: "1.0", Events: supervise(transformers.VisibilityInline)},
		{Name: "inline-old", Client: "0.0.58", Events: supervise(transformers.VisibilityInline)},
		{Name: "hidden", Client: "1.0", Events: supervise(transformers.VisibilityHidden)},
		{Name: "hidden-old", Client: "0.0.58", Events: supervise(transformers.VisibilityHidden)},
		{Name: "log", Client: "1.0", Events: encode(t, supervisorAgent(), input(""),
			transformers.Log(slog.New(slog.NewTextHandler(&logged, nil)), slog.LevelInfo))},
		{Name: "metrics", Client: "1.0", State: json.RawMessage(`{"keep":1}`), Events: encode(t, editorAgent(), input(`{"keep":1}`),
			transformers.Metrics(sink))},
		{Name: "all", Client: "1.0", State: json.RawMessage(bigState), Events: encode(t, toolsAgent(), input(bigState),
			transformers.DenyToolCalls("lookup_customer"), toState,
			transformers.SubagentVisibility(transformers.VisibilityHidden),
			transformers.Log(nil, -8), transformers.Metrics(nil))},
	}
	// The state cases must exercise both of ToolResultToState's answers.
	for name, want := range map[string]agui.EventType{"state-small": agui.TypeStateSnapshot, "state-big": agui.TypeStateDelta} {
		for _, c := range cases {
			if c.Name == name && !follows(t, c.Events, agui.TypeToolCallResult, want) {
				t.Errorf("%s: no %s right after a TOOL_CALL_RESULT", name, want)
			}
		}
	}
	if !strings.Contains(logged.String(), "RUN_FINISHED") {
		t.Errorf("Log logged no RUN_FINISHED:\n%s", logged.String())
	}
	if len(sink.ended) != 1 || sink.ended[0].Outcome != "success" || sink.events == 0 {
		t.Errorf("Metrics: %d events, ended %+v; want one successful run", sink.events, sink.ended)
	}
	results := runClient(t, node, cases)

	expect := map[string]func(t *testing.T, r clientResult){
		"deny":  noTool("lookup_customer", "customer-secret"),
		"allow": noTool("lookup_customer", "customer-secret"),
		"state-small": stateIs(`{"keep":1,"title":"second","revision":2,
			"search":{"results":{"hits":["second"],"n":2}}}`),
		"state-big": stateIs(`{"notes":` + strings.TrimSuffix(strings.SplitAfter(bigState, `"notes":`)[1], "}") + `,
			"title":"second","revision":2,"search":{"results":{"hits":["second"],"n":2}}}`),
		"emitted":     texts("Two tasks: scope, then risks.", "About a day each.", "Plan ready."),
		"emitted-old": fails,
		"inline":      texts("Two tasks: scope, then risks.", "About a day each.", "Plan ready."),
		"inline-old":  texts("Two tasks: scope, then risks.", "About a day each.", "Plan ready."),
		"hidden":      texts("Plan ready."),
		"hidden-old":  texts("Plan ready."),
		"log":         texts("Two tasks: scope, then risks.", "About a day each.", "Plan ready."),
		"metrics":     stateIs(`{"keep":1,"title":"second","revision":2}`),
		"all":         noTool("lookup_customer", "customer-secret"),
	}
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			check, ok := expect[r.Name]
			if !ok {
				t.Fatalf("no expectation for %q", r.Name)
			}
			check(t, r)
		})
	}
	if len(results) != len(cases) {
		t.Errorf("%d results for %d cases", len(results), len(cases))
	}
}

// follows reports whether an event of type next comes right after one of
// type first in events.
func follows(t *testing.T, events []json.RawMessage, first, next agui.EventType) bool {
	t.Helper()
	var prev agui.EventType
	for _, e := range events {
		var ev struct{ Type agui.EventType }
		if err := json.Unmarshal(e, &ev); err != nil {
			t.Fatal(err)
		}
		if prev == first && ev.Type == next {
			return true
		}
		prev = ev.Type
	}
	return false
}

// accepted fails t unless the client ran the stream without an error or a
// warning about it.
func accepted(t *testing.T, r clientResult) {
	t.Helper()
	if !r.OK {
		t.Fatalf("the client rejected the stream: %s", r.Error)
	}
	for _, w := range r.Warnings {
		t.Errorf("client warning: %s", w)
	}
}

func fails(t *testing.T, r clientResult) {
	if r.OK {
		t.Fatal("the old client accepted subagent lifecycle events; this control case should fail")
	}
	t.Logf("the old client rejects the stream as emitted: %.100s", strings.Join(strings.Fields(r.Error), " "))
}

// noTool checks that no message mentions the hidden tool or its result.
func noTool(name, result string) func(*testing.T, clientResult) {
	return func(t *testing.T, r clientResult) {
		accepted(t, r)
		b, err := json.Marshal(r.Messages)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), name) || strings.Contains(string(b), result) {
			t.Errorf("the client's messages show the hidden call: %s", b)
		}
		if !strings.Contains(string(b), `"search"`) {
			t.Errorf("the client's messages lost the visible call: %s", b)
		}
	}
}

// stateIs checks the client's final state.
func stateIs(want string) func(*testing.T, clientResult) {
	return func(t *testing.T, r clientResult) {
		accepted(t, r)
		var w any
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.State, w) {
			got, _ := json.Marshal(r.State)
			t.Errorf("client state = %s\nwant %s", got, want)
		}
	}
}

// texts checks the client's text messages, in order, and that none is
// attributed when the subagents are hidden from an old client.
func texts(want ...string) func(*testing.T, clientResult) {
	return func(t *testing.T, r clientResult) {
		accepted(t, r)
		var got []string
		for _, m := range r.Messages {
			if c, ok := m["content"].(string); ok && c != "" {
				got = append(got, c)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("messages = %q, want %q", got, want)
		}
		if len(want) == 1 {
			for _, m := range r.Messages {
				if _, ok := m["subagentRunId"]; ok {
					t.Errorf("a hidden subagent's message reached the client: %v", m)
				}
			}
		}
	}
}

// runClient runs client.mjs over cases and returns its results.
func runClient(t *testing.T, node string, cases []clientCase) []clientResult {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "cases.json"), filepath.Join(dir, "results.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, "client.mjs", in, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, msg)
	}
	b, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var results []clientResult
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatal(err)
	}
	return results
}

// endSink is a MetricsSink counting events and recording run ends.
type endSink struct {
	mu     sync.Mutex
	events int
	ended  []transformers.RunEnd
}

func (*endSink) RunStarted(transformers.RunInfo) {}

func (s *endSink) Event(transformers.RunInfo, agui.EventType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events++
}

func (s *endSink) RunEnded(end transformers.RunEnd) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = append(s.ended, end)
}
