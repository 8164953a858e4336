package aguitest_test

import (
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

func ExampleStandardFixture() {
	var frame []byte
	total := 0
	for _, ev := range aguitest.StandardFixture() {
		var err error
		if frame, err = agui.AppendSSE(frame[:0], ev); err != nil {
			fmt.Println(err)
			return
		}
		total += len(frame)
	}
	fmt.Println(len(aguitest.StandardFixture()), "events,", total, "bytes of SSE")
	// Output:
	// 1018 events, 127230 bytes of SSE
}
