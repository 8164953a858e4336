// Package pb holds the Go code generated from agui.proto, the AG-UI 1.1
// protobuf schema. Package agui converts its events to and from these types;
// nothing outside the module may import it.
//
// The generated agui.pb.go is committed, so building and testing never need
// protoc. Regenerating after an edit to agui.proto does: install protoc
// (Debian: apt-get install protobuf-compiler libprotobuf-dev) and the matching plugin
// (go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12, the
// version in go.mod), then run go generate ./internal/pb.
package pb

//go:generate protoc --proto_path=. --go_out=. --go_opt=paths=source_relative agui.proto
