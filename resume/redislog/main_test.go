package redislog_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// redisAddr is the address of the redis-server TestMain started.
var redisAddr string

// TestMain starts a redis-server of its own on a free loopback port, with
// no persistence, runs the tests and stops it by its pid. Without the
// binary the package's tests are skipped with a message, unless CI is
// set, where that is a failure.
func TestMain(m *testing.M) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "redislog: redis-server is not installed (apt-get install redis-server)")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "redislog: SKIP: redis-server is not installed (apt-get install redis-server); CI is unset")
		os.Exit(0)
	}
	stop, addr, err := startRedis(bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "redislog:", err)
		os.Exit(1)
	}
	redisAddr = addr
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		stop()
		os.Exit(code)
	}))
}

func startRedis(bin string) (stop func(), addr string, err error) {
	stop, addr, _, err = startRedisCmd(bin)
	return stop, addr, err
}

// startRedisCmd is startRedis, also returning the server's process.
func startRedisCmd(bin string) (stop func(), addr string, cmd *exec.Cmd, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir, err := os.MkdirTemp("", "redislog-")
	if err != nil {
		return nil, "", nil, err
	}
	cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, "", nil, err
	}
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		os.RemoveAll(dir)
	}
	addr = "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ping(addr) {
			return stop, addr, cmd, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, "", nil, fmt.Errorf("redis-server on %s did not answer PING", addr)
		}
		time.Sleep(20 * time.Millisecond) // waiting for another process to listen
	}
}

func ping(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}
