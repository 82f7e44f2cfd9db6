package gcm

//go:generate sh -c "cd ../_asm && go run ./gcm -out ../gcm/gcm_amd64.s -stubs ../gcm/gcm_amd64_stubs.go -pkg gcm"
