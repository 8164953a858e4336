package loop

import (
	"context"
	"encoding/json"
)

// Run runs the tool as the loop does: the arguments are validated against
// its schema first, and a panic in the tool's function comes back as an
// error. Wrappers that decorate a tool (tracing, metrics) call it from the
// function of a [RawTool] with the same name and schema.
func (t Tool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := t.validate(args); err != nil {
		return "", err
	}
	return t.call(ctx, args)
}
