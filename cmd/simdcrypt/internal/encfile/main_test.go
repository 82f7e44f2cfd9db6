package encfile

import (
	"os"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

func TestMain(m *testing.M) {
	os.Exit(testkit.SummarizeDefault(m.Run(), "aes", "aria", "chacha20"))
}
