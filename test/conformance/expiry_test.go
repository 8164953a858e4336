package conformance_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os/exec"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/loop"
)

// TestApprovalExpiryWithOfficialClient serves a loop agent whose approval
// expires a millisecond after it is asked, and has expiry.mjs drive it
// with the official client: the client refuses to approve the expired
// interrupt, cancels it instead (an ordinary rejection), and a client that
// approves anyway gets RUN_ERROR APPROVAL_EXPIRED.
func TestApprovalExpiryWithOfficialClient(t *testing.T) {
	node := nodetest.Node(t, ".")
	book, err := loop.NewTool("book", "Books a room", func(ctx context.Context, in struct {
		Nights int `json:"nights"`
	}) (string, error) {
		t.Error("an expired approval ran its call")
		return "booked", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "book", Args: `{"nights":2}`}}},
		loop.Turn{Text: "Not booked."},
	)
	agent, err := loop.New(model, loop.WithTools(book),
		loop.WithNeedsApproval(func(loop.Call) bool { return true }),
		loop.WithApprovalTimeout(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := ginagui.Register(r, "/book", agent, core.WithHandlerLogger(slog.New(slog.DiscardHandler))); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()

	out, err := exec.CommandContext(t.Context(), node, "expiry.mjs", srv.URL+"/book").Output()
	if err != nil {
		t.Fatalf("node expiry.mjs: %v\n%s", err, out)
	}
	var got struct{ Problem *string }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Problem != nil {
		t.Fatalf("expiry.mjs: %s", *got.Problem)
	}
}
