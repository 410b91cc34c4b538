//go:build wasip1

package main

import "unsafe"

// The WebAssembly build is a WASI reactor (-buildmode=c-shared): the host instantiates it once,
// calls _initialize, then for each call writes the request into a buffer from alloc and calls
// call, which answers the answer's address and length packed in one i64. The answer stays
// valid until the next call.

var (
	inputs = map[uintptr][]byte{}
	answer []byte
)

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	buf := make([]byte, size)
	ptr := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	inputs[ptr] = buf
	return uint32(ptr)
}

//go:wasmexport call
func call(ptr, size uint32) uint64 {
	buf := inputs[uintptr(ptr)][:size]
	delete(inputs, uintptr(ptr))
	answer = handle(buf)
	return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(answer))))<<32 | uint64(len(answer))
}

func main() {}
