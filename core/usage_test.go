package core

import (
	"context"
	"errors"
	"testing"
)

func TestAddUsageOnTerminalEvent(t *testing.T) {
	for name, fail := range map[string]bool{"finished": false, "error": true} {
		t.Run(name, func(t *testing.T) {
			agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
				rc.AddUsage(TokenUsage{Model: "m", InputTokens: Tokens(3)})
				rc.AddUsage(TokenUsage{Model: "m", OutputTokens: Tokens(4)})
				if fail {
					return Outcome{}, errors.New("boom")
				}
				return Success(), nil
			})
			var got []TokenUsage
			for ev, err := range Run(t.Context(), agent, NewInput("t", "r")) {
				if err != nil {
					t.Fatal(err)
				}
				switch e := ev.(type) {
				case *RunFinished:
					got = e.Usage
				case *RunError:
					got = e.Usage
				}
			}
			if len(got) != 2 || *got[0].InputTokens != 3 || *got[1].OutputTokens != 4 {
				t.Fatalf("usage %+v", got)
			}
		})
	}
}

func TestNoUsageOmitted(t *testing.T) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), nil })
	for ev := range Run(t.Context(), agent, NewInput("t", "r")) {
		if e, ok := ev.(*RunFinished); ok && e.Usage != nil {
			t.Fatalf("usage %+v", e.Usage)
		}
	}
}
