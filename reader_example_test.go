package agui_test

import (
	"fmt"
	"strings"

	"github.com/agui-go/agui"
)

// A Go client reads a stream with ReadSSE (or ReadEvents, which follows the
// response's Content-Type) and checks it with a Verifier.
func ExampleReadSSE() {
	body := strings.NewReader(`data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}

: ping

data: {"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","role":"assistant","delta":"Hello"}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}

`)
	v := agui.NewVerifier()
	for ev, err := range agui.ReadSSE(body) {
		if err != nil {
			fmt.Println("bad stream:", err)
			return
		}
		if err := v.Observe(ev); err != nil {
			fmt.Println("out of order:", err)
			return
		}
		fmt.Println(ev.Type())
	}
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_CHUNK
	// RUN_FINISHED
}
