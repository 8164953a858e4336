module github.com/agui-go/agui/bench

go 1.26

require (
	github.com/ag-ui-protocol/ag-ui/sdks/community/go v0.0.0-20260630145048-7479d97e25f6
	github.com/agui-go/agui v0.0.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/sirupsen/logrus v1.9.3 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/agui-go/agui => ../
