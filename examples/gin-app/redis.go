package main

import (
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

// useRedis points the loop route's checkpoints and the resumable routes'
// run logs at the Redis of url (redis://[user:password@]host:port/db, or
// rediss:// for TLS), so that replicas sharing it serve each other's
// threads and runs; an empty url leaves them in memory. It returns what
// closes the clients.
func useRedis(cfg *config, url string) (func() error, error) {
	if url == "" {
		return func() error { return nil }, nil
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	// Let each run's deadline and cancellation bound its Redis calls.
	opts.ContextTimeoutEnabled = true
	client := redis.NewClient(opts)
	store, err := redisstore.New(client, redisstore.WithKeyPrefix("agui:gin-app:"))
	if err != nil {
		_ = client.Close()
		return nil, err
	}
	cfg.loopOptions = append(cfg.loopOptions, loop.WithCheckpoints(store))
	// Followers of a run log wait in XREAD BLOCK on connections of their
	// own, so that many open streams cannot take the connections appends
	// need. One key prefix per route.
	readOpts := *opts
	readOpts.PoolSize = 512
	readers := redis.NewClient(&readOpts)
	cfg.runLog = func(route string) (resume.Log, error) {
		return redislog.New(client, redislog.WithPrefix("agui:"+route+":"), redislog.WithReadClient(readers))
	}
	cfg.logger.Info("loop checkpoints and run logs in Redis", "addr", opts.Addr)
	return func() error { return errors.Join(readers.Close(), client.Close()) }, nil
}
