package ginagui_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

func TestRegisterRejectsBadOptions(t *testing.T) {
	t.Parallel()
	r := gin.New()
	err := ginagui.Register(r, "/agent", sayAgent("x"), core.WithHeartbeat(-1))
	if err == nil {
		t.Fatal("Register accepted a negative heartbeat")
	}
	if n := len(r.Routes()); n != 0 {
		t.Errorf("%d routes registered after an error, want 0", n)
	}
}

// Run options and handler options go in one list, with no nesting.
func TestRegisterTakesRunAndHandlerOptionsInOneList(t *testing.T) {
	t.Parallel()
	r := gin.New()
	if err := ginagui.Register(r, "/x", sayAgent("x"), core.WithQueueSize(128), core.WithHeartbeat(0),
		core.WithTransformers(tag("!"))); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/bad", sayAgent("x"), core.WithQueueSize(-1)); err == nil {
		t.Error("Register accepted a negative queue size")
	}
	srv := serve(t, r)
	resp := postRun(t, srv.URL+"/x")
	defer resp.Body.Close()
	if got := text(aguitest.ReadSSE(t, resp.Body)); got != "x!" {
		t.Errorf("text %q, want %q: the run option did not reach the run", got, "x!")
	}
}
