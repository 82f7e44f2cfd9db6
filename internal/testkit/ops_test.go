package testkit

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// TestBlockOpsMatchCatalogue keeps the drivers in the catalogue's one list
// of block operations.
func TestBlockOpsMatchCatalogue(t *testing.T) {
	if len(BlockOps) != len(catalog.BlockOps) {
		t.Fatalf("%d drivers for %d operations", len(BlockOps), len(catalog.BlockOps))
	}
	for i, op := range BlockOps {
		if op.Name != catalog.BlockOps[i] {
			t.Errorf("driver %d is %s, the catalogue's operation %s", i, op.Name, catalog.BlockOps[i])
		}
	}
}
