package modes

//go:generate sh -c "cd ../../_asm && go run ./ctrat -out ../internal/modes/ctrat_amd64.s -stubs ../internal/modes/ctrat_amd64_stubs.go -pkg modes"
