package loop

import "github.com/agui-go/agui/core"

// reportUsage hands a run's usage to the runner for RUN_FINISHED.
func reportUsage(rc *core.RunContext[core.NoState], u Usage) {}
