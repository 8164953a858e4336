package faults_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TestPanickingAgent serves an agent that panics mid-message: its client
// gets a terminal RUN_ERROR with code AGENT_PANIC (after the partial
// message), and the server goes on serving, the panicking route included.
func TestPanickingAgent(t *testing.T) {
	boom := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := m.Delta("about to "); err != nil {
			return agui.Outcome{}, err
		}
		var nilMap map[string]int
		//lint:ignore SA5000 the agent panics on purpose
		nilMap["boom"]++ // a genuine runtime panic, not a chosen value
		return agui.Success(), nil
	})
	ok := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("still here")
	})
	r := gin.New()
	for path, a := range map[string]core.Agent[core.NoState]{"/boom": boom, "/ok": ok} {
		if err := ginagui.Register(r, path, a, quiet()...); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()

	for i := range 3 {
		res := post(t, client, srv.URL+"/boom", runBody("boom"))
		if res.StatusCode != http.StatusOK {
			t.Fatalf("#%d: status %d", i, res.StatusCode)
		}
		evs := aguitest.ReadSSE(t, res.Body) // the verifier allows one terminal event, last
		res.Body.Close()
		last, ok := evs[len(evs)-1].(*agui.RunError)
		if !ok || last.Code != string(agui.CodePanic) {
			t.Fatalf("#%d: the stream ends with %v, want RUN_ERROR %s", i, aguitest.Types(evs), agui.CodePanic)
		}

		res = post(t, client, srv.URL+"/ok", runBody("ok"))
		evs = aguitest.ReadSSE(t, res.Body)
		res.Body.Close()
		if last := evs[len(evs)-1]; last.Type() != agui.TypeRunFinished {
			t.Fatalf("#%d: after a panic the next run ends with %s", i, last.Type())
		}
	}
}
