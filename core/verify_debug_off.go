//go:build !agui_debug && !agui_noverify

package core

// openDump is empty outside a debug build (build tag agui_debug).
func (*Verifier) openDump() string { return "" }
