// Command agui-cost measures what a server process pays per open idle
// stream (resident memory) and per delivered event (CPU), comparing
// server binaries built from different commits in one run:
//
//	go build -o /tmp/after ./test/load/cmd/agui-cost
//	(cd /tmp/before && go build -o /tmp/before-bin ./test/load/cmd/agui-cost)
//	/tmp/after -compare /tmp/before-bin,/tmp/after -n 4000 -runs 2000 -rounds 3
//
// With -serve it is the server: a core.Handler on a loopback listener (the
// address is printed on stdout) with two routes. /idle sends RUN_STARTED
// and then holds the stream open until the client leaves; /fixture streams
// the standard fixture (aguitest.StandardFixture, 1,018 events) as fast as
// the client reads it.
//
// With -compare it starts each binary in turn with -serve, as a child
// process, and for each one: opens -n raw HTTP/1.1 connections to /idle,
// waits for every RUN_STARTED, and reports the growth of the child's
// VmRSS divided by n; then reads /fixture -runs times over one keep-alive
// connection and reports the child's user+system CPU time (from
// /proc/<pid>/stat) divided by the events delivered. The binaries alternate
// for -rounds rounds and the median of each is printed. Linux only.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

func main() { os.Exit(run()) }

func run() int {
	serve := flag.Bool("serve", false, "be the server: print the address, serve /idle and /fixture")
	compare := flag.String("compare", "", "comma-separated server binaries (each built from this command) to measure")
	n := flag.Int("n", 4000, "idle streams held open at once")
	runs := flag.Int("runs", 2000, "fixture runs read per measurement")
	rounds := flag.Int("rounds", 3, "alternating rounds over the binaries")
	route := flag.String("idle", "/idle", "the route held open: /idle (a run) or /bare (net/http alone, the floor)")
	flag.Parse()
	if *serve {
		if err := serveRoutes(); err != nil {
			fmt.Fprintln(os.Stderr, "agui-cost:", err)
			return 1
		}
		return 0
	}
	if *compare == "" {
		flag.Usage()
		return 2
	}
	bins := strings.Split(*compare, ",")
	rssPer := make([][]float64, len(bins))
	cpuPer := make([][]float64, len(bins))
	for round := range *rounds {
		for i, bin := range bins {
			r, c, err := measure(bin, *route, *n, *runs)
			if err != nil {
				fmt.Fprintf(os.Stderr, "agui-cost: %s: %v\n", bin, err)
				return 1
			}
			fmt.Printf("round %d %s: %.1f KiB RSS per idle stream, %.0f ns server CPU per event\n", round+1, bin, r/1024, c)
			rssPer[i] = append(rssPer[i], r)
			cpuPer[i] = append(cpuPer[i], c)
		}
	}
	for i, bin := range bins {
		fmt.Printf("median %s: %.1f KiB RSS per idle stream, %.0f ns server CPU per event\n",
			bin, median(rssPer[i])/1024, median(cpuPer[i]))
	}
	if len(bins) == 2 {
		fmt.Printf("ratio first/second: RSS %.2f, CPU %.2f\n",
			median(rssPer[0])/median(rssPer[1]), median(cpuPer[0])/median(cpuPer[1]))
	}
	return 0
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// serveRoutes is the -serve mode; it returns when stdin closes.
func serveRoutes() error {
	fixture := aguitest.StandardFixture()
	idle := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		<-ctx.Done()
		return agui.Outcome{}, ctx.Err()
	})
	stream := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, ev := range fixture[1 : len(fixture)-1] {
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	})
	mux := http.NewServeMux()
	for path, a := range map[string]core.Agent[core.NoState]{"/idle": idle, "/fixture": stream} {
		h, err := core.NewHandler(a, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			return err
		}
		mux.Handle("POST "+path, h)
	}
	// /bare is the floor: net/http alone, holding a stream open with one
	// frame written and no run behind it.
	mux.HandleFunc("POST /bare", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n\n")
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	srv := &http.Server{Handler: mux, ErrorLog: nil}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

const body = `{"threadId":"` + aguitest.FixtureThreadID + `","runId":"` + aguitest.FixtureRunID +
	`","protocolVersion":"1.0","messages":[]}`

// measure starts bin -serve and returns its RSS growth per idle stream in
// bytes and its CPU per fixture event in nanoseconds.
func measure(bin, route string, n, runs int) (rssPer, cpuPer float64, err error) {
	cmd := exec.Command(bin, "-serve")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return 0, 0, err
	}
	addr = strings.TrimSpace(addr)
	pid := cmd.Process.Pid

	// Warm up: one run of each route, so the baseline includes what every
	// process pays once.
	if _, err := fixtureRuns(addr, 5); err != nil {
		return 0, 0, err
	}
	warm, err := openIdle(addr, route, 10)
	closeAll(warm)
	if err != nil {
		return 0, 0, err
	}
	time.Sleep(200 * time.Millisecond) // let the warm-up streams end; a measurement, not synchronisation

	before := rss(pid)
	conns, err := openIdle(addr, route, n)
	if err != nil {
		closeAll(conns)
		return 0, 0, err
	}
	time.Sleep(500 * time.Millisecond) // let the server settle with all n open
	after := rss(pid)
	closeAll(conns)
	rssPer = float64(after-before) / float64(n)
	time.Sleep(500 * time.Millisecond)

	cpu0 := procCPU(pid)
	events, err := fixtureRuns(addr, runs)
	if err != nil {
		return 0, 0, err
	}
	cpuPer = float64(procCPU(pid)-cpu0) / float64(events)
	return rssPer, cpuPer, nil
}

// openIdle opens n streams on /idle and returns once each has received
// its first event.
func openIdle(addr, route string, n int) ([]net.Conn, error) {
	req := "POST " + route + " HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	conns := make([]net.Conn, 0, n)
	buf := make([]byte, 4096)
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return conns, err
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, req); err != nil {
			return conns, err
		}
		var got []byte
		for !strings.Contains(string(got), "RUN_STARTED") {
			// Read until the first event: the stream is open.
			k, err := c.Read(buf)
			if err != nil {
				return conns, fmt.Errorf("idle stream %d: %w", len(conns), err)
			}
			got = append(got, buf[:k]...)
		}
	}
	return conns, nil
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}

// fixtureRuns reads /fixture runs times and returns the events read.
func fixtureRuns(addr string, runs int) (int, error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	events := 0
	for range runs {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/fixture", strings.NewReader(body))
		if err != nil {
			return events, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return events, err
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				events++
			}
		}
		resp.Body.Close()
		if err := sc.Err(); err != nil {
			return events, err
		}
	}
	if want := runs * aguitest.FixtureEvents; events != want {
		return events, fmt.Errorf("read %d events, want %d", events, want)
	}
	return events, nil
}

// rss is process pid's resident set size from /proc.
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

// procCPU is process pid's user+system CPU time from /proc/<pid>/stat, in
// nanoseconds (at the kernel's clock tick, 100 Hz on Linux).
func procCPU(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return (utime + stime) * int64(time.Second/100)
}
