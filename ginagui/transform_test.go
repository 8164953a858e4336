package ginagui_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// tag returns a transformer that appends name to every text delta, so the
// final text spells the order in which transformers saw the events.
func tag(name string) core.TransformerFactory {
	return core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			cp := *c
			cp.Delta += name
			ev = &cp
		}
		return emit(ev)
	}))
}

func TestTransformComposesLikeMiddleware(t *testing.T) {
	t.Parallel()
	r := gin.New()
	outer := r.Group("/a", ginagui.Transform(tag("A")))
	inner := outer.Group("/b", ginagui.Transform(tag("B1"), tag("B2")))
	sibling := outer.Group("/c", ginagui.Transform(tag("C")))
	for _, g := range []gin.IRouter{r, outer, inner, sibling} {
		if err := ginagui.Register(g, "/agent", sayAgent("x")); err != nil {
			t.Fatal(err)
		}
	}
	srv := serve(t, r)
	for path, want := range map[string]string{
		"/agent":     "x",
		"/a/agent":   "xA",
		"/a/b/agent": "xB1B2A", // innermost group first, in the order written; the outermost last
		"/a/c/agent": "xCA",    // siblings never share a chain
	} {
		resp := postRun(t, srv.URL+path)
		got := text(aguitest.ReadSSE(t, resp.Body))
		resp.Body.Close()
		if got != want {
			t.Errorf("%s: text %q, want %q", path, got, want)
		}
	}
}

// A transformer's panic ends its run with RUN_ERROR (TRANSFORM_ERROR)
// instead of the process, so the server serves the next request.
func TestTransformerPanicThroughGin(t *testing.T) {
	t.Parallel()
	boom := core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageContent {
			panic("transformer bug")
		}
		return emit(ev)
	}))
	r := gin.New()
	if err := ginagui.Register(r.Group("/bad", ginagui.Transform(boom)), "/agent", sayAgent("x"),
		core.WithHandlerLogger(discardLogger())); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/agent", sayAgent("x")); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)
	for range 2 {
		resp := postRun(t, srv.URL+"/bad/agent")
		evs := aguitest.ReadSSE(t, resp.Body)
		resp.Body.Close()
		if len(evs) == 0 {
			t.Fatal("empty stream")
		}
		if e, ok := evs[len(evs)-1].(*agui.RunError); !ok || e.Code != string(agui.CodeTransform) {
			t.Fatalf("last event %#v, want RUN_ERROR TRANSFORM_ERROR", evs[len(evs)-1])
		}
	}
	resp := postRun(t, srv.URL+"/agent")
	defer resp.Body.Close()
	if got := text(aguitest.ReadSSE(t, resp.Body)); got != "x" {
		t.Errorf("the next run's text %q, want x", got)
	}
}

// Transform(a, b) and core.WithTransformers(a, b) run a and b in the same
// order: the order written, a first.
func TestTransformOrderMatchesWithTransformers(t *testing.T) {
	t.Parallel()
	r := gin.New()
	if err := ginagui.Register(r.Group("/group", ginagui.Transform(tag("1"), tag("2"))), "/agent", sayAgent("x")); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/option", sayAgent("x"),
		core.WithTransformers(tag("1"), tag("2"))); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)
	for _, path := range []string{"/group/agent", "/option"} {
		resp := postRun(t, srv.URL+path)
		got := text(aguitest.ReadSSE(t, resp.Body))
		resp.Body.Close()
		if got != "x12" {
			t.Errorf("%s: text %q, want %q (1 before 2)", path, got, "x12")
		}
	}
}
