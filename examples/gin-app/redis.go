package main

import (
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
)

// useRedis points the loop route's checkpoints at the Redis of url
// (redis://[user:password@]host:port/db, or rediss:// for TLS); an empty
// url leaves them in memory. It returns what closes the client.
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
	store, err := redisstore.New(client, redisstore.KeyPrefix("agui:gin-app:"))
	if err != nil {
		_ = client.Close()
		return nil, err
	}
	cfg.loopOptions = append(cfg.loopOptions, loop.WithCheckpoints(store))
	cfg.logger.Info("loop checkpoints in Redis", "addr", opts.Addr)
	return client.Close, nil
}
