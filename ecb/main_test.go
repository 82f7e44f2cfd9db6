package ecb_test

import (
	"os"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestMain names the path the tests ran (an external test package: testkit
// imports ecb).
func TestMain(m *testing.M) { os.Exit(testkit.SummarizeDefault(m.Run(), "aes")) }
