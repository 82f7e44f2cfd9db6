package chacha20

//go:generate sh -c "cd ../_asm && go run ./chacha20 -out ../chacha20/chacha20_amd64.s -stubs ../chacha20/chacha20_amd64_stubs.go -pkg chacha20"
//go:generate sh -c "cd ../_asm && go run ./callswitch -stubs ../chacha20/chacha20_amd64_stubs.go -out ../chacha20/kernels_amd64.go -type path -sets pathSSSE3=SSSE3,pathAVX2=AVX2,pathAVX512=AVX512,pathAVX512VL=AVX512VL -ops xorBlocks -default xorBlocksGeneric"
