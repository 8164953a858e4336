package sse_test

import (
	"fmt"
	"strings"

	"github.com/agui-go/agui/internal/sse"
)

func Example() {
	r := sse.NewReader(strings.NewReader(": a comment\nevent: delta\ndata: {\"text\":\"Hi\"}\n\ndata: [DONE]\n\n"))
	for r.Next() {
		fmt.Printf("%q %q\n", r.Type(), r.Data())
	}
	fmt.Println(r.Err())
	// Output:
	// "delta" "{\"text\":\"Hi\"}\n"
	// "" "[DONE]\n"
	// <nil>
}
