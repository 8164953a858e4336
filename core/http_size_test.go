package core

import (
	"context"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// An event the writer cannot frame (here one a transformer made over the
// limit, past the runner's own size check) is never dropped while the
// run ends in success: the stream ends with RUN_ERROR SERIALIZATION.
func TestHandlerOversizedEventNeverEndsInSuccess(t *testing.T) {
	inflate := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageEnd {
			if err := emit(ev); err != nil {
				return err
			}
			return emit(&agui.Custom{Name: "big", Value: strings.Repeat("x", agui.MaxEventSize)})
		}
		return emit(ev)
	}))
	h, err := NewHandler[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}), WithTransformers(inflate))
	if err != nil {
		t.Fatal(err)
	}
	rec := serveMinimal(h)
	body := rec.Body.String()
	if strings.Contains(body, `"RUN_FINISHED"`) || !strings.Contains(body, `"code":"SERIALIZATION"`) {
		t.Fatalf("stream:\n%.2000s", body)
	}
}
