package xts

//go:generate sh -c "cd ../_asm && go run ./xts -out ../xts/xts_amd64.s -stubs ../xts/xts_amd64_stubs.go -pkg xts"
