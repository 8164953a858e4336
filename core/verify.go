package core

// Verifier is a stub; the verifier's implementation replaces this file.
type Verifier struct{}

// NewVerifier returns a verifier for one stream.
func NewVerifier() *Verifier { return &Verifier{} }

// Observe checks ev against the stream so far and records it.
func (v *Verifier) Observe(ev Event) error { return nil }
