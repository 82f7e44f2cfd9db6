package gcm

//go:generate sh -c "cd ../_asm && go run ./gcm -out ../gcm/gcm_amd64.s -stubs ../gcm/gcm_amd64_stubs.go -pkg gcm"
//go:generate sh -c "cd ../_asm && go run ./callswitch -stubs ../gcm/gcm_amd64_stubs.go -out ../gcm/gcm_kernels_amd64.go -type ghashKind -sets kindAESNI=AESNI,kindVAES256=VAES256,kindVAES512=VAES512 -ops sealBlocks=seal,openBlocks=open"
