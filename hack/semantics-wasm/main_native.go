//go:build !wasip1

package main

import (
	"bufio"
	"os"
)

// The native helper reads one JSON request a line on stdin and writes one JSON response a line
// on stdout, the way esbuild's per-platform binary serves its JavaScript API.
func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		out.Write(handle(in.Bytes()))
		out.WriteByte('\n')
		out.Flush()
	}
}
