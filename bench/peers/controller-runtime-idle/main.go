// An idle controller-runtime manager, the Go figure beside opgen's in bench/idle/run.mjs:
// the kubeconfig from --kubeconfig, a manager with its default metrics and probes, and no
// cluster contacted (no controller is registered, so no informer starts). It prints its
// heap and RSS after a garbage collection as one JSON line and exits.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	flag.Parse() // --kubeconfig, registered by controller-runtime
	config, err := ctrl.GetConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := ctrl.NewManager(config, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.GC()
	debug.FreeOSMemory()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	out, _ := json.Marshal(map[string]uint64{"heapUsed": stats.HeapAlloc, "rss": rssBytes()})
	fmt.Println(string(out))
}

// rssBytes reads VmRSS from /proc/self/status (Linux).
func rssBytes() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if fields := strings.Fields(line); len(fields) >= 2 && fields[0] == "VmRSS:" {
			kb, _ := strconv.ParseUint(fields[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}
