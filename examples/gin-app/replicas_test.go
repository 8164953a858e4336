package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/internal/pgtest"
	"github.com/agui-go/agui/internal/redistest"
)

// TestReplicasOnOneRedis runs two processes of this app on one
// redis-server: a client cut from one replica rejoins on the other and
// gets the rest of its run, and when the replica running a detached run
// is killed, a client rejoining on the other gets a terminal event within
// the lease plus one read window.
func TestReplicasOnOneRedis(t *testing.T) {
	replicasOn(t, "-redis", redistest.Start(t).URL())
}

// TestReplicasOnOnePostgres: the same with the run logs in one
// PostgreSQL (-postgres).
func TestReplicasOnOnePostgres(t *testing.T) {
	url, err := pgtest.Start(t).CreateDB(t.Context(), "app")
	if err != nil {
		t.Fatal(err)
	}
	replicasOn(t, "-postgres", url)
}

// replicasOn runs the scenarios on two replicas whose store is given by
// flag and url.
func replicasOn(t *testing.T, flag, url string) {
	bin := os.Getenv("AGUI_APP_BIN") // test/all.sh built it for every package
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "gin-app")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	args := []string{flag, url, "-run-lease", "1s", "-slow-interval", "5ms", "-slow-total", "1s"}
	a, killA := startReplica(t, bin, append(args, "-replica", "a")...)
	b, _ := startReplica(t, bin, append(args, "-replica", "b")...)
	ctx := context.Background()

	t.Run("rejoin on the other replica", func(t *testing.T) {
		var wg sync.WaitGroup
		defer wg.Wait()
		for i := range 10 {
			wg.Go(func() { rejoinElsewhere(t, ctx, a, b, i) })
		}
	})

	t.Run("owner death", func(t *testing.T) {
		body := strings.ReplaceAll(input("go", ""), `"runId":"r"`, `"runId":"lost"`)
		resp := request(t, ctx, http.MethodPost, a+"/agents/detached", body)
		got := aguitest.ReadFrames(t, resp.Body, 3)
		killA() // kill -9: no shutdown, no last event
		resp.Body.Close()
		start := time.Now()
		resp = request(t, ctx, http.MethodGet, b+"/agents/detached/runs/lost", "", "Last-Event-ID", strconv.FormatUint(got[len(got)-1].ID, 10))
		rest := aguitest.ReadFrames(t, resp.Body, 0)
		resp.Body.Close()
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the lost run ended %v after the rejoin", d)
		}
		if len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Data, `"code":"RUN_LOST"`) {
			t.Fatalf("rejoin after the owner died: %+v", rest)
		}
		if rest[0].ID != got[len(got)-1].ID+1 {
			t.Fatalf("rejoin resumed at %d after %d", rest[0].ID, got[len(got)-1].ID)
		}
	})
}

// rejoinElsewhere cuts run i on replica a after a few frames and reads
// the rest from replica b.
func rejoinElsewhere(t *testing.T, ctx context.Context, a, b string, i int) {
	run := "cut-" + strconv.Itoa(i)
	body := strings.ReplaceAll(input("go", ""), `"runId":"r"`, `"runId":"`+run+`"`)
	cctx, cut := context.WithCancel(ctx)
	resp := request(t, cctx, http.MethodPost, a+"/agents/detached", body)
	got := aguitest.ReadFrames(t, resp.Body, 3+i*7)
	cut()
	resp.Body.Close()
	resp = request(t, ctx, http.MethodGet, b+"/agents/detached/runs/"+run, "", "Last-Event-ID", strconv.FormatUint(got[len(got)-1].ID, 10))
	got = append(got, aguitest.ReadFrames(t, resp.Body, 0)...)
	resp.Body.Close()
	var text strings.Builder
	for j, f := range got {
		if f.ID != uint64(j+1) {
			t.Errorf("%s: frame %d has id %d", run, j, f.ID)
			return
		}
		if strings.Contains(f.Data, `"TEXT_MESSAGE_CONTENT"`) {
			d := f.Data[strings.Index(f.Data, `"delta":"`)+9:]
			text.WriteString(d[:strings.IndexByte(d, '"')])
		}
	}
	want := ""
	for k := 1; len(want) < text.Len(); k++ {
		want += strconv.Itoa(k) + " "
	}
	if !strings.Contains(got[len(got)-1].Data, `"RUN_FINISHED"`) || text.String() != want {
		t.Errorf("%s: %q, last %s", run, text.String(), got[len(got)-1].Data)
	}
}

var listening = regexp.MustCompile(`url=(http://\S+)`)

// startReplica runs the app and returns its URL once it listens, and a
// function that kills it with SIGKILL.
func startReplica(t *testing.T, bin string, args ...string) (string, func()) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	urls := make(chan string, 1)
	go func() {
		defer close(waited)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		_ = cmd.Wait()
	}()
	kill := func() {
		_ = cmd.Process.Kill()
		<-waited
	}
	t.Cleanup(kill)
	select {
	case u := <-urls:
		return u, kill
	case <-waited:
		t.Fatal("the app exited before listening")
	case <-time.After(30 * time.Second):
		t.Fatal("the app did not start listening")
	}
	return "", nil
}
