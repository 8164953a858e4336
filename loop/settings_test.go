package loop

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// settingsRecorder wraps a provider and keeps the settings of each request.
type settingsRecorder struct {
	p  Provider
	mu sync.Mutex
	s  []ModelSettings
}

func (r *settingsRecorder) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	r.mu.Lock()
	r.s = append(r.s, req.Settings)
	r.mu.Unlock()
	return r.p.Stream(ctx, req)
}

func TestModelSettingsReachProvider(t *testing.T) {
	temp, parallel := 0.2, false
	in := ModelSettings{Temperature: &temp, MaxOutputTokens: 300, StopSequences: []string{"END"}, ParallelToolCalls: &parallel}
	rec := &settingsRecorder{p: Script(Turn{Text: "hi"})}
	a := mustNew(t, rec, WithModelSettings(in))
	// The agent keeps its own copy.
	temp, in.StopSequences[0] = 1, "changed"
	if _, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	got := rec.s[0]
	if *got.Temperature != 0.2 || got.MaxOutputTokens != 300 || !slices.Equal(got.StopSequences, []string{"END"}) || *got.ParallelToolCalls {
		t.Fatalf("settings %+v", got)
	}
}

// A forcing tool choice holds for the first turn after new input only, so
// that the model can answer once it has called a tool.
func TestForcedToolChoiceFirstTurnOnly(t *testing.T) {
	for _, choice := range []ToolChoice{{Mode: ToolChoiceRequired}, UseTool("echo")} {
		rec := &settingsRecorder{p: Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "done"})}
		a := mustNew(t, rec, WithTools(echoTool(t)), WithModelSettings(ModelSettings{ToolChoice: choice}))
		for range 2 { // a second input restarts the count
			res, err := a.Execute(t.Context(), Input{ThreadID: "t-" + string(choice.Mode), Messages: []agui.Message{UserText("x")}})
			if err != nil || res.FinishReason != FinishStop {
				t.Fatalf("%v %v", res.FinishReason, err)
			}
		}
		want := []ToolChoice{choice, {Mode: ToolChoiceAuto}, choice, {Mode: ToolChoiceAuto}}
		var got []ToolChoice
		for _, s := range rec.s {
			got = append(got, s.ToolChoice)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("tool choices %v, want %v", got, want)
		}
	}
	// A choice that does not force a call holds on every turn.
	rec := &settingsRecorder{p: Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "done"})}
	a := mustNew(t, rec, WithTools(echoTool(t)), WithModelSettings(ModelSettings{ToolChoice: ToolChoice{Mode: ToolChoiceNone}}))
	if _, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	if rec.s[1].ToolChoice.Mode != ToolChoiceNone {
		t.Fatalf("second turn %v", rec.s[1].ToolChoice)
	}
}

func TestModelSettingsValidation(t *testing.T) {
	neg, hot := -0.1, 2.5
	bad := map[string]ModelSettings{
		"temperature below 0":   {Temperature: &neg},
		"temperature above 2":   {Temperature: &hot},
		"negative max tokens":   {MaxOutputTokens: -1},
		"empty stop sequence":   {StopSequences: []string{""}},
		"unknown mode":          {ToolChoice: ToolChoice{Mode: "sometimes"}},
		"named without name":    {ToolChoice: ToolChoice{Mode: ToolChoiceTool}},
		"auto with a tool name": {ToolChoice: ToolChoice{Mode: ToolChoiceAuto, Name: "echo"}},
	}
	for name, s := range bad {
		if _, err := New(Script(), WithModelSettings(s)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	_, err := New(Script(), WithTools(echoTool(t)), WithModelSettings(ModelSettings{ToolChoice: UseTool("missing")}))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("unknown named tool: %v", err)
	}
	if _, err := New(Script(), WithTools(echoTool(t)), WithModelSettings(ModelSettings{ToolChoice: UseTool("echo")})); err != nil {
		t.Fatal(err)
	}
}

// Model settings go with every model request; the provider maps them.
func ExampleWithModelSettings() {
	temp := 0.2
	model := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		s := req.Settings
		return func(yield func(Delta, error) bool) {
			yield(Delta{Text: fmt.Sprintf("temperature %v, at most %d tokens", *s.Temperature, s.MaxOutputTokens)}, nil)
			yield(Delta{Finish: FinishLength}, nil)
		}
	})
	agent, err := New(model, WithModelSettings(ModelSettings{Temperature: &temp, MaxOutputTokens: 5}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := agent.Execute(context.Background(), Input{Messages: []agui.Message{UserText("Tell me everything.")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.FinishReason, res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	// Output: length temperature 0.2, at most 5 tokens
}
