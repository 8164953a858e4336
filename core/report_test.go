package core

import (
	"context"
	"errors"
	"testing"
)

func TestResultAndUsage(t *testing.T) {
	gpt := func(in, out int64) TokenUsage {
		return TokenUsage{Provider: "openai", Model: "gpt", InputTokens: Tokens(in), OutputTokens: Tokens(out)}
	}
	agent := func(outcome Outcome, err error) AgentFunc[NoState] {
		return func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
			rc.SetResult("first")
			rc.SetResult(map[string]int{"answer": 42})
			rc.AddUsage(gpt(10, 5))
			rc.AddUsage(gpt(1, 2), TokenUsage{Provider: "anthropic", Model: "claude", ReasoningTokens: Tokens(7)})
			return outcome, err
		}
	}
	check := func(t *testing.T, usage []TokenUsage) {
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

	fin := last[*RunFinished](t, run(t, agent(Success(), nil)))
	if m, ok := fin.Result.(map[string]int); !ok || m["answer"] != 42 {
		t.Errorf("result = %v", fin.Result)
	}
	check(t, fin.Usage)

	fin = last[*RunFinished](t, run(t, agent(Cancelled(), nil)))
	if fin.Result != nil {
		t.Errorf("a cancelled run carries result %v", fin.Result)
	}

	re := last[*RunError](t, run(t, agent(Outcome{}, errors.New("x"))))
	check(t, re.Usage)
}

// With nothing recorded, RUN_FINISHED carries neither.
func TestNoResultNoUsage(t *testing.T) {
	fin := last[*RunFinished](t, run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), nil }))
	if fin.Result != nil || fin.Usage != nil {
		t.Errorf("RUN_FINISHED = %+v", fin)
	}
}
