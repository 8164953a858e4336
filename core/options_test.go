package core

import (
	"context"
	"log/slog"
	"testing"

	"github.com/agui-go/agui"
)

func TestOptionDefaults(t *testing.T) {
	o, err := newRunConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.queue != defaultQueueSize || o.logger != slog.Default() || len(o.transformers) != 0 {
		t.Errorf("defaults = %+v", o)
	}
	o, err = newRunConfig([]RunOption{nil, WithLogger(nil), WithQueueSize(3)})
	if err != nil || o.queue != 3 || o.logger != slog.Default() {
		t.Errorf("options = %+v, %v", o, err)
	}
	nt := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error { return emit(ev) }))
	o, _ = newRunConfig([]RunOption{WithTransformers(nt), WithTransformers(nt, nt)})
	if len(o.transformers) != 3 {
		t.Errorf("WithTransformers does not append: %d", len(o.transformers))
	}
}

// A queue of 0 hands each event over directly; the run still completes.
func TestUnbufferedQueue(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		for range 10 {
			if err := rc.Say("x"); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	}, WithQueueSize(0))
	if len(evs) != 32 {
		t.Errorf("%d events, want 32", len(evs))
	}
}
