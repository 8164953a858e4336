package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/internal/sharedtest"
)

// corpusDir is the AG-UI 1.1 conformance corpus, upstream data read from
// the shared folder beside the repository (never copied into it).
const corpusDir = "fixtures/agui-1.1/conformance/streams"

// corpusPassing is how many fixtures of the corpus the client passes
// with every expectation it can observe; README.md and docs/client.md
// state this number.
const corpusPassing = 65

// corpusDifferences are the fixtures the Go client deliberately does
// differently or does not do yet, each with its reason, as the corpus's
// expectOverrides are. A listed fixture that passes fails the test, so the
// list cannot go stale.
var corpusDifferences = map[string]string{
	"era-0-0-47-upgrades-binary-content":    noBinary,
	"era-current-peer-keeps-modern-content": noBinary,
	"open-object-patch-op-extras": "agui.PatchOp is a closed struct: a remove keeps no leftover value, so " +
		"eventPaths 2.delta.0.value cannot be observed (the op applies, with no warning, as the rule asks)",
}

const (
	noBinary = "agui has no legacy binary content part, so a Go caller cannot send one and there is nothing to " +
		"upgrade (the era translations are permitted, not required: the corpus README's second relaxation)"
)

// corpusNames is, for each fixture that expects the client to reject the
// stream, what the Go error must name instead of the TypeScript client's
// wording (errorContains): the entity id or the rule.
var corpusNames = map[string]string{
	"chunk-conflicting-role-fatal":            "chunk-role-m1",
	"chunk-conflicting-tool-name-fatal":       "chunk-tool-name-tc1",
	"content-without-start-fatal":             "orphan-content-m1",
	"custom-closes-chunk-stream-fatal":        "TEXT_MESSAGE_CHUNK must have a messageId",
	"event-after-run-finished-fatal":          "`run-ended`",
	"first-chunk-missing-id-fatal":            "TEXT_MESSAGE_CHUNK must have a messageId",
	"first-event-not-run-started-fatal":       "`first-event`",
	"first-tool-chunk-missing-name-fatal":     "TOOL_CALL_CHUNK must have a toolCallName",
	"malformed-known-field-fatal":             "delta",
	"nested-run-started-fatal":                "nested-run-started-r-1",
	"open-message-at-run-finished-fatal":      "open-message-at-run-finished-m-1",
	"reasoning-discipline-verified":           "m-reasoning-discipline-1",
	"reasoning-message-wrong-role-fatal":      "role",
	"run-finished-with-active-subagent-fatal": "s-run-finished-active-subagent-1",
	"step-finished-without-start-fatal":       "step-finished-without-start-never-opened",
	"subagent-attribution-mismatch-fatal":     "`owner-mismatch`",
	"subagent-finished-unstarted-fatal":       "s-subagent-finished-unstarted-1",
	"subagent-started-missing-name-fatal":     "name",
	"unknown-enum-value-role-fatal":           "role",
	"unknown-outcome-array-fatal":             "outcome",
}

// fixture is one corpus file; see the corpus's README.md for the format.
type fixture struct {
	Name   string `json:"name"`
	Client struct {
		MaxProtocolVersion string `json:"maxProtocolVersion"`
	} `json:"client"`
	Input           json.RawMessage                       `json:"input"`
	Stream          []json.RawMessage                     `json:"stream"`
	Expect          map[string]json.RawMessage            `json:"expect"`
	ExpectOverrides map[string]map[string]json.RawMessage `json:"expectOverrides"`
}

