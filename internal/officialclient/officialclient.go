package officialclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/nodetest"
)

// Session is one thread driven by one HttpAgent: its first messages and
// state, then one runAgent call per step, in order, on the same agent (so
// a later step resumes what an earlier one left pending). A plain value.
type Session struct {
	// ThreadID is the agent's threadId ("": the client picks one).
	ThreadID string
	// Headers are sent with every request (authentication, say).
	Headers map[string]string
	// Messages and State seed the agent (initialMessages, initialState).
	Messages []agui.Message
	State    json.RawMessage
	Steps    []Step
}

// Step is one runAgent call. A plain value.
type Step struct {
	// Messages are added to the agent (addMessage) before the run.
	Messages []agui.Message
	// Tools, Context and ForwardedProps are the run's parameters.
	Tools          []agui.Tool
	Context        []agui.ContextItem
	ForwardedProps json.RawMessage
	// Resume is the run's resume array as JSON; ResumeAll, when set,
	// answers every interrupt the agent has pending with this payload
	// (status "resolved") instead.
	Resume    json.RawMessage
	ResumeAll json.RawMessage
	// AbortAfter, when positive, calls abortRun once that many events of
	// the run have arrived: the client hangs up mid-stream.
	AbortAfter int
}

// Result is what one step left. A plain value.
type Result struct {
	// Events are the raw events as they came off the wire, decoded.
	Events []agui.Event
	// Outcome is RUN_FINISHED's outcome ("success", "interrupt"), or ""
	// when the run did not finish.
	Outcome string
	// RunErrors are the RUN_ERROR events the client saw.
	RunErrors []json.RawMessage
	// Error is why runAgent rejected ("" when it resolved): a stream the
	// client's verifier refused, an HTTP error, an abort.
	Error string
	// Warnings and Errors are what the client printed with console.warn
	// and console.error during the run.
	Warnings, Errors []string
	// SchemaErrors names the raw events that fail @ag-ui/core's schemas.
	SchemaErrors []string
	// Messages, State and PendingInterrupts are the agent's after the run.
	Messages          []agui.Message
	State             json.RawMessage
	PendingInterrupts json.RawMessage
}

// Clean reports a run the client did not accept without complaint: a
// rejection, a warning or error it printed, or an event off its schema.
func (r Result) Clean() error {
	var errs []error
	if r.Error != "" {
		errs = append(errs, fmt.Errorf("runAgent rejected: %s", r.Error))
	}
	for _, w := range r.Warnings {
		errs = append(errs, fmt.Errorf("client warned: %s", w))
	}
	for _, e := range r.Errors {
		errs = append(errs, fmt.Errorf("client logged an error: %s", e))
	}
	for _, e := range r.SchemaErrors {
		errs = append(errs, fmt.Errorf("off the official schema: %s", e))
	}
	return errors.Join(errs...)
}

// Types lists the events' types in order.
func (r Result) Types() []string {
	out := make([]string, len(r.Events))
	for i, e := range r.Events {
		out[i] = string(e.Type())
	}
	return out
}

// Run drives s through the official client against url (the agent's
// route) and returns one [Result] per step. It fails t when Node cannot
// run the session or its output cannot be read; what the client thought
// of the stream is in the results, for the test to judge.
func Run(t testing.TB, url string, s Session) []Result {
	t.Helper()
	dir := scriptDir(t)
	node := nodetest.Node(t, dir)
	in, err := json.Marshal(wireSession{URL: url, Headers: s.Headers, ThreadID: s.ThreadID, Messages: s.Messages, State: s.State, Steps: wireSteps(s.Steps)})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "session.mjs"))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node session.mjs: %v\n%s", err, stderr.String())
	}
	var raw []wireResult
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil {
		t.Fatalf("reading the client's results: %v\n%s", err, stdout.String())
	}
	out := make([]Result, len(raw))
	for i, w := range raw {
		r, err := w.result()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		out[i] = r
	}
	return out
}

// scriptDir is this package's directory, where session.mjs and the
// package lock are: tests of other modules run in their own directories.
func scriptDir(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("officialclient: cannot locate its own source directory")
	}
	return filepath.Dir(file)
}

type wireSession struct {
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers,omitempty"`
	ThreadID string            `json:"threadId,omitempty"`
	Messages []agui.Message    `json:"messages,omitempty"`
	State    json.RawMessage   `json:"state,omitempty"`
	Steps    []wireStep        `json:"steps"`
}

type wireStep struct {
	Messages       []agui.Message     `json:"messages,omitempty"`
	Tools          []agui.Tool        `json:"tools,omitempty"`
	Context        []agui.ContextItem `json:"context,omitempty"`
	ForwardedProps json.RawMessage    `json:"forwardedProps,omitempty"`
	Resume         json.RawMessage    `json:"resume,omitempty"`
	ResumeAll      json.RawMessage    `json:"resumeAll,omitempty"`
	AbortAfter     int                `json:"abortAfter,omitempty"`
}

func wireSteps(steps []Step) []wireStep {
	out := make([]wireStep, len(steps))
	for i, s := range steps {
		out[i] = wireStep(s)
	}
	return out
}

type wireResult struct {
	Events            []json.RawMessage `json:"events"`
	Outcome           string            `json:"outcome"`
	RunErrors         []json.RawMessage `json:"runErrors"`
	Error             string            `json:"error"`
	Warnings          []string          `json:"warnings"`
	Errors            []string          `json:"errors"`
	SchemaErrors      []string          `json:"schemaErrors"`
	Messages          []json.RawMessage `json:"messages"`
	State             json.RawMessage   `json:"state"`
	PendingInterrupts json.RawMessage   `json:"pendingInterrupts"`
}

func (w wireResult) result() (Result, error) {
	r := Result{Outcome: w.Outcome, RunErrors: w.RunErrors, Error: w.Error, Warnings: w.Warnings, Errors: w.Errors, SchemaErrors: w.SchemaErrors, State: w.State, PendingInterrupts: w.PendingInterrupts}
	for i, e := range w.Events {
		ev, err := agui.DecodeEvent(e)
		if err != nil {
			return r, fmt.Errorf("event #%d %s: %w", i, strings.TrimSpace(string(e)), err)
		}
		r.Events = append(r.Events, ev)
	}
	for i, m := range w.Messages {
		msg, err := agui.DecodeMessage(m)
		if err != nil {
			return r, fmt.Errorf("message #%d %s: %w", i, m, err)
		}
		r.Messages = append(r.Messages, msg)
	}
	return r, nil
}
