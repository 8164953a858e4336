package e2e_test

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
	"github.com/agui-go/agui/internal/sharedtest"
)

func TestProcessReportsItsResources(t *testing.T) {
	p := start(t, e2e.ServerCommunity, 1)
	if !strings.HasPrefix(p.Addr, "127.0.0.1:") {
		t.Errorf("address %q", p.Addr)
	}
	cpu0, err := p.CPU()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (e2e.Load{URL: "http://" + p.Addr + e2e.PathFixture, Duration: 20 * time.Millisecond}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	cpu1, err := p.CPU()
	if err != nil || cpu1 < cpu0 {
		t.Errorf("CPU %s then %s, %v", cpu0, cpu1, err)
	}
	rss, err1 := p.RSS()
	peak, err2 := p.PeakRSS()
	if err1 != nil || err2 != nil || rss <= 0 || peak < rss {
		t.Errorf("RSS %d, peak %d: %v %v", rss, peak, err1, err2)
	}
}

func TestStartRefusesAProcessThatDoesNotListen(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		sharedtest.Missing(t, "sh is not on PATH")
	}
	_, err = e2e.Start(t.Context(), "echo", exec.Command(sh, "-c", "echo hello"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), `"hello"`) {
		t.Fatalf("%v", err)
	}
	// A process that says nothing: Start gives up when ctx ends, and stops it.
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := e2e.Start(ctx, "cat", exec.Command(sh, "-c", "cat"), io.Discard); err == nil {
		t.Fatal("no error")
	}
}
