package redisstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
	"github.com/agui-go/agui/loop/storetest"
)

// benchCheckpoint is a mid-sized thread: 10 exchanges of a user message,
// an assistant turn with one tool call, its result and an answer (about
// 16 KB encoded).
func benchCheckpoint(thread string) *loop.Checkpoint {
	cp := &loop.Checkpoint{ThreadID: thread, Status: loop.StatusRunning, LeaseUntil: time.Now().Add(time.Minute)}
	text := strings.Repeat("lorem ipsum ", 30)
	for i := range 10 {
		id := fmt.Sprint(i)
		cp.Messages = append(cp.Messages,
			&agui.UserMessage{ID: "u" + id, Content: agui.TextContent(text)},
			&agui.AssistantMessage{ID: "a" + id, ToolCalls: []agui.ToolCall{{ID: "c" + id, Function: agui.FunctionCall{Name: "search", Arguments: `{"q":"` + text + `"}`}}}},
			&agui.ToolMessage{ID: "t" + id, ToolCallID: "c" + id, Content: agui.TextContent(text)},
			&agui.AssistantMessage{ID: "b" + id, Content: text},
		)
	}
	return cp
}

// reportPercentiles reports the p50 and p99 of ds in microseconds.
func reportPercentiles(b *testing.B, ds []time.Duration, name string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.50), name+"-p50-µs")
	b.ReportMetric(at(0.99), name+"-p99-µs")
}

// BenchmarkCheckpoint measures a versioned save of the whole of
// benchCheckpoint and a load that reads and decodes it (no transcript
// cache) on a local redis-server, one at a time.
func BenchmarkCheckpoint(b *testing.B) {
	srv := redistest.Start(b)
	c := client(b, srv)
	s := newStore(b, c, redisstore.WithCacheBytes(0))
	cp := benchCheckpoint("bench")
	data, err := loop.MarshalCheckpoint(cp)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var v int64
	var saves, loads []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if v, err = s.Save(ctx, cp, v, 0); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, _, err := s.Load(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		saves, loads = append(saves, t1.Sub(t0)), append(loads, time.Since(t1))
	}
	b.ReportMetric(float64(len(data)), "encoded-B")
	reportPercentiles(b, saves, "save")
	reportPercentiles(b, loads, "load")
}

// BenchmarkLoopRun runs one loop run (a tool call, then an answer: three
// checkpoint saves and a load) on the in-memory store and on Redis in
// turn, and reports both means and their ratio.
func BenchmarkLoopRun(b *testing.B) {
	srv := redistest.Start(b)
	rs := newStore(b, client(b, srv))
	echo, err := loop.NewTool("echo", "echoes", func(ctx context.Context, in struct {
		Q string `json:"q"`
	}) (string, error) {
		return in.Q, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	model := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "echo", Args: `{"q":"x"}`}}}, loop.Turn{Text: "done"})
	agents := map[string]*loop.Agent{}
	for name, store := range map[string]loop.Store{"memory": loop.NewMemoryStore(), "redis": rs} {
		if agents[name], err = loop.New(model, loop.WithTools(echo), loop.WithCheckpoints(store)); err != nil {
			b.Fatal(err)
		}
	}
	total := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		for _, name := range []string{"memory", "redis"} {
			t0 := time.Now()
			res, err := agents[name].Execute(context.Background(), loop.Input{
				ThreadID: fmt.Sprint(name, n), Messages: []agui.Message{loop.UserText("go")},
			})
			total[name] += time.Since(t0)
			if err != nil || res.FinishReason != loop.FinishStop {
				b.Fatal(res.FinishReason, err)
			}
		}
		n++
	}
	mem, red := float64(total["memory"].Nanoseconds())/float64(n), float64(total["redis"].Nanoseconds())/float64(n)
	b.ReportMetric(mem/1e3, "memory-µs/run")
	b.ReportMetric(red/1e3, "redis-µs/run")
	b.ReportMetric(red/mem, "redis/memory")
}

// BenchmarkThreads is storetest.BenchThreads on a local redis-server.
func BenchmarkThreads(b *testing.B) {
	storetest.BenchThreads(b, newStore(b, client(b, redistest.Start(b))))
}

// BenchmarkTurns is storetest.BenchTurns on a local redis-server, with
// the bytes of the commands the client sends.
func BenchmarkTurns(b *testing.B) {
	c := client(b, redistest.Start(b))
	sent := &sentBytes{}
	c.AddHook(sent)
	storetest.BenchTurns(b, newStore(b, c), sent.n.Load)
}