// TestCorpus replays every fixture of the AG-UI 1.1 conformance corpus into
// the client over real HTTP and checks every expectation it can observe.
func TestCorpus(t *testing.T) {
	dir := sharedtest.Path(t, corpusDir)
	names := manifest(t, filepath.Join(dir, "MANIFEST.txt"))
	if len(names) != 68 {
		t.Fatalf("MANIFEST.txt lists %d fixtures, want 68", len(names))
	}
	passing := 0
	for _, file := range names {
		name := strings.TrimSuffix(file, ".json")
		t.Run(name, func(t *testing.T) {
			fx := readFixture(t, filepath.Join(dir, file))
			if fx.Name != name {
				t.Fatalf("fixture name %q, file %s", fx.Name, file)
			}
			problems := replay(t, fx)
			reason, differs := corpusDifferences[name]
			switch {
			case differs && len(problems) == 0:
				t.Errorf("listed as a difference (%s) but passes: remove it from corpusDifferences", reason)
			case differs:
				t.Logf("known difference: %s; problems: %s", reason, strings.Join(problems, "; "))
			case len(problems) > 0:
				t.Errorf("%s", strings.Join(problems, "\n"))
			default:
				passing++
			}
		})
	}
	for name := range corpusDifferences {
		if !slices.Contains(names, name+".json") {
			t.Errorf("corpusDifferences names %s, which is not in the corpus", name)
		}
	}
	if passing != corpusPassing || passing+len(corpusDifferences) != len(names) {
		t.Errorf("%d fixtures pass and %d are listed differences of %d; corpusPassing (and the docs) say %d", passing, len(corpusDifferences), len(names), corpusPassing)
	}
}

func manifest(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

func readFixture(t *testing.T, path string) *fixture {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	// The TypeScript lane's overrides apply (this client follows
	// @ag-ui/client); the .NET lane's describe that client, not the protocol.
	for k, v := range fx.ExpectOverrides["typescript"] {
		if k != "intentional" {
			fx.Expect[k] = v
		}
	}
	return &fx
}

// run is what a replay observed.
type run struct {
	err      error
	events   []agui.Event
	warnings []client.Warning
	view     *client.View
	request  []byte
}

// replay serves fx's stream from an httptest server as SSE frames, runs the
// client against it and returns every expectation that does not hold.
func replay(t *testing.T, fx *fixture) []string {
	var (
		mu  sync.Mutex
		req []byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		req = b
		mu.Unlock()
		w.Header().Set("Content-Type", agui.SSEContentType)
		for _, ev := range fx.Stream {
			fmt.Fprintf(w, "data: %s\n\n", compact(t, ev))
		}
	}))
	defer srv.Close()

	var r run
	opts := []client.Option{client.WithWarnings(func(w client.Warning) { r.warnings = append(r.warnings, w) })}
	if v := fx.Client.MaxProtocolVersion; v != "" {
		opts = append(opts, client.WithAgentVersion(v))
	}
	agent, err := client.New(srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("t-corpus", "r-corpus")
	if len(fx.Input) > 0 && string(fx.Input) != "null" {
		// The fixture's input holds what the run starts from.
		full := map[string]any{"threadId": "t-corpus", "runId": "r-corpus", "protocolVersion": agui.LatestProtocolVersion}
		var extra map[string]any
		if err := json.Unmarshal(fx.Input, &extra); err != nil {
			t.Fatal(err)
		}
		for k, v := range extra {
			full[k] = v
		}
		b, _ := json.Marshal(full)
		if in, err = agui.DecodeInput(b); err != nil {
			return []string{"the fixture's input does not decode: " + err.Error()}
		}
	}
	if r.view, err = client.NewView(in); err != nil {
		t.Fatal(err)
	}
	for ev, err := range agent.Events(context.Background(), in, r.view) {
		if err != nil {
			r.err = err
			break
		}
		r.events = append(r.events, ev)
	}
	mu.Lock()
	r.request = req
	mu.Unlock()
	return check(fx, &r)
}

func compact(t *testing.T, raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCorpusCountInDocs holds README.md and docs/client.md to the number
// of fixtures TestCorpus passes.
func TestCorpusCountInDocs(t *testing.T) {
	want := fmt.Sprintf("%d of the 68", corpusPassing)
	for _, doc := range []string{"../README.md", "../docs/client.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s does not say the client passes %q fixtures", doc, want)
		}
	}
}
