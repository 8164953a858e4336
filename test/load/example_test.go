package load_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agui-go/agui/test/load"
)

// Ten concurrent runs against the in-process ticker agent; the timing
// figures vary, the counts do not.
func ExampleRun() {
	res, err := load.Run(context.Background(), load.Config{
		Streams:  10,
		Interval: 10 * time.Millisecond,
		Extra:    2,
		Deadline: 10 * time.Second,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("streams:", res.Streams, "failures:", res.Failures, "got a first event:", res.TTFE99 > 0)
	// Output: streams: 10 failures: 0 got a first event: true
}
