package e2e

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"runtime/metrics"
)

// DebugEnv names the environment variable that, set to a loopback
// address (such as 127.0.0.1:6060) in a Go server process, makes it also
// serve net/http/pprof and /debug/mem there: the breakdown of what the
// process holds, for investigating the idle-stream figure. The harness
// never sets it.
const DebugEnv = "E2E_DEBUG_ADDR"

// serveDebug listens on addr, which must be a loopback address, and
// serves the debug routes until the returned server is closed; its Addr
// is the address listened on.
func serveDebug(addr string, stderr io.Writer) (*http.Server, error) {
	if err := checkLoopback("http://" + addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/mem", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gc") != "" {
			runtime.GC()
		}
		writeMem(w)
	})
	srv := &http.Server{Addr: ln.Addr().String(), Handler: mux}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(stderr, "debug:", err)
		}
	}()
	return srv, nil
}

// writeMem writes the runtime's memory figures, one per line.
func writeMem(w io.Writer) {
	names := []string{
		"/gc/stack/starting-size:bytes",
		"/sched/goroutines:goroutines",
		"/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/unused:bytes",
		"/memory/classes/heap/free:bytes",
		"/memory/classes/heap/released:bytes",
		"/memory/classes/heap/stacks:bytes",
		"/memory/classes/os-stacks:bytes",
		"/memory/classes/metadata/other:bytes",
		"/memory/classes/metadata/mspan/inuse:bytes",
		"/memory/classes/metadata/mcache/inuse:bytes",
		"/memory/classes/other:bytes",
		"/memory/classes/profiling/buckets:bytes",
		"/memory/classes/total:bytes",
		"/gc/heap/live:bytes",
		"/gc/heap/goal:bytes",
		"/gc/cycles/total:gc-cycles",
		"/gc/scan/stack:bytes",
	}
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			fmt.Fprintf(w, "%s %d\n", x.Name, x.Value.Uint64())
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "HeapInuse %d\nHeapAlloc %d\nStackInuse %d\nSys %d\nNumGC %d\nHeapObjects %d\n",
		ms.HeapInuse, ms.HeapAlloc, ms.StackInuse, ms.Sys, ms.NumGC, ms.HeapObjects)
}
