package sandbox

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Children get SIGTERM when the driver dies (Pdeathsig), so a crashed test
// or a killed `nish-driver sandbox` leaves no Xvfb behind. Linux sends that
// signal when the *thread* that forked the child exits, not the process,
// and Go ends threads: a goroutine that exits while locked to its thread
// (as the X connection goroutines do) takes the thread with it. So every
// child is forked from one thread that is locked for the life of the
// process and never exits.

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	spawnOnce sync.Once
	spawnCh   chan spawnReq
)

func spawner() {
	runtime.LockOSThread() // never unlocked: the thread lives as long as the process
	for req := range spawnCh {
		req.done <- req.cmd.Start()
	}
}

// spawn starts cmd from the spawner thread.
func spawn(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawnCh = make(chan spawnReq)
		go spawner()
	})
	done := make(chan error, 1)
	spawnCh <- spawnReq{cmd: cmd, done: done}
	return <-done
}

// childAttrs puts a child in its own process group (Close stops the group)
// and has it signalled when the driver process dies.
func childAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
