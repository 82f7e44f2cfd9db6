package chacha20

//go:generate sh -c "cd ../_asm && go run ./chacha20 -out ../chacha20/chacha20_amd64.s -stubs ../chacha20/chacha20_amd64_stubs.go -pkg chacha20"
