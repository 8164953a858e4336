package ginagui_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// A run served by Register knows its Gin route and agent name, and a
// refused request is reported with them, whether the route's handler or
// the Input middleware refuses it.
func TestRegisterNamesTheRoute(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var refused []core.Refusal
	hook := func(_ context.Context, rf core.Refusal) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, rf)
	}
	seen := make(chan core.RouteInfo, 1)
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		ri, _ := core.RouteFrom(ctx)
		seen <- ri
		return agui.Success(), nil
	})
	opts := []core.HandlerOption{core.WithAgentName("named"), core.WithRefusalHook(hook), core.WithHandlerLogger(discardLogger())}
	r := gin.New()
	g := r.Group("/agents")
	if err := ginagui.Register(g, "/:name", a, opts...); err != nil {
		t.Fatal(err)
	}
	checked := r.Group("/checked", ginagui.Input(opts...))
	if err := ginagui.Register(checked, "/x", a, opts...); err != nil {
		t.Fatal(err)
	}

	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/agents/anything", strings.NewReader(runBody))
	req.Header.Set("Content-Type", "application/json")
	r.ServeHTTP(rec, req)
	if ri := <-seen; ri != (core.RouteInfo{Route: "/agents/:name", Agent: "named"}) {
		t.Fatalf("RouteFrom = %+v", ri)
	}
	for _, path := range []string{"/agents/anything", "/checked/x"} {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(runBody))
		req.Header.Set("Content-Type", "text/plain")
		r.ServeHTTP(httptest.NewRecorder(), req)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []core.RouteInfo{{Route: "/agents/:name", Agent: "named"}, {Route: "/checked/x", Agent: "named"}}
	if len(refused) != 2 || refused[0].RouteInfo != want[0] || refused[1].RouteInfo != want[1] || refused[0].Status != 415 {
		t.Fatalf("refusals = %+v", refused)
	}
}
