package aria

//go:generate sh -c "cd ../_asm && go run ./aria -out ../aria/aria_amd64.s -stubs ../aria/aria_amd64_stubs.go -pkg aria -keymix ../aria/keymix_amd64.go"
