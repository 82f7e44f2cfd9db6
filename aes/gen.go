package aes

//go:generate sh -c "cd ../_asm && go run ./aes -out ../aes/aes_amd64.s -stubs ../aes/aes_amd64_stubs.go -pkg aes"
//go:generate sh -c "cd ../_asm && go run ./blockapi -pkg aes -title AES -out ../aes/blockapi.go"
