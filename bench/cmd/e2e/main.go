// Command e2e runs the end-to-end comparison of AG-UI servers (package
// github.com/agui-go/agui/bench/e2e) and prints its figures as markdown:
//
//	cd bench && go run ./cmd/e2e -c 1,16,256 -rounds 3 -duration 5s
//
// Each server runs in a process of its own (this binary with -serve, or
// node); the load client is this process. Besides the comparison of
// servers streaming the standard fixture, it measures the resident memory
// per idle open stream (-idle), one stream of one-byte deltas through Gin
// (-deltas), the cost of a request's thread by its length (-threads),
// idle streams over HTTP/2 (-idle-h2), a model's token through loop/openai
// and loop/anthropic from a model server in this process (-tokens) and
// the time from a client's hang-up to its run's cancellation (-hangups);
// 0 or an empty list skips a part.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

func main() {
	// A server process: see e2e.ServeMain.
	if len(os.Args) > 1 && os.Args[1] == "-serve" {
		os.Exit(e2e.ServeMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run())
}

func run() int {
	cs := flag.String("c", "1,16,256", "comma-separated numbers of concurrent streams")
	rounds := flag.Int("rounds", 3, "rounds per concurrency; every server takes one turn per round")
	duration := flag.Duration("duration", 5*time.Second, "each server's turn in a round")
	warmup := flag.Duration("warmup", time.Second, "each fresh server's warm-up at the same concurrency")
	servers := flag.String("servers", strings.Join(e2e.Servers(), ","), "servers to compare")
	idle := flag.Int("idle", 4000, "idle open streams per server for the memory figure (0: skip)")
	idleH2 := flag.Int("idle-h2", 4000, "idle open streams per server over cleartext HTTP/2 (0: skip)")
	deltas := flag.Int("deltas", 1_000_000, "one-byte deltas in the single Gin stream (0: skip)")
	threads := flag.String("threads", "10,100,1000,5000", "thread lengths of the sweep, in messages (empty: skip)")
	threadCs := flag.String("thread-c", "1", "comma-separated numbers of concurrent clients of the thread-length sweep")
	tokens := flag.Int("tokens", 1000, "model tokens per loop run on the token path (0: skip)")
	tokenFlush := flag.String("token-flush", "1,64", "tokens per write of the model server, one token path per value")
	hangups := flag.Int("hangups", 1000, "hang-ups timed for disconnect to cancel (0: skip)")
	nodeDir := flag.String("node-dir", e2e.NodeDir(), "directory of the Node server (server.mjs)")
	flag.Parse()

	conc, err := ints(*cs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 2
	}
	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: raising the open file limit:", err)
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	self := func(args ...string) *exec.Cmd { return exec.Command(exe, args...) }
	launch := e2e.NewLauncher(self, *nodeDir, max(*deltas, 1))
	names := strings.Split(*servers, ",")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := os.Stdout
	fmt.Fprintf(out, "Command (from bench/): `go run ./cmd/e2e %s`\n\nLoad average at the start: %s\n\n", strings.Join(os.Args[1:], " "), loadavg())

	status := 0
	fail := func(what string, err error) {
		fmt.Fprintf(os.Stderr, "e2e: %s: %v\n", what, err)
		status = 1
	}
	if len(conc) > 0 && *duration > 0 {
		rows, err := e2e.Compare{Servers: names, Concurrency: conc, Rounds: *rounds, Duration: *duration,
			Warmup: *warmup, Launch: launch, Stderr: os.Stderr, Progress: os.Stderr}.Run(ctx)
		e2e.WriteComparison(out, rows)
		if err != nil {
			fail("comparison", err)
		}
	}
	lengths, err := ints(*threads)
	if err != nil {
		fail("threads", err)
	}
	threadConc, err := ints(*threadCs)
	if err != nil {
		fail("thread-c", err)
	}
	if len(lengths) > 0 && len(threadConc) > 0 && *duration > 0 {
		var rows []e2e.Row
		for _, n := range lengths {
			got, err := e2e.Compare{Servers: names, Concurrency: threadConc, Rounds: *rounds, Duration: *duration,
				Warmup: *warmup, Launch: launch, Stderr: os.Stderr, Progress: os.Stderr,
				Path: e2e.PathThread, Events: e2e.ThreadEvents, Messages: n}.Run(ctx)
			rows = append(rows, got...)
			if err != nil {
				fail("thread sweep", err)
				break
			}
		}
		e2e.WriteThreads(out, rows)
	}
	if *idle > 0 {
		var res []e2e.NamedIdle
		for _, name := range names {
			r, err := e2e.IdleServer(ctx, launch, name, *idle, os.Stderr)
			res = append(res, e2e.NamedIdle{Server: name, IdleResult: r})
			if err != nil {
				fail("idle streams of "+name, err)
			}
		}
		e2e.WriteIdle(out, res)
	}
	if *idleH2 > 0 {
		var res []e2e.NamedIdle
		for _, name := range names {
			r, err := e2e.IdleServerHTTP2(ctx, launch, name, *idleH2, os.Stderr)
			res = append(res, e2e.NamedIdle{Server: name + " (HTTP/2)", IdleResult: r})
			if err != nil {
				fail("HTTP/2 idle streams of "+name, err)
			}
		}
		e2e.WriteIdle(out, res)
	}
	if *deltas > 0 {
		var res []e2e.DeltasResult
		for range max(*rounds, 1) {
			r, err := e2e.Deltas(ctx, launch, *deltas, os.Stderr)
			if err != nil {
				fail("deltas", err)
				break
			}
			res = append(res, r)
		}
		e2e.WriteDeltas(out, res)
	}
	if flushes, err := ints(*tokenFlush); err != nil {
		fail("token-flush", err)
	} else if *tokens > 0 && *duration > 0 {
		var res []e2e.TokenResult
		tokenLaunch := func(name, modelURL string) (*exec.Cmd, error) { return self("-serve", name, "-model", modelURL), nil }
		for _, server := range []string{e2e.ServerLoopOpenAI, e2e.ServerLoopAnthropic} {
			for _, f := range flushes {
				r, err := e2e.TokenPath{Server: server, Tokens: *tokens, Flush: f, Rounds: *rounds, Duration: *duration,
					Launch: tokenLaunch, Stderr: os.Stderr}.Run(ctx)
				res = append(res, r)
				if err != nil {
					fail("token path of "+server, err)
				}
			}
		}
		e2e.WriteTokens(out, res)
	}
	if *hangups > 0 {
		var res []e2e.NamedDisconnect
		for _, useGin := range []bool{true, false} {
			r, err := e2e.Disconnect(ctx, useGin, *hangups)
			name := e2e.ServerNetHTTP
			if useGin {
				name = e2e.ServerGin
			}
			res = append(res, e2e.NamedDisconnect{Server: name, DisconnectResult: r})
			if err != nil {
				fail("disconnect of "+name, err)
			}
		}
		e2e.WriteDisconnect(out, res)
	}
	fmt.Fprintf(out, "Load average at the end: %s\n", loadavg())
	return status
}

func ints(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad count %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// loadavg is the first three fields of /proc/loadavg.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
