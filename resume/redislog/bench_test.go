package redislog_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

// discardWriter is a ResponseWriter that flushes and forgets.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) Flush()                      {}

// fixtureAgent emits the standard fixture (1,018 events with the
// runner's RUN_STARTED and RUN_FINISHED).
func fixtureAgent() core.Agent[core.NoState] {
	fixture := aguitest.StandardFixture()
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, ev := range fixture[1 : len(fixture)-1] {
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	})
}

func fixtureRequest(run string) *http.Request {
	body := `{"threadId":"t","runId":"` + run + `","protocolVersion":"1.0","messages":[]}`
	r := httptest.NewRequest(http.MethodPost, "/chat", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// BenchmarkServeFixtureLog serves one run of the standard fixture per
// iteration to an in-process writer (no network, so the log's cost is
// not hidden behind the socket's): "plain" is core.Handler, "memory" a
// resume.Handler on a MemoryLog, "redis" one on a Log on the test's
// redis-server over loopback. ns/event is the cost per event; the ratio
// of memory and redis to plain is the price of resumability.
func BenchmarkServeFixtureLog(b *testing.B) {
	events := float64(len(aguitest.StandardFixture()))
	logger := slog.New(slog.DiscardHandler)
	h, err := core.NewHandler(fixtureAgent(), core.WithHandlerLogger(logger))
	if err != nil {
		b.Fatal(err)
	}
	mem, err := resume.NewMemoryLog(resume.WithMemoryBytes(1 << 30))
	if err != nil {
		b.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr(b)})
	defer rdb.Close()
	rlog, err := redislog.New(rdb, redislog.WithPrefix("bench:"+strconv.FormatInt(time.Now().UnixNano(), 36)+":"), redislog.WithRetention(time.Minute))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"plain", h},
		{"memory", resumable(b, h, mem)},
		{"redis", resumable(b, h, rlog)},
	} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				c.h.ServeHTTP(&discardWriter{h: http.Header{}}, fixtureRequest(c.name+strconv.Itoa(i)))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
		})
	}
}

func resumable(b *testing.B, h *core.Handler[core.NoState], lg resume.Log) http.Handler {
	rh, err := resume.New(h, lg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rh.Close(context.Background()) })
	return rh
}

// BenchmarkRetainedRun measures what one finished run of the standard
// fixture holds while retained: heap bytes per run in a MemoryLog (Go
// heap growth over the runs, after GC) and Redis used_memory per run.
func BenchmarkRetainedRun(b *testing.B) {
	logger := slog.New(slog.DiscardHandler)
	h, err := core.NewHandler(fixtureAgent(), core.WithHandlerLogger(logger))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("memory", func(b *testing.B) {
		mem, err := resume.NewMemoryLog(resume.WithMemoryBytes(1 << 40))
		if err != nil {
			b.Fatal(err)
		}
		rh := resumable(b, h, mem)
		before := heap()
		i := 0
		for b.Loop() {
			i++
			rh.ServeHTTP(&discardWriter{h: http.Header{}}, fixtureRequest("m"+strconv.Itoa(i)))
		}
		b.ReportMetric(float64(heap()-before)/float64(b.N), "heap-B/run")
		b.ReportMetric(float64(mem.Stats().Bytes)/float64(b.N), "counted-B/run")
		runtime.KeepAlive(mem)
	})
	b.Run("redis", func(b *testing.B) {
		rdb := redis.NewClient(&redis.Options{Addr: redisAddr(b)})
		defer rdb.Close()
		ctx := context.Background()
		prefix := "retained:" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"
		rlog, err := redislog.New(rdb, redislog.WithPrefix(prefix))
		if err != nil {
			b.Fatal(err)
		}
		rh := resumable(b, h, rlog)
		before := usedMemory(b, rdb)
		i := 0
		for b.Loop() {
			i++
			rh.ServeHTTP(&discardWriter{h: http.Header{}}, fixtureRequest("m"+strconv.Itoa(i)))
		}
		b.ReportMetric(float64(usedMemory(b, rdb)-before)/float64(b.N), "used_memory-B/run")
		usage, _ := rdb.MemoryUsage(ctx, prefix+"{m1}:log").Result()
		b.ReportMetric(float64(usage), "stream-B")
	})
}

func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func usedMemory(b *testing.B, rdb *redis.Client) int64 {
	info, err := rdb.Info(context.Background(), "memory").Result()
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	b.Fatal("no used_memory in INFO")
	return 0
}

var _ = io.Discard
