package chacha20poly1305

//go:generate sh -c "cd ../_asm && go run ./chacha20poly1305 -out ../chacha20poly1305/chacha20poly1305_amd64.s -stubs ../chacha20poly1305/keystream_amd64_stubs.go -pkg chacha20poly1305"
