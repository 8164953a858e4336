package client_test

import (
	"io"
	"log/slog"
)

// setSlog points slog's default logger at w and returns what restores it.
func setSlog(w io.Writer) func() {
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(w, nil)))
	return func() { slog.SetDefault(old) }
}
