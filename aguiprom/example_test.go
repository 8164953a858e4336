package aguiprom_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguiprom"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/transformers"
)

func ExampleNew() {
	reg := prometheus.NewRegistry()
	sink, err := aguiprom.New(reg)
	if err != nil {
		panic(err)
	}
	hello := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hello")
	})
	h, err := core.NewHandler(hello, core.WithRoute("/agents/hello"), core.WithAgentName("hello"),
		core.WithRefusalHook(sink.Refused),                // refused requests
		core.WithTransformers(transformers.Metrics(sink))) // runs and events
	if err != nil {
		panic(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/agents/hello",
		strings.NewReader(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)

	families, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	for _, f := range families {
		if f.GetName() == "agui_runs_started_total" {
			m := f.GetMetric()[0]
			fmt.Println(f.GetName(), m.GetLabel()[0].GetValue(), m.GetLabel()[1].GetValue(), m.GetCounter().GetValue())
		}
	}
	// Output: agui_runs_started_total hello /agents/hello 1
}
