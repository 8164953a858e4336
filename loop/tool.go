package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is a function the model may call. Build one with [NewTool] (typed,
// schema inferred from the input type) or [RawTool] (schema given).
//
// A Tool is immutable and safe for concurrent use; its function is called
// from one goroutine per call, possibly several at once.
type Tool struct {
	spec     ToolSpec
	resolved *jsonschema.Resolved
	fn       func(ctx context.Context, args json.RawMessage) (string, error)
	// question is set for a tool that asks the user first ([NewQuestion]).
	question *question
}

// NewTool returns a tool named name that decodes its arguments into In,
// calls fn and returns Out as JSON (a string Out is returned as it is).
// The arguments' JSON Schema is inferred from In (struct fields by their
// json names; fields without omitempty are required; a `jsonschema` tag is
// the field's description), and arguments are validated against it before
// fn is called: invalid arguments become the call's error result.
func NewTool[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, errors.New("loop: NewTool " + name + ": nil function")
	}
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: NewTool %s: %w", name, err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: NewTool %s: %w", name, err)
	}
	return newTool(name, description, raw, func(ctx context.Context, args json.RawMessage) (string, error) {
		var in In
		if err := json.Unmarshal(args, &in); err != nil {
			return "", validationError{err}
		}
		out, err := fn(ctx, in)
		if err != nil {
			return "", err
		}
		if s, ok := any(out).(string); ok {
			return s, nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return "", fmt.Errorf("encoding result: %w", err)
		}
		return string(b), nil
	})
}

// RawTool returns a tool with the given JSON Schema for its arguments;
// arguments are validated against it before fn gets them. fn's string is
// the call's result.
func RawTool(name, description string, schema json.RawMessage, fn func(ctx context.Context, args json.RawMessage) (string, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, errors.New("loop: RawTool " + name + ": nil function")
	}
	return newTool(name, description, schema, fn)
}

func newTool(name, description string, schema json.RawMessage, fn func(context.Context, json.RawMessage) (string, error)) (Tool, error) {
	if name == "" {
		return Tool{}, errors.New("loop: tool with empty name")
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return Tool{}, fmt.Errorf("loop: tool %s: schema: %w", name, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return Tool{}, fmt.Errorf("loop: tool %s: schema: %w", name, err)
	}
	return Tool{
		spec:     ToolSpec{Name: name, Description: description, Schema: append(json.RawMessage(nil), schema...)},
		resolved: r,
		fn:       fn,
	}, nil
}

// Spec returns how the tool is described to the model.
func (t Tool) Spec() ToolSpec { return t.spec }

// Name returns the tool's name.
func (t Tool) Name() string { return t.spec.Name }

// validate checks args against the tool's schema.
func (t Tool) validate(args json.RawMessage) error {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return validationError{err}
	}
	if err := t.resolved.Validate(v); err != nil {
		return validationError{err}
	}
	return nil
}

// call runs the tool's function, turning a panic into an error so that a
// broken tool cannot take the process down.
func (t Tool) call(ctx context.Context, args json.RawMessage) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %s panicked: %v", t.spec.Name, p)
		}
	}()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return t.fn(ctx, args)
}

// validationError marks arguments that do not fit the schema.
type validationError struct{ err error }

func (e validationError) Error() string { return "invalid arguments: " + e.err.Error() }
func (e validationError) Unwrap() error { return e.err }
