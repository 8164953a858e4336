// Package stateclient_test proves that the runner's state events apply on
// the official client: each case runs an agent that publishes state with
// core.RunContext.UpdateState, encodes the stream with AppendJSON, and
// client.mjs replays it through @ag-ui/client@1.0.0's runAgent, starting
// from the state the input carried. The client must end with the expected
// state and print no warning (it discards a patch it cannot apply with a
// console.warn), and every case must have used at least one STATE_DELTA.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing. It skips only when node or
// npm is not on PATH.
package stateclient_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/nodetest"
)

// board is the agent's typed view of the state.
type board struct {
	Title string            `json:"title"`
	Count int               `json:"count"`
	Tags  []string          `json:"tags"`
	Meta  map[string]string `json:"meta,omitempty"`
}

// counter models one key of a larger client state.
type counter struct {
	Count int `json:"count"`
}

type stateCase struct {
	name  string
	input string // the state the input carries, "" for none
	want  string // the state the client must end with
	run   func(t *testing.T, input json.RawMessage) []agui.Event
}

// publish returns a case runner applying updates through UpdateState.
func publish[S any](updates ...func(*S)) func(*testing.T, json.RawMessage) []agui.Event {
	return func(t *testing.T, input json.RawMessage) []agui.Event {
		t.Helper()
		in := agui.NewInput("thread-1", "run-1")
		if input != nil {
			in.State = input
		}
		agent := core.AgentFunc[S](func(ctx context.Context, rc *core.RunContext[S]) (agui.Outcome, error) {
			for _, u := range updates {
				if err := rc.UpdateState(u); err != nil {
					return agui.Outcome{}, err
				}
			}
			return agui.Success(), nil
		})
		var evs []agui.Event
		for ev, err := range core.Run(context.Background(), agent, in) {
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		if evs[len(evs)-1].Type() != agui.TypeRunFinished {
			t.Fatalf("the run did not finish: %v", evs[len(evs)-1])
		}
		return evs
	}
}

func cases() []stateCase {
	long := strings.Repeat("lorem ipsum ", 20)
	return []stateCase{
		{
			name:  "edits of a typed state, keys the type does not model kept",
			input: `{"title":"draft","count":1,"tags":["a","b"],"clientOnly":{"cursor":7}}`,
			want:  `{"title":"reset","count":0,"tags":null,"clientOnly":{"cursor":7}}`,
			run: publish[board](
				func(b *board) { b.Count++ },
				func(b *board) { b.Tags = append(b.Tags, "c") },
				func(b *board) { b.Meta = map[string]string{"owner": "ann"} },
				func(b *board) { b.Tags = b.Tags[1:]; b.Meta["slash/key~"] = "v" },
				func(b *board) { b.Meta = nil },
				func(b *board) { b.Title = long },
				func(b *board) { *b = board{Title: "reset"} },
			),
		},
		{
			name:  "a key the client never had is added, not replaced",
			input: `{"notes":"` + long + `"}`,
			want:  `{"notes":"` + long + `","count":2}`,
			run: publish[counter](
				func(c *counter) { c.Count = 1 },
				func(c *counter) { c.Count = 2 },
			),
		},
		{
			name: "no input state: a snapshot first, then deltas",
			want: `{"title":"` + long + `","count":3,"tags":["x","y"]}`,
			run: publish[board](
				func(b *board) { b.Title = long },
				func(b *board) { b.Count = 3 },
				func(b *board) { b.Tags = []string{"x", "y"} },
			),
		},
	}
}

func TestStateAppliesOnOfficialClient(t *testing.T) {
	node := nodetest.Node(t, ".")

	type clientCase struct {
		Name   string            `json:"name"`
		State  json.RawMessage   `json:"state,omitempty"`
		Events []json.RawMessage `json:"events"`
	}
	var in []clientCase
	all := cases()
	for _, c := range all {
		var input json.RawMessage
		if c.input != "" {
			input = json.RawMessage(c.input)
		}
		evs := c.run(t, input)
		cc := clientCase{Name: c.name, State: input}
		deltas := 0
		for _, ev := range evs {
			if ev.Type() == agui.TypeStateDelta {
				deltas++
			}
			b, err := ev.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			cc.Events = append(cc.Events, b)
		}
		if deltas == 0 {
			t.Errorf("%s: no STATE_DELTA in the stream", c.name)
		}
		in = append(in, cc)
	}

	results := runClient(t, node, in)
	if len(results) != len(all) {
		t.Fatalf("%d results for %d cases", len(results), len(all))
	}
	for i, r := range results {
		c := all[i]
		if !r.OK {
			t.Errorf("%s: the client failed: %s", c.name, r.Error)
			continue
		}
		if len(r.Warnings) > 0 {
			t.Errorf("%s: the client warned:\n%s", c.name, strings.Join(r.Warnings, "\n"))
		}
		var want any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.State, want) {
			t.Errorf("%s: the client ended with\n %v\nwant\n %v", c.name, r.State, want)
		}
	}
}

type clientResult struct {
	Name     string   `json:"name"`
	OK       bool     `json:"ok"`
	Error    string   `json:"error"`
	State    any      `json:"state"`
	Warnings []string `json:"warnings"`
}

func runClient(t *testing.T, node string, cases any) []clientResult {
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
	if msg, err := exec.CommandContext(t.Context(), node, "client.mjs", in, out).CombinedOutput(); err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, msg)
	}
	if b, err = os.ReadFile(out); err != nil {
		t.Fatal(err)
	}
	var results []clientResult
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatal(err)
	}
	return results
}
