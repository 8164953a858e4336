package a2ui

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// RenderToolName is the name of the tool [Render] returns, which [Generate]
// forces its sub-model to call.
const RenderToolName = "render_a2ui"

// renderSchema is render_a2ui's parameter schema, the one the A2UI
// middleware of the AG-UI runtime gives the tool it injects.
const renderSchema = `{
  "type": "object",
  "properties": {
    "surfaceId": {"type": "string", "description": "Unique surface identifier."},
    "catalogId": {"type": "string", "description": "The catalog ID for the component catalog."},
    "components": {"type": "array", "description": "A2UI v0.9 component array (flat format). The root component must have id \"root\".", "items": {"type": "object"}},
    "data": {"type": "object", "description": "Initial data model for the surface, written to its root path."}
  },
  "required": ["surfaceId", "components"]
}`

const renderDescription = "Render a dynamic A2UI v0.9 surface: a flat list of components (one with id \"root\") and the data model they bind to."

// maxArgsBytes bounds the arguments of one surface a tool decodes.
const maxArgsBytes = 1 << 20

// Render returns the render_a2ui tool: the model calls it with a whole
// surface ([Surface]: surfaceId, catalogId, components, data), the tool
// checks it ([Validate], against the catalog of [WithCatalog] when given)
// and answers:
//
//   - a valid surface: the result {"a2ui_operations":[createSurface,
//     updateComponents, updateDataModel]} ([Envelope]), which the A2UI
//     middleware paints and the model reads; with [WithActivity], also an
//     ACTIVITY_SNAPSHOT carrying the same operations;
//   - an invalid one: an error result with code [CodeInvalidSurface]
//     whose message lists the problems ("[code] path: message"), so the
//     model's next turn can fix them;
//   - the [WithMaxAttempts]th invalid one in a run: the [Failure] result
//     (code "a2ui_recovery_exhausted"), never a painted invalid surface.
//
// Arguments that do not fit the tool's parameter schema (components that
// are not a list, say) never reach the tool: the loop answers them with
// its own error result, which the model reads the same way, and they do
// not count as attempts ([loop.WithMaxSteps] bounds them).
//
// The tool is safe for concurrent use by any number of runs, each with
// its own count of attempts; it keeps the counts of the 1024 most recent
// runs that had an invalid surface.
func Render(opts ...Option) (loop.Tool, error) {
	c, err := newConfig(opts)
	if err != nil {
		return loop.Tool{}, err
	}
	r := &renderer{cfg: c, runs: attemptLog{max: 1024}}
	return loop.RawTool(RenderToolName, renderDescription, json.RawMessage(renderSchema), r.call)
}

type renderer struct {
	cfg  config
	runs attemptLog
}

func (r *renderer) call(ctx context.Context, args json.RawMessage) (string, error) {
	s, ps := r.cfg.check(args)
	if len(ps) == 0 {
		return r.cfg.paint(ctx, s)
	}
	call, _ := loop.CallFrom(ctx)
	attempts := r.runs.add(call.ThreadID+"\x00"+call.RunID, ps)
	if len(attempts) >= r.cfg.maxAttempts {
		return r.cfg.fail(ctx, attempts)
	}
	return "", agui.NewError(CodeInvalidSurface, "the surface is invalid; call "+RenderToolName+" again with these fixed:\n"+problemLines(ps))
}

// check decodes and validates a surface's arguments.
func (c config) check(args json.RawMessage) (Surface, []Problem) {
	if len(args) > maxArgsBytes {
		return Surface{}, []Problem{{Code: CodeTooLarge, Path: "surface", Message: "the surface is over 1 MiB of JSON"}}
	}
	var s Surface
	if err := json.Unmarshal(args, &s); err != nil {
		return Surface{}, []Problem{{Code: CodeMalformed, Path: "surface", Message: "the arguments are not a surface: " + err.Error()}}
	}
	if c.catalog == nil {
		return s, Validate(s, nil, c.limits)
	}
	switch s.CatalogID {
	case "":
		s.CatalogID = c.catalog.ID
	case c.catalog.ID:
	default:
		ps := []Problem{{Code: CodeUnknownCatalog, Path: "catalogId", Message: fmt.Sprintf("%q is not the catalog; use %q or leave it out", s.CatalogID, c.catalog.ID)}}
		return s, append(ps, Validate(s, c.catalog, c.limits)...)
	}
	return s, Validate(s, c.catalog, c.limits)
}

// paint returns the envelope of a valid surface, and reports it as an
// activity when asked to.
func (c config) paint(ctx context.Context, s Surface) (string, error) {
	b, err := json.Marshal(Envelope{Operations: s.Operations()})
	if err != nil {
		return "", err
	}
	if c.activity {
		var content map[string]any
		if err := json.Unmarshal(b, &content); err != nil {
			return "", err
		}
		if err := loop.Progress(ctx, ActivityType, content); err != nil {
			return "", err
		}
	}
	return string(b), nil
}

// fail returns the failure after attempts, and reports it as the
// activity's failed state when asked to.
func (c config) fail(ctx context.Context, attempts []Attempt) (string, error) {
	f := newFailure(attempts)
	b, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	if c.activity {
		if err := loop.Progress(ctx, ActivityType, map[string]any{"status": "failed", "error": f.Error}); err != nil {
			return "", err
		}
	}
	return string(b), nil
}

// attemptLog keeps the invalid attempts of the most recent runs, at most
// max of them, forgetting the oldest first. It is safe for concurrent use.
type attemptLog struct {
	mu    sync.Mutex
	max   int
	runs  map[string][]Attempt
	order []string
}

// add records an invalid attempt of run and returns the run's attempts.
func (l *attemptLog) add(run string, ps []Problem) []Attempt {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runs == nil {
		l.runs = map[string][]Attempt{}
	}
	as, ok := l.runs[run]
	if !ok {
		if len(l.order) == l.max {
			delete(l.runs, l.order[0])
			l.order = l.order[1:]
		}
		l.order = append(l.order, run)
	}
	as = append(as, Attempt{Attempt: len(as) + 1, Errors: ps})
	l.runs[run] = as
	return append([]Attempt(nil), as...)
}
