package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

type forecast struct {
	City  string `json:"city"`
	TempC int    `json:"tempC"`
	Note  string `json:"note,omitempty"`
}

// inOrder plays turns in call order, whatever the conversation, and keeps
// the requests.
type inOrder struct {
	mu    sync.Mutex
	turns []Turn
	reqs  []ModelRequest
}

func (p *inOrder) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	p.mu.Lock()
	n := len(p.reqs)
	p.reqs = append(p.reqs, ModelRequest{Messages: append([]agui.Message(nil), req.Messages...), Output: req.Output})
	p.mu.Unlock()
	if n >= len(p.turns) {
		return Script().Stream(ctx, ModelRequest{})
	}
	return Script(p.turns[n]).Stream(ctx, ModelRequest{})
}

func TestOutputValid(t *testing.T) {
	p := &inOrder{turns: []Turn{{Calls: echoCalls("c1")}, {Text: "```json\n{\"city\": \"Oslo\", \"tempC\": 21}\n```"}}}
	a := mustNew(t, p, WithTools(echoTool(t)), WithOutput[forecast]())
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("Weather?")}})
	if err != nil || res.FinishReason != FinishStop {
		t.Fatalf("finish %s err %v", res.FinishReason, err)
	}
	if got, ok := res.Output.(forecast); !ok || got != (forecast{City: "Oslo", TempC: 21}) {
		t.Fatalf("output %#v", res.Output)
	}
	o := p.reqs[0].Output
	if o == nil || o.Name == "" {
		t.Fatalf("request output %+v", o)
	}
	var schema map[string]any
	if err := json.Unmarshal(o.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if props, _ := schema["properties"].(map[string]any); props["city"] == nil || props["tempC"] == nil {
		t.Fatalf("schema %s", o.Schema)
	}
}

// An invalid answer gets one repair turn that quotes the error.
func TestOutputRepaired(t *testing.T) {
	p := &inOrder{turns: []Turn{{Text: `{"city": "Oslo"}`}, {Text: `{"city": "Oslo", "tempC": 21}`}}}
	a := mustNew(t, p, WithOutput[forecast]())
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("Weather?")}})
	if err != nil || res.FinishReason != FinishStop || res.Steps != 2 {
		t.Fatalf("finish %s steps %d err %v", res.FinishReason, res.Steps, err)
	}
	if got, _ := res.Output.(forecast); got.TempC != 21 {
		t.Fatalf("output %#v", res.Output)
	}
	second := p.reqs[1].Messages
	repair, ok := second[len(second)-1].(*agui.UserMessage)
	if !ok || !strings.Contains(repair.Content.Text, "tempC") {
		t.Fatalf("repair message %#v", second[len(second)-1])
	}
}

// A second invalid answer ends the run with FinishOutputInvalid, without
// output, on Result and on RUN_FINISHED.
func TestOutputInvalid(t *testing.T) {
	turns := []Turn{{Text: "It is sunny."}, {Text: `{"city": 5}`}}
	a := mustNew(t, &inOrder{turns: turns}, WithOutput[forecast]())
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("Weather?")}})
	if err != nil || res.FinishReason != FinishOutputInvalid || res.Output != nil {
		t.Fatalf("finish %s output %v err %v", res.FinishReason, res.Output, err)
	}
	if last := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage); last.Content != `{"city": 5}` {
		t.Fatalf("last %q", last.Content)
	}

	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, mustNew(t, &inOrder{turns: turns}, WithOutput[forecast]()), in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok {
		t.Fatalf("events %v", types(evs))
	}
	if r, _ := fin.Result.(map[string]any); r["finishReason"] != "output-invalid" || r["output"] != nil {
		t.Fatalf("result %v", fin.Result)
	}
}

func TestOutputOnRunFinished(t *testing.T) {
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, mustNew(t, Script(Turn{Text: `{"city":"Oslo","tempC":21}`}), WithOutput[forecast]()), in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok {
		t.Fatalf("events %v", types(evs))
	}
	r, _ := fin.Result.(map[string]any)
	if got, _ := r["output"].(forecast); got.City != "Oslo" || r["finishReason"] != "stop" {
		t.Fatalf("result %#v", fin.Result)
	}
	b, err := json.Marshal(fin.Result)
	if err != nil || !strings.Contains(string(b), `"output":{"city":"Oslo","tempC":21}`) {
		t.Fatalf("encoded %s %v", b, err)
	}
}

func TestOutputRejectsUnschematicType(t *testing.T) {
	if _, err := New(Script(), WithOutput[chan int]()); err == nil {
		t.Fatal("Output of a channel type accepted")
	}
}

// A typed final answer: the model's JSON is validated and decoded.
func ExampleWithOutput() {
	type Forecast struct {
		City  string `json:"city"`
		TempC int    `json:"tempC"`
	}
	agent, err := New(Script(Turn{Text: `{"city": "Oslo", "tempC": 21}`}), WithOutput[Forecast]())
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := agent.Execute(context.Background(), Input{Messages: []agui.Message{UserText("Weather in Oslo?")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := res.Output.(Forecast)
	fmt.Println(res.FinishReason, f.City, f.TempC)
	// Output: stop Oslo 21
}

// A typed subagent answers its delegation with its checked value as JSON.
func TestDelegateTypedOutput(t *testing.T) {
	sub := mustNew(t, Script(Turn{Text: "```json\n{\"city\":\"Oslo\",\"tempC\":21}\n```"}), WithOutput[forecast]())
	tool, err := Delegate("forecaster", "forecasts", sub)
	if err != nil {
		t.Fatal(err)
	}
	parent := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "d1", Name: "forecaster", Args: `{"task":"Oslo"}`}}}, Turn{Text: "done"}), WithTools(tool))
	var result string
	var finished any
	_, err = parent.Execute(t.Context(), Input{Messages: []agui.Message{UserText("go")}, OnEvent: func(ev agui.Event) error {
		switch e := ev.(type) {
		case *agui.ToolCallResult:
			result = e.Content.String()
		case *agui.SubagentFinished:
			finished = e.Result
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if result != `{"city":"Oslo","tempC":21}` || finished != (forecast{City: "Oslo", TempC: 21}) {
		t.Fatalf("result %q, subagent result %#v", result, finished)
	}
}
