package redislog_test

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/resume/redislog"
)

func ExampleNew() {
	// Every replica of the service shares the Redis and the prefix; the
	// client connects on first use. resume.New(h, lg, …) then serves the
	// route's runs from it (see package resume).
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	lg, err := redislog.New(rdb, redislog.WithPrefix("agui:chat:"), redislog.WithRetention(10*time.Minute))
	fmt.Println(lg != nil, err)
	// Output: true <nil>
}
