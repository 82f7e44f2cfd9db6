package cpu

//go:generate sh -c "cd ../../_asm && go run ./cpu -out ../internal/cpu/cpuid_amd64.s -stubs ../internal/cpu/cpuid_amd64.go -pkg cpu"
