package loop

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

type weatherIn struct {
	City  string `json:"city" jsonschema:"the city"`
	Units string `json:"units,omitempty"`
}

type weatherOut struct {
	City  string `json:"city"`
	TempC int    `json:"tempC"`
}

func TestNewToolSchemaFromInput(t *testing.T) {
	tool, err := NewTool("get_weather", "Current weather for a city", func(_ context.Context, in weatherIn) (weatherOut, error) {
		return weatherOut{City: in.City, TempC: 21}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Type       string                     `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(tool.Spec().Schema, &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || len(s.Required) != 1 || s.Required[0] != "city" || len(s.Properties) != 2 {
		t.Fatalf("schema %s", tool.Spec().Schema)
	}
	out, err := tool.call(t.Context(), json.RawMessage(`{"city":"Oslo"}`))
	if err != nil || out != `{"city":"Oslo","tempC":21}` {
		t.Fatalf("%s %v", out, err)
	}
	for _, bad := range []string{`{}`, `{"city":3}`, `[1]`, `not json`, `{"city":"x","units":true}`} {
		if err := tool.validate(json.RawMessage(bad)); !errors.As(err, new(validationError)) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if err := tool.validate(json.RawMessage(`{"city":"x"}`)); err != nil {
		t.Fatal(err)
	}
}

func TestNewToolStringOutputAsIs(t *testing.T) {
	tool, err := NewTool("hi", "", func(_ context.Context, in struct{}) (string, error) { return "plain", nil })
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tool.call(t.Context(), nil); err != nil || out != "plain" {
		t.Fatalf("%q %v", out, err)
	}
}

func TestToolConstructorsReject(t *testing.T) {
	if _, err := NewTool[struct{}, string]("x", "", nil); err == nil {
		t.Error("nil fn")
	}
	if _, err := NewTool("x", "", func(context.Context, chan int) (string, error) { return "", nil }); err == nil {
		t.Error("input type without a schema")
	}
	if _, err := RawTool("", "", json.RawMessage(`{}`), func(context.Context, json.RawMessage) (string, error) { return "", nil }); err == nil {
		t.Error("empty name")
	}
	if _, err := RawTool("x", "", json.RawMessage(`{`), func(context.Context, json.RawMessage) (string, error) { return "", nil }); err == nil {
		t.Error("bad schema JSON")
	}
	if _, err := RawTool("x", "", json.RawMessage(`{"type":"object"}`), nil); err == nil {
		t.Error("nil fn")
	}
}

func TestRawToolValidates(t *testing.T) {
	tool, err := RawTool("sum", "adds", json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`),
		func(_ context.Context, args json.RawMessage) (string, error) { return string(args), nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := tool.validate(json.RawMessage(`{"a":"x"}`)); err == nil {
		t.Fatal("invalid args accepted")
	}
	if out, err := tool.call(t.Context(), json.RawMessage(`{"a":1}`)); err != nil || out != `{"a":1}` {
		t.Fatalf("%s %v", out, err)
	}
}
