package main

import (
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/remote"
)

// remoteAgent is the agent of /agents/remote: an AG-UI agent elsewhere,
// run through the Go client, with this route's limits, metrics and
// verifier in front of it. So that the app needs no other server, the
// agent elsewhere is by default this app's own editor, reached over
// loopback at self (the app's base URL) as if it were written in Python
// or TypeScript; url (-remote-url), when set, names the agent instead.
func remoteAgent(self, url string) (*remote.Agent, error) {
	if url == "" {
		url = self + "/agents/editor"
	}
	c, err := client.New(url)
	if err != nil {
		return nil, err
	}
	return remote.New(c)
}
