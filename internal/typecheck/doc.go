// Package typecheck type-checks small Go programs against packages of
// the module as the go command builds them, so a test can show that a
// misuse of an API (an option given to the wrong layer, say) is a compile
// error, and what the error says.
//
//	c := typecheck.New(t, "github.com/agui-go/agui/core")
//	err := c.Main(`_ = core.Run(ctx, a, in, core.WithHeartbeat(time.Second))`)
//	// err names what core.WithHeartbeat's type lacks to be a core.RunOption
//
// It is test support: only tests import it.
package typecheck
