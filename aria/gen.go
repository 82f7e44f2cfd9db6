package aria

//go:generate sh -c "cd ../_asm && go run ./aria -out ../aria/aria_amd64.s -stubs ../aria/aria_amd64_stubs.go -pkg aria -keymix ../aria/keymix_amd64.go"
//go:generate sh -c "cd ../_asm && go run ./callswitch -stubs ../aria/aria_amd64_stubs.go -out ../aria/kernels_amd64.go -declare -type batch -sets zmm64=64,ymm32=32,xmm16=16,xmm16AESNI=16AESNI,ymm32VAES=32VAES,ymm32AESNI=32AESNI -ops ecb=ariaECB,cbcDec=ariaCBCDecrypt,ctr=ariaCTR"
//go:generate sh -c "cd ../_asm && go run ./callswitch -stubs ../aria/aria_amd64_stubs.go -out ../aria/one_amd64.go -type one -sets oneAESNI=1AESNI,oneVAES=1VAES,oneGFNI=1,oneGFNI512=1AVX512 -ops ecb=ariaECB"
//go:generate sh -c "cd ../_asm && go run ./blockapi -pkg aria -title ARIA -out ../aria/blockapi.go"
