package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
)

// TestOTelStdout: with -otel stdout, a loop run prints its invoke_agent,
// chat and execute_tool spans, all in the trace of the request's
// traceparent.
func TestOTelStdout(t *testing.T) {
	prevTP, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	t.Cleanup(func() { otel.SetTracerProvider(prevTP); otel.SetTextMapPropagator(prevProp) })
	var out bytes.Buffer
	shutdown, err := setupTracing("stdout", &out)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t)
	stream(t, srv.URL+"/agents/loop", input("Plan a weekend in Oslo", ""),
		"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Name":"invoke_agent loop"`, `"Name":"chat scripted-travel"`,
		`"Name":"execute_tool get_weather"`, `"TraceID":"4bf92f3577b34da6a3ce929d0e0e4736"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("spans lack %s", want)
		}
	}
	if _, err := setupTracing("jaeger", &out); err == nil {
		t.Error("an unknown exporter is accepted")
	}
}
