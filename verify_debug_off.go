//go:build !agui_debug && !agui_noverify

package agui

// openDump is empty outside a debug build (build tag agui_debug).
func (*Verifier) openDump() string { return "" }
