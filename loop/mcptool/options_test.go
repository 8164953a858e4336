package mcptool

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
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
	if e := toolResults(res)["c1"].Error; !strings.Contains(e, "did not answer wait within 20ms") {
		t.Fatalf("result error %q", e)
	}
	if err := <-h.cancelled; err == nil {
		t.Fatal("the server's handler was not cancelled")
	}
	if res.FinishReason != loop.FinishStop {
		t.Fatalf("finish %s", res.FinishReason)
	}
}

// Without WithCallTimeout a call to a server that never answers ends
// after DefaultCallTimeout with CodeTimeout (in a synctest bubble, so the
// minute passes at once). Before, it waited for as long as the run did.
func TestDefaultCallTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHooks()
		ts := inMemory(t, testServer(h))
		i := slices.IndexFunc(ts.Tools(), func(tl loop.Tool) bool { return tl.Name() == "wait" })
		if i < 0 {
			t.Fatal("no wait tool")
		}
		start := time.Now()
		_, err := ts.Tools()[i].Run(t.Context(), json.RawMessage(`{}`))
		if agui.CodeOf(err) != CodeTimeout {
			t.Fatalf("err %v, want %s", err, CodeTimeout)
		}
		if d := time.Since(start); d != DefaultCallTimeout {
			t.Fatalf("took %v, want %v", d, DefaultCallTimeout)
		}
		if err := <-h.cancelled; err == nil {
			t.Fatal("the server's handler was not cancelled")
		}
	})
}

// A server that cannot be started fails Connect with CodeServerUnavailable.
func TestConnectUnavailable(t *testing.T) {
	cmd := exec.Command(filepath.Join(t.TempDir(), "no-such-server"))
	_, err := Connect(context.Background(), &mcp.CommandTransport{Command: cmd})
	if agui.CodeOf(err) != CodeServerUnavailable {
		t.Fatalf("err %v, want %s", err, CodeServerUnavailable)
	}
}
