package e2e

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"time"
)

// The servers of the comparison, by name.
const (
	ServerGin       = "gin"       // ours: ginagui.Register on a Gin engine
	ServerNetHTTP   = "nethttp"   // ours: core.NewHandler on a ServeMux
	ServerCommunity = "community" // the Go community SDK on net/http
	ServerNode      = "node"      // @ag-ui/encoder 1.0.0 on node:http
)

// Servers lists every server of the comparison, ours first.
func Servers() []string { return []string{ServerGin, ServerNetHTTP, ServerCommunity, ServerNode} }

// GoHandler returns the http.Handler of one of the Go servers. deltas is
// how many one-byte deltas PathDeltas streams (ours only).
func GoHandler(name string, deltas int) (http.Handler, error) {
	switch name {
	case ServerGin:
		return oursGin(deltas)
	case ServerNetHTTP:
		return oursNetHTTP(deltas)
	case ServerCommunity:
		return community(), nil
	case ServerFloor:
		return floor()
	}
	return nil, fmt.Errorf("e2e: no Go server named %q", name)
}

// CPUProfileEnv names the environment variable that makes a Go server
// process write a CPU profile of its whole life: its value is a directory,
// and the profile goes to NAME-PID.pprof in it, its allocations to
// NAME-PID.allocs.pprof. Unset, no profile is taken.
const CPUProfileEnv = "E2E_CPUPROFILE_DIR"

// startProfile starts the CPU profile CPUProfileEnv asks for and returns
// the function that stops it; it does nothing when the variable is unset.
func startProfile(name string, stderr io.Writer) (stop func()) {
	dir := os.Getenv(CPUProfileEnv)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, name+"-"+strconv.Itoa(os.Getpid())+".pprof"))
	if err != nil {
		fmt.Fprintln(stderr, "e2e: cpu profile:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(stderr, "e2e: cpu profile:", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
		// The allocations of the process's life, beside it.
		if a, err := os.Create(filepath.Join(dir, name+"-"+strconv.Itoa(os.Getpid())+".allocs.pprof")); err == nil {
			_ = pprof.Lookup("allocs").WriteTo(a, 0)
			_ = a.Close()
		}
	}
}

// ServeMain is the body of a server process: args are its flags (-serve
// NAME, -deltas N, and -model URL for the token path's servers). It
// listens on 127.0.0.1 with a free port, writes
// "listening HOST:PORT\n" to stdout, and serves until stdin reaches its end
// (the harness closes it, or dies). It returns the process's exit status.
func ServeMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("serve", "", "the server to run: gin, nethttp or community")
	deltas := fs.Int("deltas", 1_000_000, "one-byte deltas per "+PathDeltas+" stream")
	model := fs.String("model", "", "the model server's URL ("+ServerLoopOpenAI+" and "+ServerLoopAnthropic+")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var (
		h   http.Handler
		err error
	)
	if *model != "" {
		h, err = tokenHandler(*name, *model)
	} else {
		h, err = GoHandler(*name, *deltas)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer startProfile(*name, stderr)()
	if addr := os.Getenv(DebugEnv); addr != "" {
		dsrv, err := serveDebug(addr, stderr)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer dsrv.Close()
	}
	// HTTP/1.1 and cleartext HTTP/2 (prior knowledge) on the one port.
	var protos http.Protocols
	protos.SetHTTP1(true)
	protos.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, Protocols: &protos}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "listening %s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
