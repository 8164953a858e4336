package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

// newDetachedServer serves the app with a slow agent that streams for n
// milliseconds, and
// closes its resumable routes at cleanup.
func newDetachedServer(t *testing.T, n int) string {
	t.Helper()
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	cfg.slowInterval, cfg.slowTotal = time.Millisecond, time.Duration(n-1)*time.Millisecond
	r, err := newRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
		if err := cfg.resumables.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return srv.URL
}

func request(t *testing.T, ctx context.Context, method, url, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestDetachedSurvivesDisconnect(t *testing.T) {
	url := newDetachedServer(t, 40)
	ctx, cut := context.WithCancel(context.Background())
	resp := request(t, ctx, http.MethodPost, url+"/agents/detached", input("go", ""))
	loc := resp.Header.Get("Content-Location")
	got := aguitest.ReadFrames(t, resp.Body, 5)
	cut() // the network drops
	resp.Body.Close()

	resp = request(t, context.Background(), http.MethodGet, url+loc, "", "Last-Event-ID", strconv.FormatUint(got[len(got)-1].ID, 10))
	got = append(got, aguitest.ReadFrames(t, resp.Body, 0)...)
	resp.Body.Close()
	v := agui.NewVerifier()
	var text strings.Builder
	for i, f := range got {
		if f.ID != uint64(i+1) {
			t.Fatalf("frame %d has id %d", i, f.ID)
		}
		ev, err := agui.DecodeEvent([]byte(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier: %v", err)
		}
		if d, ok := ev.(*agui.TextMessageContent); ok {
			text.WriteString(d.Delta)
		}
	}
	// The slow agent streams "1 2 3 …" for a time: no number may be
	// missing or repeated.
	want := ""
	for i := 1; len(want) < text.Len(); i++ {
		want += strconv.Itoa(i) + " "
	}
	if !strings.Contains(got[len(got)-1].Data, `"RUN_FINISHED"`) || text.String() != want {
		t.Fatalf("reassembled text %q, last %s", text.String(), got[len(got)-1].Data)
	}
}

func TestDetachedBelongsToItsUser(t *testing.T) {
	url := newDetachedServer(t, 100000)
	ctx := context.Background()
	resp := request(t, ctx, http.MethodPost, url+"/agents/users/detached", input("go", ""), "Authorization", "Bearer alice-token")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("alice's run: %d", resp.StatusCode)
	}
	aguitest.ReadFrames(t, resp.Body, 1)
	for _, c := range []struct {
		method, token string
		status        int
	}{
		{http.MethodGet, "", http.StatusUnauthorized},
		{http.MethodGet, "Bearer bob-token", http.StatusForbidden},
		{http.MethodDelete, "Bearer bob-token", http.StatusForbidden},
		{http.MethodDelete, "Bearer alice-token", http.StatusAccepted},
	} {
		r := request(t, ctx, c.method, url+"/agents/users/detached/runs/r", "", "Authorization", c.token)
		r.Body.Close()
		if r.StatusCode != c.status {
			t.Errorf("%s with %q: %d, want %d", c.method, c.token, r.StatusCode, c.status)
		}
	}
	rest := aguitest.ReadFrames(t, resp.Body, 0)
	if last := rest[len(rest)-1].Data; !strings.Contains(last, `"code":"CANCELLED"`) {
		t.Fatalf("alice's stopped run ends with %s", last)
	}
}
