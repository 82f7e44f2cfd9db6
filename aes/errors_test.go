package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestModeErrorsNameTheProblem (D9 of issue 13): see testkit.CheckModeErrors.
func TestModeErrorsNameTheProblem(t *testing.T) { testkit.CheckModeErrors(t, publicAPI) }
