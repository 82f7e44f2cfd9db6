package poly1305

//go:generate sh -c "cd ../../_asm && go run ./poly1305 -out ../internal/poly1305/poly1305_amd64.s -stubs ../internal/poly1305/poly1305_amd64_stubs.go -pkg poly1305"
