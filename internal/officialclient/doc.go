// Package officialclient runs a thread through the official AG-UI client
// (@ag-ui/client's HttpAgent under Node.js) and returns what it
// reconstructed, so that tests outside test/ — the framework integration
// modules under integrations/ — check their streams with software we did
// not write, as test/conformance does for the example app.
//
// A test serves its agent over HTTP and calls [Run]:
//
//	res := officialclient.Run(t, srv.URL+"/agents/chat", officialclient.Session{
//		Steps: []officialclient.Step{{Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")}}}},
//	})
//	last := res[0]
//	if err := last.Clean(); err != nil { t.Fatal(err) }
//
// The client verifies the stream as it runs (a verification failure rejects
// the run: [Result.Error]), checks every raw event against @ag-ui/core's
// schemas ([Result.SchemaErrors]), and applies the events: [Result.Messages]
// and [Result.State] are what a front end on the official client shows.
//
// The Node packages are pinned by this directory's package-lock.json and
// installed on first use (see internal/nodetest); node missing skips the
// test, or fails it under CI=true.
package officialclient
