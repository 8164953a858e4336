// Command agui-load sweeps the number of concurrent AG-UI streaming runs
// and prints one line per step (see package load):
//
//	go run ./test/load/cmd/agui-load -n 500,1000,2000,3000,10000
//
// By default it serves the ticker agent in-process on a loopback listener;
// -url targets a running server's route instead, for example
// http://127.0.0.1:8080/agents/echo from examples/gin-app; with
// -url …/agents/slow -leave 10 -pid <server pid> it holds N of the example
// app's own long streams open and reports the server's RSS growth per
// stream. With -split it serves the ticker agent in a fresh child process
// of its own per step and has each stream leave -extra events after all
// are open: client and server then each get the whole open-file limit (10,000
// streams need about 20,000 descriptors in one process), and the server's
// RSS growth per stream is reported; cpu is then the client's alone. The
// sweep stops
// at the first step with a failure or a p99 time to first event above
// -max-p99, and the exit status is 1 when no step passed. Each process
// needs about two file descriptors per stream in-process: the command
// raises its soft limit on open files to the hard one (and both to 65,536
// when run as root).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/agui-go/agui/test/load"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == serveFlag {
		os.Exit(serveTicker(os.Args[2:]))
	}
	os.Exit(run())
}

// run is the command; it returns the exit status, so that deferred calls
// (the profile's end) run before the process exits.
func run() int {
	ns := flag.String("n", "500,1000,2000,3000,4000,5000,6000,8000,10000", "comma-separated stream counts to sweep")
	target := flag.String("url", "", "route to load (default: an in-process ticker agent)")
	rate := flag.Float64("rate", 1000, "streams opened per second")
	interval := flag.Duration("interval", 100*time.Millisecond, "the in-process agent's pace")
	extra := flag.Int("extra", 10, "deltas the in-process agent sends once every stream is open")
	deadline := flag.Duration("deadline", 60*time.Second, "hard limit for each step")
	maxP99 := flag.Duration("max-p99", 100*time.Millisecond, "the p99 time to first event a step may take")
	leave := flag.Int("leave", 0, "with -url: leave each stream this many events after all are open (for long routes)")
	pid := flag.Int("pid", 0, "with -url on Linux: the server's process id, to report its RSS growth per open stream")
	all := flag.Bool("all", false, "run every step, even after one misses the target")
	split := flag.Bool("split", false, "serve the ticker agent in a fresh child process per step (streams leave after -extra events once all are open); "+
		"client and server then each have the whole open-file limit, and the server's RSS growth per stream is reported")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole sweep to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agui-load:", err)
			return 2
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "agui-load:", err)
			return 2
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}

	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "agui-load: raising the open file limit:", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	best := 0
	for _, f := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "agui-load: bad stream count %q\n", f)
			return 2
		}
		cfg := load.Config{URL: *target, Streams: n, Rate: *rate, Interval: *interval, Extra: *extra,
			Deadline: *deadline, Leave: *leave}
		serverPid := *pid
		var server *child
		if *split {
			var err error
			if server, err = startChild(*interval); err != nil {
				fmt.Fprintln(os.Stderr, "agui-load:", err)
				return 1
			}
			cfg.URL, cfg.Leave, serverPid = server.url, *extra, server.pid
		}
		var before, open int64
		if serverPid > 0 {
			before = rss(serverPid)
			cfg.AllOpen = func() { open = rss(serverPid) }
		}
		res, err := load.Run(ctx, cfg)
		if server != nil {
			if serr := server.stop(); serr != nil {
				fmt.Fprintln(os.Stderr, "agui-load: the server process:", serr)
			}
		}
		if serverPid > 0 {
			fmt.Printf("%s server_rss_growth/stream=%.1fKiB\n", res, float64(open-before)/float64(n)/1024)
		} else {
			fmt.Println(res)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "agui-load:", err)
			break
		}
		if res.Failures > 0 || res.TTFE99 > *maxP99 {
			if *all {
				continue
			}
			break
		}
		best = max(best, n)
	}
	fmt.Printf("largest N with zero failures and p99 TTFE <= %s: %d\n", *maxP99, best)
	if best == 0 {
		return 1
	}
	return 0
}

// rss is process pid's resident set size from /proc (0 when unknown).
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
