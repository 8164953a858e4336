package mcptool

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func TestOptionsRefuseBadValues(t *testing.T) {
	if _, err := Connect(context.Background(), nil, WithCallTimeout(0)); err == nil || !strings.Contains(err.Error(), "CallTimeout") {
		t.Fatalf("CallTimeout(0): %v", err)
	}
}

// A server that neither answers nor dies is bounded by WithCallTimeout: the
// call ends with an error result and the server's handler is cancelled.
func TestCallTimeout(t *testing.T) {
	h := newHooks()
	ts := inMemory(t, testServer(h), WithCallTimeout(20*time.Millisecond))
	res := run(t, context.Background(), nil, loop.WithToolSets(ts), loop.ScriptedCall{ID: "c1", Name: "wait", Args: `{}`})
	if e := toolResults(res)["c1"].Error; !strings.Contains(e, "deadline") {
		t.Fatalf("result error %q", e)
	}
	if err := <-h.cancelled; err == nil {
		t.Fatal("the server's handler was not cancelled")
	}
	if res.FinishReason != loop.FinishStop {
		t.Fatalf("finish %s", res.FinishReason)
	}
}

// A server that cannot be started fails Connect with CodeUnavailable.
func TestConnectUnavailable(t *testing.T) {
	cmd := exec.Command(filepath.Join(t.TempDir(), "no-such-server"))
	_, err := Connect(context.Background(), &mcp.CommandTransport{Command: cmd})
	if agui.CodeOf(err) != CodeUnavailable {
		t.Fatalf("err %v, want %s", err, CodeUnavailable)
	}
}
