package core

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

func TestResultAndUsage(t *testing.T) {
	gpt := func(in, out int64) agui.TokenUsage {
		return agui.TokenUsage{Provider: "openai", Model: "gpt", InputTokens: new(int64(in)), OutputTokens: new(int64(out))}
	}
	agent := func(outcome agui.Outcome, err error) AgentFunc[NoState] {
		return func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			rc.SetResult("first")
			rc.SetResult(map[string]int{"answer": 42})
			rc.AddUsage(gpt(10, 5))
			rc.AddUsage(gpt(1, 2), agui.TokenUsage{Provider: "anthropic", Model: "claude", ReasoningTokens: new(int64(7))})
			return outcome, err
		}
	}
	check := func(t *testing.T, usage []agui.TokenUsage) {
		t.Helper()
		if len(usage) != 2 {
			t.Fatalf("usage = %+v", usage)
		}
		u := usage[0]
		if u.Model != "gpt" || *u.InputTokens != 11 || *u.OutputTokens != 7 || u.TotalTokens != nil {
			t.Errorf("summed usage = %+v", u)
		}
		if u := usage[1]; u.Model != "claude" || *u.ReasoningTokens != 7 || u.InputTokens != nil {
			t.Errorf("second usage = %+v", u)
		}
	}

	fin := last[*agui.RunFinished](t, run(t, agent(agui.Success(), nil)))
	if m, ok := fin.Result.(map[string]int); !ok || m["answer"] != 42 {
		t.Errorf("result = %v", fin.Result)
	}
	check(t, fin.Usage)

	fin = last[*agui.RunFinished](t, run(t, agent(agui.Cancelled(), nil)))
	if fin.Result != nil {
		t.Errorf("a cancelled run carries result %v", fin.Result)
	}

	re := last[*agui.RunError](t, run(t, agent(agui.Outcome{}, errors.New("x"))))
	check(t, re.Usage)
}

// With nothing recorded, RUN_FINISHED carries neither.
func TestNoResultNoUsage(t *testing.T) {
	fin := last[*agui.RunFinished](t, run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), nil }))
	if fin.Result != nil || fin.Usage != nil {
		t.Errorf("RUN_FINISHED = %+v", fin)
	}
}
