package main

import (
	"context"
	"fmt"
	"io"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// setupTracing installs the global tracer provider that aguiotel's
// wrappers use: "" leaves the no-op default, "stdout" writes every span to
// w as JSON. The returned function flushes and stops it.
func setupTracing(export string, w io.Writer) (func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	switch export {
	case "":
		return func(context.Context) error { return nil }, nil
	case "stdout":
		exp, err := stdouttrace.New(stdouttrace.WithWriter(w))
		if err != nil {
			return nil, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
		otel.SetTracerProvider(tp)
		return tp.Shutdown, nil
	default:
		return nil, fmt.Errorf("-otel %q: the exporters are \"stdout\" (or none)", export)
	}
}
