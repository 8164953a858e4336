package resume_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// An event the owner cannot encode (here one a transformer made over the
// limit, past the runner's own size check) is never dropped while the
// run's log ends in success: it ends with RUN_ERROR SERIALIZATION, as on
// the plain route (TestHandlerOversizedEventNeverEndsInSuccess).
func TestResumableOversizedEventNeverEndsInSuccess(t *testing.T) {
	inflate := core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageEnd {
			if err := emit(ev); err != nil {
				return err
			}
			return emit(&agui.Custom{Name: "big", Value: strings.Repeat("x", agui.MaxEventSize)})
		}
		return emit(ev)
	}))
	h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}), core.WithTransformers(inflate))
	rh, err := resume.New(h, mustMemoryLog(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rh.Close(context.Background()) })
	rec := httptest.NewRecorder()
	rh.ServeHTTP(rec, newPost(runRequest("t", "r")))
	body := rec.Body.String()
	if rec.Code != http.StatusOK || strings.Contains(body, `"RUN_FINISHED"`) || !strings.Contains(body, `"code":"SERIALIZATION"`) {
		t.Fatalf("stream %d:\n%.2000s", rec.Code, body)
	}
}
