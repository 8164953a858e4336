package ginagui_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

func TestRegisterRejectsBadOptions(t *testing.T) {
	t.Parallel()
	r := gin.New()
	err := ginagui.Register(r, "/agent", sayAgent("x"), ginagui.WithHandlerOptions(core.WithHeartbeat(-1)))
	if err == nil {
		t.Fatal("Register accepted a negative heartbeat")
	}
	if n := len(r.Routes()); n != 0 {
		t.Errorf("%d routes registered after an error, want 0", n)
	}
}
