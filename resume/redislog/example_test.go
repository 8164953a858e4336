package redislog_test

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

func ExampleNew() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
	defer rdb.Close()
	lg, err := redislog.New(rdb, redislog.WithPrefix("example:"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// What a resume.Handler does for a run: begin it, store its events
	// under the lease, seal it; any replica can then read it.
	lease, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r1", ThreadID: "t1", Owner: "replica-a"}, 10*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	err = lg.Append(ctx, lease, []resume.Entry{
		{Seq: 1, Data: []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`)},
		{Seq: 2, Data: []byte(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`), Terminal: true},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := lg.Seal(ctx, lease); err != nil {
		fmt.Println(err)
		return
	}
	// A client that saw event 1 resumes after it.
	entries, status, err := lg.Read(ctx, "r1", 1, 100, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Println(e.Seq, e.Terminal, string(e.Data))
	}
	fmt.Println("sealed:", status.Sealed)
	// Output:
	// 2 true {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}
	// sealed: true
}
